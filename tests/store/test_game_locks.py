"""Game locks across processes: two stores on one PostgreSQL database stand for two workers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from gaple_bot.store import Store

pytestmark = pytest.mark.asyncio

DEADLINE = 30.0
"""Seconds a lock handed over may take to reach its waiter (generous: CI may be slow)."""
WATCH = 0.3
"""Seconds a waiter is watched to be still waiting (it must never get through meanwhile)."""


@pytest.fixture
async def two_workers(postgres_url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one migrated PostgreSQL database, each with its own lock connection."""
    first, second = Store.open(postgres_url), Store.open(postgres_url)
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def _still_waiting(task: asyncio.Task[None]) -> bool:
    done, _ = await asyncio.wait({task}, timeout=WATCH)
    return not done


async def test_a_worker_waits_while_another_holds_the_game(two_workers: tuple[Store, Store]):
    first, second = two_workers
    assert first.game_locks.shared and second.game_locks.shared
    waiting = await _waiting_behind(first, second, 7)
    # Another game is not held up by it.
    await asyncio.wait_for(second.game_locks.acquire(8), DEADLINE)
    await first.game_locks.release(7)
    await asyncio.wait_for(waiting, DEADLINE)
    third = asyncio.create_task(first.game_locks.acquire(7))
    assert await _still_waiting(third)
    await second.game_locks.release(7)
    await asyncio.wait_for(third, DEADLINE)


async def _waiting_behind(holder: Store, waiter: Store, game_id: int) -> asyncio.Task[None]:
    """The holder takes the game; the waiter's try is shown to wait for it."""
    await holder.game_locks.acquire(game_id)
    waiting = asyncio.create_task(waiter.game_locks.acquire(game_id))
    assert await _still_waiting(waiting)
    return waiting


async def test_a_worker_that_goes_away_leaves_no_game_locked(two_workers: tuple[Store, Store]):
    first, second = two_workers
    waiting = await _waiting_behind(first, second, 3)
    await first.close()  # its connection closes, as a killed process's does
    await asyncio.wait_for(waiting, DEADLINE)


async def test_a_cancelled_wait_does_not_keep_the_lock(two_workers: tuple[Store, Store]):
    first, second = two_workers
    waiting = await _waiting_behind(first, second, 5)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await first.game_locks.release(5)
    # Had the cancelled wait taken the lock on its way out, the first worker could not again.
    await asyncio.wait_for(first.game_locks.acquire(5), DEADLINE)


async def test_the_revision_follows_every_change_of_a_game(postgres_url: str):
    """Triggers bump the revision on any change a cached copy shows: the game's row, its
    seats, its chat's settings, a seated person's name or language."""
    store = Store.open(postgres_url)
    locks = store.game_locks
    try:
        async with store.transaction() as tx:
            await tx.users.upsert(1, "Ana", telegram_language="id")
            await tx.chats.ensure(-100, "Group")
            game = await tx.games.create(-100, None, "gaple", {}, 1)
            await tx.seats.add(game.id, 0, user_id=1)
        seen = [await locks.revision(game.id)]

        async def changed() -> bool:
            seen.append(await locks.revision(game.id))
            return seen[-1] != seen[-2]

        async with store.transaction() as tx:
            await tx.seats.set_autoplay(game.id, 0, True)
        assert await changed()
        async with store.transaction() as tx:
            await tx.games.set_message(game.id, 42)
        assert await changed()
        async with store.transaction() as tx:
            await tx.chats.set_option(-100, "gaple", "level", "hard")
        assert await changed()
        async with store.transaction() as tx:
            await tx.chats.set_language(-100, "en")
        assert await changed()
        async with store.transaction() as tx:
            await tx.users.set_language(1, "en")
        assert await changed()
        async with store.transaction() as tx:
            await tx.users.upsert(1, "Ana", telegram_language="id")  # nothing new
        assert not await changed()
        async with store.transaction() as tx:
            await tx.users.upsert(1, "Ana B.", telegram_language="id")
        assert await changed()
        assert await locks.revision(game.id + 1000) is None
    finally:
        await store.close()
