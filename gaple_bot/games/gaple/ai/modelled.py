"""A rollout in which every seat makes the play the fitted model of play scores highest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .opponents import PLAY_WEIGHTS
from .playout import HI, LO, NUM, SUM, Rules, finish


class Policy(NamedTuple):
    """The model's weights per count, and per tile (bit) the score of its pips and doubleness."""

    tile: tuple[float, ...]
    fit: float
    same: float
    out: float
    ends_out: float
    equal: float
    kept: float
    cover: float

    @classmethod
    def of(cls, weights: Sequence[float] = PLAY_WEIGHTS) -> Policy:
        """The policy of `opponents.play_features`' weights (the last term left out)."""
        w = [x / d for x, d in zip(weights[:9], (12, 1, 3, 3, 3, 5, 1, 3, 3), strict=True)]
        tile = tuple(SUM[b] * w[0] + float(LO[b] == HI[b]) * w[1] for b in range(28))
        return cls(tile, w[2], w[3], w[4], w[5], w[6], w[7], w[8])


def modelled_rollout(
    rules: Rules,
    hands: list[int],
    discs: list[int],
    left: int,
    right: int,
    seat: int,
    unplayed: int,
    policy: Policy,
) -> tuple[int, ...]:
    """Play the round out (mutating `hands`/`discs`) with every seat making its fitting play
    with the best score under `policy` (`opponents.play_features`' weights), seeing only its
    hand and the line (`unplayed`: the tiles not on it); the points. Stuck seats discard their
    lightest tile, as in `rollout`. Ties: the heavier tile, then the left end; a lone fitting
    tile goes right when it fits there. The line must not be empty and the round not over."""
    # `rollout`'s loop copied, not shared, on purpose (a call per move is too slow here): only
    # the choice of tile and end differs; the move itself and the round's end are `step`'s.
    num = NUM
    sums = SUM
    doubles, w_fit, w_same, w_out, w_ends_out, w_equal, w_kept, w_cover = policy
    seats = rules.seats
    discards = rules.discards
    in_hands = 0
    for h in hands:
        in_hands |= h
    while True:
        h = hands[seat]
        at_left = num[left]
        at_right = num[right]
        fit = h & (at_left | at_right)
        if fit:
            if fit & (fit - 1):
                outside = unplayed & ~h
                best_score = -1e9
                best_bit = 0
                best_left = best_right = 0
                rest_fit = fit
                while rest_fit:
                    bit = rest_fit & -rest_fit
                    rest_fit ^= bit
                    b = bit.bit_length() - 1
                    total = sums[b]
                    rest = h ^ bit
                    base = doubles[b]
                    for on_left in (False, True):
                        if on_left:
                            if not bit & at_left or (left == right and bit & at_right):
                                continue
                            covered, nl, nr = left, total - left, right
                            exposed = nl
                        else:
                            if not bit & at_right:
                                continue
                            covered, nl, nr = right, left, total - right
                            exposed = nr
                        ends = num[nl] | num[nr]
                        at_exposed, at_covered = num[exposed], num[covered]
                        score = (
                            base
                            + w_fit * (rest & ends).bit_count()
                            + w_same * (rest & at_exposed).bit_count()
                            + w_out * (outside & at_exposed).bit_count()
                            + w_ends_out * (outside & ends).bit_count()
                            + w_kept * (rest & at_covered).bit_count()
                            + w_cover * (outside & at_covered).bit_count()
                        )
                        if nl == nr:
                            score += w_equal
                        if score >= best_score:
                            best_score, best_bit, best_left, best_right = score, bit, nl, nr
                bit = best_bit
                left, right = best_left, best_right
            else:
                bit = fit
                total = sums[bit.bit_length() - 1]
                if bit & at_right:
                    right = total - right
                else:
                    left = total - left
            h ^= bit
            hands[seat] = h
            in_hands ^= bit
            unplayed ^= bit
            if not h:
                return finish(rules, hands, discs, seat)
            if not in_hands & (num[left] | num[right]):
                return finish(rules, hands, discs, -1)
        elif discards:
            bit = h & -h
            h ^= bit
            hands[seat] = h
            discs[seat] |= bit
            in_hands ^= bit
            if not h:
                return finish(rules, hands, discs, -1)
        seat = seat + 1 if seat + 1 < seats else 0
