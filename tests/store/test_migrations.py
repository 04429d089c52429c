"""The schema comes from the Alembic migrations, and they agree with the models."""

from __future__ import annotations

import asyncio
import configparser
import json
import os
import re
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Column, Connection, Integer, MetaData, inspect

from gaple_bot.settings import load_settings
from gaple_bot.store import (
    COMPUTER_PLAYER_IDS,
    Board,
    ComputerLevel,
    Store,
    alembic_config,
    upgrade_to_head,
)
from gaple_bot.store.database import migration_engine
from gaple_bot.store.migrate import migrations_dir
from gaple_bot.store.models import Base
from tests.postgres import PostgresServer

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


@pytest.mark.sqlite_only
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


def _alembic_upgrade_head() -> None:
    """What `alembic upgrade head` does, with no URL in its config: env.py finds one."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    command.upgrade(config, "head")


def _revision(path: Path) -> str | None:
    """The SQLite file's Alembic revision; None if there is no such file."""
    if not path.is_file():
        return None
    with closing(sqlite3.connect(path)) as connection:
        rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    return str(rows[0][0]) if rows else None


def test_alembic_reads_the_database_url_from_dot_env_as_the_bot_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Run in the project folder, the `alembic` command migrates the database the bot would
    use: DATABASE_URL from the environment, else from .env (taken as the bot takes it, here
    without its driver), else the default file."""
    head = ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    from_file = tmp_path / "from-dot-env.sqlite3"
    (tmp_path / ".env").write_text(
        f"TELEGRAM_BOT_TOKEN=123:abc\nDATABASE_URL=sqlite:///{from_file}\n", encoding="utf-8"
    )
    assert load_settings({}).database_url == f"sqlite+aiosqlite:///{from_file}"
    _alembic_upgrade_head()
    assert _revision(from_file) == head
    assert not (tmp_path / "gaple.sqlite3").exists()

    from_environment = tmp_path / "from-environment.sqlite3"
    elsewhere = tmp_path / "not-this-one.sqlite3"
    (tmp_path / ".env").write_text(f"DATABASE_URL=sqlite:///{elsewhere}\n", encoding="utf-8")
    monkeypatch.setenv("DATABASE_URL", sqlite_url(from_environment))
    _alembic_upgrade_head()
    assert _revision(from_environment) == head
    assert not elsewhere.exists()


async def test_0003_gives_lobbies_open_during_the_upgrade_a_join_token(db_url: str) -> None:
    config = alembic_config(db_url)
    now = "2026-12-01 06:00:00.000000"

    def upgrade_with_games(connection: Connection) -> list[Any]:
        config.attributes["connection"] = connection
        command.downgrade(config, "0002")
        connection.exec_driver_sql(
            "INSERT INTO users (id, display_name, can_message, is_computer, created_at, "
            f"updated_at) VALUES (7, 'Ana', TRUE, FALSE, '{now}', '{now}')"
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


async def test_0007_turns_chat_settings_results_and_totals_into_gaple_s(db_url: str) -> None:
    """A database filled at 0006 keeps every setting, result, total and rating, as Gaple's."""
    config = alembic_config(db_url)
    now = "2026-12-01 06:00:00.000000"
    chats = (
        (-1, "classic", "discard", 100, 60, "normal"),
        (-2, "classic", "pass", 50, 30, "easy"),  # classic ignores the stuck rule
        (-3, "discards", "discard", 150, 90, "hard"),
        (-4, "discards", "pass", 200, 45, "normal"),
    )

    def fill_and_upgrade(connection: Connection) -> dict[str, list[Any]]:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006")
        sql = connection.exec_driver_sql
        for user_id in (7, 8):
            sql(
                "INSERT INTO users (id, display_name, can_message, is_computer, created_at, "
                f"updated_at) VALUES ({user_id}, 'U{user_id}', TRUE, FALSE, '{now}', '{now}')"
            )
        for chat_id, rule_set, stuck, target, turn, level in chats:
            language = "'id'" if chat_id == -3 else "NULL"
            sql(
                "INSERT INTO chats (id, title, rule_set, stuck_rule, target, turn_seconds, "
                f"computer_level, language, created_at, updated_at) VALUES ({chat_id}, "
                f"'G{chat_id}', '{rule_set}', '{stuck}', {target}, {turn}, '{level}', "
                f"{language}, '{now}', '{now}')"
            )
        sql(
            "INSERT INTO games (id, chat_id, config, status, opener_id, created_at, "
            f"finished_at) VALUES (1, -1, '{{\"seats\": 2}}', 'finished', 7, '{now}', '{now}')"
        )
        sql(
            "INSERT INTO games (id, chat_id, config, status, opener_id, created_at) "
            f"VALUES (2, -1, '{{}}', 'lobby', 8, '{now}')"
        )
        for seat, user_id in enumerate((7, 8)):
            sql(f"INSERT INTO seats (game_id, seat, user_id) VALUES (1, {seat}, {user_id})")
        sql(
            "INSERT INTO rounds (game_id, number, deal, leader, result, started_at) "
            f"VALUES (1, 1, '{{\"leader\": 0}}', 0, '{{\"winner\": 0}}', '{now}')"
        )
        sql(f"INSERT INTO moves VALUES (1, 1, 0, 0, 5, '{now}')")
        for seat, user_id, place, points, won, gaples, best in (
            (0, 7, 1, 101, 3, 2, 40),
            (1, 8, 2, 35, 1, 0, 20),
        ):
            sql(
                "INSERT INTO results (game_id, seat, player_id, chat_id, place, points, "
                f"rounds_won, gaples, best_round, finished_at) VALUES (1, {seat}, {user_id}, "
                f"-1, {place}, {points}, {won}, {gaples}, {best}, '{now}')"
            )
        for scope in (-1, 0):
            for user_id, wins, points, won, gaples, best in (
                (7, 1, 101, 3, 2, 40),
                (8, 0, 35, 1, 0, 20),
            ):
                sql(
                    "INSERT INTO player_totals (scope, player_id, games, wins, points, "
                    f"rounds_won, gaples, best_round, updated_at) VALUES ({scope}, {user_id}, "
                    f"1, {wins}, {points}, {won}, {gaples}, {best}, '{now}')"
                )
                sql(
                    "INSERT INTO ratings (scope, player_id, mu, sigma, ordinal, games, "
                    f"updated_at) VALUES ({scope}, {user_id}, {20 + user_id}, 5.0, "
                    f"{5 + user_id}, 1, '{now}')"
                )
                sql(
                    "INSERT INTO rating_changes (game_id, scope, player_id, mu_before, "
                    "sigma_before, mu_after, sigma_after, delta, at) VALUES "
                    f"(1, {scope}, {user_id}, 25, 8.3, {20 + user_id}, 5.0, 1.5, '{now}')"
                )
        command.upgrade(config, "head")
        queries = {
            "options": "SELECT chat_id, kind, name, value FROM chat_options "
            "ORDER BY chat_id DESC, name",
            "chats": "SELECT id, title, language FROM chats ORDER BY id DESC",
            "games": "SELECT id, kind, config, status FROM games ORDER BY id",
            "results": "SELECT game_id, seat, player_id, kind, chat_id, place, points, "
            "rounds_won, extras FROM results ORDER BY game_id, seat",
            "totals": "SELECT kind, scope, player_id, games, wins, points, rounds_won "
            "FROM player_totals ORDER BY scope, player_id",
            "extras": "SELECT kind, scope, player_id, name, aggregate, value "
            "FROM player_extras ORDER BY scope, player_id, name",
            "ratings": "SELECT kind, scope, player_id, mu, ordinal, games FROM ratings "
            "ORDER BY scope, player_id",
            "changes": "SELECT kind, scope, player_id, delta FROM rating_changes "
            "ORDER BY scope, player_id",
            "moves": "SELECT game_id, round_number, ply, code FROM moves",
            "rounds": "SELECT game_id, number, deal, result FROM rounds",
        }
        return {key: list(map(tuple, sql(query).all())) for key, query in queries.items()}

    got = await _run_sync(db_url, fill_and_upgrade)
    assert got["options"] == [
        (chat_id, "gaple", name, value)
        for chat_id, rules, target, turn, level in (
            (-1, "classic", 100, 60, "normal"),
            (-2, "classic", 50, 30, "easy"),
            (-3, "discards", 150, 90, "hard"),
            (-4, "discards-pass", 200, 45, "normal"),
        )
        for name, value in sorted(
            {"rules": rules, "target": str(target), "turn": str(turn), "level": level}.items()
        )
    ]
    assert got["chats"] == [
        (-1, "G-1", None),
        (-2, "G-2", None),
        (-3, "G-3", "id"),
        (-4, "G-4", None),
    ]
    games = [(i, kind, _json(config), status) for i, kind, config, status in got["games"]]
    assert games == [(1, "gaple", {"seats": 2}, "finished"), (2, "gaple", {}, "lobby")]
    assert [row[:8] for row in got["results"]] == [
        (1, 0, 7, "gaple", -1, 1, 101, 3),
        (1, 1, 8, "gaple", -1, 2, 35, 1),
    ]
    assert [_json(row[8]) for row in got["results"]] == [
        {"gaples": 2, "best_round": 40},
        {"gaples": 0, "best_round": 20},
    ]
    assert got["totals"] == [
        ("gaple", scope, player, 1, wins, points, won)
        for scope in (-1, 0)
        for player, wins, points, won in ((7, 1, 101, 3), (8, 0, 35, 1))
    ]
    assert got["extras"] == [
        ("gaple", scope, player, name, aggregate, value)
        for scope in (-1, 0)
        for player, gaples, best in ((7, 2, 40), (8, 0, 20))
        for name, aggregate, value in (("best_round", "max", best), ("gaples", "sum", gaples))
    ]
    assert got["ratings"] == [
        ("gaple", scope, player, 20.0 + player, 5.0 + player, 1)
        for scope in (-1, 0)
        for player in (7, 8)
    ]
    assert got["changes"] == [("gaple", scope, p, 1.5) for scope in (-1, 0) for p in (7, 8)]
    assert got["moves"] == [(1, 1, 0, 5)]  # the children of rebuilt tables are all still there
    rounds = [(*row[:2], _json(row[2]), _json(row[3])) for row in got["rounds"]]
    assert rounds == [(1, 1, {"leader": 0}, {"winner": 0})]


