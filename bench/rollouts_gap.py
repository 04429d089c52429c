"""Gap's compiled play-outs (`fastsim`) for bench/rollouts.py: the same seeded deals as its
`gap_run`, every one played out greedily in one compiled call (bench/rollouts.py times both)."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from gaple_bot.games.gap.ai.fastsim import GREEDY, HAND, ROOM, playout_deals
from gaple_bot.games.gap.rules import GapConfig
from gaple_bot.games.gap.rules.deal import deal_round


def gap_fast_run(seats: int, count: int, seed: int) -> Callable[[], int]:
    """A run that plays `count` whole greedy play-outs from the deals `gap_run` plays
    (`deal_round(config, rng, 0)` from `random.Random(seed)`) and returns `count`."""
    rng = random.Random(seed)
    config = GapConfig(seats)
    deals = [deal_round(config, rng, 0) for _ in range(count)]
    hands = np.zeros((count, seats, HAND), dtype=np.int64)
    lengths = np.zeros((count, seats), dtype=np.int64)
    middles = np.zeros((count, 4), dtype=np.int64)
    piles = np.zeros((count, ROOM), dtype=np.int64)
    plens = np.zeros(count, dtype=np.int64)
    firsts = np.zeros(count, dtype=np.int64)
    for d, deal in enumerate(deals):
        for s, hand in enumerate(deal.hands):
            hands[d, s, : len(hand)] = hand
            lengths[d, s] = len(hand)
        middles[d] = deal.middle
        piles[d, : len(deal.pile)] = deal.pile
        plens[d] = len(deal.pile)
        firsts[d] = deal.first
    # The first call compiles (or loads the cache): not part of any timed run.
    playout_deals(hands[:1], lengths[:1], middles[:1], piles[:1], plens[:1], firsts[:1], 0, 0.0, 1)

    def run() -> int:
        playout_deals(hands, lengths, middles, piles, plens, firsts, GREEDY, 0.0, seed)
        return count

    return run
