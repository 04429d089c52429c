"""Flat determinised sampling on the compiled core: every legal move judged on many deals of
the unseen cards in one compiled call (`montecarlo.search`'s method, `fastsim`'s play-outs)."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from ...jit import compiled
from ..rules import SeatView
from . import montecarlo
from .fastsim import GOLDEN, GREEDY, HAND, MIXED, RANDOM, ROOM, SCRATCH, below, mix, playout, score
from .montecarlo import Budget, Decision
from .sampler import Sampler
from .sim import pack

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
CHUNK = 16
"""Deals per compiled call: the time cap (a safety net) is read between calls."""


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
                policy, epsilon, state, scratch, records, plays[p],
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


def _card(card: int | None) -> int:
    """A card for the compiled core: -1 for none."""
    return -1 if card is None else card


def deals_for(budget: Budget, moves: int, plies: int) -> int:
    """`montecarlo.search`'s deal count without pruning: the budget's deals, cut by its work
    bound (simulated plays) but never below its `min_deals`."""
    deals = budget.deals_for(moves)
    if budget.work:
        deals = min(deals, max(budget.min_deals, budget.work // (moves * plies), 1))
    return deals


def fast_search(view: SeatView, rng: random.Random, budget: Budget) -> Decision:
    """`montecarlo.search` on the compiled core: the legal move with the best total worth
    over the drawn deals (ties to the earlier move), and whether the time cap cut it short.

    The deals come from a generator seeded by `rng`, so a decision depends on the seed alone
    unless the time cap (read every CHUNK deals) stops it. Pruning is not offered here.
    """
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no move to make")
    if len(legal) == 1:
        return Decision(legal[0], False)
    # The time cap reads `montecarlo`'s clock, the one tests stop for every sampling level.
    clock = montecarlo.clock()
    started = clock()
    Sampler(view)  # raises SamplerError, as the Python levels do, for counts that do not add up
    me = view.seat
    unseen = np.array(view.unseen, dtype=np.int64)
    counts = np.array([0 if s == me else n for s, n in enumerate(view.hand_counts)], np.int64)
    plays = np.array(
        [(m.card, _card(m.low_card), _card(m.high_card)) for m in legal], dtype=np.int64
    )
    deals = deals_for(budget, len(legal), sum(view.hand_counts))
    policy, epsilon = RANDOM, 1.0
    if budget.epsilon < 1.0:
        policy, epsilon = (MIXED, budget.epsilon) if budget.epsilon else (GREEDY, 0.0)
    weights = np.array([budget.margin, budget.win, budget.share], dtype=np.float64)
    totals = np.zeros(len(legal), dtype=np.float64)
    state = np.uint64(rng.getrandbits(64))
    arrays = (
        np.array(view.hand, dtype=np.int64),
        np.array(view.middle, dtype=np.int64),
        np.array([pack(cards) for cards in view.collections], dtype=np.int64),
        unseen,
        counts,
    )
    deadline = None if budget.time_cap is None else started + budget.time_cap
    done = 0
    capped = False
    while done < deals:
        chunk = min(CHUNK, deals - done)
        state = np.uint64(judge(*arrays, me, plays, chunk, policy, epsilon, weights, state, totals))
        done += chunk
        late = deadline is not None and clock() > deadline
        if done < deals and done >= budget.min_deals and late:
            capped = True
            break
    best = max(range(len(legal)), key=lambda j: (totals[j], -j))
    return Decision(legal[best], capped)


def warm_up() -> None:
    """Compile (or load from numba's cache on disk) every compiled function the sampling
    levels call, with a tiny call on a two-seat round: a computer pool's worker calls it at
    start, so its first real decision does not wait for the compiler."""
    empty = np.zeros(0, dtype=np.int64)
    unseen = np.array([1, 2, 3], dtype=np.int64)
    plays = np.array([[0, -1, -1]], dtype=np.int64)
    weights = np.zeros(3, dtype=np.float64)
    totals = np.zeros(1, dtype=np.float64)
    keys = np.zeros(2, dtype=np.int64)
    counts = np.array([0, 1], dtype=np.int64)
    hand = np.array([0], dtype=np.int64)
    for policy, epsilon in ((RANDOM, 1.0), (MIXED, 0.5), (GREEDY, 0.0)):
        judge(hand, empty, keys, unseen, counts, 0, plays, 1, policy, epsilon, weights,
              np.uint64(1), totals)  # fmt: skip
