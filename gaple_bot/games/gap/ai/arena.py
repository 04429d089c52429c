"""Gap's levels against each other on the same seeded deals in every seat rotation.

`python -m gaple_bot.games.gap.ai.arena --lineup hard,normal,normal,normal --rounds 2000`
prints each level's share of rounds won (per seat; a round's winner is the seat with the best
round score, ties split) with a 95% interval, and its milliseconds per decision.
"""

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

from ..rules import DEFAULT_TARGET, Deal, Game, GapConfig, deal_round, first_seat
from .montecarlo import Budget
from .players import Player, play_traced

Z95 = 1.959964
MAX_ROUNDS_PER_GAME = 200
"""G6 ends a game once a total reaches the target; no real game comes near this."""


@dataclass
class LevelStats:
    """What one player did over an arena run (summed over its seats)."""

    seats: int
    round_wins: list[float] = field(default_factory=list)
    """Per round played: the player's seats' share of the round's win (ties split), 0..1."""
    round_points: list[float] = field(default_factory=list)
    """Per round played: the player's points per seat."""
    decision_seconds: list[float] = field(default_factory=list)
    """Per real decision (more than one legal move; forced moves are answered at once)."""
    decision_cpu_seconds: list[float] = field(default_factory=list)
    """The same decisions' CPU time in this process: what a decision costs, whatever else the
    machine runs (wall time on a loaded machine also counts the waits for a core)."""
    capped: int = 0
    """Real decisions the time cap (a safety net) cut short."""


@dataclass
class ArenaRun:
    """An arena run's raw outcomes, in play order, so two runs on the same seed can be paired."""

    config: GapConfig
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
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))]


def round_shares(points: Sequence[int]) -> list[float]:
    """Each seat's share of a round's win: the seats with the best score split it."""
    best = max(points)
    winners = sum(1 for p in points if p == best)
    return [1 / winners if p == best else 0.0 for p in points]


def _deal(config: GapConfig, seed: int, game: int, number: int) -> Deal:
    """The deal of round `number` (1..) of game `game`: the same cards in every rotation."""
    rng = random.Random(seed * 1_000_003 + game * 1_009 + number)
    return deal_round(config, rng, first_seat(config, number))


def play_game(
    config: GapConfig,
    lineup: Sequence[Player],
    seed: int,
    game_index: int,
    budgets: Mapping[str, Budget],
    stats: dict[Player, LevelStats],
    single_round: bool = False,
) -> int:
    """Play one game with `lineup[s]` in seat s to the target (or only its first round); add
    to `stats`; return the rounds played."""
    rng = random.Random(f"moves:{seed}:{game_index}:{','.join(lineup)}")
    game = Game(config, _deal(config, seed, game_index, 1))
    played = 0
    while True:
        current = game.round
        while current.to_move is not None:
            seat = current.to_move
            player = lineup[seat]
            view = game.seat_view(seat)
            # One seed per decision, forced or not.
            move_seed = rng.getrandbits(64)
            started, cpu_started = time.perf_counter(), time.process_time()
            move, capped = play_traced(player, view, move_seed, budgets.get(player))
            if len(view.legal) > 1:
                player_stats = stats[player]
                player_stats.decision_seconds.append(time.perf_counter() - started)
                player_stats.decision_cpu_seconds.append(time.process_time() - cpu_started)
                player_stats.capped += capped
            game.apply(seat, move)
        result = current.result
        assert result is not None
        played += 1
        shares = round_shares(result.points)
        for player, player_stats in stats.items():
            seats = [s for s, p in enumerate(lineup) if p is player]
            player_stats.round_wins.append(sum(shares[s] for s in seats))
            player_stats.round_points.append(sum(result.points[s] for s in seats) / len(seats))
        if single_round or game.is_over or played >= MAX_ROUNDS_PER_GAME:
            return played
        game.start_round(_deal(config, seed, game_index, played + 1))


def play_arena(
    config: GapConfig,
    lineup: Sequence[Player | str],
    rounds: int,
    seed: int = 0,
    budgets: Mapping[str, Budget] | None = None,
    single_rounds: bool = False,
) -> ArenaRun:
    """Play games, each once in every rotation of `lineup`, until `rounds` rounds are done.

    Every game is played in each rotation on the same deals, so no player profits from a lucky
    seat or deal. Games go to the target and all their rounds count (a run may go a little
    past `rounds`); with `single_rounds` every game is its first round only, so round i of two
    runs on the same seed is the same deal from the same seat, and runs pair up round by round.
    """
    seated_lineup = [Player(name) for name in lineup]
    if len(seated_lineup) != config.seats:
        raise ValueError(f"the lineup names {len(lineup)} players for {config.seats} seats")
    stats = {p: LevelStats(seats=seated_lineup.count(p)) for p in dict.fromkeys(seated_lineup)}
    chosen = budgets or {}
    played = games = 0
    started = time.perf_counter()
    while played < rounds:
        for rotation in range(config.seats):
            seated = [seated_lineup[(s + rotation) % config.seats] for s in range(config.seats)]
            index = games // config.seats
            played += play_game(config, seated, seed, index, chosen, stats, single_rounds)
            games += 1
    return ArenaRun(config, seated_lineup, stats, played, games, time.perf_counter() - started)


