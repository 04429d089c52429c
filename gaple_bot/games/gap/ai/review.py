"""A review's judgement of one decision: every legal move's expected worth to the seat, by
hard's own search given twenty times its work.

Hard (`levels.BUDGETS[HARD]`) is flat Monte Carlo on the compiled core: every legal move
judged on the same deals of the unseen cards (common random numbers), each played out
greedily by every seat (giving the middle the card the next seat gains least by), valued as
the seat's margin over its best opponent with the round's win worth 4 points on top (shared
among the seats tied for it). That judgement already gives every legal move a value on the
same deals, which is what a review needs; it runs here with `REVIEW_WORK` (20) times hard's
simulated plays (2,000,000) and deals (at most 400,000), and no time cap, so the work alone
bounds it and a view and a seed give the same values on any machine. The deals fit what the
seat knew (its cards and everything public), never the hidden hands.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..rules import SeatView
from .fastsearch import fast_totals
from .levels import BUDGETS, Level
from .montecarlo import Budget

REVIEW_WORK = 20
"""A review's work as a multiple of hard's (its simulated plays and its deals)."""


def review_budget(work: float = REVIEW_WORK) -> Budget:
    """Hard's budget with `work` times its plays and deals and no time cap (tests may pass a
    smaller `work`; the service uses the default)."""
    hard = BUDGETS[Level.HARD]
    return replace(
        hard,
        deals=max(1, round(hard.deals * work)),
        work=max(1, round(hard.work * work)),
        time_cap=None,
    )


def move_values(view: SeatView, seed: int, budget: Budget | None = None) -> dict[int, float]:
    """Every legal move's code of the seat to move in `view` mapped to its expected worth to
    that seat in points (the mean over the deals judged), from `random.Random(seed)` and the
    work alone; ValueError if the seat is not to move."""
    legal = view.legal
    if not view.my_turn or not legal:
        raise ValueError(f"seat {view.seat} is not to move")
    budget = budget or review_budget()
    totals, deals, _ = fast_totals(view, random.Random(seed), budget)
    return {move.code: total / deals for move, total in zip(legal, totals, strict=True)}
