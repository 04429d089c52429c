"""Screen variants of Gap's hard level against the reference player, paired on the same deals.

Each named variant (a `Budget`) plays in the first seat against copies of the reference player
on the same seeded single rounds, in every seat rotation; it prints each variant's share of
rounds won with its 95% interval, its paired difference from the first variant named on the
same deals (interval over deals), and its CPU ms per real decision (median, p99). A run's
outcomes are kept under `--cache` (one JSON file per variant's settings, seed, seats, rounds
and version of the computer players' code) so a variant already played is not played again;
a line read back from it says so.

    .venv/bin/python bench/ai_gap_variants.py --rounds 1200 --variants hard,hard-v1
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import gaple_bot.games.gap.ai as ai_package
from gaple_bot.games.gap.ai.arena import mean_interval, percentile, play_arena, wilson
from gaple_bot.games.gap.ai.levels import BUDGETS, Level
from gaple_bot.games.gap.ai.montecarlo import Budget
from gaple_bot.games.gap.ai.players import HARD_V1, HARD_V2, Player
from gaple_bot.games.gap.rules import GapConfig

HARD = BUDGETS[Level.HARD]
V2 = HARD_V2
"""Issue 30's hard (Python, random play-outs, 8,500 plays): every variant below but "hard" and
"normal" is named for how it differs from it, so a name means the same player whatever the
levels become."""
NORMAL = BUDGETS[Level.NORMAL]
FAST_WORK = (8500, 25000, 50000, 80000, 100000, 200000)
"""Simulated plays per decision tried on the compiled core."""


def variants() -> dict[str, Budget]:
    """Every variant the script knows, by name."""
    with_ = dataclasses.replace
    return {
        "hard": HARD,
        "normal": NORMAL,
        "hard-v1": HARD_V1,
        "hard-v2": V2,
        "share4": with_(V2, share=4.0),
        "normal-share4": with_(NORMAL, share=4.0),
        "normal-margin": with_(NORMAL, share=0.0),
        "work25k": with_(V2, work=25000, deals=1000),
        "share10": with_(V2, share=10.0),
        "prune2": with_(V2, prune=2.0, deals=1000),
        "prune3": with_(V2, prune=3.0, deals=1000),
        **{f"normal-w{w}": with_(NORMAL, work=w, deals=128) for w in (6000, 8000)},
        "hard-eps90": with_(V2, epsilon=0.9),
        # Issue 41: the same method on the compiled core (`fast`), with more work.
        **{f"fast-w{w // 1000}k": with_(V2, fast=True, work=w, deals=20000) for w in FAST_WORK},
        **{
            f"fast-w{w // 1000}k-eps{round(100 * e)}": with_(
                V2, fast=True, work=w, deals=20000, epsilon=e
            )
            for w in FAST_WORK
            for e in (0.0, 0.5, 0.8)
        },
        # Issue 41: information-set MCTS with greedy play-outs (`-rand`: random ones).
        **{
            f"tree-w{w // 1000}k-c{c}{suffix}": with_(
                V2, tree=True, work=w, explore=float(c), epsilon=e
            )
            for w in (15000, 30000, 60000)
            for c in (2, 4, 8, 16)
            for suffix, e in (("", 0.0), ("-rand", 1.0))
        },
        # Issue 41: greedy play-outs that give the middle the card the next seat gains least by.
        **{
            f"fast-w{w // 1000}k-dumps": with_(
                V2, fast=True, work=w, deals=20000, epsilon=0.0, dumps=True
            )
            for w in FAST_WORK
        },
        **{
            f"tree-w{w // 1000}k-c{c}-dumps": with_(
                V2, tree=True, work=w, explore=float(c), epsilon=0.0, dumps=True
            )
            for w in (15000, 30000, 60000)
            for c in (4, 8, 16)
        },
        # Issue 41: a tree of the seat's own moves only, the others' greedy (or DUMPS).
        **{
            f"own-w{w // 1000}k-c{c}{suffix}": with_(
                V2, tree=True, own=True, work=w, explore=float(c), epsilon=0.0, dumps=dumps
            )
            for w in (15000, 30000, 60000)
            for c in (4, 8, 16)
            for suffix, dumps in (("", False), ("-dumps", True))
        },
        # Issue 41: the round's win weighed more against the margin, now that deals are many.
        **{
            f"fast-w{w // 1000}k-eps0-m{m}": with_(
                V2, fast=True, work=w, deals=20000, epsilon=0.0, margin=m
            )
            for w in FAST_WORK
            for m in (0.5, 0.25, 0.1, 0.0)
        },
        **{
            f"tree-w{w // 1000}k-c{c}-m{m}": with_(
                V2, tree=True, work=w, explore=c, epsilon=0.0, margin=m
            )
            for w in (15000, 30000, 60000)
            for c in (1.0, 2.0, 4.0)
            for m in (0.25, 0.0)
        },
    }


def paired(a: Sequence[float], b: Sequence[float], cluster: int) -> tuple[float, float, float]:
    """The mean of a - b with its 95% interval, the seat rotations of a deal taken together."""
    n = min(len(a), len(b)) // cluster * cluster
    per_deal = [
        sum(x - y for x, y in zip(a[i : i + cluster], b[i : i + cluster], strict=True)) / cluster
        for i in range(0, n, cluster)
    ]
    return mean_interval(per_deal)


def _fingerprint(budget: Budget) -> str:
    """A short digest of the budget's settings and of Gap's source (rules and computer players),
    so a cached run is read back only for the very player and game that played it."""
    digest = hashlib.sha256(repr(budget).encode())
    for source in sorted(Path(ai_package.__file__).parent.parent.rglob("*.py")):
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


def outcomes(
    name: str, budget: Budget, seats: int, rounds: int, seed: int, cache: Path
) -> dict[str, list[float]]:
    """The variant's round wins and CPU seconds per real decision, played or read back."""
    path = cache / f"{name}-{_fingerprint(budget)}-s{seed}-{seats}seats-{rounds}.json"
    if path.exists():
        loaded: dict[str, list[float]] = json.loads(path.read_text())
        loaded["cached"] = [1.0]
        return loaded
    lineup = [Player.HARD] + [Player.REFERENCE] * (seats - 1)
    run = play_arena(GapConfig(seats), lineup, rounds, seed, {"hard": budget}, True)
    stats = run.stats[Player.HARD]
    result = {"wins": stats.round_wins, "cpu": stats.decision_cpu_seconds}
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result))
    return result