def run_arena(
    config: GapConfig,
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
    config: GapConfig,
    lineup: Sequence[Player],
    stats: dict[Player, LevelStats],
    rounds: int,
    games: int,
    seconds: float,
) -> dict[str, object]:
    """The run's figures as plain JSON values (shares and points are per seat)."""
    levels: dict[str, object] = {}
    for level, s in stats.items():
        won = sum(s.round_wins)
        low, high = wilson(won, len(s.round_wins))
        points, points_low, points_high = mean_interval(s.round_points)
        levels[level.value] = {
            "seats": s.seats,
            # A round has one win to share, so a level's seats split its share between them.
            "round_win_share": won / max(1, len(s.round_wins)) / s.seats,
            "round_win_ci": [low / s.seats, high / s.seats],
            "points_per_round": points,
            "points_ci": [points_low, points_high],
            "decisions": len(s.decision_seconds),
            "decision_ms_median": 1000 * percentile(s.decision_seconds, 0.5),
            "decision_ms_p99": 1000 * percentile(s.decision_seconds, 0.99),
            "decision_cpu_ms_median": 1000 * percentile(s.decision_cpu_seconds, 0.5),
            "decision_cpu_ms_p99": 1000 * percentile(s.decision_cpu_seconds, 0.99),
            "capped": s.capped,
        }
    return {
        "config": config.to_dict(),
        "lineup": [level.value for level in lineup],
        "rounds": rounds,
        "games": games,
        "seconds": round(seconds, 1),
        "levels": levels,
    }


def _pct(share: float) -> str:
    return f"{100 * share:5.1f}%"


def format_table(result: dict[str, object]) -> str:
    """The figures as a plain-text table."""
    config, levels, lineup = result["config"], result["levels"], result["lineup"]
    assert isinstance(config, dict) and isinstance(levels, dict) and isinstance(lineup, list)
    lines = [
        f"Gap, {config['seats']} seats, target {config['target']}, lineup {'+'.join(lineup)}: "
        f"{result['rounds']} rounds, {result['games']} games, {result['seconds']} s",
        f"{'player':9} {'seats':>5}  {'rounds won (95% CI)':24} {'points/round (95% CI)':26} "
        f"{'ms/decision median':>18} {'p99':>7}",
    ]
    for name, row in levels.items():
        assert isinstance(row, dict)
        rl, rh = row["round_win_ci"]
        pl, ph = row["points_ci"]
        lines.append(
            f"{name:9} {row['seats']:>5}  "
            f"{_pct(row['round_win_share'])} ({_pct(rl)}-{_pct(rh)})      "
            f"{row['points_per_round']:6.2f} ({pl:6.2f}-{ph:6.2f})      "
            f"{row['decision_ms_median']:18.2f} {row['decision_ms_p99']:7.2f}"
        )
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line of the arena."""
    parser = argparse.ArgumentParser(
        prog="python -m gaple_bot.games.gap.ai.arena",
        description="Play Gap's computer levels against each other on the same seeded deals in"
        " every seat rotation; print each level's share of rounds won and points per round"
        " with 95% confidence intervals, and its time per decision.",
    )
    parser.add_argument(
        "--lineup",
        default="hard,normal,normal,normal",
        help="one player per seat, comma-separated ("
        + ", ".join(p.value for p in Player)
        + "; reference, hard-v1 and hard-v2 are arena-only), 2 to 6 seats",
    )
    parser.add_argument(
        "--single-rounds",
        action="store_true",
        help="play every deal as a game's first round only (scores at 0), not whole games",
    )
    parser.add_argument("--target", type=int, default=DEFAULT_TARGET)
    parser.add_argument("--rounds", type=int, default=400, help="at least this many rounds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the arena from the command line; the exit code is 0, or 2 for a bad lineup."""
    args = parse_args(argv)
    try:
        lineup = [Player(name.strip()) for name in args.lineup.split(",")]
        config = GapConfig(seats=len(lineup), target=args.target)
    except ValueError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    result = run_arena(config, lineup, args.rounds, args.seed, single_rounds=args.single_rounds)
    print(json.dumps(result, indent=2) if args.json else format_table(result), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
