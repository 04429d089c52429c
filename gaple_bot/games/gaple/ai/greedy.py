"""The greedy computer player: heaviest legal tile first, heaviest tile discarded."""

from __future__ import annotations

import random

from ..rules import Move, MoveKind, SeatView
from ..rules.tiles import BIT, HIGH, LOW, NUMBER_MASK, WEIGHT


def greedy_move(view: SeatView, rng: random.Random) -> Move:
    """Play (or discard) the heaviest tile among the legal moves.

    With a choice of end for the same tile, keep variety: open the number the rest of the hand
    holds most. Remaining ties are broken by `rng`.
    """
    legal = view.legal
    if not legal:
        raise ValueError("the seat has no move to make")
    if len(legal) == 1:
        return legal[0]
    best = legal[0]
    best_key: tuple[int, int, int, float] | None = None
    for move in legal:
        tile = move.tile
        keeps = 0
        if move.kind is MoveKind.PLAY and view.ends is not None:
            matched = view.ends[move.side]
            opened = HIGH[tile] if LOW[tile] == matched else LOW[tile]
            keeps = (view.hand & ~BIT[tile] & NUMBER_MASK[opened]).bit_count()
        key = (WEIGHT[tile], HIGH[tile], keeps, rng.random())
        if best_key is None or key > best_key:
            best_key, best = key, move
    return best
