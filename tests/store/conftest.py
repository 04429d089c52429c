"""Fixtures: a fresh database per test on SQLite and on PostgreSQL, its schema built by running
the migrations."""

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


BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Every test on a database runs on each backend, but those marked sqlite_only (they check
    what only SQLite has: its pragmas, its driver, its files)."""
    if "db_url" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only") is not None
        metafunc.parametrize("backend", BACKENDS[:1] if only else BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database this test runs on."""
    name: str = request.param
    return name


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest) -> str:
    """The URL of this test's database: a copy of the migrated SQLite file, or a new
    PostgreSQL database made from the migrated template."""
    if backend == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return sqlite_url(request.getfixturevalue("db_path"))


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    """A store on this test's database."""
    opened = Store.open(db_url)
    try:
        yield opened
    finally:
        await opened.close()
