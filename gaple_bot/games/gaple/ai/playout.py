"""A lean simulation of the rest of a round on bitmasks, for rollouts and exact search."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from ..rules import GameConfig, Move, MoveKind, RuleSet, Side
from ..rules.tiles import HIGH, LOW, TILE_COUNT, WEIGHT, heaviness, lightness
from .sampler import bits_of

# Tiles are renumbered here so that bit order is greedy order (C4's weight, then higher end):
# a hand's heaviest tile is then its highest set bit. `to_bits` and `to_tiles` convert from and
# to the engine's tile ids; everything else in this module stays in this order.
_ORDER: tuple[int, ...] = tuple(sorted(range(TILE_COUNT), key=heaviness))
"""Bit -> engine tile id, lightest (by weight, then higher end) first."""
TILE_OF = _ORDER
BIT_OF: tuple[int, ...] = tuple(_ORDER.index(t) for t in range(TILE_COUNT))
"""Engine tile id -> bit."""
LO: tuple[int, ...] = tuple(LOW[t] for t in _ORDER)
HI: tuple[int, ...] = tuple(HIGH[t] for t in _ORDER)
SUM: tuple[int, ...] = tuple(WEIGHT[t] for t in _ORDER)
"""Bit -> the tile's two numbers added: the other end of a matched number n is SUM - n."""
NUM: tuple[int, ...] = tuple(
    sum(1 << b for b in range(TILE_COUNT) if n in (LO[b], HI[b])) for n in range(7)
)
"""Number -> mask of the tiles showing it."""
_PIP_CHUNKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(SUM[7 * k + i] for i in range(7) if bits >> i & 1) for bits in range(128))
    for k in range(4)
)
_TO_BITS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << BIT_OF[7 * k + i] for i in range(7) if bits >> i & 1) for bits in range(128))
    for k in range(4)
)
_TO_TILES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(1 << _ORDER[7 * k + i] for i in range(7) if bits >> i & 1) for bits in range(128))
    for k in range(4)
)


class Rules(NamedTuple):
    """What a simulation needs from the config."""

    seats: int
    classic: bool
    discards: bool
    """D4: a stuck seat discards (else it passes)."""


def rules_of(config: GameConfig) -> Rules:
    """The simulation rules of a game config."""
    return Rules(config.seats, config.rule_set is RuleSet.CLASSIC, config.discards_when_stuck)


# to_bits, to_tiles and pip_count repeat the same four 7-bit lookups on purpose, for speed: a
# loop or a shared helper would cost more per mask, and every sampled deal is converted and
# every rollout's end counted with them.
def to_bits(mask: int) -> int:
    """An engine tile mask in this module's bit order."""
    t = _TO_BITS
    return t[0][mask & 127] | t[1][mask >> 7 & 127] | t[2][mask >> 14 & 127] | t[3][mask >> 21]


def to_tiles(mask: int) -> int:
    """A mask in this module's bit order as an engine tile mask."""
    t = _TO_TILES
    return t[0][mask & 127] | t[1][mask >> 7 & 127] | t[2][mask >> 14 & 127] | t[3][mask >> 21]


def pip_count(mask: int) -> int:
    """The pips of the tiles in a mask (this module's bit order)."""
    t = _PIP_CHUNKS
    return t[0][mask & 127] + t[1][mask >> 7 & 127] + t[2][mask >> 14 & 127] + t[3][mask >> 21]


def _lowest_count(held: Sequence[int]) -> int:
    """C11/D6: lowest pips, then fewest tiles, then the lighter lightest tile wins."""

    def key(seat: int) -> tuple[int, int, tuple[int, int]]:
        mask = held[seat]
        tiles = [_ORDER[b] for b in range(TILE_COUNT) if mask >> b & 1]
        return (pip_count(mask), len(tiles), min(map(lightness, tiles), default=(-1, -1)))

    return min(range(len(held)), key=key)


