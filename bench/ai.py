"""The computer levels against each other in the arena, checked against the issue's targets.

Classic four-seat rounds, every pairing on the same seeded deals in every seat rotation, at
least 2,000 rounds each (a benchmark, not a test: it takes a few minutes on one core).
"""

from __future__ import annotations

import argparse
import time

from gaple_bot.games.gaple.ai.arena import format_table, run_arena
from gaple_bot.games.gaple.ai.levels import Level
from gaple_bot.games.gaple.rules import GameConfig, RuleSet

EASY, NORMAL, HARD = Level.EASY, Level.NORMAL, Level.HARD
PAIRINGS: tuple[tuple[Level, Level, float, bool], ...] = (
    # (level, its three opponents, round share it must reach, whether reaching it is enough)
    (HARD, EASY, 0.45, True),
    (HARD, NORMAL, 0.30, False),
    (NORMAL, EASY, 0.38, True),
)
HARD_MEDIAN_MS, HARD_P99_MS, NORMAL_MEDIAN_MS = 15.0, 100.0, 5.0


def _verdict(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def main() -> None:
    """Run every pairing, print its table, then one line per target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per pairing (>= 2000)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--discards", action="store_true", help="also play the pairings under the discard rules"
    )
    args = parser.parse_args()
    started = time.perf_counter()
    rule_sets = [RuleSet.CLASSIC, RuleSet.DISCARDS] if args.discards else [RuleSet.CLASSIC]
    verdicts: list[str] = []
    times: dict[Level, list[tuple[float, float]]] = {HARD: [], NORMAL: []}
    for rule_set in rule_sets:
        config = GameConfig(rule_set, 4)
        for level, opponents, share, at_least in PAIRINGS:
            lineup = [level, opponents, opponents, opponents]
            result = run_arena(config, lineup, args.rounds, args.seed)
            print(format_table(result), end="\n\n", flush=True)
            rows = result["levels"]
            assert isinstance(rows, dict)
            for timed in (level, opponents):
                if timed in times and rule_set is RuleSet.CLASSIC:
                    row = rows[timed.value]
                    times[timed].append((row["decision_ms_median"], row["decision_ms_p99"]))
            if rule_set is not RuleSet.CLASSIC:
                continue
            row = rows[level.value]
            won, (low, high) = row["round_win_share"], row["round_win_ci"]
            ok = won >= share if at_least else won > share
            clear = low >= share if at_least else low > share
            verdicts.append(
                f"{level.value} vs 3 {opponents.value}: {100 * won:.1f}% of rounds "
                f"(95% CI {100 * low:.1f}-{100 * high:.1f}), target "
                f"{'>=' if at_least else '>'} {100 * share:.0f}%: {_verdict(ok)}"
                + ("" if not ok else " (CI clear of it)" if clear else " (CI overlaps it)")
            )
    hard_median = max(m for m, _ in times[HARD])
    hard_p99 = max(p for _, p in times[HARD])
    normal_median = max(m for m, _ in times[NORMAL])
    verdicts.append(
        f"hard ms/decision: worst median {hard_median:.2f} (target <= {HARD_MEDIAN_MS:.0f}): "
        f"{_verdict(hard_median <= HARD_MEDIAN_MS)}; worst p99 {hard_p99:.2f} "
        f"(target <= {HARD_P99_MS:.0f}): {_verdict(hard_p99 <= HARD_P99_MS)}"
    )
    verdicts.append(
        f"normal ms/decision: worst median {normal_median:.2f} "
        f"(target <= {NORMAL_MEDIAN_MS:.0f}): {_verdict(normal_median <= NORMAL_MEDIAN_MS)}"
    )
    print("Targets (classic, 4 seats):")
    for line in verdicts:
        print("  " + line)
    print(f"total {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