def _json(value: Any) -> Any:
    """A JSON column's value: SQLite's driver gives the text, PostgreSQL's the parsed value."""
    return json.loads(value) if isinstance(value, str) else value


async def test_0007_upgraded_data_reads_through_the_store(db_url: str) -> None:
    """After the upgrade the store reads an old chat's options and a player's old totals."""
    config = alembic_config(db_url)
    now = "2026-12-01 06:00:00.000000"

    def fill_and_upgrade(connection: Connection) -> None:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006")
        sql = connection.exec_driver_sql
        sql(
            "INSERT INTO users (id, display_name, can_message, is_computer, created_at, "
            f"updated_at) VALUES (7, 'Ana', TRUE, FALSE, '{now}', '{now}')"
        )
        sql(
            "INSERT INTO chats (id, title, rule_set, stuck_rule, target, turn_seconds, "
            f"computer_level, created_at, updated_at) VALUES (-9, 'G', 'discards', 'pass', "
            f"55, 25, 'easy', '{now}', '{now}')"
        )
        sql(
            "INSERT INTO player_totals (scope, player_id, games, wins, points, rounds_won, "
            f"gaples, best_round, updated_at) VALUES (-9, 7, 3, 2, 180, 6, 1, 45, '{now}')"
        )
        command.upgrade(config, "head")

    await _run_sync(db_url, fill_and_upgrade)
    store = Store.open(db_url)
    try:
        async with store.read() as tx:
            settings = await tx.chats.get(-9)
            stats = await tx.boards.player_stats("gaple", -9, 7)
            top = await tx.boards.top("gaple", -9, Board.POINTS)
            assert await tx.chats.last_kind(-9) is None
    finally:
        await store.close()
    assert settings is not None and settings.options == {
        "gaple": {"rules": "discards-pass", "target": "55", "turn": "25", "level": "easy"}
    }
    assert stats is not None
    assert (stats.games, stats.wins, stats.points, stats.rounds_won) == (3, 2, 180, 6)
    assert stats.extras == {"gaples": 1, "best_round": 45}
    assert [(e.player_id, e.value, e.games) for e in top] == [(7, 180, 3)]


