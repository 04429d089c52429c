"""The three computer levels and the one entry point that picks a move for any of them."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor
from enum import StrEnum

from ..rules import Move, SeatView
from .greedy import greedy_move
from .montecarlo import Budget, monte_carlo_move


class Level(StrEnum):
    """How strongly a computer player plays."""

    EASY = "easy"
    """Greedy: the heaviest legal tile first."""
    NORMAL = "normal"
    """Determinised Monte Carlo with greedy rollouts: every legal move judged on 10 deals."""
    HARD = "hard"
    """8 deals per legal move, each judging every move, with rollouts that keep tiles playable,
    deals weighted by how the opponents played, solved exactly once few tiles remain."""


BUDGETS: dict[Level, Budget] = {
    Level.NORMAL: Budget(deals=10, time_cap=0.030, min_deals=4),
    Level.HARD: Budget(
        deals=8,
        per_move=True,
        exact_tiles=12,
        time_cap=0.200,
        min_deals=8,
        passed_over=0.5,
        keep=3,
    ),
}
"""The thinking each Monte Carlo level gets.

Normal judges every legal move on the same 10 deals. Hard draws 8 deals per legal move and
judges every move on each (more deals where there are more choices: a free lead, a discard),
and solves each deal exactly from 12 tiles in hand. Issue 15 measured hard against three
reference players in bench/ai.py (single classic rounds, seed 15, 400-600 rounds each: noisy,
about +-4 points): the pre-issue budget (`players.HARD_V1`: 50 deals per move, exact from 14
tiles, 150 extra deals for close calls, 60 ms cap) won 28.5% at a 25.6 ms median decision;
this budget 26.5-27.5% at 2.6-3.3 ms; 24 or 40 deals in all instead of per move, or exact
search from 8 or 10 tiles, 25-27%; uniformly random rollouts instead of keeping ones 25%.
The time cap is a safety net far above the p99 decision, so a decision depends on the seed."""


def decide(level: Level | str, view: SeatView, seed: int, budget: Budget | None = None) -> Move:
    """The move `level` makes in `view`, its randomness drawn from `seed` (pool-friendly: every
    argument pickles, so a process pool can run it)."""
    level = Level(level)
    rng = random.Random(seed)
    if level is Level.EASY:
        return greedy_move(view, rng)
    return monte_carlo_move(view, rng, budget or BUDGETS[level])


def choose_move(
    level: Level | str, view: SeatView, rng: random.Random, budget: Budget | None = None
) -> Move:
    """The legal move the computer player of `level` makes for the seat to move in `view`.

    It draws one seed from `rng` whatever the level, so the same `rng` state gives the same
    decision here and in `choose_move_async`. `budget` overrides the level's thinking (tests).
    """
    if not view.my_turn or not view.legal:
        raise ValueError(f"seat {view.seat} is not to move")
    return decide(level, view, rng.getrandbits(64), budget)


async def choose_move_async(
    level: Level | str,
    view: SeatView,
    rng: random.Random,
    executor: Executor | None = None,
) -> Move:
    """`choose_move` run off the event loop, in `executor`.

    None runs it in the loop's default thread pool: the loop stays responsive, but the GIL
    means the decision still takes CPU time from the loop's thread while it runs, which is
    fine for the short easy and normal decisions. For hard players pass a process pool (a
    "spawn" ProcessPoolExecutor, as the service makes), which thinks on another core.
    """
    if not view.my_turn or not view.legal:
        raise ValueError(f"seat {view.seat} is not to move")
    seed = rng.getrandbits(64)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor, decide, Level(level), view, seed)
