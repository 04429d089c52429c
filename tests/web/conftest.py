"""Fixtures of the page's tests: a migrated SQLite copy per test, a clock the test moves, and
the page front end served on 127.0.0.1."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from gaple_bot.store import upgrade_to_head
from tests.clock import TestClock

from .kit import PageServer, page_server


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="session")
def page_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file upgraded to head once per session; tests get copies of it."""
    path = tmp_path_factory.mktemp("page-template") / "template.sqlite3"
    asyncio.run(upgrade_to_head(sqlite_url(path)))
    return path


@pytest.fixture
def clock() -> TestClock:
    return TestClock(frozen=True)


@pytest.fixture
def round_break() -> timedelta:
    """The break between rounds: none, unless a test module wants the page to show it."""
    return timedelta(0)


@pytest.fixture
async def server(
    page_template: Path, tmp_path: Path, clock: TestClock, round_break: timedelta
) -> AsyncIterator[PageServer]:
    path = tmp_path / "gaple.sqlite3"
    shutil.copyfile(page_template, path)
    async with page_server(sqlite_url(path), clock, round_break=round_break) as running:
        yield running