async def test_0007_downgrade_drops_another_kinds_games_with_their_rows(db_url: str) -> None:
    """Back at 0006 only Gaple is left: another kind's game goes with its seats, rounds and
    moves (SQLite migrates without cascades), and Gaple's game stays whole."""
    await upgrade_to_head(db_url)
    store = Store.open(db_url)
    try:
        async with store.transaction() as tx:
            await tx.chats.ensure(-5, "G")
            await tx.users.upsert(7, "Ana")
            for kind, config, thread in (
                ("gaple", {"rule_set": "classic", "seats": 2, "target": 50}, None),
                ("other", {"seats": 2}, 9),
            ):
                game = await tx.games.create(-5, thread, kind, config, 7)
                await tx.seats.add(game.id, 0, user_id=7)
                await tx.seats.add(game.id, 1, computer_level=ComputerLevel.EASY)
                await tx.games.start(game.id)
                await tx.rounds.add(game.id, 1, {"leader": 0}, 0)
                await tx.moves.append(game.id, 1, 0, 0, 5)
    finally:
        await store.close()
    config = alembic_config(db_url)

    def downgrade(connection: Connection) -> dict[str, list[Any]]:
        config.attributes["connection"] = connection
        command.downgrade(config, "0006")
        sql = connection.exec_driver_sql
        return {
            table: sql(f"SELECT game_id FROM {table} ORDER BY game_id").scalars().all()
            for table in ("seats", "rounds", "moves")
        } | {"games": sql("SELECT id FROM games").scalars().all()}

    left = await _run_sync(db_url, downgrade)
    assert left == {"games": [1], "seats": [1, 1], "rounds": [1], "moves": [1]}


async def test_workers_starting_together_on_postgresql_migrate_once(
    postgres: PostgresServer,
) -> None:
    """Three worker processes upgrading one empty database at once: one migrates under the
    advisory lock, the others wait and find the schema at head; nothing is built twice."""
    name = await postgres.new_database(migrated=False)
    url = postgres.url(name)
    upgrade = "import asyncio, sys; from gaple_bot.store import upgrade_to_head; "
    upgrade += "asyncio.run(upgrade_to_head(sys.argv[1]))"
    try:
        workers = [
            await asyncio.create_subprocess_exec(
                sys.executable, "-c", upgrade, url, stderr=asyncio.subprocess.PIPE
            )
            for _ in range(3)
        ]
        for worker in workers:
            _, errors = await asyncio.wait_for(worker.communicate(), timeout=240)
            assert worker.returncode == 0, errors.decode()
        assert await _run_sync(url, _diff(Base.metadata)) == []

        def computers(connection: Connection) -> list[Any]:
            return list(connection.exec_driver_sql("SELECT id FROM users WHERE is_computer").all())

        assert sorted(row[0] for row in await _run_sync(url, computers)) == sorted(
            COMPUTER_PLAYER_IDS.values()
        )
    finally:
        await postgres.drop_database(name)
