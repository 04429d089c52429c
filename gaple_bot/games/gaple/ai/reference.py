"""The arena's reference opponent: plain flat Monte Carlo with uniformly random rollouts."""

from __future__ import annotations

import random

from ..rules import Move, SeatView
from .dealer import Dealer
from .fastcore import RANDOM
from .fastsearch import FastJudge, Valuation, core_moves
from .playout import rules_of

REFERENCE_DEALS = 50
"""Deals the reference player draws per decision; every legal move is judged on each."""


def round_margin(points: tuple[int, ...], seat: int) -> int:
    """The seat's points for the round less the best other seat's: the plain round value."""
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


def reference_move(view: SeatView, rng: random.Random, deals: int = REFERENCE_DEALS) -> Move:
    """The legal move with the best average round margin over `deals` deals of the hidden
    tiles drawn uniformly among those consistent with the public record (passes, discards,
    counts, C4's first lead), each move played out once per deal with random play by all.

    No time cap, no match awareness, no inference from plays: it is the fixed yardstick the
    levels are measured against. Ties go to the earlier legal move. The deals and play-outs
    run on the compiled core (`fastsearch`), which plays `playout.random_rollout`'s policy.
    """
    legal = view.legal
    if not legal:
        raise ValueError("the seat has no move to make")
    if len(legal) == 1:
        return legal[0]
    rules = rules_of(view.config)
    moves = core_moves(legal)
    judge = FastJudge(
        rules,
        Dealer.of(view, rules.seats),
        view.ends if view.ends is not None else (-1, -1),
        view.seat,
        moves,
        RANDOM,
        0,
        Valuation(match=False),
        rng,
    )
    worth, weights = judge.judge(range(len(legal)), deals)
    totals = (worth * weights[:, None]).sum(axis=0).tolist()
    return legal[max(range(len(legal)), key=totals.__getitem__)]
