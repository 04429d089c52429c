"""A process alone on PostgreSQL works as on SQLite; workers share; neither breaks in on another."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from gaple_bot.store import Store
from gaple_bot.store import tenancy as tenancy_module
from gaple_bot.store.tenancy import TENANCY_SPACE, Tenancy
from tests.postgres import advisory_lock_holder, end_session

pytestmark = pytest.mark.asyncio

DEADLINE = 30.0
"""Seconds a store may take to start once the database is free (generous: CI may be slow)."""
WATCH = 0.5
"""Seconds a waiting store is watched to be still waiting (it must never start meanwhile)."""


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Waiting stores try again often, so the tests do not wait a second per try."""
    monkeypatch.setattr(tenancy_module, "WAIT_SECONDS", 0.05)
    monkeypatch.setattr(tenancy_module, "RETAKE_WAIT", 0.05)


@asynccontextmanager
async def started(url: str, *, alone_if_possible: bool) -> AsyncIterator[Store]:
    store = await asyncio.wait_for(Store.start(url, alone_if_possible=alone_if_possible), DEADLINE)
    try:
        yield store
    finally:
        await store.close()


async def _still_waiting(task: asyncio.Task[Store]) -> bool:
    done, _ = await asyncio.wait({task}, timeout=WATCH)
    return not done


async def _holder(url: str) -> int | None:
    return await advisory_lock_holder(url, TENANCY_SPACE, 0)


async def _released(url: str) -> None:
    """Wait until no session holds the tenancy lock (an ended one lets go soon after)."""
    async with asyncio.timeout(DEADLINE):
        # Polled: the server tells no other session when a lock goes.
        while await _holder(url) is not None:  # noqa: ASYNC110
            await asyncio.sleep(0.05)


async def test_a_process_alone_on_postgresql_takes_no_game_locks_nor_shared_queues(
    postgres_url: str,
) -> None:
    async with started(postgres_url, alone_if_possible=True) as store:
        assert store.tenancy.alone
        assert not store.game_locks.shared
        assert store.private_paces is None
        assert not store.changes.shared
        assert await _holder(postgres_url) is not None
    assert await _holder(postgres_url) is None


async def test_sqlite_is_always_worked_on_alone(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'gaple.sqlite3'}"
    async with started(url, alone_if_possible=False) as store:
        assert store.tenancy.alone
        assert not store.game_locks.shared
        assert await store.tenancy.check()


async def test_workers_share_the_database(postgres_url: str) -> None:
    async with (
        started(postgres_url, alone_if_possible=False) as first,
        started(postgres_url, alone_if_possible=False) as second,
    ):
        assert not first.tenancy.alone and not second.tenancy.alone
        assert first.game_locks.shared and second.game_locks.shared


async def test_a_process_started_beside_workers_joins_them(postgres_url: str) -> None:
    async with (
        started(postgres_url, alone_if_possible=False) as worker,
        started(postgres_url, alone_if_possible=True) as lone,
    ):
        assert not lone.tenancy.alone
        assert lone.game_locks.shared and worker.game_locks.shared


@pytest.mark.parametrize("alone_if_possible", [True, False], ids=["restart", "worker"])
async def test_a_process_waits_while_another_works_alone(
    postgres_url: str, alone_if_possible: bool
) -> None:
    first = await Store.start(postgres_url, alone_if_possible=True)
    waiting = asyncio.create_task(Store.start(postgres_url, alone_if_possible=alone_if_possible))
    try:
        assert await _still_waiting(waiting)
        await first.close()
        second = await asyncio.wait_for(waiting, DEADLINE)
    finally:
        await first.close()
        if not waiting.done():
            waiting.cancel()
    try:
        assert second.tenancy.alone is alone_if_possible
        assert second.game_locks.shared is not alone_if_possible
    finally:
        await second.close()


async def test_a_waiting_start_that_is_given_up_leaves_nothing_held(postgres_url: str) -> None:
    async with started(postgres_url, alone_if_possible=True):
        waiting = asyncio.create_task(Store.start(postgres_url, alone_if_possible=False))
        assert await _still_waiting(waiting)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    # The first store's lock went at its close, and the waiter holds none.
    assert await _holder(postgres_url) is None


async def test_a_lost_hold_is_taken_again_on_a_new_connection(postgres_url: str) -> None:
    async with started(postgres_url, alone_if_possible=True) as store:
        pid = await _holder(postgres_url)
        assert pid is not None
        await end_session(postgres_url, pid)
        assert await asyncio.wait_for(store.tenancy.check(), DEADLINE)
        again = await _holder(postgres_url)
        assert again is not None and again != pid
        assert store.tenancy.alone


async def test_a_process_alone_whose_hold_workers_took_must_stop(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tenancy_module, "RETAKE_TRIES", 3)
    async with started(postgres_url, alone_if_possible=True) as lone:
        pid = await _holder(postgres_url)
        assert pid is not None
        await end_session(postgres_url, pid)
        # A worker starts in the gap: the database is no longer the lone process's.
        async with started(postgres_url, alone_if_possible=False) as worker:
            assert worker.game_locks.shared
            assert not await asyncio.wait_for(lone.tenancy.check(), DEADLINE)


async def test_the_watch_calls_for_a_stop_when_the_hold_is_lost_for_good(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tenancy_module, "RETAKE_TRIES", 3)
    monkeypatch.setattr(tenancy_module, "WATCH_SECONDS", 0.05)
    # The worker tries to take its hold again only once a lone process is in.
    lone_in = asyncio.Event()
    retake = Tenancy._retake

    async def retake_after_the_lone_process(self: Tenancy) -> bool:
        await lone_in.wait()
        return await retake(self)

    monkeypatch.setattr(Tenancy, "_retake", retake_after_the_lone_process)
    async with started(postgres_url, alone_if_possible=False) as worker:
        lost = asyncio.Event()
        worker.tenancy.watch(lost.set)
        pid = await _holder(postgres_url)
        assert pid is not None
        await end_session(postgres_url, pid)
        await _released(postgres_url)
        async with started(postgres_url, alone_if_possible=True) as lone:
            assert lone.tenancy.alone
            lone_in.set()
            await asyncio.wait_for(lost.wait(), DEADLINE)
