"""Gap's play-outs compiled with numba: `sim.State`'s rules on fixed-size integer arrays.

A round in play is a few arrays: `hands[seat, i]` (each hand in its order, `hand_len[seat]`
cards), `middle[:mlen]` (in the order the cards arrived), `pile[drawn:plen]` and `keys[seat]`,
the seats' collections as `sim`'s packed colour counts. The greedy policy, its ties and the
order of the middle are `sim.State.rollout`'s, play for play; random play draws from a
splitmix64 generator whose state (a uint64) the caller passes in and gets back (seeded, so the
same seed plays the same; never numba's global generator).

A play-out is one compiled function, not calls to helpers taking arrays: numba counts
references on every array passed (atomic operations), which cost more than a play's work.
The searches' kernels (`judge` for flat sampling, `grow` for the tree search) live here too:
numba's cache on disk is renewed when a function's own file changes, not when a function it
calls does, so every compiled function that calls another sits in the same file.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ...jit import compiled
from ..rules.cards import COLOUR, LOWER, UPPER, VALUE
from ..rules.config import MIDDLE_SIZE

F = TypeVar("F", bound=Callable[..., Any])
Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]

HAND = 6
"""G3: no hand holds more than six cards."""
ROOM = 64
"""Room for the middle and the pile: the 60 cards of G1 fit in it."""
RECORD = 8
"""A recorded play: the card, how many cards it took, the cards taken (at most six)."""
GREEDY, RANDOM, MIXED, DUMPS = 0, 1, 2, 3
"""Play-out policies: `sim.State.rollout`, `random_rollout` and `mixed_rollout`, and greedy
that, when its play gives a card to the middle, gives the one the next seat gains least by."""

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
    limit: int,
) -> tuple[int, int, np.uint64]:
    """Every seat plays by `policy` until every hand is empty (G3: equal hands, so the seat to
    move always holds a card), or for `limit` plays; returns (mlen, drawn, state) then. When
    `forced[0]` is a card (not -1) the first play is that card of the seat to move taking the
    neighbours `forced[1]` and `forced[2]` (-1: none), a legal play.

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
    while left and ply < limit:
        n = hand_len[seat]
        low = -1
        high = -1
        forcing = ply == 0 and forced[0] >= 0
        first = policy == MIXED
        thinks = policy in (GREEDY, DUMPS)
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
            if policy == DUMPS and low < 0 and high < 0 and scratch[VALUE_OF[hands[seat, i]]] == 0:
                # The play gives card i to the middle (taking would take): of the cards that
                # would, give the one whose best take by the next seat scores least for it.
                after = seat + 1 if seat + 1 < seats else 0
                their = keys[after]
                least = 1000
                for j in range(n):
                    card = hands[seat, j]
                    value = VALUE_OF[card]
                    low_value, high_value = LOWER_OF[value], UPPER_OF[value]
                    if scratch[value] or scratch[low_value] or scratch[high_value]:
                        continue
                    # Only the next seat's cards of this value or a neighbour value can take it.
                    offered = -1000
                    for k in range(hand_len[after]):
                        c = hands[after, k]
                        v = VALUE_OF[c]
                        if v == value:
                            offered = max(offered, score(their + ADD_OF[c] + ADD_OF[card]))
                        elif v in (low_value, high_value):
                            if scratch[v]:
                                continue  # an exact match of its own takes instead
                            other = UPPER_OF[v] if v == high_value else LOWER_OF[v]
                            k0 = their + ADD_OF[c] + ADD_OF[card]
                            for a in range(max(scratch[other], 1)):
                                oc = scratch[20 + 6 * other + a] if scratch[other] else -1
                                offered = max(offered, score(k0 + ADD_OF[oc] if oc >= 0 else k0))
                    if offered < least:
                        least, i = offered, j
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
            policy, epsilon, state, scratch, records, unforced, ROOM,
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
    for i in range(hlen):
        card = hand[i]
        value = VALUE_OF[card]
        low_value, high_value = LOWER_OF[value], UPPER_OF[value]
        exact = False
        lows = 0
        highs = 0
        for m in range(mlen):
            v = VALUE_OF[middle[m]]
            if v == value:
                exact = True
            elif v == low_value:
                lows += 1
            elif v == high_value:
                highs += 1
        if exact:
            out[rows, 0], out[rows, 1], out[rows, 2] = card, -1, -1
            rows += 1
            continue
        # One row per pair of neighbours: lows in the middle's order, each with every high.
        first = rows
        for _ in range(max(lows, 1) * max(highs, 1)):
            out[rows, 0], out[rows, 1], out[rows, 2] = card, -1, -1
            rows += 1
        a = 0
        b = 0
        for m in range(mlen):
            c = middle[m]
            v = VALUE_OF[c]
            if v == low_value:
                for k in range(max(highs, 1)):
                    out[first + a * max(highs, 1) + k, 1] = c
                a += 1
            elif v == high_value:
                for k in range(max(lows, 1)):
                    out[first + k * max(highs, 1) + b, 2] = c
                b += 1
    return rows


