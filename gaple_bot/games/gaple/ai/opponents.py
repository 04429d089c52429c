"""How likely the other seats' plays were given their dealt hands, under a fitted model of play."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import Discarded, Played, SeatView, Side
from .playout import BIT_OF, HI, LO, NUM, SUM, to_bits

PLAY_WEIGHTS: tuple[float, ...] = (
    2.463,
    1.078,
    -0.225,
    1.169,
    -0.232,
    0.136,
    0.152,
    0.322,
    0.993,
    -0.024,
)
"""The weights of `play_features`, fitted by bench/fit_opponents.py to the reference player's
choices (maximum likelihood of a softmax over the fitting moves)."""


def play_features(
    hand: int, played: int, ends: tuple[int, int], bit: int, side: Side
) -> list[float]:
    """What a choice of tile and end looks like to the seat that made it, as numbers.

    `hand` is its hand before the play and `played` the line's tiles then (simulation bits);
    the play puts `bit` at `side` of `ends`. In order: the tile's pips, whether it is a double,
    the tiles left in hand that fit the new ends, those showing the new number, the tiles of
    that number neither held nor on the line, those of either new end, whether both ends show
    the same number, the tiles left in hand showing the number covered, the tiles of that
    number neither held nor on the line, and a double's tiles left showing its number.
    """
    left, right = ends
    if side is Side.LEFT:
        covered, new_left, new_right = left, SUM[bit] - left, right
        exposed = new_left
    else:
        covered, new_left, new_right = right, left, SUM[bit] - right
        exposed = new_right
    rest = hand & ~(1 << bit)
    outside = ~(played | hand)
    open_ends = NUM[new_left] | NUM[new_right]
    double = float(LO[bit] == HI[bit])
    same_number = (rest & NUM[exposed]).bit_count() / 3
    return [
        SUM[bit] / 12,
        double,
        (rest & open_ends).bit_count() / 3,
        same_number,
        (NUM[exposed] & outside).bit_count() / 3,
        (open_ends & outside).bit_count() / 5,
        float(new_left == new_right),
        (rest & NUM[covered]).bit_count() / 3,
        (NUM[covered] & outside).bit_count() / 3,
        double * same_number,
    ]


def play_options(hand: int, ends: tuple[int, int]) -> list[tuple[int, Side]]:
    """The plays a hand (simulation bits) has on `ends`: (bit, side), the right end first; a
    tile fitting two equal ends is one play (C7)."""
    left, right = ends
    fit = hand & (NUM[left] | NUM[right])
    out: list[tuple[int, Side]] = []
    while fit:
        low = fit & -fit
        fit ^= low
        bit = low.bit_length() - 1
        if low & NUM[right]:
            out.append((bit, Side.RIGHT))
        if low & NUM[left] and (left != right or not low & NUM[right]):
            out.append((bit, Side.LEFT))
    return out


Option = tuple[int, int, float, tuple[tuple[int, float], ...]]
"""A possible play of one recorded choice: (its tile's bit, 1 if it is the play made else 0,
its score's constant part, (mask, coefficient) pairs: the score adds coefficient x the tiles
of the mask in the hand then)."""


def _option(
    weights: Sequence[float], played: int, ends: tuple[int, int], bit: int, side: Side, chosen: bool
) -> Option:
    """A play's score under `weights` as a constant plus terms in the hand then.

    `play_features` is linear in counts of hand tiles within masks: with `rest` the hand less
    the tile, |rest & M| = |hand & M| - [bit in M], and |M & ~(played | hand)| =
    |M & ~played| - |M & hand|. So the score is split once here, not per deal.
    """
    left, right = ends
    if side is Side.LEFT:
        covered, new_left, new_right, exposed = left, SUM[bit] - left, right, SUM[bit] - left
    else:
        covered, new_left, new_right, exposed = right, left, SUM[bit] - right, SUM[bit] - right
    w = weights
    one = 1 << bit
    open_ends = NUM[new_left] | NUM[new_right]
    double = float(LO[bit] == HI[bit])
    const = w[0] * SUM[bit] / 12 + w[1] * double + w[6] * float(new_left == new_right)
    terms: dict[int, float] = {}

    def add(mask: int, coef: float, minus_bit: bool) -> None:
        # coef x |hand & mask|, less coef when the tile itself is in the mask (rest).
        nonlocal const
        terms[mask] = terms.get(mask, 0.0) + coef
        if minus_bit and one & mask:
            const -= coef

    # rest-based counts
    add(open_ends, w[2] / 3, True)
    add(NUM[exposed], w[3] / 3 + w[9] * double / 3, True)
    add(NUM[covered], w[7] / 3, True)
    # outside-based counts: |M & ~played| - |M & hand|
    const += w[4] * (NUM[exposed] & ~played).bit_count() / 3
    add(NUM[exposed], -w[4] / 3, False)
    const += w[5] * (open_ends & ~played).bit_count() / 5
    add(open_ends, -w[5] / 5, False)
    const += w[8] * (NUM[covered] & ~played).bit_count() / 3
    add(NUM[covered], -w[8] / 3, False)
    pairs = tuple((mask, coef) for mask, coef in terms.items() if coef)
    return bit, int(chosen), const, pairs


@dataclass(frozen=True, slots=True)
class Evidence:
    """One recorded play by another seat: the plays it might have had, to be scored against
    the hand it held then (the hand now, plus `later`, plus its discards if `discards`)."""

    seat: int
    later: int
    """The tiles it played from this play on (this one included), simulation bits."""
    discards: bool
    """Whether all its hidden discards came after this play (so were in its hand then)."""
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """The other seats' recorded plays as evidence about their hands: each seat is taken to
    choose among its fitting plays with odds exp(score), the score linear in `play_features`
    (weights fitted to the reference player), so a deal is weighted by how likely the plays
    were had the seats held the dealt hands."""

    evidence: tuple[Evidence, ...]

    @property
    def seats(self) -> list[int]:
        """The seats some evidence is about, in order."""
        return sorted({item.seat for item in self.evidence})

    @classmethod
    def of(cls, view: SeatView, weights: Sequence[float] = PLAY_WEIGHTS) -> OpponentModel:
        """The evidence in `view`'s record, seen from `view.seat`."""
        me = view.seat
        events = view.events
        played = to_bits(1 << view.start) if view.start >= 0 else 0
        discard_at: dict[int, list[int]] = {}
        for index, event in enumerate(events):
            if isinstance(event, Discarded) and event.seat != me:
                discard_at.setdefault(event.seat, []).append(index)
        # Candidate tiles for another seat's hand: anything not visibly elsewhere.
        mine = to_bits(view.hand | view.own_discards)
        found: list[Evidence] = []
        for index, event in enumerate(events):
            if not isinstance(event, Played):
                continue
            bit = BIT_OF[event.tile]
            if event.seat != me and event.ends is not None:
                seat = event.seat
                later = 0
                for after in events[index:]:
                    if isinstance(after, Played) and after.seat == seat:
                        later |= 1 << BIT_OF[after.tile]
                marks = discard_at.get(seat, [])
                before = sum(1 for at in marks if at < index)
                if 0 < before < len(marks):
                    played |= 1 << bit
                    continue  # some discards before, some after: which were held is unknown
                ends = event.ends
                possible = ~(played | mine) & ((1 << 28) - 1)
                options = tuple(
                    _option(weights, played, ends, b, side, b == bit and side == event.side)
                    for b, side in play_options(possible | later, ends)
                )
                if len(options) > 1:
                    found.append(Evidence(seat, later, bool(marks) and before == 0, options))
            played |= 1 << bit
        return cls(tuple(found))

    def likelihood(
        self, hands: Sequence[int], discs: Sequence[int], memo: dict[tuple[int, int, int], float]
    ) -> float:
        """How likely the recorded plays were given the other seats' hidden `hands` and
        `discs` now (simulation bits), up to a factor that is the same for every deal; `memo`
        keeps each seat's share by its hand and discards, for the deals of one decision."""
        out = 1.0
        for seat in self.seats:
            key = (seat, hands[seat], discs[seat])
            share = memo.get(key)
            if share is None:
                share = memo[key] = self._share(seat, hands[seat], discs[seat])
            out *= share
        return out

    def _share(self, seat: int, now: int, thrown: int) -> float:
        """The likelihood of `seat`'s recorded plays had it held `now` and discarded `thrown`."""
        out = 1.0
        exp = math.exp
        for item in self.evidence:
            if item.seat != seat:
                continue
            hand = now | item.later
            if item.discards:
                hand |= thrown
            total = 0.0
            mine = 0.0
            count = 0
            for bit, chosen, const, pairs in item.options:
                if not hand >> bit & 1:
                    continue
                score = const
                for mask, coef in pairs:
                    score += coef * (hand & mask).bit_count()
                odds = exp(score)
                total += odds
                count += 1
                if chosen:
                    mine = odds
            if count > 1:
                out *= mine / total
        return out
