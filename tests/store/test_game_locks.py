"""Game locks across processes: two stores on one PostgreSQL database stand for two workers."""

from __future__ import annotations

import asyncio

import pytest

from gaple_bot.store import Hold, LockLost, Store
from gaple_bot.store.game_locks import GAME_LOCK_SPACE, AdvisoryLocks
from gaple_bot.store.types import utc_now
from tests.postgres import advisory_lock_holder, end_session

pytestmark = pytest.mark.asyncio

DEADLINE = 30.0
"""Seconds a lock handed over may take to reach its waiter (generous: CI may be slow)."""
WATCH = 0.3
"""Seconds a waiter is watched to be still waiting (it must never get through meanwhile)."""


async def _still_waiting(task: asyncio.Task[None]) -> bool:
    done, _ = await asyncio.wait({task}, timeout=WATCH)
    return not done


async def test_a_worker_waits_while_another_holds_the_game(two_workers: tuple[Store, Store]):
    first, second = two_workers
    assert first.game_locks.shared and second.game_locks.shared
    held, waiting = await _waiting_behind(first, second, 7)
    # Another game is not held up by it.
    await asyncio.wait_for(second.game_locks.acquire(8), DEADLINE)
    await first.game_locks.release(7, held)
    second_held = await asyncio.wait_for(waiting, DEADLINE)
    third = asyncio.create_task(first.game_locks.acquire(7))
    assert await _still_waiting(third)
    await second.game_locks.release(7, second_held)
    await asyncio.wait_for(third, DEADLINE)


async def test_a_try_takes_a_free_lock_and_never_waits_for_a_held_one(
    two_workers: tuple[Store, Store],
):
    first, second = two_workers
    held = await first.game_locks.try_acquire(9)
    assert held is not None and first.game_locks.holds(held)
    assert await asyncio.wait_for(second.game_locks.try_acquire(9), DEADLINE) is None
    await first.game_locks.release(9, held)
    again = await second.game_locks.try_acquire(9)
    assert again is not None
    await second.game_locks.release(9, again)


async def _waiting_behind(
    holder: Store, waiter: Store, game_id: int
) -> tuple[Hold, asyncio.Task[Hold]]:
    """The holder takes the game; the waiter's try is shown to wait for it."""
    held = await holder.game_locks.acquire(game_id)
    waiting = asyncio.create_task(waiter.game_locks.acquire(game_id))
    assert await _still_waiting(waiting)
    return held, waiting


async def _lock_holder(url: str, game_id: int) -> int | None:
    return await advisory_lock_holder(url, GAME_LOCK_SPACE, game_id)


async def test_a_worker_that_goes_away_leaves_no_game_locked(
    two_workers: tuple[Store, Store], postgres_url: str
):
    first, second = two_workers
    _, waiting = await _waiting_behind(first, second, 3)
    holder = await _lock_holder(postgres_url, 3)
    assert holder is not None
    await end_session(postgres_url, holder)  # as a killed worker's connection goes
    await asyncio.wait_for(waiting, DEADLINE)


async def test_a_worker_closing_releases_its_locks_at_once(two_workers: tuple[Store, Store]):
    """Not only when its pool is disposed: closing the locks ends their session."""
    first, second = two_workers
    _, waiting = await _waiting_behind(first, second, 4)
    await first.game_locks.close()
    await asyncio.wait_for(waiting, DEADLINE)


async def test_a_lost_connection_shows_as_locks_no_longer_held(
    two_workers: tuple[Store, Store], postgres_url: str
):
    first, second = two_workers
    held = await first.game_locks.acquire(6)
    assert first.game_locks.holds(held)
    holder = await _lock_holder(postgres_url, 6)
    assert holder is not None
    await end_session(postgres_url, holder)
    # The next statement finds the connection gone; the lock went with it.
    taken_again = await asyncio.wait_for(first.game_locks.acquire(9), DEADLINE)
    assert not first.game_locks.holds(held)
    assert first.game_locks.holds(taken_again)
    await first.game_locks.release(6, held)  # nothing to release: no error, no unlock sent
    await asyncio.wait_for(second.game_locks.acquire(6), DEADLINE)


async def test_a_cancelled_wait_does_not_keep_the_lock(two_workers: tuple[Store, Store]):
    first, second = two_workers
    held, waiting = await _waiting_behind(first, second, 5)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await first.game_locks.release(5, held)
    # Had the cancelled wait taken the lock on its way out, the first worker could not again.
    await asyncio.wait_for(first.game_locks.acquire(5), DEADLINE)