def finish(rules: Rules, hands: Sequence[int], discs: Sequence[int], gaple: int) -> tuple[int, ...]:
    """Every seat's points for a round that just ended; `gaple` is the seat that played its
    last tile under C10, or -1 (blocked, or any end under the discard rules)."""
    if rules.classic:
        counts = [pip_count(h) for h in hands]
        if gaple >= 0:
            winner = gaple
        else:
            # The lowest count alone decides unless it is shared (then C11's tie-breaks).
            lowest = min(counts)
            winner = counts.index(lowest) if counts.count(lowest) == 1 else _lowest_count(hands)
        # C12: the winner takes the pips left in every other hand.
        points = [0] * rules.seats
        points[winner] = sum(counts) - counts[winner]
        return tuple(points)
    counts = [pip_count(h | d) for h, d in zip(hands, discs, strict=True)]
    # D6/D7: every seat scores the difference to each higher count (the winner is implied).
    return tuple(sum(c - mine for c in counts if c > mine) for mine in counts)


class Step(NamedTuple):
    """The position after one move: ends, seat to move, and points if the round ended."""

    left: int
    right: int
    seat: int
    points: tuple[int, ...] | None


def step(
    rules: Rules,
    hands: list[int],
    discs: list[int],
    left: int,
    right: int,
    seat: int,
    kind: MoveKind,
    bit: int,
    side: Side,
) -> Step:
    """Make one legal move for `seat` (mutating `hands`/`discs`): play bit `bit` at `side`,
    pass, or discard it. `left` < 0 means the line is empty (a lead)."""
    if kind is MoveKind.PLAY:
        hands[seat] ^= 1 << bit
        if left < 0:
            left, right = LO[bit], HI[bit]
        elif side is Side.LEFT:
            left = SUM[bit] - left  # C7: the tile's other number becomes the end
        else:
            right = SUM[bit] - right
        if not hands[seat]:
            return Step(left, right, seat, finish(rules, hands, discs, seat))
        in_hands = 0
        for h in hands:
            in_hands |= h
        if not in_hands & (NUM[left] | NUM[right]):
            return Step(left, right, seat, finish(rules, hands, discs, -1))
    elif kind is MoveKind.DISCARD:
        hands[seat] ^= 1 << bit
        discs[seat] |= 1 << bit
        if not hands[seat]:
            return Step(left, right, seat, finish(rules, hands, discs, -1))  # D5
    return Step(left, right, seat + 1 if seat + 1 < rules.seats else 0, None)


def rollout(
    rules: Rules,
    hands: list[int],
    discs: list[int],
    left: int,
    right: int,
    seat: int,
) -> tuple[int, ...]:
    """Play the round out with every seat greedy (mutating `hands`/`discs`); the points.

    The line must not be empty and the round must not be over. A greedy seat plays its
    heaviest fitting tile; with a choice of end it opens the number it holds more of. A stuck
    seat discards its lightest tile: discards still count (D6), so the heavy ones are better
    kept in the hope of playing them.
    """
    # Inlined on purpose, for speed: this loop, `keeping_rollout`'s and `random_rollout`'s
    # repeat `step`'s move (C7's new end, the D4 discard, the round's end under C10 and D5)
    # instead of calling it, with the tables in locals and the tiles in hands kept up to date
    # rather than gathered per move. A rollout makes every move of a round, thousands of
    # times per decision. A change to how a move is made goes into `step`, the three rollouts
    # and exact.py's solver, which inlines it too (tests/ai/test_ai_playout.py checks `step`,
    # `rollout` and `keeping_rollout` against the engine).
    num = NUM
    sums = SUM
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
            top = fit.bit_length() - 1
            bit = 1 << top
            total = sums[top]
            h ^= bit
            if bit & at_right:
                if bit & at_left and left != right:
                    if (h & num[total - left]).bit_count() > (h & num[total - right]).bit_count():
                        left = total - left
                    else:
                        right = total - right
                else:
                    right = total - right
            else:
                left = total - left
            hands[seat] = h
            in_hands ^= bit
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


def move_parts(move: Move) -> tuple[MoveKind, int, Side]:
    """A move's kind, bit (this module's order; -1 for a pass) and side."""
    bit = BIT_OF[move.tile] if move.tile >= 0 else -1
    return move.kind, bit, move.side


