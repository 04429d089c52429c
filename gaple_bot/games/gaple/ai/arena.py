"""Levels against each other on the same seeded deals in every seat rotation, with statistics."""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..rules import Deal, Game, GameConfig, RuleSet, StuckRule, deal_round
from .montecarlo import Budget
from .players import Player, play

Z95 = 1.959964
MAX_ROUNDS_PER_GAME = 200
"""D8 can go on while the highest totals are equal; no real game comes near this."""


@dataclass
class LevelStats:
    """What one level did over an arena run (summed over its seats)."""

    seats: int
    round_wins: list[int] = field(default_factory=list)
    """Per round played: how many of the level's seats won it (0 or 1)."""
    round_points: list[float] = field(default_factory=list)
    """Per round played: the level's points per seat."""
    game_wins: list[int] = field(default_factory=list)
    decision_seconds: list[float] = field(default_factory=list)
    """Per real decision (more than one legal move; forced moves are answered at once)."""
    decision_cpu_seconds: list[float] = field(default_factory=list)
    """The same decisions' CPU time in this process: what the decision costs, whatever else
    the machine runs (wall time on a loaded machine also counts the waits for a core)."""


@dataclass
class ArenaRun:
    """An arena run's raw outcomes, in play order, so two runs on the same seed can be paired."""

    config: GameConfig
    lineup: list[Player]
    stats: dict[Player, LevelStats]
    rounds: int
    games: int
    seconds: float


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% normal-approximation interval."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    """The q-quantile (nearest rank) of the values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def _deal(config: GameConfig, seed: int, game: int, number: int, leader: int | None) -> Deal:
    """The deal of round `number` of game `game`: the same tiles in every rotation."""
    return deal_round(config, random.Random(seed * 1_000_003 + game * 1_009 + number), leader)


def play_game(
    config: GameConfig,
    lineup: Sequence[Player],
    seed: int,
    game_index: int,
    budgets: Mapping[str, Budget],
    stats: dict[Player, LevelStats],
    single_round: bool = False,
) -> int:
    """Play one whole game (or only its first round) with `lineup[s]` in seat s; add to
    `stats`; return the rounds."""
    rng = random.Random(f"moves:{seed}:{game_index}:{','.join(lineup)}")
    game = Game(config, _deal(config, seed, game_index, 0, None))
    played = 0
    while True:
        current = game.round
        while current.to_move is not None:
            seat = current.to_move
            level = lineup[seat]
            view = game.seat_view(seat)
            # One seed per decision, forced or not, as choose_move draws it.
            move_seed = rng.getrandbits(64)
            started, cpu_started = time.perf_counter(), time.process_time()
            move = play(level, view, move_seed, budgets.get(level))
            if len(view.legal) > 1:
                stats[level].decision_seconds.append(time.perf_counter() - started)
                stats[level].decision_cpu_seconds.append(time.process_time() - cpu_started)
            game.apply(seat, move)
        result = current.result
        assert result is not None
        played += 1
        for level, level_stats in stats.items():
            seats = [s for s, lv in enumerate(lineup) if lv is level]
            level_stats.round_wins.append(int(result.winner in seats))
            level_stats.round_points.append(sum(result.points[s] for s in seats) / len(seats))
        if single_round or game.winner is not None or played >= MAX_ROUNDS_PER_GAME:
            break
        game.start_round(_deal(config, seed, game_index, played, result.winner))
    for level, level_stats in stats.items():
        if single_round:
            # A single round is a game to the first round's winner.
            won = lineup[result.winner] is level
        else:
            won = game.winner is not None and lineup[game.winner] is level
        level_stats.game_wins.append(int(won))
    return played


def play_arena(
    config: GameConfig,
    lineup: Sequence[Player | str],
    rounds: int,
    seed: int = 0,
    budgets: Mapping[str, Budget] | None = None,
    single_rounds: bool = False,
    games: int | None = None,
) -> ArenaRun:
    """Play games, each in every rotation of `lineup`, until `rounds` rounds (or, if given,
    `games` games) are done.

    Every game is played once per rotation of the lineup round the table, each time on the same
    deals, so no level profits from a lucky seat. Games go to the target and all their rounds
    count; with `single_rounds` every game is one first round (C4's lead, scores at 0), so
    round i of two runs on the same seed is the same deal from the same seat.
    """
    seated_lineup = [Player(name) for name in lineup]
    if len(seated_lineup) != config.seats:
        raise ValueError(f"the lineup names {len(lineup)} levels for {config.seats} seats")
    stats = {p: LevelStats(seats=seated_lineup.count(p)) for p in dict.fromkeys(seated_lineup)}
    budgets = budgets or {}
    played = done = 0
    started = time.perf_counter()
    while (played < rounds) if games is None else (done < games):
        for rotation in range(config.seats):
            seated = [seated_lineup[(s + rotation) % config.seats] for s in range(config.seats)]
            index = done // config.seats
            played += play_game(config, seated, seed, index, budgets, stats, single_rounds)
            done += 1
    return ArenaRun(config, seated_lineup, stats, played, done, time.perf_counter() - started)


