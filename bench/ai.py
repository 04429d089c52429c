"""The computer levels against the reference opponent on the same deals, with paired differences.

Every pairing seats one player against copies of another on the same seeded deals in every
seat rotation. Single rounds (each deal a game's first round) pair up across runs by deal and
seat, so two players' figures against the same opponents are compared on the same hands: the
paired difference, with its 95% interval over deals. Whole games to the target pair up by game.
`--quick` plays 100 rounds per pairing (a smoke run); docs/COMPUTER_PLAYERS.md gives the
commands behind the figures it quotes (--rounds 4000 for hard's four-seat table).

Targets (issue 41; table 1, hard in single classic four-seat rounds): at least 31% of rounds
won against three reference players with the 95% interval's lower end above 29.5%, ahead of
hard-v3 (hard as issue 41 found it) on the same deals with the paired interval above zero, 28%
against three hard-v1, a median CPU time per real decision of at most 10 ms and a p99 of at
most 50 ms, the time cap (a safety net) passed on under 1% of decisions; hard above an equal
share of rounds at two and three seats and under the discard rules; and in every table played,
no level behind the one below it on average (a negative paired difference; hard-v5, within a
point of hard, is only printed beside it). The script exits
1, with a line naming the misses, when one is missed; a --quick run prints its verdicts without
judging them.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from gaple_bot.games.gaple.ai.arena import ArenaRun, mean_interval, percentile, play_arena, wilson
from gaple_bot.games.gaple.ai.players import Player, budget_of
from gaple_bot.games.gaple.rules import GameConfig, RuleSet

EASY, NORMAL, HARD = Player.EASY, Player.NORMAL, Player.HARD
REF, HARD_V1, HARD_V2 = Player.REFERENCE, Player.HARD_V1, Player.HARD_V2
HARD_V3, HARD_V4, HARD_V5 = Player.HARD_V3, Player.HARD_V4, Player.HARD_V5
TARGET_VS_REF, TARGET_VS_V1, TARGET_LOW_VS_REF = 0.31, 0.28, 0.295
HARD_MEDIAN_MS, HARD_P99_MS, CAP_SHARE = 10.0, 50.0, 0.01
CLASSIC_4 = GameConfig(RuleSet.CLASSIC, 4)


@dataclass(frozen=True)
class Table:
    """One table setup: its config, whether rounds are single first rounds, its pairings."""

    name: str
    config: GameConfig
    single_rounds: bool
    pairings: tuple[tuple[Player, Player], ...]
    """(player, its opponents in every other seat)."""
    compare: tuple[tuple[int, int], ...]
    """Pairs of pairing indices on the same opponents whose paired difference is printed."""


TABLES: tuple[Table, ...] = (
    Table(
        "classic, 4 seats, single rounds",
        CLASSIC_4,
        True,
        (
            (HARD, REF),
            (HARD_V5, REF),
            (HARD_V4, REF),
            (HARD_V3, REF),
            (HARD_V2, REF),
            (NORMAL, REF),
            (EASY, REF),
        ),
        ((0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (5, 6)),
    ),
    Table(
        "classic, 4 seats, single rounds, against three hard-v1",
        CLASSIC_4,
        True,
        ((HARD, HARD_V1),),
        (),
    ),
    Table(
        "classic, 4 seats, whole games to 100",
        CLASSIC_4,
        False,
        ((HARD, REF), (HARD_V5, REF), (HARD_V4, REF), (HARD_V3, REF)),
        ((0, 1), (0, 2), (0, 3)),
    ),
    Table(
        "discards, 4 seats, single rounds",
        GameConfig(RuleSet.DISCARDS, 4),
        True,
        ((HARD, REF), (NORMAL, REF), (EASY, REF)),
        ((0, 1), (1, 2)),
    ),
    Table(
        "classic, 3 seats, single rounds",
        GameConfig(RuleSet.CLASSIC, 3),
        True,
        ((HARD, REF), (NORMAL, REF), (EASY, REF)),
        ((0, 1), (1, 2)),
    ),
    Table(
        "classic, 2 seats, single rounds",
        GameConfig(RuleSet.CLASSIC, 2),
        True,
        ((HARD, REF), (NORMAL, REF), (EASY, REF)),
        ((0, 1), (1, 2)),
    ),
)


def _outcomes(run: ArenaRun, single_rounds: bool) -> list[int]:
    """The first player's wins, one per round (single rounds) or per game, in play order."""
    stats = run.stats[run.lineup[0]]
    return stats.round_wins if single_rounds else stats.game_wins


