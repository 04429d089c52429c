"""The arena's reference opponent: plain flat Monte Carlo with uniformly random rollouts."""

from __future__ import annotations

import random

from ..rules import Move, SeatView
from .greedy import taken_by
from .sampler import Sampler
from .sim import State, pack

REFERENCE_DEALS = 32
"""Deals the reference player draws per decision; every legal move is judged on each."""


def round_margin(points: list[int], seat: int) -> int:
    """The seat's points for the round less the best other seat's: the plain round value."""
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)


def reference_move(view: SeatView, rng: random.Random, deals: int = REFERENCE_DEALS) -> Move:
    """The legal move with the best average round margin over `deals` deals of the unseen
    cards (other hands and the pile, every way alike: `Sampler`), each move played out once
    per deal with uniformly random play by every seat (`State.random_rollout`).

    No time cap, no match awareness, no inference: it is the fixed yardstick the levels are
    measured against, and not offered to chats. Ties go to the earlier legal move.
    """
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no move to make")
    if len(legal) == 1:
        return legal[0]
    me = view.seat
    sampler = Sampler(view)
    middle = list(view.middle)
    keys = [pack(cards) for cards in view.collections]
    hand = list(view.hand)
    plays = [(move.card, taken_by(move, middle)) for move in legal]
    totals = [0] * len(legal)
    for _ in range(deals):
        hands, pile = sampler.sample(rng)
        hands[me] = hand
        base = State(hands, middle, pile, keys, me)
        for j, (card, taken) in enumerate(plays):
            state = base.copy()
            state.play(card, taken)
            state.random_rollout(rng)
            totals[j] += round_margin(state.points(), me)
    return legal[max(range(len(legal)), key=totals.__getitem__)]
