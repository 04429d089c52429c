"""The other seats' recorded plays as evidence about their hands, under a learned model of play.

The model (`choice_weights`, fitted by bench/fit_choices.py to the reference player's choices)
scores each fitting play by what it looks like to the seat making it (`fastcore.choice_features`:
the tile, the hand it leaves, the new ends, what its followers are known to lack); a seat is
taken to pick a play with odds exp(score). A deal of the hidden tiles is then weighted by how
likely the recorded plays were, had the seats held the hands it gives them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

import numpy as np

from ..rules import Discarded, Passed, Played, SeatView, Side
from ..rules.tiles import TILE_COUNT
from .fastcore import CHOICE_FEATURES, EVIDENCE_FIELDS, Floats, Ints, choice_log_likelihoods
from .playout import BIT_OF, to_bits


@dataclass(frozen=True, slots=True)
class ChoiceModel:
    """The fitted model's arrays, as `fastcore.choice_score` takes them."""

    mean: Floats
    spread: Floats
    hidden: Floats
    bias: Floats
    outer: Floats
    direct: Floats


@cache
def choice_model(weights: str) -> ChoiceModel:
    """The learned model whose weights are this package's module `weights` (built once per
    process, at first use)."""
    # Written by bench/fit_choices.py, which imports this module: imported when first asked.
    w = importlib.import_module(f"{__package__}.{weights}")

    def floats(values: object) -> Floats:
        return np.array(values, dtype=np.float64)

    if not 0 < len(w.MEAN) <= CHOICE_FEATURES:
        # The compiled scoring reads as many features as the model has, unchecked.
        raise ValueError(f"{weights} reads {len(w.MEAN)} features, not 1 to {CHOICE_FEATURES}")
    return ChoiceModel(
        floats(w.MEAN),
        floats(w.SPREAD),
        floats(w.HIDDEN).reshape(len(w.MEAN), len(w.BIAS)),
        floats(w.BIAS),
        floats(w.OUTER),
        floats(w.DIRECT),
    )


def evidence_of(view: SeatView) -> Ints:
    """Every play by another seat in `view`'s record, as rows for
    `fastcore.choice_log_likelihoods` (see `EVIDENCE_FIELDS`).

    The hand a seat held at a play is its hand now plus the tiles it played from then on,
    plus its hidden discards when all of them came later; a play with some discards before it
    and some after is left out, as which were in hand is unknown.
    """
    me = view.seat
    seats = view.config.seats
    events = view.events
    discard_at: dict[int, list[int]] = {}
    played_by: dict[int, list[int]] = {}
    for index, event in enumerate(events):
        if isinstance(event, Discarded) and event.seat != me:
            discard_at.setdefault(event.seat, []).append(index)
        elif isinstance(event, Played):
            played_by.setdefault(event.seat, []).append(index)
    counts = list(view.hand_counts)
    for event in events:
        if isinstance(event, Played | Discarded):
            counts[event.seat] += 1
    played = to_bits(1 << view.start) if view.start >= 0 else 0
    lacked = [0] * seats
    rows: list[list[int]] = []
    for index, event in enumerate(events):
        if isinstance(event, Passed | Discarded):
            left, right = event.ends
            lacked[event.seat] |= 1 << left | 1 << right
        if isinstance(event, Played | Discarded):
            counts[event.seat] -= 1
        if not isinstance(event, Played):
            continue
        bit = BIT_OF[event.tile]
        seat = event.seat
        marks = discard_at.get(seat, [])
        before = sum(1 for at in marks if at < index)
        if seat != me and event.ends is not None and not 0 < before < len(marks):
            later = 0
            for at in played_by[seat]:
                if at >= index:
                    later |= 1 << BIT_OF[events[at].tile]  # type: ignore[union-attr]
            followers = [(seat + k) % seats for k in range(1, seats)]
            voids = sum(lacked[f] << (7 * k) for k, f in enumerate(followers[:3]))
            fewest = min(counts[f] for f in followers)
            left, right = event.ends
            rows.append(
                [
                    seat,
                    later,
                    int(bool(marks) and before == 0),
                    played,
                    left,
                    right,
                    bit,
                    int(event.side is Side.LEFT),
                    voids,
                    fewest,
                    0,
                ]
            )
        played |= 1 << bit
    return np.array(rows, dtype=np.int64).reshape(len(rows), EVIDENCE_FIELDS)


def reweigh_by_choices(view: SeatView, power: float, weights: str) -> ChoiceReweigh | None:
    """A reweighing of deal pools for `view` by the plays' likelihood under the model in module
    `weights`, raised to `power`, or None when no other seat has played yet."""
    evidence = evidence_of(view)
    if not len(evidence):
        return None
    return ChoiceReweigh(evidence, power, choice_model(weights))


@dataclass(frozen=True, slots=True)
class ChoiceReweigh:
    """Multiplies a pool's weights by each deal's likelihood of the recorded plays."""

    evidence: Ints
    power: float
    model: ChoiceModel

    def __call__(self, hands: Ints, discs: Ints, weights: Floats) -> Floats:
        """The pool's weights times each deal's likelihood (scaled so the largest is 1).

        A seat's share depends only on its own hand and discards, and deals late in a round
        repeat them often, so each seat's share is worked out once per distinct pair."""
        logs = np.zeros(len(hands), dtype=np.float64)
        m = self.model
        for seat in np.unique(self.evidence[:, 0]).tolist():
            rows = self.evidence[self.evidence[:, 0] == seat]
            keys = hands[:, seat] << TILE_COUNT | discs[:, seat]
            distinct, where = np.unique(keys, return_inverse=True)
            seat_hands = np.zeros((len(distinct), hands.shape[1]), dtype=np.int64)
            seat_discs = np.zeros_like(seat_hands)
            seat_hands[:, seat] = distinct >> TILE_COUNT
            seat_discs[:, seat] = distinct & ((1 << TILE_COUNT) - 1)
            shares = np.zeros(len(distinct), dtype=np.float64)
            choice_log_likelihoods(
                seat_hands,
                seat_discs,
                rows,
                m.mean,
                m.spread,
                m.hidden,
                m.bias,
                m.outer,
                m.direct,
                shares,
            )
            logs += shares[where.reshape(-1)]
        # In logs, scaled by the likeliest deal the pool can give: a deal of weight 0 that
        # the plays would favour must not push every other weight under what floats hold.
        with np.errstate(divide="ignore"):
            total = np.log(weights) + self.power * logs
        out: Floats = np.exp(total - total.max())
        return out