def paired_difference(
    a: Sequence[int], b: Sequence[int], cluster: int
) -> tuple[float, float, float]:
    """The mean of a - b and its 95% interval, the pairs taken `cluster` at a time (the seat
    rotations of one deal are not independent, so the deal is the unit of the interval)."""
    if len(a) != len(b):
        raise ValueError("paired runs must have the same number of outcomes")
    per_deal = [
        sum(x - y for x, y in zip(a[i : i + cluster], b[i : i + cluster], strict=True)) / cluster
        for i in range(0, len(a), cluster)
    ]
    return mean_interval(per_deal)


def _load() -> str:
    """The 1-minute load average now, or "unknown" where the system does not tell."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def _pct(share: float) -> str:
    return f"{100 * share:.1f}%"


@dataclass(frozen=True)
class Line:
    """A pairing's printed line and the figures its verdicts read."""

    text: str
    won: float
    low: float
    cpu_median: float
    cpu_p99: float
    past_cap: float
    """The share of real decisions whose wall time passed hard's time cap: an upper bound on
    those the cap cut short."""


def _past_cap(run: ArenaRun, player: Player, who: str) -> tuple[int, str]:
    """How many of `player`'s real decisions passed its time cap, and the words saying so
    (none for a player with no cap). The cap can only have cut a decision whose wall time
    passed it: an upper bound."""
    budget = budget_of(player)
    cap = budget.time_cap if budget is not None else None
    if cap is None:
        return 0, ""
    times = run.stats[player].decision_seconds
    past = sum(t > cap for t in times)
    return past, f"; {who}past the {1000 * cap:.0f} ms cap {past} of {len(times)}"


def _line(run: ArenaRun, single_rounds: bool) -> Line:
    """A pairing's printed line and figures."""
    player, opponent = run.lineup[0], run.lineup[1]
    outcomes = _outcomes(run, single_rounds)
    won = sum(outcomes) / len(outcomes)
    low, high = wilson(sum(outcomes), len(outcomes))
    times = run.stats[player].decision_seconds
    median, p99 = 1000 * percentile(times, 0.5), 1000 * percentile(times, 0.99)
    cpu = run.stats[player].decision_cpu_seconds
    cpu_median, cpu_p99 = 1000 * percentile(cpu, 0.5), 1000 * percentile(cpu, 0.99)
    past, capped = _past_cap(run, player, "")
    # Hard-v1's thinking is bounded by time: where it often passes its cap, a slower or
    # busier machine plays it weaker, and the pairing's figure moves with the machine.
    capped += _past_cap(run, opponent, "opponents ")[1]
    unit = "rounds" if single_rounds else "games"
    text = (
        f"  {player.value:8} vs {len(run.lineup) - 1} {opponent.value:9} "
        f"{_pct(won):>6} of {len(outcomes)} {unit} (95% CI {_pct(low)}-{_pct(high)}), "
        f"equal share {_pct(1 / len(run.lineup))}; "
        f"ms/decision median {median:.2f}, p99 {p99:.2f} "
        f"(CPU {cpu_median:.2f}, {cpu_p99:.2f}) "
        f"(opponents {1000 * percentile(run.stats[opponent].decision_seconds, 0.5):.2f}); "
        f"{run.seconds:.0f} s; load average {_load()}{capped}"
    )
    return Line(text, won, low, cpu_median, cpu_p99, past / max(1, len(times)))


def _judge(table: Table, opponent: Player, line: Line) -> tuple[list[str], list[str]]:
    """The verdicts on hard's figures in one pairing, and the misses among them."""
    verdicts: list[str] = []
    missed: list[str] = []

    def check(ok: bool, text: str) -> None:
        verdicts.append(f"{text}: {'MET' if ok else 'NOT MET'}")
        if not ok:
            missed.append(text)

    seats = table.config.seats
    where = f"{table.name}, hard vs {seats - 1} {opponent.value}"
    if not table.single_rounds:
        verdicts.append(f"{where}: {_pct(line.won)} of games (CI low {_pct(line.low)})")
    elif table.config == CLASSIC_4 and opponent is REF:
        check(
            line.won >= TARGET_VS_REF and line.low > TARGET_LOW_VS_REF,
            f"{where}: {_pct(line.won)} (CI low {_pct(line.low)}), target >= "
            f"{_pct(TARGET_VS_REF)} with CI low > {_pct(TARGET_LOW_VS_REF)}",
        )
        # The time targets are read off the run against the reference players.
        check(
            line.cpu_median <= HARD_MEDIAN_MS and line.cpu_p99 <= HARD_P99_MS,
            f"hard CPU ms per real decision median {line.cpu_median:.2f} (target <= "
            f"{HARD_MEDIAN_MS:.0f}), p99 {line.cpu_p99:.2f} (target <= {HARD_P99_MS:.0f})",
        )
    elif table.config == CLASSIC_4:
        check(
            line.won >= TARGET_VS_V1,
            f"{where}: {_pct(line.won)}, target >= {_pct(TARGET_VS_V1)}",
        )
    else:
        check(line.won > 1 / seats, f"{where}: {_pct(line.won)}, target > {_pct(1 / seats)}")
    if table.single_rounds:
        check(
            line.past_cap < CAP_SHARE,
            f"{where}: time cap passed on {_pct(line.past_cap)} of decisions, target < "
            f"{_pct(CAP_SHARE)}",
        )
    return verdicts, missed