def keeping_rollout(
    rules: Rules,
    hands: list[int],
    discs: list[int],
    left: int,
    right: int,
    seat: int,
    keep: int,
) -> tuple[int, ...]:
    """Play the round out like `rollout`, but every seat weighs a tile's pips against what it
    keeps playable: it plays the fitting tile and end with the most pips plus `keep` for each
    tile left in its hand that fits the ends it leaves (ties: the heavier tile, then the right
    end). A seat sees
    only its own hand and the line, as a real player does. Stuck seats discard as in `rollout`;
    `keep` is at least 1.
    """
    # `rollout`'s loop copied, not shared, on purpose (a call per move is too slow here): only
    # the choice of tile and end differs; the move itself and the round's end are `step`'s.
    num = NUM
    sums = SUM
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
                best_score = -1
                best_bit = 0
                best_left = best_right = 0
                rest = fit
                while rest:
                    bit = rest & -rest
                    rest ^= bit
                    total = sums[bit.bit_length() - 1]
                    others = h ^ bit
                    # Ties go to the heavier tile, then to the right end.
                    if bit & at_left and (left != right or not bit & at_right):
                        nl = total - left
                        score = total + keep * (others & (num[nl] | at_right)).bit_count()
                        if score >= best_score:
                            best_score, best_bit, best_left, best_right = score, bit, nl, right
                    if bit & at_right:
                        nr = total - right
                        score = total + keep * (others & (at_left | num[nr])).bit_count()
                        if score >= best_score:
                            best_score, best_bit, best_left, best_right = score, bit, left, nr
                bit = best_bit
                left, right = best_left, best_right
            else:
                bit = fit
                total = sums[bit.bit_length() - 1]
                others = h ^ bit
                if bit & at_right:
                    if bit & at_left and left != right:
                        nl, nr = total - left, total - right
                        if (others & (num[nl] | at_right)).bit_count() > (
                            others & (at_left | num[nr])
                        ).bit_count():
                            left = nl
                        else:
                            right = nr
                    else:
                        right = total - right
                else:
                    left = total - left
            h ^= bit
            hands[seat] = h
            in_hands ^= bit
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


def random_rollout(
    rules: Rules,
    hands: list[int],
    discs: list[int],
    left: int,
    right: int,
    seat: int,
    rng: random.Random,
) -> tuple[int, ...]:
    """Play the round out with every seat making a uniformly random legal move (mutating
    `hands`/`discs`); the points. The line must not be empty and the round not over."""
    # `rollout`'s loop copied, not shared, on purpose (a call per move is too slow here): only
    # the random choice differs; the move itself and the round's end are `step`'s.
    num = NUM
    sums = SUM
    seats = rules.seats
    discards = rules.discards
    draw = rng.random
    in_hands = 0
    for h in hands:
        in_hands |= h
    while True:
        h = hands[seat]
        at_left = num[left]
        at_right = num[right]
        fit = h & (at_left | at_right)
        if fit:
            # (bit, played at the left end): C7, one move when both ends show the same number.
            options: list[tuple[int, bool]] = []
            for b in bits_of(fit):
                mask = 1 << b
                if mask & at_right:
                    options.append((b, False))
                if mask & at_left and (left != right or not mask & at_right):
                    options.append((b, True))
            b, on_left = options[int(draw() * len(options))]
            bit = 1 << b
            if on_left:
                left = sums[b] - left
            else:
                right = sums[b] - right
            h ^= bit
            hands[seat] = h
            in_hands ^= bit
            if not h:
                return finish(rules, hands, discs, seat)
            if not in_hands & (num[left] | num[right]):
                return finish(rules, hands, discs, -1)
        elif discards:
            held = bits_of(h)
            bit = 1 << held[int(draw() * len(held))]
            h ^= bit
            hands[seat] = h
            discs[seat] |= bit
            in_hands ^= bit
            if not h:
                return finish(rules, hands, discs, -1)
        seat = seat + 1 if seat + 1 < seats else 0
