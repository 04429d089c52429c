"""The schema comes from the Alembic migrations, and they agree with the models."""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Column, Connection, Integer, MetaData, inspect

from gaple_bot.store import COMPUTER_PLAYER_IDS, alembic_config, upgrade_to_head
from gaple_bot.store.database import migration_engine
from gaple_bot.store.models import Base

from .conftest import sqlite_url

REPO = Path(__file__).resolve().parents[2]


async def _run_sync(url: str, fn: Any) -> Any:
    """Run `fn` on a connection as the migrations get one (see migration_engine)."""
    engine = migration_engine(url)
    try:
        async with engine.begin() as connection:
            return await connection.run_sync(fn)
    finally:
        await engine.dispose()


def _diff(metadata: MetaData) -> Any:
    def compare(connection: Connection) -> Any:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "compare_server_default": True}
        )
        return compare_metadata(context, metadata)

    return compare


async def test_upgrade_from_an_empty_file_inside_a_running_loop(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "new.sqlite3")
    await upgrade_to_head(url)
    await upgrade_to_head(url)  # already at head: nothing to do

    def facts(connection: Connection) -> tuple[set[str], str | None, list[Any]]:
        tables = set(inspect(connection).get_table_names())
        version = MigrationContext.configure(connection).get_current_revision()
        computers = connection.exec_driver_sql(
            "SELECT id FROM users WHERE is_computer ORDER BY id DESC"
        ).all()
        return tables, version, list(computers)

    tables, version, computers = await _run_sync(url, facts)
    assert set(Base.metadata.tables) | {"alembic_version"} == tables
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    assert version == head
    assert [row[0] for row in computers] == sorted(COMPUTER_PLAYER_IDS.values(), reverse=True)


async def test_models_and_migrations_agree(db_url: str) -> None:
    """What `alembic check` does: autogenerate finds nothing to change."""
    assert await _run_sync(db_url, _diff(Base.metadata)) == []


async def test_the_agreement_check_notices_a_difference(db_url: str) -> None:
    drifted = MetaData(naming_convention=Base.metadata.naming_convention)
    for table in Base.metadata.tables.values():
        table.to_metadata(drifted)
    drifted.tables["games"].append_column(Column("surprise", Integer(), nullable=True))
    diff = await _run_sync(db_url, _diff(drifted))
    assert [(d[0], d[3].name) for d in diff] == [("add_column", "surprise")]


async def test_sqlite_options_are_in_the_database(db_url: str) -> None:
    """Autogenerate compares index columns, not an index's WHERE clause nor WITHOUT ROWID:
    check those here."""
    wanted = {
        index.name: str(index.dialect_options["sqlite"]["where"])
        for table in Base.metadata.tables.values()
        for index in table.indexes
        if index.dialect_options["sqlite"]["where"] is not None
    }
    assert wanted

    def stored(connection: Connection) -> dict[str, str]:
        rows = connection.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '%WHERE%'"
        ).all()
        return {name: sql.split(" WHERE ", 1)[1] for name, sql in rows}

    assert await _run_sync(db_url, stored) == wanted

    def without_rowid(connection: Connection) -> set[str]:
        rows = connection.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%WITHOUT ROWID%'"
        ).all()
        return {row[0] for row in rows}

    assert await _run_sync(db_url, without_rowid) == {
        table.name
        for table in Base.metadata.tables.values()
        if not table.dialect_options["sqlite"]["with_rowid"]
    }


async def test_downgrade_to_base_and_back(db_url: str) -> None:
    config = alembic_config(db_url)

    def down_and_up(connection: Connection) -> set[str]:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
        left = set(inspect(connection).get_table_names())
        command.upgrade(config, "head")
        return left

    assert await _run_sync(db_url, down_and_up) == {"alembic_version"}
    assert await _run_sync(db_url, _diff(Base.metadata)) == []


async def test_upgrade_does_not_depend_on_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    url = sqlite_url(tmp_path / "elsewhere.sqlite3")
    await upgrade_to_head(url)
    assert await _run_sync(url, _diff(Base.metadata)) == []


def test_alembic_command_line_from_the_repository_root(tmp_path: Path) -> None:
    ini = configparser.ConfigParser()
    ini.read(REPO / "alembic.ini")
    assert ini["alembic"]["script_location"] == "migrations"
    env = dict(os.environ, DATABASE_URL=sqlite_url(tmp_path / "cli.sqlite3"))
    for args in (["upgrade", "head"], ["check"]):
        done = subprocess.run(
            [sys.executable, "-m", "alembic", *args],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr


async def test_0003_gives_lobbies_open_during_the_upgrade_a_join_token(db_url: str) -> None:
    config = alembic_config(db_url)
    now = "2026-12-01 06:00:00.000000"

    def upgrade_with_games(connection: Connection) -> list[Any]:
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
        connection.exec_driver_sql(
            "INSERT INTO users (id, display_name, can_message, is_computer, created_at, "
            f"updated_at) VALUES (7, 'Ana', 1, 0, '{now}', '{now}')"
        )
        connection.exec_driver_sql(
            f"INSERT INTO chats (id, title, created_at, updated_at) VALUES (-5, 'G', '{now}', "
            f"'{now}')"
        )
        for game_id, status in ((1, "finished"), (2, "lobby")):
            connection.exec_driver_sql(
                "INSERT INTO games (id, chat_id, config, status, opener_id, created_at) "
                f"VALUES ({game_id}, -5, '{{}}', '{status}', 7, '{now}')"
            )
        command.upgrade(config, "head")
        rows = connection.exec_driver_sql("SELECT id, join_token FROM games ORDER BY id").all()
        return list(rows)

    (finished, finished_token), (lobby, lobby_token) = await _run_sync(db_url, upgrade_with_games)
    assert (finished, finished_token) == (1, None)
    assert lobby == 2
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", lobby_token)
