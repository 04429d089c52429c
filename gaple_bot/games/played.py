"""The moves a stored game made, each named as it was played (with what it took), and the
better moves a review names beside them, each named in the position it was better in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..i18n import Translator
from .seam import JSON, AnyGameKind, AnyMatch, GameDataError

Key = tuple[int, int]
"""A move's round and ply, both from 1."""


@dataclass(frozen=True, slots=True)
class NamedMoves:
    """`played`: every move made, by round and ply, as it was played; `better`: the better
    moves asked for, by the round and ply of the move made instead."""

    played: dict[Key, str] = field(default_factory=dict)
    better: dict[Key, str] = field(default_factory=dict)


def named_moves(
    kind: AnyGameKind,
    t: Translator,
    config: JSON,
    rounds: Sequence[tuple[JSON, Sequence[int]]],
    best: Mapping[Key, int] | None = None,
) -> NamedMoves:
    """Every move of the rounds that are over named as it was played (the kind's
    `played_label`, with what the move took), by round and ply (both from 1): how a review
    names the moves people made; and each better move of `best` (its code, by the round and
    ply of the move made instead) named where it was better (the kind's `better_label`, given
    the events of the move made); GameDataError if the game does not replay."""
    named = NamedMoves()
    if not rounds:
        return named
    best = best or {}
    presentation = kind.presentation
    match: AnyMatch = kind.replay(config, [(rounds[0][0], ())])
    for number, (deal, codes) in enumerate(rounds, start=1):
        if number > 1:
            match.start_round(deal)
        played: dict[Key, str] = {}
        better: dict[Key, str] = {}
        for ply, code in enumerate(codes, start=1):
            seat = match.to_move
            if seat is None:
                raise GameDataError(f"a move after round {number} ended")
            events = match.apply(seat, code)
            played[number, ply] = presentation.played_label(t, code, events)
            if (number, ply) in best:
                better[number, ply] = presentation.better_label(t, best[number, ply], events)
        if not match.round_over:
            break
        named.played.update(played)
        named.better.update(better)
    return named