def main() -> int:
    """Play each variant on the same deals; print the figures, paired with the first."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    known = variants()
    parser.add_argument("--rounds", type=int, default=1200, help="rounds per variant")
    parser.add_argument("--seed", type=int, default=7, help="the deals' seed")
    parser.add_argument("--seats", type=int, default=4, help="seats at the table (2 to 6)")
    parser.add_argument(
        "--variants",
        default="hard",
        help="comma-separated names, the first the one the others are paired with: "
        + ", ".join(known),
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path("/tmp/gap-variants"),
        help="folder of runs already played, read back for the same settings and code",
    )
    args = parser.parse_args()
    names = [n.strip() for n in args.variants.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        parser.error(f"--variants: unknown {', '.join(unknown) or '(none given)'}")
    print(f"Gap, {args.seats} seats, seed {args.seed}; load {os.getloadavg()[0]:.2f}", flush=True)
    base: list[float] | None = None
    for name in names:
        result = outcomes(name, known[name], args.seats, args.rounds, args.seed, args.cache)
        wins, cpu = result["wins"], result["cpu"]
        low, high = wilson(sum(wins), len(wins))
        text = (
            f"{name:18} {100 * sum(wins) / len(wins):5.1f}% of {len(wins)} "
            f"({100 * low:.1f}-{100 * high:.1f}); CPU ms {1000 * percentile(cpu, 0.5):.2f} / "
            f"{1000 * percentile(cpu, 0.99):.2f}"
        )
        if base is None:
            base = wins
        else:
            mean, lo, hi = paired(wins, base, args.seats)
            text += f"; paired vs {names[0]} {100 * mean:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"
        read_back = " (read back from --cache)" if "cached" in result else ""
        print(text + f"; load {os.getloadavg()[0]:.1f}{read_back}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
