"""Random full rounds per second for each rule set, on one core (a benchmark, not a test)."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from gaple_bot.games.gaple.rules import Game, GameConfig, RuleSet

SETUPS = (
    ("classic, 4 seats", GameConfig(RuleSet.CLASSIC, 4)),
    ("classic, 2 seats", GameConfig(RuleSet.CLASSIC, 2)),
    ("discards, 4 seats", GameConfig(RuleSet.DISCARDS, 4)),
    ("discards, 5 seats", GameConfig(RuleSet.DISCARDS, 5)),
)
TARGET_CLASSIC = 15_000


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


def main() -> None:
    """Print the median of several timed batches for each setup."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per batch")
    parser.add_argument("--batches", type=int, default=5, help="batches per setup")
    args = parser.parse_args()
    for name, config in SETUPS:
        figures = [rounds_per_second(config, args.rounds, seed) for seed in range(args.batches)]
        median = statistics.median(figures)
        line = f"{name:18} {median:9,.0f} rounds/s (median of {args.batches} x {args.rounds:,})"
        if config == SETUPS[0][1]:
            verdict = "meets" if median >= TARGET_CLASSIC else "MISSES"
            line += f"  {verdict} the target of {TARGET_CLASSIC:,}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