def main() -> int:
    """Play every table's pairings, print them with paired differences, then the targets; 1
    if one is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3000, help="rounds (or games) per pairing")
    parser.add_argument("--quick", action="store_true", help="100 per pairing: a smoke run")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--players",
        default="",
        help="comma-separated first players to seat ("
        + ", ".join(p.value for p in Player)
        + "); all if empty",
    )
    parser.add_argument(
        "--tables",
        default="",
        help="comma-separated table numbers to play (1-based, in the order printed); all if empty",
    )
    args = parser.parse_args()
    count = 100 if args.quick else args.rounds
    try:
        chosen = {int(t) for t in args.tables.split(",") if t.strip()}
        seated = {Player(p.strip()) for p in args.players.split(",") if p.strip()} or set(Player)
    except ValueError as exc:
        parser.error(str(exc))
    if not chosen <= set(range(1, len(TABLES) + 1)):
        parser.error(f"--tables: the tables are numbered 1 to {len(TABLES)}")
    chosen = chosen or set(range(1, len(TABLES) + 1))
    started = time.perf_counter()
    verdicts: list[str] = []
    missed: list[str] = []
    for number, table in enumerate(TABLES, 1):
        if number not in chosen:
            continue
        seats = table.config.seats
        # Whole games: a fixed number of games, so two runs pair up game by game.
        games = None if table.single_rounds else max(seats, count // 4 // seats * seats)
        print(f"{number}. {table.name} (seed {args.seed}; load average {_load()})", flush=True)
        runs: dict[int, ArenaRun] = {}
        for index, (player, opponent) in enumerate(table.pairings):
            if player not in seated:
                continue
            lineup = [player] + [opponent] * (seats - 1)
            run = play_arena(
                table.config, lineup, count, args.seed, None, table.single_rounds, games
            )
            runs[index] = run
            line = _line(run, table.single_rounds)
            print(line.text, flush=True)
            if player is HARD:
                more_verdicts, more_missed = _judge(table, opponent, line)
                verdicts += more_verdicts
                missed += more_missed
        for i, j in table.compare:
            if i not in runs or j not in runs:
                continue
            a, b = runs[i], runs[j]
            mean, low, high = paired_difference(
                _outcomes(a, table.single_rounds),
                _outcomes(b, table.single_rounds),
                seats if table.single_rounds else 1,
            )
            print(
                f"  paired: {a.lineup[0].value} - {b.lineup[0].value} vs {a.lineup[1].value}: "
                f"{100 * mean:+.1f} points (95% CI {100 * low:+.1f} to {100 * high:+.1f})",
                flush=True,
            )
            if b.lineup[0] is HARD_V3:
                # The target is on single four-seat rounds; whole games only print theirs.
                if table.single_rounds and table.config == CLASSIC_4:
                    ahead = low > 0
                    verdicts.append(
                        f"table {number}: hard ahead of hard-v3 on the same deals, the paired "
                        f"interval above zero ({100 * mean:+.1f} points, 95% CI "
                        f"{100 * low:+.1f} to {100 * high:+.1f}): {'MET' if ahead else 'NOT MET'}"
                    )
                    if not ahead:
                        missed.append(f"table {number}: hard not clearly ahead of hard-v3")
            # "No level weaker than the one below it": flag a negative paired difference. Hard-v5
            # is within a point of today's hard, so their pairing is printed, not judged: either
            # sign is the arena's noise (docs/COMPUTER_PLAYERS.md, the eighth sitting).
            elif mean < 0 and b.lineup[0] is not HARD_V5:
                below = (
                    f"table {number}: {a.lineup[0].value} below {b.lineup[0].value} on average "
                    f"({100 * mean:+.1f} points)"
                )
                verdicts.append(below)
                missed.append(below)
        print(flush=True)
    print("Targets (not judged on a --quick run):" if args.quick else "Targets:")
    for verdict in verdicts or ["(none in the tables played)"]:
        print("  " + verdict)
    print(f"total {time.perf_counter() - started:.0f} s; load average {_load()}", flush=True)
    if args.quick:
        print("(a --quick run: the targets are not judged)", flush=True)
        return 0
    if missed:
        print("targets missed: " + "; ".join(missed), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
