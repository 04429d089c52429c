"""Received updates: an update id is taken in once; ids older than the cut-off are forgotten."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from gaple_bot.service.runtime import GameService
from gaple_bot.store import Store

pytestmark = pytest.mark.asyncio

NOON = datetime(2026, 12, 2, 12, tzinfo=UTC)


async def test_an_update_is_first_delivered_once(store: Store):
    async with store.transaction() as tx:
        assert await tx.updates.first_delivery(10, now=NOON)
        assert not await tx.updates.first_delivery(10, now=NOON)
        assert await tx.updates.first_delivery(11, now=NOON)
    async with store.transaction() as tx:
        assert not await tx.updates.first_delivery(11, now=NOON + timedelta(seconds=5))


async def test_old_update_ids_are_forgotten(store: Store):
    async with store.transaction() as tx:
        await tx.updates.first_delivery(1, now=NOON - timedelta(days=2))
        await tx.updates.first_delivery(2, now=NOON)
        assert await tx.updates.forget_before(NOON - timedelta(days=1)) == 1
    async with store.transaction() as tx:
        assert await tx.updates.first_delivery(1, now=NOON)  # forgotten: new again
        assert not await tx.updates.first_delivery(2, now=NOON)


DEAD, LIVE, OTHER = 7, 8, 9
SINCE = NOON - timedelta(days=1)


async def _take_in(store: Store, update_id: int, taker: int, at: datetime = NOON) -> None:
    async with store.transaction() as tx:
        assert await tx.updates.first_delivery(
            update_id, now=at, update_json=f'{{"update_id": {update_id}}}', taken_by=taker
        )


async def test_an_update_of_a_dead_taker_is_claimed_once(store: Store):
    await _take_in(store, 21, DEAD)
    await _take_in(store, 20, DEAD)
    await _take_in(store, 22, LIVE)
    async with store.transaction() as tx:
        assert await tx.updates.takers(SINCE) == {DEAD, LIVE}
        claimed = await tx.updates.claim(LIVE, since=SINCE, of={DEAD})
    assert claimed == [(20, '{"update_id": 20}'), (21, '{"update_id": 21}')]
    async with store.transaction() as tx:
        # Never twice: the first claimer holds them now.
        assert await tx.updates.claim(OTHER, since=SINCE, of={DEAD}) == []
        assert await tx.updates.takers(SINCE) == {LIVE}


async def test_a_handled_update_is_never_claimed(store: Store):
    await _take_in(store, 30, DEAD)
    await _take_in(store, 31, DEAD)
    async with store.transaction() as tx:
        assert await tx.updates.handled([30, 31], now=NOON) == 2
        assert await tx.updates.takers(SINCE) == set()
        assert await tx.updates.claim(LIVE, since=SINCE, of={DEAD}) == []
        assert await tx.updates.claim(LIVE, since=SINCE, of=None) == []
        # Handled, it is still a second delivery if Telegram posts it again.
        assert not await tx.updates.first_delivery(30, now=NOON)


async def test_an_update_older_than_the_retry_window_is_never_claimed(store: Store):
    await _take_in(store, 40, DEAD, at=SINCE - timedelta(seconds=1))
    async with store.transaction() as tx:
        assert await tx.updates.takers(SINCE) == set()
        assert await tx.updates.claim(LIVE, since=SINCE, of={DEAD}) == []


async def test_an_update_kept_without_its_json_is_never_claimed(store: Store):
    """Taken in before the updates were kept (or by a caller that kept none)."""
    async with store.transaction() as tx:
        await tx.updates.first_delivery(50, now=NOON, taken_by=DEAD)
        assert await tx.updates.claim(LIVE, since=SINCE, of={DEAD}) == []


async def test_claims_at_once_take_each_update_once(db_url: str):
    stores = [Store.open(db_url) for _ in range(3)]
    try:
        for update_id in range(60, 80):
            await _take_in(stores[0], update_id, DEAD)

        async def claim(store: Store, worker_id: int) -> list[int]:
            async with store.transaction() as tx:
                rows = await tx.updates.claim(worker_id, since=SINCE, of={DEAD})
            return [update_id for update_id, _ in rows]

        claims = await asyncio.gather(*(claim(s, 100 + i) for i, s in enumerate(stores)))
        every = [update_id for claimed in claims for update_id in claimed]
        assert sorted(every) == list(range(60, 80))
    finally:
        for store in stores:
            await store.close()


def _service(store: Store) -> GameService:
    return GameService(store, clock=lambda: NOON)


async def test_a_live_worker_takes_only_what_dead_workers_left(
    postgres_url: str,
) -> None:
    """Workers on PostgreSQL: one's updates are taken by another only once it is gone, and by
    one of them only."""
    first, second, third = (Store.open(postgres_url) for _ in range(3))
    try:
        for store in (first, second, third):
            await store.game_locks.live_workers()
        assert await _service(first).first_delivery(1, '{"update_id": 1}')
        assert await _service(first).first_delivery(2, '{"update_id": 2}')
        assert await _service(second).first_delivery(3, '{"update_id": 3}')
        # Their takers live: nobody takes them.
        assert await _service(third).left_updates() == []
        await first.game_locks.close()  # the first worker dies
        taken = await asyncio.gather(
            _service(second).left_updates(), _service(third).left_updates()
        )
        assert sorted(row for rows in taken for row in rows) == [
            (1, '{"update_id": 1}'),
            (2, '{"update_id": 2}'),
        ]
        # Each went to one worker, which lives: nobody takes them again.
        assert await _service(second).left_updates() == []
        assert await _service(third).left_updates() == []
        # Handled by their new taker, which then dies: never taken again.
        holder = second if taken[0] else third
        await _service(holder).updates_handled([1, 2])
        await _service(second).updates_handled([3])
        await holder.game_locks.close()
        survivor = third if holder is second else second
        assert await _service(survivor).left_updates() == []
    finally:
        for store in (first, second, third):
            await store.close()


@pytest.mark.sqlite_only
async def test_a_process_alone_takes_what_its_previous_run_left(db_url: str) -> None:
    before = Store.open(db_url)
    try:
        assert await _service(before).first_delivery(5, '{"update_id": 5}')
        assert await _service(before).first_delivery(6, '{"update_id": 6}')
        await _service(before).updates_handled([5])
    finally:
        await before.close()  # the process stops (or dies) with 6 not handled
    after = Store.open(db_url)
    try:
        assert await _service(after).left_updates() == [(6, '{"update_id": 6}')]
        await _service(after).updates_handled([6])
        assert await _service(after).left_updates() == []
    finally:
        await after.close()