CARD, LOW, HIGH, MOVER, CHILD, SIBLING, VISITS, AVAILABLE = range(8)
"""Columns of a node: the move into it (card, low, high), the seat that made it, its first
child and next sibling (-1: none), its visits and the times its move was available."""
FIELDS = 8


@compiled
def judge(
    hand: Ints,
    middle: Ints,
    keys: Ints,
    unseen: Ints,
    counts: Ints,
    me: int,
    plays: Ints,
    deals: int,
    policy: int,
    epsilon: float,
    weights: Floats,
    state: np.uint64,
    totals: Floats,
) -> np.uint64:
    """Add to `totals[j]` the worth of play j (`plays[j]`: card, low, high) on each of `deals`
    deals of `unseen` (shuffled, then dealt to the other seats by `counts`, the rest the pile
    in drawing order), every seat playing out by `policy`; returns the generator's state.

    A finished round is worth, to `me`, `weights[0]` per point of margin over the best
    opponent, plus, when no opponent is ahead, `weights[1]` and `weights[2]` shared among the
    seats tied for the best score (`montecarlo.value`). Every play is judged on the same deals.
    """
    seats = keys.shape[0]
    cards = unseen.copy()
    base = np.zeros((seats, HAND), dtype=np.int64)
    base_len = np.zeros(seats, dtype=np.int64)
    hands = np.empty((seats, HAND), dtype=np.int64)
    hand_len = np.empty(seats, dtype=np.int64)
    work_middle = np.empty(ROOM, dtype=np.int64)
    work_keys = np.empty(seats, dtype=np.int64)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    records = np.empty((0, 8), dtype=np.int64)
    pile = np.empty(ROOM, dtype=np.int64)
    points = np.empty(seats, dtype=np.int64)
    mlen = middle.shape[0]
    base_len[me] = hand.shape[0]
    base[me, : hand.shape[0]] = hand
    for _ in range(deals):
        # Fisher-Yates: every way of dealing the unseen cards is equally likely (`Sampler`).
        for i in range(cards.shape[0] - 1, 0, -1):
            state += GOLDEN
            j = below(mix(state), i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        at = 0
        for s in range(seats):
            if s != me:
                base_len[s] = counts[s]
                for k in range(counts[s]):
                    base[s, k] = cards[at]
                    at += 1
        plen = cards.shape[0] - at
        pile[:plen] = cards[at:]
        for p in range(plays.shape[0]):
            hands[:, :] = base
            hand_len[:] = base_len
            work_middle[:mlen] = middle
            work_keys[:] = keys
            _, _, state = playout(
                hands, hand_len, me, work_middle, mlen, pile, plen, 0, work_keys,
                policy, epsilon, state, scratch, records, plays[p], ROOM,
            )  # fmt: skip
            best_other = -1000
            for s in range(seats):
                points[s] = score(work_keys[s])
                if s != me and points[s] > best_other:
                    best_other = points[s]
            margin = points[me] - best_other
            worth = weights[0] * margin
            if margin >= 0:
                tied = 0
                for s in range(seats):
                    tied += points[s] == points[me]
                worth += weights[1] + weights[2] / tied
            totals[p] += worth
    return state


@compiled
def grow(
    hand: Ints,
    middle: Ints,
    keys: Ints,
    unseen: Ints,
    counts: Ints,
    me: int,
    iterations: int,
    policy: int,
    epsilon: float,
    weights: Floats,
    explore: float,
    state: np.uint64,
    nodes: Ints,
    worths: Floats,
    size: int,
    own: bool,
) -> tuple[int, np.uint64]:
    """Run `iterations` iterations on the tree in `nodes` (rows of FIELDS; row 0 the root;
    `size` rows used) with every node's summed worth to its mover in `worths`; returns the
    rows used and the generator's state. With `own` the tree holds `me`'s moves only: the
    other seats' moves on the way down are the play-out policy's."""
    seats = keys.shape[0]
    cards = unseen.copy()
    hands = np.zeros((seats, HAND), dtype=np.int64)
    hand_len = np.zeros(seats, dtype=np.int64)
    work_middle = np.empty(ROOM, dtype=np.int64)
    work_keys = np.empty(seats, dtype=np.int64)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    records = np.empty((0, 8), dtype=np.int64)
    pile = np.empty(ROOM, dtype=np.int64)
    points = np.empty(seats, dtype=np.int64)
    seat_worth = np.empty(seats, dtype=np.float64)
    legal = np.empty((6 * 36, 3), dtype=np.int64)
    found = np.empty(6 * 36, dtype=np.int64)
    path = np.empty(ROOM, dtype=np.int64)
    unforced = np.full(3, -1, dtype=np.int64)
    for _ in range(iterations):
        # A deal of the unseen cards (`fastsearch.judge`'s).
        for i in range(cards.shape[0] - 1, 0, -1):
            state += GOLDEN
            j = below(mix(state), i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        at = 0
        for s in range(seats):
            if s == me:
                hand_len[s] = hand.shape[0]
                hands[s, : hand.shape[0]] = hand
            else:
                hand_len[s] = counts[s]
                for k in range(counts[s]):
                    hands[s, k] = cards[at]
                    at += 1
        plen = cards.shape[0] - at
        pile[:plen] = cards[at:]
        mlen = middle.shape[0]
        work_middle[:mlen] = middle
        work_keys[:] = keys
        drawn = 0
        seat = me
        left = hand_len.sum()
        node = 0
        depth = 0
        while left:
            if own and seat != me:
                mlen, drawn, state = playout(
                    hands, hand_len, seat, work_middle, mlen, pile, plen, drawn, work_keys,
                    policy, epsilon, state, scratch, records, unforced, 1,
                )  # fmt: skip
                left -= 1
                seat = seat + 1 if seat + 1 < seats else 0
                continue
            # The moves legal in this deal, each matched with its child (-1: not in the tree).
            rows = legal_plays(hands[seat], hand_len[seat], work_middle, mlen, legal)
            untried = 0
            for r in range(rows):
                found[r] = -1
                child = nodes[node, CHILD]
                while child >= 0:
                    if (
                        nodes[child, CARD] == legal[r, 0]
                        and nodes[child, LOW] == legal[r, 1]
                        and nodes[child, HIGH] == legal[r, 2]
                    ):
                        found[r] = child
                        break
                    child = nodes[child, SIBLING]
                if found[r] < 0:
                    untried += 1
            if untried:
                # Expand: one untried move, drawn at random, becomes a child.
                state += GOLDEN
                pick = below(mix(state), untried)
                r = 0
                while found[r] >= 0 or pick > 0:
                    if found[r] < 0:
                        pick -= 1
                    r += 1
                child = size
                size += 1
                nodes[child, CARD] = legal[r, 0]
                nodes[child, LOW] = legal[r, 1]
                nodes[child, HIGH] = legal[r, 2]
                nodes[child, MOVER] = seat
                nodes[child, CHILD] = -1
                nodes[child, SIBLING] = nodes[node, CHILD]
                nodes[child, VISITS] = 0
                nodes[child, AVAILABLE] = 0
                worths[child] = 0.0
                nodes[node, CHILD] = child
                found[r] = child
            else:
                r = -1
            # Every child available in this deal counts one more chance of being chosen.
            for k in range(rows):
                if found[k] >= 0:
                    nodes[found[k], AVAILABLE] += 1
            if r < 0:
                best = -1e300
                for k in range(rows):
                    child = found[k]
                    visits = nodes[child, VISITS]
                    bound = worths[child] / visits + explore * math.sqrt(
                        math.log(nodes[child, AVAILABLE]) / visits
                    )
                    if bound > best:
                        best, r = bound, k
            child = found[r]
            mlen, drawn, state = playout(
                hands, hand_len, seat, work_middle, mlen, pile, plen, drawn, work_keys,
                policy, epsilon, state, scratch, records, legal[r], 1,
            )  # fmt: skip
            path[depth] = child
            depth += 1
            node = child
            left -= 1
            seat = seat + 1 if seat + 1 < seats else 0
            if untried:
                break
        if left:
            mlen, drawn, state = playout(
                hands, hand_len, seat, work_middle, mlen, pile, plen, drawn, work_keys,
                policy, epsilon, state, scratch, records, unforced, ROOM,
            )  # fmt: skip
        # Every seat's worth of the round (`montecarlo.value` from its own seat).
        for s in range(seats):
            points[s] = score(work_keys[s])
        for s in range(seats):
            best_other = -1000
            tied = 0
            for o in range(seats):
                if o != s and points[o] > best_other:
                    best_other = points[o]
                tied += points[o] == points[s]
            margin = points[s] - best_other
            seat_worth[s] = weights[0] * margin
            if margin >= 0:
                seat_worth[s] += weights[1] + weights[2] / tied
        for d in range(depth):
            child = path[d]
            nodes[child, VISITS] += 1
            worths[child] += seat_worth[nodes[child, MOVER]]
    return size, state


def warm_up() -> None:
    """Compile, or load from numba's cache on disk, the compiled function the levels call
    (`judge`), with a tiny call on a two-seat round: a computer pool's worker runs it as it
    starts, so its first real decision does not wait for the compiler (15 to 25 s on a two-core
    machine without the cache, half a second with it; importing numba takes about as long).
    The tree search (`grow`), which no level uses, compiles at its first use."""
    unseen = np.array([1, 2, 3], dtype=np.int64)
    plays = np.array([[0, -1, -1]], dtype=np.int64)
    weights = np.zeros(3, dtype=np.float64)
    keys = np.zeros(2, dtype=np.int64)
    counts = np.array([0, 1], dtype=np.int64)
    hand = np.array([0], dtype=np.int64)
    middle = np.zeros(0, dtype=np.int64)
    for policy, epsilon in ((RANDOM, 1.0), (DUMPS, 0.0)):
        totals = np.zeros(1, dtype=np.float64)
        judge(
            hand, middle, keys, unseen, counts, 0, plays, 1, policy, epsilon, weights,
            np.uint64(1), totals,
        )  # fmt: skip
