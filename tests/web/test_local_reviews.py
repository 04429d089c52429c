"""Local play reviews its games: one kept in --database without its review (the previous run
stopped first) is analysed at the next start, in the background."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

from gaple_bot.games.review import REVIEW_VERSION
from gaple_bot.service.runtime import GameService
from gaple_bot.store import Store
from gaple_bot.web.local import serve_local
from tests.games.gaple.rules.hand_dealt import classic_deal
from tests.service.deals import ANA_GOES_OUT, ANA_GOES_OUT_MOVES
from tests.service.kit import ANA, ScriptedDeals, Table

WAIT = 300.0
"""Generous: a loaded machine may take a while to analyse the game."""
ROUNDS = 5
"""Rounds of ANA_GOES_OUT's hands (12 points each) that take Ana past a target of 50."""
AGAIN = classic_deal("66 65 55 54 44 43 33", "00 01 02 11 12 22 63", leader=0, lead=None)


async def finish_a_game(url: str) -> int:
    """A finished game in the database at `url`, with Ana seated and no review yet."""
    store = await Store.start(url)
    dealer = ScriptedDeals()
    service = GameService(store, rng=random.Random(7), dealer=dealer, round_break=timedelta(0))
    try:
        gaple = Table(service, dealer, "gaple")
        await gaple.set_option("computers", "off")
        await gaple.set_option("target", "50")
        await gaple.open(ANA)
        await gaple.add_computer(ANA)
        await gaple.start(ANA, deals=[ANA_GOES_OUT])
        gaple.deal_next(*[AGAIN] * (ROUNDS - 1))
        for _ in range(ROUNDS):
            await gaple.play_all([ANA], ANA_GOES_OUT_MOVES)
        assert await service.reviews.review_json(gaple.game_id) is None
        return gaple.game_id
    finally:
        await service.close()


async def test_local_play_reviews_a_kept_game_the_last_run_left_unreviewed(
    tmp_path: Path,
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'kept.sqlite3'}"
    game_id = await finish_a_game(url)
    listening, stopped, reviewed = asyncio.Event(), asyncio.Event(), asyncio.Event()
    served = asyncio.create_task(
        serve_local(
            url,
            0,
            ready=lambda _: listening.set(),
            stopped=stopped,
            reviewed=lambda done: reviewed.set() if done == game_id else None,
        )
    )
    try:
        await asyncio.wait_for(listening.wait(), WAIT)
        await asyncio.wait_for(reviewed.wait(), WAIT)
    finally:
        stopped.set()
        await asyncio.wait_for(served, WAIT)
    store = Store.open(url)
    try:
        async with store.read() as tx:
            stored = await tx.reviews.get(game_id, REVIEW_VERSION)
    finally:
        await store.close()
    assert stored is not None and stored["seats"][0]["seat"] == 0
