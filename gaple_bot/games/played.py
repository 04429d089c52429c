"""The moves a stored game made, each named as it was played (with what it took)."""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import Translator
from .seam import JSON, AnyGameKind, AnyMatch, GameDataError


def played_labels(
    kind: AnyGameKind,
    t: Translator,
    config: JSON,
    rounds: Sequence[tuple[JSON, Sequence[int]]],
) -> dict[tuple[int, int], str]:
    """Every move of the rounds that are over named as it was played (the kind's
    `played_label`, with what the move took), by round and ply (both from 1): how a review
    names the moves people made; GameDataError if the game does not replay."""
    labels: dict[tuple[int, int], str] = {}
    if not rounds:
        return labels
    presentation = kind.presentation
    match: AnyMatch = kind.replay(config, [(rounds[0][0], ())])
    for number, (deal, codes) in enumerate(rounds, start=1):
        if number > 1:
            match.start_round(deal)
        named: dict[tuple[int, int], str] = {}
        for ply, code in enumerate(codes, start=1):
            seat = match.to_move
            if seat is None:
                raise GameDataError(f"a move after round {number} ended")
            named[number, ply] = presentation.played_label(t, code, match.apply(seat, code))
        if not match.round_over:
            break
        labels.update(named)
    return labels
