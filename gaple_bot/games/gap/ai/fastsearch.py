"""Flat determinised sampling on the compiled core: every legal move judged on many deals of
the unseen cards in one compiled call (`montecarlo.search`'s method, `fastsim`'s play-outs)."""

from __future__ import annotations

import random

import numpy as np

from ..rules import SeatView
from . import montecarlo
from .fastsim import DUMPS, GREEDY, MIXED, RANDOM, judge
from .montecarlo import Budget, Decision
from .sampler import Sampler
from .sim import pack

CHUNK = 16
"""Deals per compiled call: the time cap (a safety net) is read between calls."""


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
    totals, _, capped = fast_totals(view, rng, budget)
    best = max(range(len(legal)), key=lambda j: (totals[j], -j))
    return Decision(legal[best], capped)


def fast_totals(
    view: SeatView, rng: random.Random, budget: Budget
) -> tuple[list[float], int, bool]:
    """Every legal move's total worth over the deals `fast_search` draws (in the order of
    `view.legal`), the deals judged, and whether the time cap cut them short."""
    legal = view.legal
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
        policy, epsilon = (MIXED, float(budget.epsilon)) if budget.epsilon else (GREEDY, 0.0)
        if budget.dumps and not budget.epsilon:
            policy = DUMPS
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
    return [float(total) for total in totals], done, capped
