"""The analysis CPU of a whole game's review, for each game kind, on realistic games.

Each game is played to its end with the kind's default options and four computer players of
mixed levels (hard, normal, easy, normal: a table of people of every strength), through the
seam as the service plays it, from the seed; then every seat is reviewed as if people sat
there (as `games.review.review_game` does: every decision with a choice judged by the kind's
`review_values`, the default work). The figure is the process CPU time of the review alone
(the game's play is not counted), per game (median and worst) and per decision (median, p90
and worst), with how the levels' moves were marked, which shows the marks rank the players,
and how far a loss moves when every tenth decision is judged again on another seed (the
search's own noise, which the "best" threshold must cover; not counted in the CPU).

Target: the worst game's review within 120 s of CPU (a review runs in the computer players'
pool at low priority, so it may take minutes of wall time on a busy machine but must not
occupy a core for long). The script exits 1, naming the miss, when a game exceeds it.

    .venv/bin/python bench/review.py [--games 3] [--kinds gaple,gap] [--seed 2024]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence

from gaple_bot.games.registry import default_registry
from gaple_bot.games.review import Decision, GameReview, Mark, assemble, decisions
from gaple_bot.games.seam import JSON, AnyGameKind

TARGET_GAME_CPU = 120.0
"""Seconds of CPU a game's whole review may take at most (its worst game)."""
LEVELS = ("hard", "normal", "easy", "normal")
"""The computer level in each seat of a benchmark game."""


def play(kind: AnyGameKind, seed: int) -> tuple[JSON, list[tuple[JSON, list[int]]]]:
    """A whole game of `kind`'s defaults at four seats, played by LEVELS from `seed`: its
    config and its rounds as stored (deals and move codes)."""
    rng = random.Random(seed)
    config = kind.make_config({}, len(LEVELS))
    match, deal = kind.new_match(config, rng)
    rounds: list[tuple[JSON, list[int]]] = [(deal, [])]
    while True:
        while match.to_move is not None:
            seat = match.to_move
            view = match.computer_view(seat)
            code = kind.computer_move(LEVELS[seat], view, rng.getrandbits(64))
            match.apply(seat, code)
            rounds[-1][1].append(code)
        if match.is_over:
            return config, rounds
        deal = match.next_deal(rng)
        match.start_round(deal)
        rounds.append((deal, []))


def review(
    kind: AnyGameKind, config: JSON, rounds: Sequence[tuple[JSON, Sequence[int]]]
) -> tuple[list[Decision], GameReview, list[float], float]:
    """Every seat's decisions and review, each decision's CPU seconds, and the whole
    review's."""
    started = time.process_time()
    found: list[Decision] = decisions(kind, config, rounds, range(len(LEVELS)))
    values, each = [], []
    for decision in found:
        before = time.process_time()
        values.append(kind.review_values(decision.view, decision.seed))
        each.append(time.process_time() - before)
    reviewed = assemble(found, values)
    return found, reviewed, each, time.process_time() - started


def recheck(
    kind: AnyGameKind, found: Sequence[Decision], reviewed: GameReview, every: int
) -> list[tuple[float, bool]]:
    """Every `every`-th decision judged again on another seed: how far its loss moved and
    whether its mark changed (the search's own noise; not counted in the review's CPU)."""
    moved = []
    for decision, move in list(zip(found, reviewed.moves, strict=True))[::every]:
        values = kind.review_values(decision.view, decision.seed ^ 0x5EED)
        again = assemble([decision], [values]).moves[0]
        moved.append((abs(again.loss - move.loss), again.mark is not move.mark))
    return moved


def _p(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def bench_kind(kind: AnyGameKind, games: int, seed: int, every: int) -> list[float]:
    """Play and review `games` games; print their figures; each game's review CPU seconds.
    Every `every`-th decision is judged again on another seed (0: none)."""
    kind.warm_up_computers()
    per_game: list[float] = []
    per_decision: list[float] = []
    marks: dict[str, Counter[Mark]] = {level: Counter() for level in set(LEVELS)}
    accuracy: dict[str, list[float]] = {level: [] for level in set(LEVELS)}
    moved: list[tuple[float, bool]] = []
    for game in range(games):
        config, rounds = play(kind, seed + game)
        found, reviewed, each, total = review(kind, config, rounds)
        if every:
            moved.extend(recheck(kind, found, reviewed, every))
        per_game.append(total)
        per_decision.extend(each)
        for move in reviewed.moves:
            marks[LEVELS[move.seat]][move.mark] += 1
        for summary in reviewed.seats:
            accuracy[LEVELS[summary.seat]].append(summary.accuracy)
        moves = sum(len(codes) for _, codes in rounds)
        print(
            f"  game {game + 1}: {len(rounds)} rounds, {moves} moves, {len(each)} decisions "
            f"reviewed in {total:.1f} s CPU (load average {_load()})",
            flush=True,
        )
    ms = [1000 * s for s in per_decision]
    print(
        f"  per game: median {statistics.median(per_game):.1f} s, worst {max(per_game):.1f} s "
        f"CPU; per decision: median {statistics.median(ms):.0f} ms, p90 {_p(ms, 0.9):.0f} ms, "
        f"worst {max(ms):.0f} ms"
    )
    if moved:
        shifts = [shift for shift, _ in moved]
        print(
            f"  another seed on {len(moved)} decisions: loss moved {statistics.mean(shifts):.2f} "
            f"on average, {max(shifts):.1f} at most; {sum(c for _, c in moved)} marks changed"
        )
    for level in ("hard", "normal", "easy"):
        counted = marks[level]
        shown = ", ".join(f"{mark.value} {counted[mark]}" for mark in Mark)
        mean = statistics.mean(accuracy[level])
        print(f"  {level}: accuracy {mean:.1f}; {shown}")
    return per_game


def main(argv: Sequence[str] | None = None) -> int:
    """Bench every kind asked; 1 if a game's review passed the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per kind")
    parser.add_argument("--kinds", default="gaple,gap", help="comma-separated kinds")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--target", type=float, default=TARGET_GAME_CPU, help="CPU s per game")
    parser.add_argument(
        "--recheck", type=int, default=10, help="judge every N-th decision again (0: none)"
    )
    args = parser.parse_args(argv)
    registry = default_registry()
    missed = []
    for name in [k.strip() for k in args.kinds.split(",") if k.strip()]:
        kind = registry.get(name)
        print(f"{name}: {args.games} games of {', '.join(LEVELS)} (seed {args.seed})", flush=True)
        worst = max(bench_kind(kind, args.games, args.seed, args.recheck))
        if worst > args.target:
            missed.append(f"{name}: a game's review took {worst:.1f} s CPU > {args.target:.0f} s")
    for line in missed:
        print(f"MISSED {line}", file=sys.stderr)
    if not missed:
        print(f"every game's review within {args.target:.0f} s of CPU")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
