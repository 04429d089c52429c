"""A process alone on PostgreSQL works as on SQLite; workers share; neither breaks in on another."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from sqlalchemy import TextClause
from sqlalchemy.ext.asyncio import AsyncConnection

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


async def _says_it_waits(caplog: pytest.LogCaptureFixture, task: asyncio.Task[Store]) -> None:
    """The starting store says it waits (past its migration, however slow), and still does
    a while later."""
    caplog.set_level(logging.WARNING, logger="gaple_bot.store.tenancy")
    async with asyncio.timeout(DEADLINE):
        # Polled: the log tells nobody when a line is written.
        while "waiting for it to stop" not in caplog.text:
            assert not task.done(), "the store started beside a process working alone"
            await asyncio.sleep(0.05)
    done, _ = await asyncio.wait({task}, timeout=WATCH)
    assert not done, "the store started beside a process working alone"


async def _holder(url: str) -> int | None:
    return await advisory_lock_holder(url, TENANCY_SPACE, 0)


async def _end_hold(url: str) -> int:
    """End the session holding the tenancy lock from outside (a broken connection); its
    server process id."""
    pid = await _holder(url)
    assert pid is not None
    await end_session(url, pid)
    return pid


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
    postgres_url: str, alone_if_possible: bool, caplog: pytest.LogCaptureFixture
) -> None:
    first = await Store.start(postgres_url, alone_if_possible=True)
    waiting = asyncio.create_task(Store.start(postgres_url, alone_if_possible=alone_if_possible))
    try:
        await _says_it_waits(caplog, waiting)
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


async def test_a_waiting_start_that_is_given_up_leaves_nothing_held(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with started(postgres_url, alone_if_possible=True):
        waiting = asyncio.create_task(Store.start(postgres_url, alone_if_possible=False))
        await _says_it_waits(caplog, waiting)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    # The first store's lock went at its close, and the waiter holds none.
    assert await _holder(postgres_url) is None


async def test_a_lost_hold_is_taken_again_on_a_new_connection(postgres_url: str) -> None:
    async with started(postgres_url, alone_if_possible=True) as store:
        pid = await _end_hold(postgres_url)
        await _released(postgres_url)
        assert await asyncio.wait_for(store.tenancy.check(), DEADLINE)
        again = await _holder(postgres_url)
        assert again is not None and again != pid
        assert store.tenancy.alone


async def test_a_process_alone_whose_hold_workers_took_must_stop(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tenancy_module, "RETAKE_TRIES", 3)
    async with started(postgres_url, alone_if_possible=True) as lone:
        await _end_hold(postgres_url)
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
        await _end_hold(postgres_url)
        await _released(postgres_url)
        async with started(postgres_url, alone_if_possible=True) as lone:
            assert lone.tenancy.alone
            lone_in.set()
            await asyncio.wait_for(lost.wait(), DEADLINE)


async def test_a_database_out_of_reach_for_a_while_is_waited_for(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database restart is no reason to stop: tries that cannot reach it do not count."""
    monkeypatch.setattr(tenancy_module, "RETAKE_TRIES", 2)
    async with started(postgres_url, alone_if_possible=True) as store:
        connect = Tenancy._connect
        failures = 0

        async def out_of_reach_five_times(self: Tenancy) -> AsyncConnection:
            nonlocal failures
            if failures < 5:
                failures += 1
                raise OSError("connection refused")
            return await connect(self)

        monkeypatch.setattr(Tenancy, "_connect", out_of_reach_five_times)
        pid = await _end_hold(postgres_url)
        await _released(postgres_url)
        assert await asyncio.wait_for(store.tenancy.check(), DEADLINE)
        assert failures == 5
        assert store.tenancy.alone
        assert await _holder(postgres_url) not in (None, pid)


async def test_a_restart_that_finds_the_lock_free_only_at_its_second_try_still_works_alone(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The process working alone may stop between a restart's try for the lock alone and its
    try for it shared: holding it shared and finding nobody else there, the restart takes it
    alone, so workers started after it still wait."""
    real_try = tenancy_module._try
    refused_once: list[bool] = []

    async def first_alone_try_refused(connection: AsyncConnection, statement: TextClause) -> bool:
        if statement is tenancy_module._TRY_ALONE and not refused_once:
            refused_once.append(True)
            return False
        return await real_try(connection, statement)

    monkeypatch.setattr(tenancy_module, "_try", first_alone_try_refused)
    async with started(postgres_url, alone_if_possible=True) as store:
        assert refused_once == [True]
        assert store.tenancy.alone is True
        worker = asyncio.create_task(Store.start(postgres_url, alone_if_possible=False))
        try:
            await _says_it_waits(caplog, worker)
        finally:
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker
