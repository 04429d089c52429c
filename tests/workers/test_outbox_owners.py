"""Stored group sends belong to the worker that queued them: a worker starting beside live
ones takes only the sends of workers that are gone, so no group sees a message twice."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from gaple_bot.service.outbox import DEAD_AFTER_SECONDS, GroupLedger
from gaple_bot.store import Store
from gaple_bot.store.game_locks import WORKER_SPACE
from tests.postgres import advisory_lock_holder, end_session

pytestmark = pytest.mark.asyncio

GROUP = -1002


def _texts(sends: list[object]) -> list[str]:
    return [send.params["text"] for send in sends]  # type: ignore[attr-defined]


async def test_each_worker_sees_the_others_alive(two_workers: tuple[Store, Store]) -> None:
    first, second = two_workers
    # A worker shows as live once its lock connection is open (Store.start opens it).
    await second.game_locks.live_workers()
    ids = {first.game_locks.worker_id, second.game_locks.worker_id}
    assert len(ids) == 2 and 0 not in ids
    assert await first.game_locks.live_workers() >= ids
    await second.game_locks.close()
    assert second.game_locks.worker_id not in await first.game_locks.live_workers()


class _Clock:
    """Seconds as the test sets them."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_a_live_workers_sends_are_not_taken_and_a_gone_workers_are_taken_once(
    two_workers: tuple[Store, Store],
) -> None:
    first, second = two_workers
    await first.game_locks.live_workers()  # the first worker is up (its lock is taken)
    await GroupLedger(first).queue([(GROUP, None, {"text": f"result {n}"}) for n in range(3)])
    clock = _Clock()
    ledger = GroupLedger(second, clock=clock)
    await ledger.queue([(GROUP, None, {"text": "second's own"})])
    assert await ledger.adopt() == []
    await first.close()  # it stops with three sends Telegram has not taken
    # Missing for a moment is not dead yet: a dropped connection comes back.
    assert await ledger.adopt() == []
    clock.now += DEAD_AFTER_SECONDS
    adopted = await ledger.adopt()
    assert _texts(adopted) == ["result 0", "result 1", "result 2"]
    assert await ledger.adopt() == []
    assert len(await ledger.pending()) == 4


async def test_the_sends_of_a_worker_that_died_are_taken_by_a_live_one(
    two_workers: tuple[Store, Store], postgres_url: str
) -> None:
    first, second = two_workers
    await first.game_locks.live_workers()
    await GroupLedger(first).queue([(GROUP, 5, {"text": "pending"})])
    holder = await advisory_lock_holder(postgres_url, WORKER_SPACE, first.game_locks.worker_id)
    assert holder is not None
    await end_session(postgres_url, holder)  # as a killed worker's connection goes
    clock = _Clock()
    ledger = GroupLedger(second, clock=clock)
    assert await ledger.adopt() == []
    clock.now += DEAD_AFTER_SECONDS
    adopted = await asyncio.wait_for(ledger.adopt(), 30)
    assert [(send.chat_id, send.thread_id) for send in adopted] == [(GROUP, 5)]
    assert _texts(adopted) == ["pending"]


async def test_a_worker_whose_connection_drops_comes_back_and_keeps_its_sends(
    two_workers: tuple[Store, Store], postgres_url: str
) -> None:
    """It reconnects (taking its own lock again) before it counts as dead."""
    first, second = two_workers
    await first.game_locks.live_workers()
    await GroupLedger(first).queue([(GROUP, None, {"text": "mine"})])
    holder = await advisory_lock_holder(postgres_url, WORKER_SPACE, first.game_locks.worker_id)
    assert holder is not None
    await end_session(postgres_url, holder)
    clock = _Clock()
    ledger = GroupLedger(second, clock=clock)
    assert await ledger.adopt() == []
    # Its next statement finds the connection gone and opens another.
    with contextlib.suppress(Exception):
        await first.game_locks.live_workers()
    assert first.game_locks.worker_id in await first.game_locks.live_workers()
    clock.now += DEAD_AFTER_SECONDS
    assert await ledger.adopt() == []


async def test_of_workers_started_together_one_is_senior(
    two_workers: tuple[Store, Store],
) -> None:
    """The senior resumes the games at start; the other leaves them, and a worker that comes
    after the senior died becomes senior."""
    first, second = two_workers
    assert await first.game_locks.take_seniority()
    assert not await second.game_locks.take_seniority()
    await first.close()
    assert await second.game_locks.take_seniority()
