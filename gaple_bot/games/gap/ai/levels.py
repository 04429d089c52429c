"""The three computer levels of Gap and the one entry point that picks a move for any of them."""

from __future__ import annotations

import random
from enum import StrEnum

from ..rules import Move, SeatView
from .greedy import greedy_move
from .montecarlo import Budget, monte_carlo_move


class Level(StrEnum):
    """How strongly a computer player plays Gap."""

    EASY = "easy"
    """The best immediate change of its own round score, ties broken at random."""
    NORMAL = "normal"
    """Determinised sampling: every legal move judged on the same 8 deals of the unseen cards,
    each played out greedily by every seat, by its margin over the best opponent."""
    HARD = "hard"
    """The same with 24 deals per legal move (more where there are more choices), time-capped
    at 16 ms."""


BUDGETS: dict[Level, Budget] = {
    Level.NORMAL: Budget(deals=8, time_cap=0.030, min_deals=2),
    Level.HARD: Budget(deals=24, per_move=True, time_cap=0.016, min_deals=4),
}
"""The thinking each sampling level gets.

Against three normal players (1,000 rounds, seed 77, 4 seats) hard won 30.7% of rounds with 12
deals per move, 31.8% with 30 (both within each other's noise); a bonus for winning the round
on top of the margin (`Budget.win`) did not help (30.7% and 29.8%). The time cap holds the
median decision under 20 ms; it is the only thing that can make a decision depend on the
machine rather than on the seed alone."""


def decide(level: Level | str, view: SeatView, seed: int, budget: Budget | None = None) -> Move:
    """The move `level` makes for the seat to move in `view`, all its randomness drawn from
    `random.Random(seed)`; raises ValueError if the seat is not to move.

    Module-level and picklable, as are its arguments and result, so a process pool can run it.
    `budget` overrides the level's thinking (tests, tuning).
    """
    level = Level(level)
    if not view.my_turn or not view.legal:
        raise ValueError(f"seat {view.seat} is not to move")
    rng = random.Random(seed)
    if level is Level.EASY:
        return greedy_move(view, rng)
    return monte_carlo_move(view, rng, budget or BUDGETS[level])
