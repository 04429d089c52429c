"""Leaderboards (rating, wins, points; all time and last 7 days) and player statistics."""

from __future__ import annotations

import asyncio
import itertools
import random
import shutil
from collections import defaultdict
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.store import (
    GLOBAL_SCOPE,
    Board,
    BoardEntry,
    ComputerLevel,
    Period,
    Store,
    computer_player_id,
)

from .conftest import sqlite_url
from .kit import Player, play_game

NOW = datetime(2026, 5, 20, 12, 0, tzinfo=UTC)
CHAT_A, CHAT_B = -4004, -5005


async def _play_history(store: Store) -> None:
    """Twelve finished games in two chats, half of them older than a week."""
    rng = random.Random(99)
    configs = (GameConfig(RuleSet.CLASSIC, 3, 40), GameConfig(RuleSet.DISCARDS, 4, 25))
    for number in range(12):
        chat = CHAT_A if number % 3 else CHAT_B
        config = configs[number % 2]
        pool: list[Player] = [1, 2, 3, 4, 5, ComputerLevel.NORMAL]
        players = rng.sample(pool, config.seats)
        days_ago = 20 - number if number < 6 else 6 - number / 2
        when = NOW - timedelta(days=days_ago)
        await play_game(store, chat, config, players, number, now=when, moves_per_unit=50)


async def _build(path: Path) -> None:
    store = Store.open(sqlite_url(path))
    try:
        await _play_history(store)
    finally:
        await store.close()