def run_arena(
    config: GameConfig,
    lineup: Sequence[Player | str],
    rounds: int,
    seed: int = 0,
    budgets: Mapping[str, Budget] | None = None,
    single_rounds: bool = False,
) -> dict[str, object]:
    """`play_arena`'s figures as plain JSON values (see `report`)."""
    run = play_arena(config, lineup, rounds, seed, budgets, single_rounds)
    return report(run.config, run.lineup, run.stats, run.rounds, run.games, run.seconds)


def report(
    config: GameConfig,
    lineup: Sequence[Player],
    stats: dict[Player, LevelStats],
    rounds: int,
    games: int,
    seconds: float,
) -> dict[str, object]:
    """The run's figures as plain JSON values (shares and points are per seat; decision times
    are over real decisions only)."""
    levels: dict[str, object] = {}
    for level, s in stats.items():
        rounds_low, rounds_high = wilson(sum(s.round_wins), len(s.round_wins))
        games_low, games_high = wilson(sum(s.game_wins), len(s.game_wins))
        points, points_low, points_high = mean_interval(s.round_points)
        levels[level.value] = {
            "seats": s.seats,
            # One round has one winner, so a level's seats share its wins between them.
            "round_win_share": sum(s.round_wins) / max(1, len(s.round_wins)) / s.seats,
            "round_win_ci": [rounds_low / s.seats, rounds_high / s.seats],
            "points_per_round": points,
            "points_ci": [points_low, points_high],
            "game_win_share": sum(s.game_wins) / max(1, len(s.game_wins)) / s.seats,
            "game_win_ci": [games_low / s.seats, games_high / s.seats],
            "decisions": len(s.decision_seconds),
            "decision_ms_median": 1000 * percentile(s.decision_seconds, 0.5),
            "decision_ms_p99": 1000 * percentile(s.decision_seconds, 0.99),
            "decision_cpu_ms_median": 1000 * percentile(s.decision_cpu_seconds, 0.5),
            "decision_cpu_ms_p99": 1000 * percentile(s.decision_cpu_seconds, 0.99),
        }
    return {
        "config": config.to_dict(),
        "lineup": [level.value for level in lineup],
        "rounds": rounds,
        "games": games,
        "seconds": round(seconds, 1),
        "levels": levels,
    }


def format_table(result: dict[str, object]) -> str:
    """The figures as a plain-text table."""
    config = result["config"]
    levels = result["levels"]
    assert isinstance(config, dict) and isinstance(levels, dict)
    lineup = result["lineup"]
    assert isinstance(lineup, list)
    lines = [
        f"{config['rule_set']} ({config['stuck_rule']} when stuck)"
        if config["rule_set"] == RuleSet.DISCARDS.value
        else f"{config['rule_set']}",
    ]
    lines[0] += (
        f", {config['seats']} seats, target {config['target']}, lineup {'+'.join(lineup)}: "
        f"{result['rounds']} rounds, {result['games']} games, {result['seconds']} s"
    )
    lines.append(
        f"{'level':9} {'seats':>5}  {'rounds won (95% CI)':24} {'points/round (95% CI)':26} "
        f"{'games won (95% CI)':24} {'ms/decision median':>18} {'p99':>7}"
    )
    for name, row in levels.items():
        assert isinstance(row, dict)
        rl, rh = row["round_win_ci"]
        pl, ph = row["points_ci"]
        gl, gh = row["game_win_ci"]
        lines.append(
            f"{name:9} {row['seats']:>5}  "
            f"{_pct(row['round_win_share'])} ({_pct(rl)}-{_pct(rh)})      "
            f"{row['points_per_round']:6.2f} ({pl:6.2f}-{ph:6.2f})      "
            f"{_pct(row['game_win_share'])} ({_pct(gl)}-{_pct(gh)})      "
            f"{row['decision_ms_median']:18.2f} {row['decision_ms_p99']:7.2f}"
        )
    return "\n".join(lines)


def _pct(share: float) -> str:
    return f"{100 * share:5.1f}%"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line of the arena."""
    parser = argparse.ArgumentParser(
        prog="gaple-bot arena",
        description="Play computer levels against each other on the same seeded deals in every"
        " seat rotation; print each level's rounds won, points per round and games won with 95%"
        " confidence intervals, and its time per decision.",
    )
    parser.add_argument(
        "--lineup",
        default="hard,easy,easy,easy",
        help="one player per seat, comma-separated ("
        + ", ".join(p.value for p in Player)
        + "; reference and hard-v1 to hard-v5 are arena-only)",
    )
    parser.add_argument(
        "--single-rounds",
        action="store_true",
        help="play every deal as a game's first round only (scores at 0), not whole games",
    )
    parser.add_argument("--rules", choices=[r.value for r in RuleSet], default="classic")
    parser.add_argument("--stuck", choices=[s.value for s in StuckRule], default="discard")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=400, help="at least this many rounds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena from the command line; the exit code is 0, or 2 for a bad lineup.

    `python -m gaple_bot.games.gaple.ai.arena --lineup hard,easy,easy,easy --rounds 2000 [--json]`.
    """
    args = parse_args(argv)
    try:
        lineup = [Player(name.strip()) for name in args.lineup.split(",")]
        config = GameConfig(RuleSet(args.rules), len(lineup), args.target, StuckRule(args.stuck))
    except ValueError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    result = run_arena(config, lineup, args.rounds, args.seed, single_rounds=args.single_rounds)
    print(json.dumps(result, indent=2) if args.json else format_table(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
