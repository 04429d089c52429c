"""A writer killed with SIGKILL at random moments loses no committed move and leaves no
partial one; the game replays and play resumes where it stopped."""

from __future__ import annotations

import asyncio
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import text

from gaple_bot.store import GameStatus, Store

from .kit import load_game

REPO = Path(__file__).resolve().parents[2]
KILLS = 12

Key = tuple[int, int, int]


def _run_until_killed(db_url: str, seed: int, moves: int, jitter: float) -> set[Key]:
    """Start the writer, SIGKILL it `jitter` seconds after it reported `moves` committed moves
    (so it dies somewhere in the middle of later ones); the moves it printed."""
    with subprocess.Popen(
        [sys.executable, "-m", "tests.store.crash_writer", db_url, str(seed)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            assert child.stdout is not None and child.stderr is not None
            assert child.stdout.readline() == "ready\n"
            # Waiting on its reports, not on the clock: a slow machine only makes this slower.
            reported = [child.stdout.readline() for _ in range(moves)]
            assert all(reported), "the writer stopped by itself"
            time.sleep(jitter)
            child.send_signal(signal.SIGKILL)
            # The rest is read through the same buffered file as the reports, to its end (the
            # killed writer's pipe closes). communicate() would read the pipe itself and miss
            # the lines readline() had already taken into the file's buffer: a writer that got
            # ahead of this reader (a busy machine) then seemed to commit moves unreported.
            output = child.stdout.read()
            errors = child.stderr.read()
            child.wait(timeout=60)
        finally:
            child.kill()
    assert child.returncode == -signal.SIGKILL, errors
    printed = set()
    for line in [*reported, *output.splitlines(keepends=True)]:
        if line.endswith("\n"):  # a line cut off by the kill is not a report
            game_id, round_number, ply = map(int, line.split())
            printed.add((game_id, round_number, ply))
    return printed


async def _check(db_url: str, printed: set[Key]) -> set[Key]:
    """Every printed move is stored, each game's version counts its moves exactly, and every
    game replays (a running one waits for a move, a finished one has its results)."""
    store = Store.open(db_url)
    try:
        async with store.read() as tx:
            stored = {
                (g, r, p)
                for g, r, p in await tx.session.execute(
                    text("SELECT game_id, round_number, ply FROM moves")
                )
            }
            games = (
                await tx.session.execute(
                    text(
                        "SELECT g.id, g.status, g.version, count(m.ply), "
                        "(SELECT count(*) FROM results r WHERE r.game_id = g.id) "
                        "FROM games g LEFT JOIN moves m ON m.game_id = g.id GROUP BY g.id"
                    )
                )
            ).all()
        assert printed <= stored
        for game_id, status, version, moves, results in games:
            assert version == moves, f"game {game_id}: version {version}, {moves} moves"
            game = await load_game(store, game_id)
            if status == GameStatus.FINISHED:
                assert game.is_over and results == game.config.seats
            else:
                assert status == GameStatus.RUNNING and results == 0
                assert not game.is_over and game.to_move is not None
        return stored
    finally:
        await store.close()


def test_killed_writer_loses_no_committed_move(db_url: str) -> None:
    rng = random.Random(31337)
    printed: set[Key] = set()
    stored: set[Key] = set()
    for kill in range(KILLS):
        before = len(stored)
        moves, jitter = rng.randint(10, 50), rng.uniform(0, 0.02)
        printed |= _run_until_killed(db_url, seed=kill, moves=moves, jitter=jitter)
        stored = asyncio.run(_check(db_url, printed))
        assert len(stored) >= before + moves
        # Each kill may catch one move committed but not yet reported, never more.
        assert len(stored - printed) <= kill + 1
    assert len({game_id for game_id, _, _ in stored}) > 1, "no game was played to its end"
