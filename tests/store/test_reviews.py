"""Replay tokens and reviews: a finished game's own link secret and its analysis, stored once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from gaple_bot.games.gaple.rules import GameConfig
from gaple_bot.store import GameRecord, GameStatus, Store

from .kit import GAPLE

DEFAULT = dict(GameConfig().to_dict())
NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
CHAT = -1001


async def _finished(store: Store, minutes: int, person: bool = True) -> GameRecord:
    """A game in CHAT finished `minutes` after NOW, with Ana seated (or only computers)."""
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        await tx.users.upsert(1, "Ana", now=NOW)
        game = await tx.games.create(CHAT, None, GAPLE.name, DEFAULT, 1, now=NOW)
        if person:
            await tx.seats.add(game.id, 0, user_id=1)
        await tx.games.start(game.id, now=NOW)
        await tx.games.finish(game.id, now=NOW + timedelta(minutes=minutes))
        return await tx.games.get(game.id)


async def test_a_finished_game_gets_its_own_replay_token(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        await tx.users.upsert(1, "Ana", now=NOW)
        lobby = await tx.games.create(
            CHAT, None, GAPLE.name, DEFAULT, 1, join_token="j0in", now=NOW
        )
    assert lobby.replay_token is None
    async with store.transaction() as tx:
        await tx.games.start(lobby.id, now=NOW)
        await tx.games.finish(lobby.id, now=NOW)
    async with store.read() as tx:
        game = await tx.games.get(lobby.id)
        assert game.status is GameStatus.FINISHED
        assert game.replay_token is not None and len(game.replay_token) >= 22
        assert game.replay_token != game.join_token
        assert await tx.games.by_replay_token(game.replay_token) == game
        # Neither secret opens the other's door.
        assert await tx.games.by_replay_token("j0in") is None
        assert await tx.games.by_join_token(game.replay_token) is None
        assert await tx.games.by_replay_token(game.replay_token.upper()) is None


async def test_the_chat_s_finished_games_come_latest_first(store: Store) -> None:
    first = await _finished(store, 5)
    second = await _finished(store, 10)
    async with store.transaction() as tx:
        running = await tx.games.create(CHAT, None, GAPLE.name, DEFAULT, 1, now=NOW)
        await tx.games.start(running.id, now=NOW)
    async with store.read() as tx:
        listed = await tx.games.finished_in_chat(CHAT)
        assert [g.id for g in listed] == [second.id, first.id]
        assert [g.id for g in await tx.games.finished_in_chat(CHAT, limit=1)] == [second.id]
        assert await tx.games.finished_in_chat(-5) == []
    assert first.replay_token != second.replay_token


async def test_a_review_is_stored_once_per_version(store: Store) -> None:
    game = await _finished(store, 5)
    review = {"version": 1, "moves": [], "seats": [{"seat": 0, "decisions": 0}]}
    async with store.transaction() as tx:
        assert await tx.reviews.get(game.id, 1) is None
        await tx.reviews.put(game.id, 1, review, now=NOW)
        # The same analysis written again (another worker) changes nothing.
        await tx.reviews.put(game.id, 1, {"other": True}, now=NOW)
    async with store.read() as tx:
        assert await tx.reviews.get(game.id, 1) == review
        assert await tx.reviews.get(game.id, 2) is None
    async with store.transaction() as tx:
        await tx.reviews.put(game.id, 2, {"version": 2}, now=NOW)
    async with store.read() as tx:
        assert await tx.reviews.get(game.id, 2) == {"version": 2}
        assert await tx.reviews.get(game.id, 1) is None


async def test_the_reviews_owed_are_the_recent_games_with_people(store: Store) -> None:
    old = await _finished(store, 1)
    reviewed = await _finished(store, 20)
    owed = await _finished(store, 30)
    await _finished(store, 40, person=False)
    async with store.transaction() as tx:
        await tx.reviews.put(reviewed.id, 1, {"version": 1}, now=NOW)
    async with store.read() as tx:
        assert await tx.reviews.missing(1, NOW + timedelta(minutes=10)) == [owed.id]
        assert await tx.reviews.missing(1, NOW) == [owed.id, old.id]
        assert set(await tx.reviews.missing(2, NOW)) == {owed.id, reviewed.id, old.id}


async def test_two_workers_storing_the_same_review_at_once_both_succeed(
    postgres_url: str,
) -> None:
    # PostgreSQL only: workers share a database there; on SQLite one process writes at a time.
    store, other, watcher = (Store.open(postgres_url) for _ in range(3))
    try:
        game = await _finished(store, 5)
        review = {"version": 1, "moves": [], "seats": []}
        first_wrote = asyncio.Event()
        first_may_commit = asyncio.Event()

        async def first() -> None:
            async with store.transaction() as tx:
                await tx.reviews.put(game.id, 1, review, now=NOW)
                first_wrote.set()
                await first_may_commit.wait()

        async def second() -> None:
            await first_wrote.wait()
            async with other.transaction() as tx:
                # It reads no review (the first has not committed), so it inserts one too,
                # and waits on the first's row until that commits.
                await tx.reviews.put(game.id, 1, review, now=NOW)

        async def release_when_second_waits() -> None:
            # Each look is a query of the server's own view of who waits on a lock: the
            # condition itself, asked again until the second writer is seen waiting.
            waiting = 0
            while not waiting:
                async with watcher.read() as tx:
                    waiting = await tx.session.scalar(
                        text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
                    )
            first_may_commit.set()

        await asyncio.wait_for(asyncio.gather(first(), second(), release_when_second_waits()), 120)
        async with store.read() as tx:
            assert await tx.reviews.get(game.id, 1) == review
    finally:
        for opened in (store, other, watcher):
            await opened.close()
