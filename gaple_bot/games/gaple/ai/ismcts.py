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

import time
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
CHUNK = 500
"""Iterations between two looks at the clock."""


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


MOVE, MOVER, FIRST_CHILD, NEXT_SIBLING, VISITS, AVAIL = range(6)
"""The rows of a tree's integer table, a column per node: a node's move code, the seat that
made it, its first child and next sibling (-1: none), its visits and its availability."""


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
    links: Ints,
    reward: Floats,
    nodes: int,
) -> int:
    """Run `iterations` more iterations on the tree in `links` (rows as `MOVE`… name them, a
    column per node, node 0 the root) and `reward` (the value each node's visits led to, for
    the seat that made its move), of which `nodes` columns are in use; the columns in use
    after. The root is the seat `me` to move, its legal moves' codes `root_codes`; deals are
    picked from the pool with odds by `cumulative` weight. `table` is [seats, classic,
    discards, left, right, me, policy, keep, target]."""
    seats, classic, discards = table[0], table[1] == 1, table[2] == 1
    left, right, me, policy, keep = table[3], table[4], table[5], table[6], table[7]
    target = table[8]
    room = links.shape[1]
    move = links[MOVE]
    mover = links[MOVER]
    first_child = links[FIRST_CHILD]
    next_sibling = links[NEXT_SIBLING]
    visits = links[VISITS]
    avail = links[AVAIL]
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
    return nodes


def tree_visits(
    judge: FastJudge,
    moves: Sequence[tuple[int, int, int]],
    iterations: int,
    pool: int,
    explore: float,
    scale: float,
    room: int,
    deadline: float | None = None,
) -> tuple[list[int], list[float]]:
    """Each legal move's visits at the root after `iterations` iterations of the search, and
    the value its visits led to in all, on a pool of `pool` deals drawn by `judge` (its rules,
    seat, policy and valuation); `moves` are the legal moves as (kind, bit, on_left). Past
    `deadline` (`time.perf_counter`), checked every `CHUNK` iterations, it stops early: a
    safety net for a loaded machine, the one thing that makes the answer depend on more than
    the seed."""
    hands, discs, weights = judge.pool(pool)
    cumulative = np.cumsum(weights)
    if cumulative[-1] <= 0.0:
        cumulative = np.arange(1.0, pool + 1.0)
    table = judge.table
    tree_table = np.array(
        [table[0], table[1], table[2], table[3], table[4], table[5], table[6], table[7], table[9]],
        dtype=np.int64,
    )
    codes = np.array([_code(kind, bit, on_left) for kind, bit, on_left in moves], dtype=np.int64)
    scores, valuation = judge.valuation
    links = np.zeros((6, max(2, room)), dtype=np.int64)
    links[FIRST_CHILD] = -1
    links[NEXT_SIBLING] = -1
    reward = np.zeros(links.shape[1], dtype=np.float64)
    nodes = 1
    done = 0
    while done < iterations:
        chunk = min(CHUNK, iterations - done)
        nodes = search(
            tree_table,
            codes,
            hands,
            discs,
            cumulative,
            scores,
            valuation,
            chunk,
            explore,
            scale,
            judge.rng,
            links,
            reward,
            nodes,
        )
        done += chunk
        if deadline is not None and time.perf_counter() > deadline:
            break
    visits = [0] * len(moves)
    rewards = [0.0] * len(moves)
    where = {int(code): k for k, code in enumerate(codes)}
    child = int(links[FIRST_CHILD, 0])
    while child >= 0:
        k = where[int(links[MOVE, child])]
        visits[k], rewards[k] = int(links[VISITS, child]), float(reward[child])
        child = int(links[NEXT_SIBLING, child])
    return visits, rewards


def _code(kind: int, bit: int, on_left: int) -> int:
    """A move's code in the tree."""
    if kind == PLAY:
        return 2 * bit + on_left
    return PASS_CODE if kind == PASS else DISCARD_CODE + bit
