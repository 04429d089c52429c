"""Information-set Monte Carlo tree search on the compiled core (single observer).

Each iteration deals the unseen cards afresh (every way alike, as `Sampler` does), walks down
one tree of moves from the seat's position, choosing at each node among the moves legal in
this deal by UCB on the mover's own worth (visits counted against the times a move was
available), adds one new move, plays the round out by the play-out policy, and credits every
seat's worth of the finished round to the moves on the path it made. The move chosen is the
root's most visited one.
"""

from __future__ import annotations

import random

import numpy as np

from ..rules import SeatView
from . import montecarlo
from .fastsearch import _card
from .fastsim import (
    CARD,
    CHILD,
    DUMPS,
    FIELDS,
    GREEDY,
    HIGH,
    LOW,
    MIXED,
    RANDOM,
    SIBLING,
    VISITS,
    grow,
)
from .montecarlo import Budget, Decision
from .sampler import Sampler
from .sim import pack

CHUNK = 64
"""Iterations per compiled call: the time cap (a safety net) is read between calls."""


def tree_search(view: SeatView, rng: random.Random, budget: Budget) -> Decision:
    """The legal move ISMCTS visits most, on as many iterations as the budget's work allows
    (simulated plays, each iteration costed as the plays left in the round), at least its
    `min_deals`; ties go to the better mean worth, then to the earlier legal move. Depends on
    the seed alone unless the time cap (read every CHUNK iterations) stops it."""
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no move to make")
    if len(legal) == 1:
        return Decision(legal[0], False)
    clock = montecarlo.clock()
    started = clock()
    Sampler(view)  # raises SamplerError, as the Python levels do, for counts that do not add up
    me = view.seat
    plies = sum(view.hand_counts)
    iterations = max(budget.min_deals, budget.work // plies, 1)
    policy, epsilon = RANDOM, 1.0
    if budget.epsilon < 1.0:
        policy, epsilon = (MIXED, float(budget.epsilon)) if budget.epsilon else (GREEDY, 0.0)
        if budget.dumps and not budget.epsilon:
            policy = DUMPS
    nodes = np.zeros((iterations + 1, FIELDS), dtype=np.int64)
    nodes[0, CHILD] = -1
    nodes[0, SIBLING] = -1
    worths = np.zeros(iterations + 1, dtype=np.float64)
    arrays = (
        np.array(view.hand, dtype=np.int64),
        np.array(view.middle, dtype=np.int64),
        np.array([pack(cards) for cards in view.collections], dtype=np.int64),
        np.array(view.unseen, dtype=np.int64),
        np.array([0 if s == me else n for s, n in enumerate(view.hand_counts)], np.int64),
    )
    weights = np.array([budget.margin, budget.win, budget.share], dtype=np.float64)
    state = np.uint64(rng.getrandbits(64))
    deadline = None if budget.time_cap is None else started + budget.time_cap
    size, done, capped = 1, 0, False
    while done < iterations:
        chunk = min(CHUNK, iterations - done)
        size, state = grow(
            *arrays, me, chunk, policy, epsilon, weights, float(budget.explore), state, nodes,
            worths, size, budget.own,
        )  # fmt: skip
        state = np.uint64(state)
        done += chunk
        late = deadline is not None and clock() > deadline
        if done < iterations and done >= budget.min_deals and late:
            capped = True
            break
    stats: dict[tuple[int, int, int], tuple[int, float]] = {}
    child = int(nodes[0, CHILD])
    while child >= 0:
        row = nodes[child]
        visits = int(row[VISITS])
        stats[(int(row[CARD]), int(row[LOW]), int(row[HIGH]))] = (
            visits,
            float(worths[child]) / max(1, visits),
        )
        child = int(row[SIBLING])
    keys = [stats.get((m.card, _card(m.low_card), _card(m.high_card)), (0, 0.0)) for m in legal]
    best = max(range(len(legal)), key=lambda j: (keys[j][0], keys[j][1], -j))
    return Decision(legal[best], capped)
