"""The arena's reference opponent: plain flat Monte Carlo with uniformly random rollouts."""

from __future__ import annotations

import random

from ..rules import Move, SeatView
from .montecarlo import Dealer
from .playout import move_parts, random_rollout, rules_of, step

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
    levels are measured against. Ties go to the earlier legal move.
    """
    legal = view.legal
    if not legal:
        raise ValueError("the seat has no move to make")
    if len(legal) == 1:
        return legal[0]
    me = view.seat
    rules = rules_of(view.config)
    dealer = Dealer.of(view, rules.seats)
    left, right = view.ends if view.ends is not None else (-1, -1)
    moves = [move_parts(move) for move in legal]
    totals = [0.0] * len(legal)
    for _ in range(deals):
        hands, discs, weight = dealer.deal(rng)
        for j, (kind, bit, side) in enumerate(moves):
            h, d = list(hands), list(discs)
            nxt = step(rules, h, d, left, right, me, kind, bit, side)
            points = nxt.points
            if points is None:
                points = random_rollout(rules, h, d, nxt.left, nxt.right, nxt.seat, rng)
            totals[j] += weight * round_margin(points, me)
    return legal[max(range(len(legal)), key=totals.__getitem__)]
