"""Play-outs per second of each game's simulation cores on one core: the Python one and the
compiled one (issue 41), side by side in one run, and how many times faster the compiled is.

A play-out is a whole round played out from its first move by the greedy policy the computer
players' rollouts use: Gaple's `playout.rollout` on bitmasks from a random deal with the first
seat's heaviest tile down (compiled: `fastcore.play_outs`, one call for the whole batch), Gap's
`sim.State.rollout` from a random deal (compiled: `fastsim.playout_deals`, from
bench/rollouts_gap.py). The same seeded positions are played in every repeat; each figure is
the median over repeats, each timed with `time.process_time` (CPU, not the wall clock: the
machine is shared), the Python and compiled runs taking turns.

The script exits 1 when a compiled core is less than `--min-ratio` (20) times as fast as the
Python one; `--min-gaple` / `--min-gap` (play-outs per second) add floors on the Python medians.
The compiled cores are compiled (or loaded from numba's cache) before any timing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from gaple_bot.games.gap.ai.sim import State
from gaple_bot.games.gap.rules import GapConfig
from gaple_bot.games.gap.rules.deal import deal_round
from gaple_bot.games.gaple.ai import fastcore
from gaple_bot.games.gaple.ai.playout import HI, LO, Rules, rollout

ROOT = Path(__file__).resolve().parents[1]
# A sibling script's module, imported as bench's (as bench/load.py does), from the checkout.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.rollouts_gap import gap_fast_run  # noqa: E402

TILES = 28


def gaple_positions(count: int, seats: int, seed: int) -> list[tuple[list[int], int, int]]:
    """Random classic deals (seven tiles each, the rest out of play at fewer than four seats),
    each with seat 0's heaviest tile down: (hands after it, left end, right end)."""
    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        bits = list(range(TILES))
        rng.shuffle(bits)
        hands = [sum(1 << b for b in bits[7 * s : 7 * s + 7]) for s in range(seats)]
        top = hands[0].bit_length() - 1
        hands[0] ^= 1 << top
        positions.append((hands, LO[top], HI[top]))
    return positions


def gaple_run(seats: int, positions: list[tuple[list[int], int, int]]) -> Callable[[], int]:
    rules = Rules(seats, classic=True, discards=False)

    def run() -> int:
        for hands, left, right in positions:
            rollout(rules, hands[:], [0] * seats, left, right, 1 % seats)
        return len(positions)

    return run


def gaple_fast_run(seats: int, positions: list[tuple[list[int], int, int]]) -> Callable[[], int]:
    hands = np.array([h for h, _, _ in positions], dtype=np.int64)
    lefts = np.array([left for _, left, _ in positions], dtype=np.int64)
    rights = np.array([right for _, _, right in positions], dtype=np.int64)
    movers = np.full(len(positions), 1 % seats, dtype=np.int64)
    points = np.zeros((len(positions), seats), dtype=np.int64)

    def run() -> int:
        # The copies are part of the work, as the Python run copies each hand list.
        fastcore.play_outs(
            fastcore.GREEDY,
            0,
            True,
            False,
            hands.copy(),
            np.zeros_like(hands),
            lefts,
            rights,
            movers,
            1,
            points,
        )
        return len(positions)

    run()
    return run


def gap_run(seats: int, count: int, seed: int) -> Callable[[], int]:
    rng = random.Random(seed)
    config = GapConfig(seats)
    deals = [deal_round(config, rng, 0) for _ in range(count)]

    def run() -> int:
        for deal in deals:
            state = State(
                [list(hand) for hand in deal.hands],
                list(deal.middle),
                list(deal.pile),
                [0] * seats,
                deal.first,
            )
            state.rollout()
        return len(deals)

    return run


def per_second(runs: list[Callable[[], int]], repeats: int) -> list[tuple[float, list[float]]]:
    """For each run, the median play-outs per CPU second over `repeats` and each repeat's
    figure; the runs take turns, so a change in the machine's load falls on all of them."""
    figures: list[list[float]] = [[] for _ in runs]
    for _ in range(repeats):
        for run, mine in zip(runs, figures, strict=True):
            start = time.process_time()
            done = run()
            spent = time.process_time() - start
            mine.append(done / spent if spent > 0 else float("inf"))
    return [(statistics.median(mine), mine) for mine in figures]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000, help="play-outs per repeat")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--min-gaple", type=float, default=None)
    parser.add_argument("--min-gap", type=float, default=None)
    parser.add_argument("--min-ratio", type=float, default=20.0)
    args = parser.parse_args(argv)
    positions = gaple_positions(args.positions, args.seats, args.seed)
    games = [
        (
            "gaple",
            gaple_run(args.seats, positions),
            gaple_fast_run(args.seats, positions),
            args.min_gaple,
        ),
        (
            "gap",
            gap_run(args.seats, args.positions, args.seed),
            gap_fast_run(args.seats, args.positions, args.seed),
            args.min_gap,
        ),
    ]
    misses = []
    for name, python, compiled, least in games:
        runs = [python] if compiled is None else [python, compiled]
        measured = per_second(runs, args.repeats)
        for core, (median, figures) in zip(("Python", "compiled"), measured, strict=False):
            spread = f"{min(figures):,.0f}–{max(figures):,.0f}"
            print(
                f"{name}, {core}: {median:,.0f} play-outs per CPU second (median of "
                f"{args.repeats} runs of {args.positions} at {args.seats} seats; runs {spread})"
            )
        if least is not None and measured[0][0] < least:
            misses.append(f"{name} {measured[0][0]:,.0f} < {least:,.0f}")
        if len(measured) == 2:
            ratio = measured[1][0] / measured[0][0]
            print(f"{name}: the compiled core is {ratio:.1f} times as fast")
            if ratio < args.min_ratio:
                misses.append(f"{name} {ratio:.1f} times < {args.min_ratio:g}")
    if misses:
        print("missed: " + "; ".join(misses))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
