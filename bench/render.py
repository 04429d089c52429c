"""Milliseconds per picture for the largest of each kind, drawn as the bot draws them (a
benchmark, not a test): median and p99 of many draws on one core, and the PNG's size.

Targets for every picture: a median of at most 30 ms and a PNG under 200 KB. The script exits
1, with a line naming the pictures that miss, when one does. Fewer than the default 100 draws
or 200 deals is a smoke run (the times are noise, the line is not the longest): the figures
are printed and the targets are not judged.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from gaple_bot.games.gap.kind import GapKind
from gaple_bot.games.gaple.kind import GapleKind
from gaple_bot.games.pictures import Picture
from gaple_bot.games.pictures.render import render
from gaple_bot.games.pictures.standings import standings_picture
from gaple_bot.games.pictures.stats import stats_picture
from gaple_bot.games.seam import GameKind, Match, running_totals
from gaple_bot.games.views import RoundReveal, SeatInfo, TableView
from gaple_bot.i18n import Translator, Translators

WANTED_MEDIAN_MS = 30.0
SIZE_LIMIT = 200_000
DEFAULT_DRAWS, DEFAULT_DEALS = 100, 200
"""The sizes by default, and the least the targets are judged on."""
NAMES = ("Bartholomew Fitzgerald-Montgomery", "Siti Nurhaliza", "Zoë Müller", "Đặng Thị Hân")


def seats(count: int) -> tuple[SeatInfo, ...]:
    """People with long names in the first seats, computers after them."""
    return tuple(
        SeatInfo(n, 1000 + n, NAMES[n]) if n < len(NAMES) else SeatInfo(n, None, "", "hard")
        for n in range(count)
    )


def table_of(
    kind: GameKind[Any, Any, Any], match: Match[Any, Any, Any], count: int
) -> TableView[Any]:
    """The table as the service shows it at a round's end."""
    return TableView(
        game_id=1,
        version=1,
        chat_id=-1,
        thread_id=None,
        kind=kind.name,
        config=match.config,
        round_number=match.round_number,
        seats=seats(count),
        scores=match.scores,
        to_move=match.to_move,
        deadline=None,
        winner=match.winner,
        board=match.board(),
        round_over=match.round_over,
    )


def played_round(
    kind: GameKind[Any, Any, Any], options: dict[str, str], count: int, seed: int
) -> Match[Any, Any, Any]:
    """A first round played to its end with uniformly random legal moves."""
    rng = random.Random(seed)
    match, _ = kind.new_match(kind.make_config(options, count), rng)
    while not match.round_over:
        seat = match.to_move
        assert seat is not None
        match.apply(seat, rng.choice(match.legal_codes()))
    return match


def longest_discards_line(t: Translator, deals: int) -> Picture:
    """Five seats with discards (D1): of `deals` rounds, the one with the longest line."""
    kind = GapleKind()
    options = {"rules": "discards", "target": "100"}
    rounds = [played_round(kind, options, 5, seed) for seed in range(deals)]
    match = max(rounds, key=lambda m: len(m.board().line))
    reveal = RoundReveal(table_of(kind, match, 5), match.revealed())
    return kind.presentation.round_end_picture(t, reveal)


def six_seat_gap(t: Translator) -> Picture:
    """A six-seat Gap round (G3: five cards each)."""
    kind = GapKind()
    match = played_round(kind, {"target": "30"}, 6, 1)
    reveal = RoundReveal(table_of(kind, match, 6), match.revealed())
    return kind.presentation.round_end_picture(t, reveal)


def nine_round_standings(t: Translator) -> Picture:
    """Six players' totals after nine rounds, the chart the game's end draws."""
    rng = random.Random(9)
    history = running_totals([rng.randrange(0, 40) for _ in range(6)] for _ in range(9))
    final = history[-1]
    winner = max(range(6), key=lambda seat: final[seat])
    kind = GapleKind()
    match = played_round(kind, {"rules": "classic", "target": "100"}, 4, 1)
    table = table_of(kind, match, 6)
    table = dataclasses.replace(table, scores=final, winner=winner)
    return standings_picture(t, table, history)


def thirty_game_card(t: Translator) -> Picture:
    """/stats with a rating line over thirty games."""
    rng = random.Random(30)
    ratings, rating = [], 0.0
    for _ in range(30):
        rating += rng.uniform(-2.0, 3.0)
        ratings.append(rating)
    lines = [
        "Games: 30 · won: 11",
        "Rounds won: 47 · Gaple finishes: 21",
        "Points: 2,140 · best round: 96",
        f"Rating: {ratings[-1]:.1f} · rank 2 of 14",
    ]
    return stats_picture(t, f"<b>{NAMES[0]}</b> in this chat", lines, ratings)


def timed(picture: Picture, draws: int) -> tuple[list[float], int]:
    """Milliseconds of each draw (after one to load fonts and faces), and the PNG's size."""
    size = len(render(picture))
    times = []
    for _ in range(draws):
        started = time.perf_counter()
        render(picture)
        times.append((time.perf_counter() - started) * 1000)
    return times, size


def p99(times: list[float]) -> float:
    """The 99th percentile (the largest, under a hundred draws)."""
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def main() -> int:
    """Print a line per picture: median and p99 milliseconds, size, and the verdicts; 1 if a
    picture misses a target."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--draws", type=int, default=DEFAULT_DRAWS, help="timed draws per picture")
    parser.add_argument(
        "--deals", type=int, default=DEFAULT_DEALS, help="rounds searched for the line"
    )
    args = parser.parse_args()
    judged = args.draws >= DEFAULT_DRAWS and args.deals >= DEFAULT_DEALS
    translators = Translators()
    indonesian = translators.get("id")
    cases: list[tuple[str, Callable[[], Picture]]] = [
        (
            "Gaple discards, 5 seats, longest line",
            lambda: longest_discards_line(indonesian.domain("gaple"), args.deals),
        ),
        ("Gap, 6 seats", lambda: six_seat_gap(indonesian.domain("gap"))),
        ("standings, 6 players, 9 rounds", lambda: nine_round_standings(indonesian)),
        ("/stats card, 30 games", lambda: thirty_game_card(indonesian)),
    ]
    print(f"{'picture':40} {'median':>9} {'p99':>9} {'size':>9}", flush=True)
    slow_ones: list[str] = []
    large_ones: list[str] = []
    for name, make in cases:
        times, size = timed(make(), args.draws)
        median = statistics.median(times)
        slow, large = median > WANTED_MEDIAN_MS, size >= SIZE_LIMIT
        speed = "MISSES" if slow else "meets"
        fits = "OVER" if large else "under"
        verdict = f"{speed} {WANTED_MEDIAN_MS:.0f} ms, {fits} {SIZE_LIMIT // 1000} KB"
        print(
            f"{name:40} {median:7.1f}ms {p99(times):7.1f}ms {size / 1000:7.1f}KB"
            f"  {verdict if judged else '(not judged: a smoke run)'}",
            flush=True,
        )
        if judged and slow:
            slow_ones.append(name)
        if judged and large:
            large_ones.append(name)
    missed = [
        f"{what}: {', '.join(names)}"
        for what, names in (
            (f"median over {WANTED_MEDIAN_MS:.0f} ms", slow_ones),
            (f"{SIZE_LIMIT // 1000} KB or more", large_ones),
        )
        if names
    ]
    if missed:
        print("targets missed, " + "; ".join(missed), flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
