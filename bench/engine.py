"""Random full rounds per second for each rule set, on one core (a benchmark, not a test).

The classic four-seat figure has a target (15,000 rounds a second): the script exits 1, with a
line saying so, when it is missed. The other Gaple setups and Gap (2, 4 and 6 seats) have no
target; they are printed for comparison. Batches smaller than the default 20,000 rounds are a
smoke run: the figures are printed and the target is not judged.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from gaple_bot.games.gap.rules import Game as GapGame
from gaple_bot.games.gap.rules import GapConfig
from gaple_bot.games.gaple.rules import Game, GameConfig, RuleSet

SETUPS = (
    ("classic, 4 seats", GameConfig(RuleSet.CLASSIC, 4)),
    ("classic, 2 seats", GameConfig(RuleSet.CLASSIC, 2)),
    ("discards, 4 seats", GameConfig(RuleSet.DISCARDS, 4)),
    ("discards, 5 seats", GameConfig(RuleSet.DISCARDS, 5)),
)
TARGET_CLASSIC = 15_000
DEFAULT_ROUNDS = 20_000
"""Rounds per batch by default, and the fewest the target is judged on."""

# Gap (seed 004): a Gap round takes about four times a Gaple round, so its batches hold a
# quarter of --rounds.
GAP_SETUPS = (
    ("gap, 2 seats", GapConfig(2)),
    ("gap, 4 seats", GapConfig(4)),
    ("gap, 6 seats", GapConfig(6)),
)


def rounds_per_second(config: GameConfig, rounds: int, seed: int) -> float:
    """Deal and play `rounds` rounds with uniformly random legal moves; rounds per second."""
    rng = random.Random(seed)
    uniform = rng.random
    started = time.perf_counter()
    for _ in range(rounds):
        current = Game.new(config, rng).round
        while current.to_move is not None:
            legal = current.legal_moves()
            # A uniform pick, cheaper than rng.choice, so the figure is the engine's.
            current.apply(current.to_move, legal[int(uniform() * len(legal))])
    return rounds / (time.perf_counter() - started)


def gap_rounds_per_second(config: GapConfig, rounds: int, seed: int) -> float:
    """Deal and play `rounds` Gap rounds with uniformly random legal moves; rounds per second."""
    rng = random.Random(seed)
    uniform = rng.random
    started = time.perf_counter()
    for _ in range(rounds):
        current = GapGame.new(config, rng).round
        while current.to_move is not None:
            legal = current.legal_moves()
            current.apply(current.to_move, legal[int(uniform() * len(legal))])
    return rounds / (time.perf_counter() - started)


def main() -> int:
    """Print the median of several timed batches for each setup; 1 if the target is missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS, help="rounds per batch")
    parser.add_argument("--batches", type=int, default=5, help="batches per setup")
    args = parser.parse_args()
    judged = args.rounds >= DEFAULT_ROUNDS
    missed = ""
    for name, config in SETUPS:
        figures = [rounds_per_second(config, args.rounds, seed) for seed in range(args.batches)]
        median = statistics.median(figures)
        line = f"{name:18} {median:9,.0f} rounds/s (median of {args.batches} x {args.rounds:,})"
        if config == SETUPS[0][1]:
            if not judged:
                line += f"  (target {TARGET_CLASSIC:,} not judged: a smoke run)"
            elif median >= TARGET_CLASSIC:
                line += f"  meets the target of {TARGET_CLASSIC:,}"
            else:
                line += f"  MISSES the target of {TARGET_CLASSIC:,}"
                missed = f"{name}: {median:,.0f} rounds/s, under {TARGET_CLASSIC:,}"
        print(line, flush=True)
    rounds = max(1, args.rounds // 4)
    for gap_name, gap_config in GAP_SETUPS:
        figures = [gap_rounds_per_second(gap_config, rounds, seed) for seed in range(args.batches)]
        median = statistics.median(figures)
        print(
            f"{gap_name:18} {median:9,.0f} rounds/s (median of {args.batches} x {rounds:,})",
            flush=True,
        )
    if missed:
        print(f"target missed: {missed}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
