"""Compare-and-set on the game's version: of two concurrent writers exactly one wins."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text

from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.store import Store, VersionConflict

from .kit import open_game

CHAT = -2002


@pytest.fixture
async def second_store(db_url: str) -> AsyncIterator[Store]:
    """Another store (engine, pool, connections) on the same file: another process's view."""
    other = Store.open(db_url)
    try:
        yield other
    finally:
        await other.close()


async def _apply(store: Store, game_id: int, version: int, ply: int, code: int) -> int:
    async with store.transaction() as tx:
        # Read first, as a use case does, then write: the write lock is already held.
        await tx.games.get(game_id)
        new_version = await tx.record_move(game_id, version, 1, ply, 0, code)
        await asyncio.sleep(0.005)  # keep the transaction open while the rival waits
        return new_version


async def test_two_writers_at_the_same_version_one_wins(store: Store, second_store: Store) -> None:
    rng = random.Random(11)
    async with store.transaction() as tx:
        game_id, game = await open_game(tx, CHAT, GameConfig(RuleSet.CLASSIC, 2), [1, 2], rng)
    codes = [move.code for move in game.legal_moves()]
    version = 0
    for ply in range(20):
        # Both writers read `version`, then race to store a move at the same ply.
        outcomes = await asyncio.gather(
            _apply(store, game_id, version, ply, codes[0]),
            _apply(second_store, game_id, version, ply, codes[-1]),
            return_exceptions=True,
        )
        winners = [o for o in outcomes if isinstance(o, int)]
        losers = [o for o in outcomes if isinstance(o, VersionConflict)]
        assert len(winners) == 1 and len(losers) == 1, outcomes
        assert losers[0].expected == version
        version = winners[0]
    async with store.read() as tx:
        rows = (
            await tx.session.execute(
                text("SELECT ply FROM moves WHERE game_id = :g ORDER BY ply"), {"g": game_id}
            )
        ).all()
        stored_version = (await tx.games.get(game_id)).version
    assert [row[0] for row in rows] == list(range(20))
    assert stored_version == version == 20


async def test_a_stale_version_is_refused_and_writes_nothing(store: Store) -> None:
    rng = random.Random(12)
    async with store.transaction() as tx:
        game_id, game = await open_game(tx, CHAT, GameConfig(RuleSet.CLASSIC, 2), [1, 2], rng)
    code = game.legal_moves()[0].code
    async with store.transaction() as tx:
        assert await tx.record_move(game_id, 0, 1, 0, 0, code) == 1
    with pytest.raises(VersionConflict):
        async with store.transaction() as tx:
            await tx.record_move(game_id, 0, 1, 1, 1, code)
    async with store.read() as tx:
        count = (await tx.session.execute(text("SELECT count(*) FROM moves"))).scalar_one()
        assert count == 1 and (await tx.games.get(game_id)).version == 1