@pytest.fixture(scope="module")
def history_template(migrated_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The history, played once for this module."""
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    shutil.copyfile(migrated_template, path)
    asyncio.run(_build(path))
    return path


@pytest.fixture
async def history(history_template: Path, db_path: Path) -> AsyncIterator[Store]:
    """A store on this test's copy of the history."""
    shutil.copyfile(history_template, db_path)
    store = Store.open(sqlite_url(db_path))
    try:
        yield store
    finally:
        await store.close()


async def _rows(store: Store, sql: str) -> list[tuple[Any, ...]]:
    async with store.read() as tx:
        return [tuple(row) for row in await tx.session.execute(text(sql))]


def _ranked(values: dict[int, float], limit: int = 10) -> list[tuple[int, int, float]]:
    """(rank, player, value), best first; equal values share a rank."""
    ordered = sorted(values.items(), key=lambda item: -item[1])[:limit]
    return [(1 + sum(v > value for v in values.values()), p, value) for p, value in ordered]


def _summary(entries: list[BoardEntry]) -> list[tuple[int, int, float]]:
    return [(e.rank, e.player_id, e.value) for e in entries]


def _same_up_to_ties(got: list[tuple[int, int, float]], want: list[tuple[int, int, float]]) -> None:
    assert [r for r, _, _ in got] == [r for r, _, _ in want]
    assert [v for _, _, v in got] == pytest.approx([v for _, _, v in want])
    by_value: dict[float, set[int]] = defaultdict(set)
    for _, player, value in want:
        by_value[round(value, 9)].add(player)
    for _, player, value in got:
        assert player in by_value[round(value, 9)]


async def test_all_time_boards(history: Store) -> None:
    results = await _rows(
        history, "SELECT chat_id, player_id, place, points FROM results ORDER BY game_id, seat"
    )
    for scope in (CHAT_A, GLOBAL_SCOPE):
        rows = [r for r in results if scope in (GLOBAL_SCOPE, r[0])]
        wins: dict[int, float] = defaultdict(float)
        points: dict[int, float] = defaultdict(float)
        for _, player, place, score in rows:
            wins[player] += place == 1
            points[player] += score
        ratings: dict[int, float] = {
            player: ordinal
            for player, ordinal in await _rows(
                history, f"SELECT player_id, ordinal FROM ratings WHERE scope = {scope}"
            )
        }
        async with history.read() as tx:
            by_rating = await tx.boards.top("gaple", scope, Board.RATING)
            by_wins = await tx.boards.top("gaple", scope, Board.WINS)
            by_points = await tx.boards.top("gaple", scope, Board.POINTS, limit=3)
        _same_up_to_ties(_summary(by_rating), _ranked(ratings))
        _same_up_to_ties(_summary(by_points), _ranked(points, 3))
        assert [e.value for e in by_wins] == sorted(wins.values(), reverse=True)
        # Equal wins are ordered by points.
        for better, worse in itertools.pairwise(by_wins):
            if better.value == worse.value:
                assert points[better.player_id] >= points[worse.player_id]


async def test_weekly_boards_count_only_the_last_seven_days(history: Store) -> None:
    since = (NOW - timedelta(days=7)).replace(tzinfo=None).isoformat(sep=" ")
    recent = await _rows(
        history,
        f"SELECT chat_id, player_id, place, points FROM results WHERE finished_at >= '{since}'",
    )
    changes = await _rows(
        history,
        "SELECT scope, player_id, delta FROM rating_changes "
        f"WHERE at >= '{since}' AND scope = {CHAT_A}",
    )
    assert 0 < len(recent) < len(await _rows(history, "SELECT 1 FROM results"))
    points: dict[int, float] = defaultdict(float)
    wins: dict[int, float] = defaultdict(float)
    for _, player, place, score in recent:
        points[player] += score
        wins[player] += place == 1
    gained: dict[int, float] = defaultdict(float)
    for _, player, delta in changes:
        gained[player] += delta
    async with history.read() as tx:
        by_points = await tx.boards.top("gaple", GLOBAL_SCOPE, Board.POINTS, Period.WEEK, now=NOW)
        by_wins = await tx.boards.top("gaple", GLOBAL_SCOPE, Board.WINS, Period.WEEK, now=NOW)
        by_rating = await tx.boards.top("gaple", CHAT_A, Board.RATING, Period.WEEK, now=NOW)
        later = await tx.boards.top(
            "gaple", CHAT_A, Board.WINS, Period.WEEK, now=NOW + timedelta(30)
        )
    _same_up_to_ties(_summary(by_points), _ranked(points))
    assert [e.value for e in by_wins] == sorted(wins.values(), reverse=True)
    _same_up_to_ties(_summary(by_rating), _ranked(gained))
    assert later == []


async def test_computers_can_be_left_off_a_board(history: Store) -> None:
    computer = computer_player_id(ComputerLevel.NORMAL)
    async with history.read() as tx:
        everyone = await tx.boards.top("gaple", GLOBAL_SCOPE, Board.POINTS)
        humans = await tx.boards.top("gaple", GLOBAL_SCOPE, Board.POINTS, include_computers=False)
    assert computer in [e.player_id for e in everyone]
    assert [e.player_id for e in humans] == [e.player_id for e in everyone if not e.is_computer]


async def test_player_stats_in_a_chat(history: Store) -> None:
    rows = await _rows(
        history,
        "SELECT player_id, place, points, rounds_won, json_extract(extras, '$.gaples'), "
        "json_extract(extras, '$.best_round') FROM results "
        f"WHERE chat_id = {CHAT_A} AND player_id = 2",
    )
    async with history.read() as tx:
        stats = await tx.boards.player_stats("gaple", CHAT_A, 2)
        board = await tx.boards.top("gaple", CHAT_A, Board.RATING, limit=100)
        stranger = await tx.boards.player_stats("gaple", CHAT_A, 424242)
        await tx.users.upsert(77, "Newcomer")
        newcomer = await tx.boards.player_stats("gaple", CHAT_A, 77)
    assert stats is not None
    assert stats.games == len(rows)
    assert stats.wins == sum(r[1] == 1 for r in rows)
    assert stats.points == sum(r[2] for r in rows)
    assert stats.rounds_won == sum(r[3] for r in rows)
    assert stats.extras == {
        "gaples": sum(r[4] for r in rows),
        "best_round": max(r[5] for r in rows),
    }
    assert stats.rating is not None
    assert stats.rank == next(e.rank for e in board if e.player_id == 2)
    assert stats.rated_players == len(board)
    assert stranger is None
    assert newcomer is not None and (newcomer.games, newcomer.rating, newcomer.rank) == (
        0,
        None,
        None,
    )


async def test_rating_history_follows_the_rating_changes(history: Store) -> None:
    """The /stats card's line: the ordinal after each of the player's rated games in the chat,
    oldest first, ending at the rating the boards show; the last few only, when asked."""
    changes = await _rows(
        history,
        "SELECT mu_after - 3 * sigma_after FROM rating_changes "
        f"WHERE kind = 'gaple' AND scope = {CHAT_A} AND player_id = 2 ORDER BY at, id",
    )
    async with history.read() as tx:
        line = await tx.boards.rating_history("gaple", CHAT_A, 2)
        last_two = await tx.boards.rating_history("gaple", CHAT_A, 2, games=2)
        stats = await tx.boards.player_stats("gaple", CHAT_A, 2)
        elsewhere = await tx.boards.rating_history("gap", CHAT_A, 2)
        stranger = await tx.boards.rating_history("gaple", CHAT_A, 424242)
    assert len(changes) >= 3
    assert line == pytest.approx([value for (value,) in changes])
    assert last_two == pytest.approx(line[-2:])
    assert stats is not None and stats.rating is not None
    assert line[-1] == pytest.approx(stats.rating.ordinal)
    assert elsewhere == () and stranger == ()


async def test_a_computer_level_in_several_seats_counts_each_game_once(store: Store) -> None:
    """A level that held several seats of a game played one game, won it if any of its seats
    finished first, and scored what all its seats scored, on every board and in /stats."""
    computer = computer_player_id(ComputerLevel.NORMAL)
    config = GameConfig(RuleSet.CLASSIC, 4, 25)
    players: list[Player] = [1, ComputerLevel.NORMAL, 2, ComputerLevel.NORMAL]
    for seed in (3, 4):
        await play_game(store, CHAT_A, config, players, seed, now=NOW, moves_per_unit=50)
    rows = await _rows(
        store, f"SELECT game_id, place, points FROM results WHERE player_id = {computer}"
    )
    assert len(rows) == 4
    wins = len({game for game, place, _ in rows if place == 1})
    points = sum(score for _, _, score in rows)
    assert wins == 1  # These deals give the level one win, not a win per seat.
    async with store.read() as tx:
        for scope in (CHAT_A, GLOBAL_SCOPE):
            for period in Period:
                for board in Board:
                    entries = await tx.boards.top("gaple", scope, board, period, now=NOW)
                    entry = next(e for e in entries if e.player_id == computer)
                    assert entry.games == 2, (scope, period, board)
                    if board is Board.WINS:
                        assert entry.value == wins, (scope, period)
                    elif board is Board.POINTS:
                        assert entry.value == points, (scope, period)
            stats = await tx.boards.player_stats("gaple", scope, computer)
            assert stats is not None
            assert (stats.games, stats.wins, stats.points) == (2, wins, points)
