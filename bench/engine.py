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


# Gap (seed 004): random full rounds per second for 2, 4 and 6 seats. It reads the same
# --rounds and --batches; a Gap round takes about four times a Gaple round, so its batches hold
# a quarter of --rounds.

from gaple_bot.games.gap.rules import Game as GapGame  # noqa: E402
from gaple_bot.games.gap.rules import GapConfig  # noqa: E402

GAP_SETUPS = (
    ("gap, 2 seats", GapConfig(2)),
    ("gap, 4 seats", GapConfig(4)),
    ("gap, 6 seats", GapConfig(6)),
)


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


def gap_main() -> None:
    """Print the median of several timed batches for each Gap seat count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per batch")
    parser.add_argument("--batches", type=int, default=5, help="batches per setup")
    args = parser.parse_args()
    rounds = max(1, args.rounds // 4)
    for name, config in GAP_SETUPS:
        figures = [gap_rounds_per_second(config, rounds, seed) for seed in range(args.batches)]
        median = statistics.median(figures)
        print(
            f"{name:18} {median:9,.0f} rounds/s (median of {args.batches} x {rounds:,})",
            flush=True,
        )


if __name__ == "__main__":
    gap_main()
