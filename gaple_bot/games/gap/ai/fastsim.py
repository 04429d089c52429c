"""Gap's play-outs compiled with numba: `sim.State`'s rules on fixed-size integer arrays.

A round in play is a few arrays: `hands[seat, i]` (each hand in its order, `hand_len[seat]`
cards), `middle[:mlen]` (in the order the cards arrived), `pile[drawn:plen]` and `keys[seat]`,
the seats' collections as `sim`'s packed colour counts. The greedy policy, its ties and the
order of the middle are `sim.State.rollout`'s, play for play; random play draws from a
splitmix64 generator whose state (a uint64) the caller passes in and gets back (seeded, so the
same seed plays the same; never numba's global generator).

A play-out is one compiled function, not calls to helpers taking arrays: numba counts
references on every array passed (atomic operations), which cost more than a play's work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ...jit import compiled
from ..rules.cards import COLOUR, LOWER, UPPER, VALUE
from ..rules.config import MIDDLE_SIZE

F = TypeVar("F", bound=Callable[..., Any])
Ints = npt.NDArray[np.int64]

HAND = 6
"""G3: no hand holds more than six cards."""
ROOM = 64
"""Room for the middle and the pile: the 60 cards of G1 fit in it."""
RECORD = 8
"""A recorded play: the card, how many cards it took, the cards taken (at most six)."""
GREEDY, RANDOM, MIXED = 0, 1, 2
"""Play-out policies: `sim.State.rollout`, `random_rollout` and `mixed_rollout`."""

VALUE_OF = np.array(VALUE, dtype=np.int64)
LOWER_OF = np.array(LOWER, dtype=np.int64)
UPPER_OF = np.array(UPPER, dtype=np.int64)
ADD_OF = np.array([1 << (4 * colour) for colour in COLOUR], dtype=np.int64)
"""Card -> what taking it adds to packed colour counts (`sim.ADD`)."""


def inlined(function: F) -> F:
    """`compiled`, but numba puts the function's body into every compiled caller (for small
    helpers on scalars: a call between compiled functions is not inlined otherwise)."""
    import numba

    return cast(F, numba.njit(inline="always", cache=True, nogil=True)(function))


GOLDEN = np.uint64(0x9E3779B97F4A7C15)
"""splitmix64's step: a state advances by adding it, then `mix` gives its 64 bits."""
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_U11, _U27, _U30, _U31, _U33 = (np.uint64(n) for n in (11, 27, 30, 31, 33))
_UNIT = 1.0 / 9007199254740992.0
"""2**-53: a 53-bit integer times it is a float in [0, 1)."""


