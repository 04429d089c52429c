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
    """Flat Monte Carlo on the compiled core: every legal move judged on the same 64 deals of
    the unseen cards (fewer when 4,000 simulated plays run out), each played out with random
    play by every seat, by its margin over the best opponent."""
    HARD = "hard"
    """Flat Monte Carlo on the compiled core: every legal move judged on as many deals as
    100,000 simulated plays allow, each played out greedily by every seat (a card given to the
    middle is the one the next seat gains least by), by its margin over the best opponent with
    the round's win worth 4 points on top (shared among the seats tied for it)."""


BUDGETS: dict[Level, Budget] = {
    Level.NORMAL: Budget(deals=64, epsilon=1.0, work=4000, time_cap=0.25, min_deals=4, fast=True),
    Level.HARD: Budget(
        deals=20000,
        epsilon=0.0,
        dumps=True,
        work=100000,
        time_cap=0.25,
        min_deals=4,
        share=4.0,
        fast=True,
    ),
}
"""The thinking each sampling level gets, bounded by work (simulated plays), so the same seed
gives the same move on any machine; the time caps are a safety net for an overloaded machine.

Issue 41 (bench/ai_gap_variants.py, 1,200 four-seat single rounds against three reference
players, paired on the same deals; docs/COMPUTER_PLAYERS.md has every figure): on the compiled
core, issue 30's hard (random play-outs, 8,500 plays: 28.7% on seed 7) gained little from
more deals of random play-outs (100,000 plays: 29.6%) but more from greedy play-outs (31.0%;
32.3% on seed 11), which 50,000 or 200,000 plays did not better; greedy play-outs that give
the middle the card the next seat gains least by won 32.0% and 33.5%, and 32.0% of 4,000 on
seed 2024 (+1.0, +1.2 and +1.0 against plain greedy on the same deals, +1.0 with its interval
from -0.0 to +2.1 over the three pooled: kept). Against issue 30's hard on seed 2024 this
level wins +4.1 points (+2.2 to +5.9) more of the rounds. Information-set MCTS (every seat's
moves, or the seat's own only), mixed play-outs and weighing the round's win more than the
margin did not do better."""


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
