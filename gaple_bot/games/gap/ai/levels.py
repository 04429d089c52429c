"""The three computer levels of Gap and the one entry point that picks a move for any of them."""

from __future__ import annotations

import random
from enum import StrEnum

from ..rules import Move, SeatView
from .fastsearch import fast_search
from .greedy import greedy_move
from .ismcts import tree_search
from .montecarlo import Budget, Decision, search


class Level(StrEnum):
    """How strongly a computer player plays Gap."""

    EASY = "easy"
    """The best immediate change of its own round score, ties broken at random."""
    NORMAL = "normal"
    """Flat Monte Carlo: every legal move judged on the same 64 deals of the unseen cards, each
    played out with random play by every seat, by its margin over the best opponent."""
    HARD = "hard"
    """The same, judged on as many deals as 8,500 simulated plays allow (at most 400), with
    the round's win worth 4 points of margin on top (shared among the seats tied for it)."""


BUDGETS: dict[Level, Budget] = {
    Level.NORMAL: Budget(deals=64, epsilon=1.0, work=4000, time_cap=0.25, min_deals=4, fast=True),
    Level.HARD: Budget(deals=400, epsilon=1.0, work=8500, time_cap=0.25, min_deals=4, share=4.0),
}
"""The thinking each sampling level gets, bounded by work (simulated plays), so the same seed
gives the same move on any machine; the time caps are a safety net for an overloaded machine.

Against three reference players (800 four-seat single rounds, seed 7; issue 30), greedy
play-outs won 25.6% with 4,000 plays per decision and 24.9% with 24 deals per move (the hard
level before, uncapped); pruning moves behind by two standard errors (24.0%), judging by the
share of the round's win (23.0%) and 15% random plays in the greedy play-outs (24.6%) did not
help. Random play-outs, cheaper, so more deals, won 29.1% with 8,000 plays (28.5% with 32
deals per move, for more CPU)."""


def decide(level: Level | str, view: SeatView, seed: int, budget: Budget | None = None) -> Move:
    """The move `level` makes for the seat to move in `view`, all its randomness drawn from
    `random.Random(seed)`; raises ValueError if the seat is not to move.

    Module-level and picklable, as are its arguments and result, so a process pool can run it.
    `budget` overrides the level's thinking (tests, tuning).
    """
    return decision(level, view, seed, budget).move


def decision(
    level: Level | str, view: SeatView, seed: int, budget: Budget | None = None
) -> Decision:
    """`decide`'s move with whether the time cap (a safety net) cut the thinking short."""
    level = Level(level)
    if not view.my_turn or not view.legal:
        raise ValueError(f"seat {view.seat} is not to move")
    rng = random.Random(seed)
    if level is Level.EASY:
        return Decision(greedy_move(view, rng), False)
    chosen = budget or BUDGETS[level]
    if chosen.tree:
        return tree_search(view, rng, chosen)
    return (fast_search if chosen.fast else search)(view, rng, chosen)
