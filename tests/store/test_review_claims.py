"""Review claims: one worker at a time may analyse a finished game, until its claim is released,
ended by the stored review, or stale."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from gaple_bot.games.gaple.rules import GameConfig
from gaple_bot.store import Store

from .kit import GAPLE

DEFAULT = dict(GameConfig().to_dict())
NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
CHAT = -1001
BOUND = timedelta(minutes=10)
"""How old a claim must be to be taken over, in these tests."""
ONE, TWO = 1, 2**62
"""Two workers' claim tokens."""


async def _finished(store: Store) -> int:
    """A finished game's id, with Ana seated."""
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        await tx.users.upsert(1, "Ana", now=NOW)
        game = await tx.games.create(CHAT, None, GAPLE.name, DEFAULT, 1, now=NOW)
        await tx.seats.add(game.id, 0, user_id=1)
        await tx.games.start(game.id, now=NOW)
        await tx.games.finish(game.id, now=NOW)
        return game.id


async def _claim(store: Store, game_id: int, owner: int, at: datetime) -> bool:
    async with store.transaction() as tx:
        return await tx.reviews.claim(game_id, owner, at, at - BOUND)


async def _claimed(store: Store, game_id: int) -> tuple[int, datetime] | None:
    async with store.read() as tx:
        return await tx.reviews.claimed(game_id)


async def test_a_claim_is_one_owner_s_until_released_or_stale(store: Store) -> None:
    game_id = await _finished(store)
    assert await _claimed(store, game_id) is None
    assert await _claim(store, game_id, ONE, NOW)
    # Another worker's claim loses to a live one; its owner renews it.
    assert not await _claim(store, game_id, TWO, NOW + timedelta(minutes=1))
    assert await _claimed(store, game_id) == (ONE, NOW)
    assert await _claim(store, game_id, ONE, NOW + timedelta(minutes=2))
    assert not await _claim(store, game_id, TWO, NOW + timedelta(minutes=12))
    assert await _claimed(store, game_id) == (ONE, NOW + timedelta(minutes=2))
    # Older than the bound since its last renewal (its worker died): taken over.
    later = NOW + timedelta(minutes=12, seconds=1)
    assert await _claim(store, game_id, TWO, later)
    assert await _claimed(store, game_id) == (TWO, later)
    async with store.transaction() as tx:
        assert not await tx.reviews.release(game_id, ONE)  # no longer its claim
        assert await tx.reviews.release(game_id, TWO)
    assert await _claimed(store, game_id) is None
    # The stored review ends the claim: no analysis is owed any more.
    assert await _claim(store, game_id, ONE, later)
    async with store.transaction() as tx:
        await tx.reviews.put(game_id, 1, {"version": 1}, now=later)
    assert await _claimed(store, game_id) is None


async def test_workers_claiming_the_same_games_at_once_each_get_one_winner(db_url: str) -> None:
    stores = [Store.open(db_url) for _ in range(3)]
    try:
        games = [await _finished(stores[0]) for _ in range(5)]
        won = await asyncio.gather(
            *(
                _claim(store, game_id, owner, NOW)
                for game_id in games
                for owner, store in enumerate(stores, start=1)
            )
        )
        for index, game_id in enumerate(games):
            winners = [o for o, w in enumerate(won[3 * index : 3 * index + 3], start=1) if w]
            assert len(winners) == 1
            assert await _claimed(stores[0], game_id) == (winners[0], NOW)
    finally:
        for store in stores:
            await store.close()


async def test_a_claim_racing_an_uncommitted_one_waits_for_it_then_loses(
    postgres_url: str,
) -> None:
    # PostgreSQL only: there both claims' statements run at once; SQLite writes one at a time.
    store, other, watcher = (Store.open(postgres_url) for _ in range(3))
    try:
        game_id = await _finished(store)
        first_claimed = asyncio.Event()
        first_may_commit = asyncio.Event()

        async def first() -> bool:
            async with store.transaction() as tx:
                taken = await tx.reviews.claim(game_id, ONE, NOW, NOW - BOUND)
                first_claimed.set()
                await first_may_commit.wait()
            return taken

        async def second() -> bool:
            await first_claimed.wait()
            # It sees no claim committed, so it inserts one too, waits on the first's row,
            # and once that commits finds the first's live claim: it does not win.
            return await _claim(other, game_id, TWO, NOW + timedelta(seconds=1))

        async def release_when_second_waits() -> None:
            waiting = 0
            while not waiting:
                async with watcher.read() as tx:
                    waiting = await tx.session.scalar(
                        text(
                            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                            " AND datname = current_database()"
                        )
                    )
            first_may_commit.set()

        results = await asyncio.wait_for(
            asyncio.gather(first(), second(), release_when_second_waits()), 120
        )
        assert (results[0], results[1]) == (True, False)
        assert await _claimed(store, game_id) == (ONE, NOW)
    finally:
        for opened in (store, other, watcher):
            await opened.close()
