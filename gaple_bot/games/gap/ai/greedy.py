"""The easy computer player: the move that most improves its own round score right now."""

from __future__ import annotations

import random

from ..rules import Move, SeatView
from .sim import ADD, pack, score, takes


def taken_by(move: Move, middle: list[int] | tuple[int, ...]) -> list[int]:
    """G4: the cards a legal `move` takes from `middle` (empty: the card joins the middle)."""
    exact, cards, _ = takes(move.card, middle)
    return cards if exact else list(move.neighbours)


def gain(move: Move, middle: list[int] | tuple[int, ...], key: int) -> int:
    """How much a legal `move` changes the G5 score of a collection with packed counts `key`."""
    taken = taken_by(move, middle)
    if not taken:
        return 0
    return score(key + ADD[move.card] + sum(ADD[c] for c in taken)) - score(key)


def greedy_move(view: SeatView, rng: random.Random) -> Move:
    """The legal move with the best immediate change of the seat's own round score (G5 on its
    collection after the move); ties are broken by `rng`."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no move to make")
    key = pack(view.collections[view.seat])
    best = legal[0]
    best_key: tuple[int, float] | None = None
    for move in legal:
        candidate = (gain(move, view.middle, key), rng.random())
        if best_key is None or candidate > best_key:
            best_key, best = candidate, move
    return best
