"""Fixtures: a fresh SQLite file per test, its schema built by running the migrations."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gaple_bot.store import Store, upgrade_to_head


def sqlite_url(path: Path) -> str:
    """The aiosqlite URL of a database file."""
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file upgraded to head once per session; tests get copies of it."""
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    asyncio.run(upgrade_to_head(sqlite_url(path)))
    return path


@pytest.fixture
def db_path(migrated_template: Path, tmp_path: Path) -> Path:
    """This test's own database file, at the newest schema."""
    path = tmp_path / "gaple.sqlite3"
    shutil.copyfile(migrated_template, path)
    return path


@pytest.fixture
def db_url(db_path: Path) -> str:
    """The URL of this test's database."""
    return sqlite_url(db_path)


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    """A store on this test's database."""
    opened = Store.open(db_url)
    try:
        yield opened
    finally:
        await opened.close()
