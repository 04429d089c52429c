"""`gaple-bot local` reviews its games: one kept in --database without its review (the
previous run stopped first) is analysed at the next start, in the background."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

from gaple_bot.service.runtime import GameService
from gaple_bot.store import Store
from tests.games.gaple.rules.hand_dealt import classic_deal
from tests.service.deals import ANA_GOES_OUT, ANA_GOES_OUT_MOVES
from tests.service.kit import ANA, ScriptedDeals, Table

WAIT = 300.0
"""Generous: a loaded machine may take a while to start Python and analyse the game."""
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


def reviewed(path: Path, game_id: int) -> bool:
    """Whether the game's review is stored in the SQLite file at `path`."""
    connection = sqlite3.connect(path)
    try:
        (count,) = connection.execute(
            "SELECT COUNT(*) FROM reviews WHERE game_id = ?", (game_id,)
        ).fetchone()
    finally:
        connection.close()
    return bool(count)


def test_local_play_reviews_a_kept_game_the_last_run_left_unreviewed(tmp_path: Path) -> None:
    path = tmp_path / "kept.sqlite3"
    url = f"sqlite+aiosqlite:///{path}"
    game_id = asyncio.run(finish_a_game(url))
    assert not reviewed(path, game_id)
    process = subprocess.Popen(
        [sys.executable, "-m", "gaple_bot", "local", "--port", "0", "--database", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        assert "Open http://127.0.0.1" in process.stdout.readline()
        deadline = time.monotonic() + WAIT
        while not reviewed(path, game_id):
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            assert time.monotonic() < deadline, "no review was stored"
            time.sleep(0.2)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=WAIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
