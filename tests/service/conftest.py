"""Fixtures: the service on a fresh SQLite database built by the migrations, a clock that
stands still, a seeded generator and a dealer the test scripts."""

from __future__ import annotations

import asyncio
import random
import shutil
from collections.abc import AsyncIterator, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from gaple_bot.service.runtime import GameService
from gaple_bot.store import Store, upgrade_to_head
from tests.clock import TestClock

from .kit import ScriptedDeals, Table

SEED = 20240611
"""The service's generator: the deals after the scripted ones."""


def sqlite_url(path: Path) -> str:
    """The aiosqlite URL of a database file."""
    return f"sqlite+aiosqlite:///{path}"


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database file upgraded to head once per session; tests get copies of it."""
    path = tmp_path_factory.mktemp("service-template") / "template.sqlite3"
    asyncio.run(upgrade_to_head(sqlite_url(path)))
    return path


@pytest.fixture
def clock() -> TestClock:
    """Time that moves only when the test says."""
    return TestClock(frozen=True)


@pytest.fixture
def dealer() -> ScriptedDeals:
    """The deals the test gives, in order."""
    return ScriptedDeals()


@pytest.fixture
def round_break() -> timedelta:
    """The break after a round's end: none, the next round is played at once (the break's
    own tests give one)."""
    return timedelta(0)


@pytest.fixture
async def service(
    migrated_template: Path,
    tmp_path: Path,
    clock: TestClock,
    dealer: ScriptedDeals,
    round_break: timedelta,
) -> AsyncIterator[GameService]:
    """The service on this test's own copy of the migrated database."""
    path = tmp_path / "gaple.sqlite3"
    shutil.copyfile(migrated_template, path)
    store = await Store.start(sqlite_url(path))
    running = GameService(
        store, rng=random.Random(SEED), clock=clock, dealer=dealer, round_break=round_break
    )
    try:
        yield running
    finally:
        await running.close()


@pytest.fixture
def table(service: GameService, dealer: ScriptedDeals) -> Callable[[str], Table]:
    """A table of the named kind in the test group."""
    return lambda kind: Table(service, dealer, kind)
