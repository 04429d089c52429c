"""Gap's computer levels against each other in the arena, checked against issue 11's targets.

Four seats, each pairing on the same seeded deals in every seat rotation, at least 2,000 rounds
each (a benchmark, not a test: it takes a few minutes on one core). Targets: normal against
three easy and hard against three normal both clearly above an equal player's 25% share of
rounds won (the 95% interval's lower bound above 25%), and hard's median decision <= 20 ms.
The script exits 1, with a line naming the misses, when one is missed; fewer rounds than 2,000
miss the share targets by their own terms.

    .venv/bin/python bench/ai_gap.py [--rounds 2000] [--seed 2024]
"""

from __future__ import annotations

import argparse
import sys
import time

from gaple_bot.games.gap.ai.arena import format_table, run_arena
from gaple_bot.games.gap.ai.levels import Level
from gaple_bot.games.gap.rules import GapConfig

EASY, NORMAL, HARD = Level.EASY, Level.NORMAL, Level.HARD
PAIRINGS: tuple[tuple[Level, Level], ...] = ((NORMAL, EASY), (HARD, NORMAL))
"""(level, its three opponents): the level's share must be clearly above an equal one's."""
EQUAL_SHARE = 0.25
HARD_MEDIAN_MS = 20.0
MIN_ROUNDS = 2000


def _verdict(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def main() -> int:
    """Run every pairing, print its table, then one line per target; 1 if one is missed."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=MIN_ROUNDS, help="rounds per pairing")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    started = time.perf_counter()
    verdicts: list[str] = []
    missed: list[str] = []
    for level, opponents in PAIRINGS:
        lineup = [level, opponents, opponents, opponents]
        result = run_arena(GapConfig(4), lineup, args.rounds, args.seed)
        print(format_table(result), end="\n\n", flush=True)
        rows, rounds = result["levels"], result["rounds"]
        assert isinstance(rows, dict) and isinstance(rounds, int)
        row = rows[level.value]
        share, (low, high) = row["round_win_share"], row["round_win_ci"]
        ok = low > EQUAL_SHARE and rounds >= MIN_ROUNDS
        verdicts.append(
            f"{level.value} vs 3x {opponents.value}: {100 * share:.1f}% of rounds won "
            f"(95% CI {100 * low:.1f}-{100 * high:.1f}%, {rounds} rounds), target lower bound "
            f"> {100 * EQUAL_SHARE:.0f}% over >= {MIN_ROUNDS} rounds: {_verdict(ok)}"
        )
        if not ok:
            missed.append(
                f"{level.value} vs 3x {opponents.value} (CI low {100 * low:.1f}%, {rounds} rounds)"
            )
        if level is HARD:
            hard_median = row["decision_ms_median"]
            verdicts.append(
                f"hard median decision {hard_median:.2f} ms (p99 {row['decision_ms_p99']:.2f} ms,"
                f" {row['decisions']} decisions), target <= {HARD_MEDIAN_MS:.0f} ms: "
                f"{_verdict(hard_median <= HARD_MEDIAN_MS)}"
            )
            if hard_median > HARD_MEDIAN_MS:
                missed.append(f"hard median decision {hard_median:.2f} ms")
    print("\n".join(verdicts))
    print(f"({time.perf_counter() - started:.0f} s in all, seed {args.seed})")
    if missed:
        print("targets missed: " + "; ".join(missed), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