@inlined
def mix(state: np.uint64) -> np.uint64:
    """splitmix64's 64 random bits for a state (advanced by `GOLDEN` before each draw)."""
    z = (state ^ (state >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@inlined
def below(bits: np.uint64, n: int) -> int:
    """A uniformly random int in [0, n) from 64 random bits, for n < 2**31 (31 bits scaled)."""
    # numba: int() of a uint64 stays unsigned, and unsigned beside signed makes a float.
    return np.int64(((bits >> _U33) * np.uint64(n)) >> _U31)  # type: ignore[return-value]


@inlined
def unit(bits: np.uint64) -> float:
    """A uniformly random float in [0, 1) from 64 random bits."""
    return np.float64(bits >> _U11) * _UNIT


def _half(key: int) -> int:
    """Three colours' packed counts -> their largest count, how many colours hold it, their
    smallest count (16: no colour present) and how many hold it, 4, 4, 8 and 8 bits."""
    present = [n for n in ((key >> (4 * colour)) & 15 for colour in range(3)) if n]
    if not present:
        return 16 << 8
    largest, smallest = max(present), min(present)
    return largest | present.count(largest) << 4 | smallest << 8 | present.count(smallest) << 16


HALF_OF = np.array([_half(key) for key in range(1 << 12)], dtype=np.int64)
"""The first three colours' packed counts (or the last three's) -> `_half`'s summary: G5's
score is two table reads and a few operations, no loop over the colours."""
SCRATCH = 80
"""A play-out's scratch room: the middle grouped by value (`playout`)."""


@inlined
def score(key: int) -> int:
    """G5: the score of a collection with these packed colour counts (`sim.score`)."""
    a = HALF_OF[key & 4095]
    b = HALF_OF[key >> 12]
    a_top, b_top = a & 15, b & 15
    largest = max(a_top, b_top)
    tops = (a_top == largest) * ((a >> 4) & 15) + (b_top == largest) * ((b >> 4) & 15)
    a_bottom, b_bottom = (a >> 8) & 255, (b >> 8) & 255
    smallest = min(a_bottom, b_bottom)
    bottoms = (a_bottom == smallest) * (a >> 16) + (b_bottom == smallest) * (b >> 16)
    # No colour present: largest and tops are 0, smallest 16 and bottoms 0, so the score is 0.
    return int(largest * tops - (smallest != largest) * smallest * bottoms)


@compiled
def playout(
    hands: Ints,
    hand_len: Ints,
    seat: int,
    middle: Ints,
    mlen: int,
    pile: Ints,
    plen: int,
    drawn: int,
    keys: Ints,
    policy: int,
    epsilon: float,
    state: np.uint64,
    scratch: Ints,
    records: Ints,
    forced: Ints,
) -> tuple[int, int, np.uint64]:
    """Every seat plays by `policy` until every hand is empty (G3: equal hands, so the seat to
    move always holds a card); returns (mlen, drawn, state) at the end. When `forced[0]` is a
    card (not -1) the first play is that card of the seat to move taking the neighbours
    `forced[1]` and `forced[2]` (-1: none), a legal play.

    GREEDY is `sim.State.rollout`: the play with the best score of the player's collection
    after it, ties to the earlier card in hand, then to the earlier neighbour in the middle.
    RANDOM is `random_rollout`: a uniformly random card, a random card of each neighbour value.
    MIXED is `mixed_rollout`: with probability `epsilon` a random card taking the first card
    of each neighbour value in the middle's order, else greedy's play. G4 applies as in
    `sim.State.play`. Play k is written into `records[k]` (the card, how many it took, the
    cards taken) when `records` has such a row. `scratch` holds SCRATCH.
    """
    seats = hands.shape[0]
    left = 0
    for s in range(seats):
        left += hand_len[s]
    ply = 0
    while left:
        n = hand_len[seat]
        low = -1
        high = -1
        forcing = ply == 0 and forced[0] >= 0
        first = policy == MIXED
        thinks = policy == GREEDY
        if first and not forcing:
            state += GOLDEN
            thinks = unit(mix(state)) >= epsilon
        if forcing:
            i = 0
            while hands[seat, i] != forced[0]:
                i += 1
            low, high = forced[1], forced[2]
        elif thinks:
            # Greedy: the middle grouped by value ([v] count, [10 + v] packed colours,
            # [20 + 6 * v + k] its k-th card in the middle's order), then every card judged.
            for v in range(10):
                scratch[v] = 0
                scratch[10 + v] = 0
            for m in range(mlen):
                c = middle[m]
                v = VALUE_OF[c]
                scratch[20 + 6 * v + scratch[v]] = c
                scratch[v] += 1
                scratch[10 + v] += ADD_OF[c]
            key = keys[seat]
            base = score(key)
            best = -1000
            i = 0
            for j in range(n):
                card = hands[seat, j]
                value = VALUE_OF[card]
                if scratch[value]:
                    points = score(key + ADD_OF[card] + scratch[10 + value])
                    if points > best:
                        best, i, low, high = points, j, -1, -1
                    continue
                low_value, high_value = LOWER_OF[value], UPPER_OF[value]
                lows, highs = scratch[low_value], scratch[high_value]
                if lows == 0 and highs == 0:
                    if base > best:
                        best, i, low, high = base, j, -1, -1
                    continue
                k0 = key + ADD_OF[card]
                for a in range(max(lows, 1)):
                    lc = scratch[20 + 6 * low_value + a] if lows else -1
                    k1 = k0 + ADD_OF[lc] if lc >= 0 else k0
                    for b in range(max(highs, 1)):
                        hc = scratch[20 + 6 * high_value + b] if highs else -1
                        points = score(k1 + ADD_OF[hc] if hc >= 0 else k1)
                        if points > best:
                            best, i, low, high = points, j, lc, hc
        else:
            state += GOLDEN
            i = below(mix(state), n)
            value = VALUE_OF[hands[seat, i]]
            low_value, high_value = LOWER_OF[value], UPPER_OF[value]
            lows = 0
            highs = 0
            exact = False
            for m in range(mlen):
                v = VALUE_OF[middle[m]]
                if v == value:
                    exact = True
                    break
                if v == low_value:
                    lows += 1
                elif v == high_value:
                    highs += 1
            if not exact and (lows or highs):
                pick_low = 0
                pick_high = 0
                if lows > 1 and not first:
                    state += GOLDEN
                    pick_low = below(mix(state), lows)
                if highs > 1 and not first:
                    state += GOLDEN
                    pick_high = below(mix(state), highs)
                for m in range(mlen):
                    c = middle[m]
                    v = VALUE_OF[c]
                    if v == low_value:
                        if pick_low == 0:
                            low = c
                        pick_low -= 1
                    elif v == high_value:
                        if pick_high == 0:
                            high = c
                        pick_high -= 1
        # G4: card i leaves the hand; it takes every card of its value in the middle, else
        # the neighbours chosen (none is chosen when its value is there), else joins it.
        card = hands[seat, i]
        for j in range(i, n - 1):
            hands[seat, j] = hands[seat, j + 1]
        hand_len[seat] = n - 1
        value = VALUE_OF[card]
        recording = ply < records.shape[0]
        keep = 0
        took = 0
        gained = ADD_OF[card]
        for m in range(mlen):
            c = middle[m]
            if VALUE_OF[c] == value or c in (low, high):
                gained += ADD_OF[c]
                if recording:
                    records[ply, 2 + took] = c
                took += 1
            else:
                middle[keep] = c
                keep += 1
        if took:
            keys[seat] += gained
            mlen = keep
        else:
            middle[mlen] = card
            mlen += 1
        if recording:
            records[ply, 0] = card
            records[ply, 1] = took
        # G4: the refill to four while the pile lasts (a middle beyond four stays).
        while mlen < MIDDLE_SIZE and drawn < plen:
            middle[mlen] = pile[drawn]
            mlen += 1
            drawn += 1
        ply += 1
        left -= 1
        seat = seat + 1 if seat + 1 < seats else 0
    return mlen, drawn, state


@compiled
def playout_deals(
    hands: Ints,
    hand_len: Ints,
    middles: Ints,
    piles: Ints,
    plens: Ints,
    firsts: Ints,
    policy: int,
    epsilon: float,
    seed: int,
) -> int:
    """Play every deal d (`hands[d]` with `hand_len[d]` cards each, `middles[d]` of four cards,
    `piles[d][:plens[d]]`, `firsts[d]` to move) out by `policy` from empty collections; the
    sum of every seat's final score (a checksum)."""
    deals, seats = hands.shape[0], hands.shape[1]
    state = np.uint64(seed)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    records = np.empty((0, RECORD), dtype=np.int64)
    unforced = np.full(3, -1, dtype=np.int64)
    work = np.empty((seats, HAND), dtype=np.int64)
    lengths = np.empty(seats, dtype=np.int64)
    middle = np.empty(ROOM, dtype=np.int64)
    keys = np.empty(seats, dtype=np.int64)
    total = 0
    for d in range(deals):
        work[:, :] = hands[d]
        lengths[:] = hand_len[d]
        middle[:4] = middles[d]
        keys[:] = 0
        _, _, state = playout(
            work, lengths, firsts[d], middle, 4, piles[d], plens[d], 0, keys,
            policy, epsilon, state, scratch, records, unforced,
        )  # fmt: skip
        for s in range(seats):
            total += score(keys[s])
    return total


@compiled
def legal_plays(hand: Ints, hlen: int, middle: Ints, mlen: int, out: Ints) -> int:
    """G4: every legal play of a hand as rows (card, low card, high card), -1 for no card of
    that neighbour value, in hand order then the middle's order (low outer, high inner);
    returns the count written into `out` (room for 6 * 36 rows)."""
    rows = 0
    lows = np.empty(8, dtype=np.int64)
    highs = np.empty(8, dtype=np.int64)
    for i in range(hlen):
        card = hand[i]
        value = VALUE_OF[card]
        nl = 0
        nh = 0
        exact = False
        for m in range(mlen):
            c = middle[m]
            v = VALUE_OF[c]
            if v == value:
                exact = True
            elif v == LOWER_OF[value]:
                lows[nl] = c
                nl += 1
            elif v == UPPER_OF[value]:
                highs[nh] = c
                nh += 1
        if exact:
            out[rows, 0], out[rows, 1], out[rows, 2] = card, -1, -1
            rows += 1
            continue
        for a in range(max(nl, 1)):
            for b in range(max(nh, 1)):
                out[rows, 0] = card
                out[rows, 1] = lows[a] if nl else -1
                out[rows, 2] = highs[b] if nh else -1
                rows += 1
    return rows
