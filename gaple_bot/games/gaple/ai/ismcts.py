"""Information-set Monte Carlo tree search on the compiled core (single observer, SO-ISMCTS).

Each iteration picks one deal of the hidden tiles (from a pool drawn to fit what the seat
knows, by weight), walks down one tree of move sequences shared by every deal, choosing among
the moves legal in that deal by UCB with availability counts (a move is judged only against
the deals in which it could be made), adds one node, plays the round out with the rollout
policy and credits each move with what the round is worth to the seat that made it. Every
seat's choices in the tree are thus searched for that seat's own good, as a good player makes
them, rather than played by the rollout's rule of thumb.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...jit import compiled
from .fastcore import (
    DISCARD,
    NUM_A,
    PASS,
    PLAY,
    TRACE_FIELDS,
    Floats,
    Ints,
    make_move,
    play_out,
    round_value,
    top_bit,
)
from .fastsearch import FastJudge

PASS_CODE = 56
"""A move's code: 2 x bit (+1 at the left end) for a play, this for a pass, 57 + bit for a
discard."""
DISCARD_CODE = 57


@compiled
def legal_codes(hand: int, left: int, right: int, discards: bool, out: Ints) -> int:
    """The codes of the legal moves of `hand` on a line with these ends (not empty) into
    `out`; how many."""
    at_left = NUM_A[left]
    at_right = NUM_A[right]
    fit = hand & (at_left | at_right)
    n = 0
    if fit:
        rest = fit
        while rest:
            low = rest & -rest
            rest ^= low
            b = top_bit(low)
            if low & at_right:
                out[n] = 2 * b
                n += 1
            if low & at_left and (left != right or not low & at_right):
                out[n] = 2 * b + 1
                n += 1
    elif discards:
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            out[n] = DISCARD_CODE + top_bit(low)
            n += 1
    else:
        out[0] = PASS_CODE
        n = 1
    return n


@compiled
def _apply_code(
    classic: bool,
    discards: bool,
    seats: int,
    hands: Ints,
    discs: Ints,
    ends: Ints,
    seat: int,
    code: int,
    points: Ints,
) -> int:
    """Make the move with this code; the next seat to move, or -1 with `points` filled."""
    if code < PASS_CODE:
        return make_move(
            classic,
            discards,
            seats,
            hands,
            discs,
            ends,
            seat,
            PLAY,
            code >> 1,
            code & 1 == 1,
            points,
        )
    if code == PASS_CODE:
        return make_move(
            classic, discards, seats, hands, discs, ends, seat, PASS, -1, False, points
        )
    return make_move(
        classic,
        discards,
        seats,
        hands,
        discs,
        ends,
        seat,
        DISCARD,
        code - DISCARD_CODE,
        False,
        points,
    )


@compiled
def search(
    table: Ints,
    root_codes: Ints,
    pool_hands: Ints,
    pool_discs: Ints,
    cumulative: Floats,
    scores: Ints,
    valuation: Floats,
    iterations: int,
    explore: float,
    scale: float,
    rng: Ints,
    visits_out: Ints,
) -> int:
    """Run `iterations` iterations from the root (the seat `me` to move, its legal moves'
    codes `root_codes`), deals picked from the pool with odds by `cumulative` weight; each
    root move's visits into `visits_out`. `table` is [seats, classic, discards, left, right,
    me, policy, keep, target, node room]. The nodes made."""
    seats, classic, discards = table[0], table[1] == 1, table[2] == 1
    left, right, me, policy, keep = table[3], table[4], table[5], table[6], table[7]
    target, room = table[8], table[9]
    move = np.empty(room, dtype=np.int64)
    mover = np.empty(room, dtype=np.int64)
    first_child = np.full(room, -1, dtype=np.int64)
    next_sibling = np.full(room, -1, dtype=np.int64)
    visits = np.zeros(room, dtype=np.int64)
    avail = np.zeros(room, dtype=np.int64)
    reward = np.zeros(room, dtype=np.float64)
    nodes = 1
    hands = np.empty(seats, dtype=np.int64)
    discs = np.empty(seats, dtype=np.int64)
    ends = np.empty(2, dtype=np.int64)
    points = np.empty(seats, dtype=np.int64)
    values = np.empty(seats, dtype=np.float64)
    codes = np.empty(64, dtype=np.int64)
    path = np.empty(64, dtype=np.int64)
    options = np.empty(56, dtype=np.int64)
    no_trace = np.empty((0, TRACE_FIELDS), dtype=np.int64)
    total_weight = cumulative[cumulative.shape[0] - 1]
    for _ in range(iterations):
        # A deal by weight: the first cumulative weight above a uniform draw.
        pick = (float(rng[0] >> 11 & 0xFFFFFFFFFFFFF) / 4503599627370496.0) * total_weight
        rng[0] = rng[0] * 6364136223846793005 + 1442695040888963407
        lo, hi = 0, cumulative.shape[0] - 1
        while lo < hi:
            mid = (lo + hi) >> 1
            if cumulative[mid] > pick:
                hi = mid
            else:
                lo = mid + 1
        hands[:] = pool_hands[lo]
        discs[:] = pool_discs[lo]
        ends[0], ends[1] = left, right
        seat = me
        node = 0
        depth = 0
        over = False
        while True:
            if node == 0:
                n = root_codes.shape[0]
                codes[:n] = root_codes
            else:
                n = legal_codes(hands[seat], ends[0], ends[1], discards, codes)
            # Children legal here gain an availability; a legal move with no child is new.
            best = -1
            best_score = -1e300
            untried = -1
            for k in range(n):
                code = codes[k]
                child = first_child[node]
                while child >= 0 and move[child] != code:
                    child = next_sibling[child]
                if child < 0:
                    if untried < 0:
                        untried = code
                    continue
                avail[child] += 1
                score = reward[child] / (visits[child] * scale) + explore * np.sqrt(
                    np.log(avail[child]) / visits[child]
                )
                if score > best_score:
                    best_score, best = score, child
            if untried >= 0 and (nodes < room or best < 0):
                if nodes == room:
                    break
                child = nodes
                nodes += 1
                move[child] = untried
                mover[child] = seat
                next_sibling[child] = first_child[node]
                first_child[node] = child
                avail[child] = 1
                best = child
            if best < 0:
                break
            node = best
            path[depth] = node
            depth += 1
            seat = _apply_code(
                classic, discards, seats, hands, discs, ends, seat, move[node], points
            )
            if seat < 0:
                over = True
                break
            if visits[node] == 0:
                break
        if not over:
            play_out(
                policy,
                keep,
                classic,
                discards,
                seats,
                hands,
                discs,
                ends[0],
                ends[1],
                seat,
                rng,
                points,
                no_trace,
                options,
            )
        for s in range(seats):
            values[s] = round_value(1, seats, s, points, scores, target, valuation[0], valuation[1])
        for k in range(depth):
            visited = path[k]
            visits[visited] += 1
            reward[visited] += values[mover[visited]]
    child = first_child[0]
    while child >= 0:
        for k in range(root_codes.shape[0]):
            if root_codes[k] == move[child]:
                visits_out[k] = visits[child]
        child = next_sibling[child]
    return nodes


def tree_visits(
    judge: FastJudge,
    moves: Sequence[tuple[int, int, int]],
    iterations: int,
    pool: int,
    explore: float,
    scale: float,
    room: int,
) -> list[int]:
    """Each legal move's visits at the root after `iterations` iterations of the search, on a
    pool of `pool` deals drawn by `judge` (its rules, seat, policy and valuation); `moves`
    are the legal moves as (kind, bit, on_left)."""
    hands, discs, weights = judge.pool(pool)
    cumulative = np.cumsum(weights)
    if cumulative[-1] <= 0.0:
        cumulative = np.arange(1.0, pool + 1.0)
    table = judge.table
    seats, left, right, me, policy, keep, target = (
        table[0],
        table[3],
        table[4],
        table[5],
        table[6],
        table[7],
        table[9],
    )
    codes = np.array([_code(kind, bit, on_left) for kind, bit, on_left in moves], dtype=np.int64)
    scores, valuation = judge.valuation
    tree_table = np.array(
        [seats, table[1], table[2], left, right, me, policy, keep, target, room], dtype=np.int64
    )
    visits = np.zeros(len(moves), dtype=np.int64)
    search(
        tree_table,
        codes,
        hands,
        discs,
        cumulative,
        scores,
        valuation,
        iterations,
        explore,
        scale,
        judge.rng,
        visits,
    )
    return [int(v) for v in visits]


def _code(kind: int, bit: int, on_left: int) -> int:
    """A move's code in the tree."""
    if kind == PLAY:
        return 2 * bit + on_left
    return PASS_CODE if kind == PASS else DISCARD_CODE + bit
