"""Fixtures every test folder may use: a throwaway PostgreSQL server and its databases."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator

import pytest

from gaple_bot.__main__ import opt_into_timedelta_periods
from gaple_bot.games.registry import default_registry
from gaple_bot.store import Store
from tests.postgres import NoPostgres, PostgresServer, without_postgres


def pytest_configure(config: pytest.Config) -> None:
    """Every test process runs the bot's code as gaple-bot does: python-telegram-bot's time
    periods as timedeltas (no PTBDeprecationWarning when a RetryAfter is built).

    The first process (xdist's controller, or the only one) also compiles the computer
    players' cores into numba's cache before any test starts, as a computer process does at
    the bot's start: otherwise, on a fresh clone, every test process would compile them at
    its first computer move, in the middle of a test's waits."""
    opt_into_timedelta_periods(os.environ)
    if not hasattr(config, "workerinput"):
        for kind in default_registry():
            kind.warm_up_computers()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One server per test process, with the migrated template. Where the machine has no
    PostgreSQL the tests that need it are skipped, except under CI (CI=true), where that fails
    the run: CI installs Debian's postgresql and must test against it."""
    try:
        server = PostgresServer.start()
    except NoPostgres as exc:
        without_postgres(exc)
    try:
        asyncio.run(server.migrate_template())
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(postgres: PostgresServer) -> AsyncIterator[str]:
    """The URL of this test's own PostgreSQL database, at the newest schema."""
    name = await postgres.new_database()
    try:
        yield postgres.url(name)
    finally:
        await postgres.drop_database(name)


@pytest.fixture
async def two_workers(postgres_url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one migrated PostgreSQL database, as two workers' (each with its own
    lock connection)."""
    first, second = Store.open(postgres_url), Store.open(postgres_url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()
