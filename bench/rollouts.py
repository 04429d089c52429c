"""Play-outs per second of each game's simulation core on one core: the figure issue 41's
faster core is measured against (before and after, side by side in one run).

A play-out is a whole round played out from its first move by the greedy policy the computer
players' rollouts use: Gaple's `playout.rollout` on bitmasks from a random deal with the first
seat's heaviest tile down, Gap's `sim.State.rollout` from a random deal. The same seeded
positions are played in every repeat; the figure is the median over repeats, each timed with
`time.process_time` (CPU, not the wall clock: the machine is shared).

`--min-gaple` / `--min-gap` (play-outs per second) make the script exit 1 when a median falls
short: the target a faster core is held to once it exists. Without them it only prints.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable

from gaple_bot.games.gap.ai.sim import State
from gaple_bot.games.gap.rules import GapConfig
from gaple_bot.games.gap.rules.deal import deal_round
from gaple_bot.games.gaple.ai.playout import HI, LO, Rules, rollout

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


def per_second(run: Callable[[], int], repeats: int) -> tuple[float, list[float]]:
    """The median play-outs per CPU second over `repeats` runs, and each run's figure."""
    figures = []
    for _ in range(repeats):
        start = time.process_time()
        done = run()
        spent = time.process_time() - start
        figures.append(done / spent if spent > 0 else float("inf"))
    return statistics.median(figures), figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000, help="play-outs per repeat")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--min-gaple", type=float, default=None)
    parser.add_argument("--min-gap", type=float, default=None)
    args = parser.parse_args(argv)
    gaple = gaple_run(args.seats, gaple_positions(args.positions, args.seats, args.seed))
    gap = gap_run(args.seats, args.positions, args.seed)
    misses = []
    for name, run, least in (("gaple", gaple, args.min_gaple), ("gap", gap, args.min_gap)):
        median, figures = per_second(run, args.repeats)
        spread = f"{min(figures):,.0f}–{max(figures):,.0f}"
        print(
            f"{name}: {median:,.0f} play-outs per CPU second (median of {args.repeats} runs of "
            f"{args.positions} at {args.seats} seats; runs {spread})"
        )
        if least is not None and median < least:
            misses.append(f"{name} {median:,.0f} < {least:,.0f}")
    if misses:
        print("missed: " + "; ".join(misses))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