async def test_a_wait_cancelled_while_its_try_succeeds_gives_the_lock_back(
    two_workers: tuple[Store, Store], postgres_url: str
):
    """The try runs to its end though its caller is gone; the lock it took is released."""
    first, second = two_workers
    locks = second.game_locks
    assert isinstance(locks, AdvisoryLocks)
    await asyncio.wait_for(locks.acquire(1), DEADLINE)  # the connection is open
    async with locks._talk:  # the next try queues behind this, then takes the free lock
        waiting = asyncio.create_task(locks.acquire(2))
        await asyncio.sleep(0)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    while locks._running:  # the try, then the release its end starts
        await asyncio.wait(set(locks._running), timeout=DEADLINE)
    assert await _lock_holder(postgres_url, 2) is None
    await asyncio.wait_for(first.game_locks.acquire(2), DEADLINE)


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


async def test_which_message_shows_a_hand_and_whether_it_is_owed_bump_no_revision(
    postgres_url: str,
):
    """A hand goes out once its game is let go: the worker records its message, and that it
    went out, without the lock. Those writes change nothing a copy plays by (migration 0020),
    so they leave the revision as it was; any other change beside them still bumps it."""
    store = Store.open(postgres_url)
    locks = store.game_locks
    try:
        async with store.transaction() as tx:
            await tx.users.upsert(1, "Ana", telegram_language="id")
            await tx.chats.ensure(-100, "Group")
            game = await tx.games.create(-100, None, "gaple", {"seats": 2}, 1)
            await tx.seats.add(game.id, 0, user_id=1)
            await tx.games.start(game.id)
        async with store.transaction() as tx:
            version = await tx.games.bump_version(
                game.id, game.version, turn_deadline=None, hand_due=utc_now(), hand_owner=7
            )
        before = await locks.revision(game.id)
        async with store.transaction() as tx:
            await tx.seats.set_hand_message(game.id, 0, 99)
            assert await tx.games.claim_owed_hand(game.id, version, 8, utc_now())
            assert await tx.games.hand_shown(game.id, version)
        assert await locks.revision(game.id) == before
        async with store.transaction() as tx:
            assert (await tx.seats.of_game(game.id))[0].hand_message_id == 99
            assert (await tx.games.get(game.id)).hand_due is None
            await tx.seats.set_hand_message(game.id, 0, 100)
            await tx.seats.set_autoplay(game.id, 0, True)
        assert await locks.revision(game.id) != before
    finally:
        await store.close()


async def test_releasing_a_game_reads_its_revisions_as_they_were_while_held(
    two_workers: tuple[Store, Store],
):
    """One statement lets the game go and reads what the holder's copy now matches."""
    first, second = two_workers
    async with first.transaction() as tx:
        await tx.users.upsert(1, "Ana", telegram_language="id")
        await tx.chats.ensure(-100, "Group")
        game = await tx.games.create(-100, None, "gaple", {}, 1)
        await tx.seats.add(game.id, 0, user_id=1)
    held = await first.game_locks.acquire(game.id)
    before = await first.game_locks.revision(game.id)
    async with first.transaction() as tx:
        await tx.seats.set_autoplay(game.id, 0, True)
    read = await first.game_locks.release_reading(game.id, held)
    assert read is not None and before is not None
    assert read.game != before.game
    assert read == await second.game_locks.revision(game.id)
    # Released: the other worker takes the game at once.
    await asyncio.wait_for(second.game_locks.acquire(game.id), DEADLINE)
    # A game that does not exist reads as none, and its lock goes all the same.
    gone = await first.game_locks.acquire(game.id + 1000)
    assert await first.game_locks.release_reading(game.id + 1000, gone) is None
    await asyncio.wait_for(second.game_locks.acquire(game.id + 1000), DEADLINE)


async def test_releasing_a_lock_lost_with_its_connection_says_so(
    two_workers: tuple[Store, Store], postgres_url: str
):
    first, _ = two_workers
    held = await first.game_locks.acquire(11)
    holder = await _lock_holder(postgres_url, 11)
    assert holder is not None
    await end_session(postgres_url, holder)
    await asyncio.wait_for(first.game_locks.acquire(12), DEADLINE)  # finds the connection gone
    with pytest.raises(LockLost):
        await first.game_locks.release_reading(11, held)
