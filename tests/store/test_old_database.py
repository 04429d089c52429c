"""A database filled at migration 0006 upgrades to head with every read answer unchanged.

The data and the answers come from data/make_old_0006.py, run once at 0006 (see data/README.md).
When the read API changes, adapt the `*_answer` calls below; never the data or the answers.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict, is_dataclass
from datetime import datetime
from enum import Enum
from itertools import groupby
from pathlib import Path
from typing import Any

import pytest

from gaple_bot.games.gaple.kind import GapleKind, rule_set_of
from gaple_bot.games.options import checked_options
from gaple_bot.store import Board, Period, Store, Transaction, upgrade_to_head

from .conftest import sqlite_url

DATA = Path(__file__).resolve().parent / "data"
DUMP = DATA / "old_0006.sql"
ANSWERS: dict[str, Any] = json.loads((DATA / "old_0006_answers.json").read_text("utf-8"))
OLD_REVISION = "0006"
NOW = datetime.fromisoformat(ANSWERS["now"])
BOARD_LIMIT = 1000
"""Larger than the number of players, as when the answers were taken: no board is cut off."""
RELATIVE_TOLERANCE = 1e-9
ABSOLUTE_TOLERANCE = 1e-12
"""For ratings gained in a week, which may sum to about zero in another order."""

GAPLE = GapleKind()
"""Every game of the old database is Gaple's."""
Case = dict[str, Any]
Answer = Callable[[Transaction, Case], Awaitable[Any]]
Compare = Callable[[Any, Any, str], list[str]]


def plain(value: Any) -> Any:
    """An answer as JSON values: dataclasses as dicts, enums by value, times as ISO text."""
    if is_dataclass(value) and not isinstance(value, type):
        return plain(asdict(value))
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def differences(got: Any, want: Any, where: str) -> list[str]:
    """Where `got` differs from `want`: floats within the tolerance, all else exactly (an int
    that comes back as a float, or a bool as an int, is a difference)."""
    if isinstance(want, dict):
        if not isinstance(got, dict) or got.keys() != want.keys():
            return [f"{where}: {got!r} != {want!r}"]
        return [d for key in want for d in differences(got[key], want[key], f"{where}.{key}")]
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) != len(want):
            return [f"{where}: {got!r} != {want!r}"]
        found: list[str] = []
        for index, (got_item, want_item) in enumerate(zip(got, want, strict=True)):
            found += differences(got_item, want_item, f"{where}[{index}]")
        return found
    if isinstance(want, float):
        close = type(got) is float and math.isclose(
            got, want, rel_tol=RELATIVE_TOLERANCE, abs_tol=ABSOLUTE_TOLERANCE
        )
        return [] if close else [f"{where}: {got!r} != {want!r}"]
    return [] if type(got) is type(want) and got == want else [f"{where}: {got!r} != {want!r}"]


def board_differences(got: list[Any], want: list[Any], where: str) -> list[str]:
    """Board lines compared rank by rank. Lines of one rank tie on the value, and the board
    promises no order among them beyond its tiebreak, so each rank's lines are a set."""
    got_ranks = [line["rank"] for line in got]
    want_ranks = [line["rank"] for line in want]
    if got_ranks != want_ranks:
        return [f"{where}: ranks {got_ranks} != {want_ranks}"]
    found: list[str] = []
    got_groups = groupby(got, key=lambda line: line["rank"])
    want_groups = groupby(want, key=lambda line: line["rank"])
    for (rank, got_lines), (_, want_lines) in zip(got_groups, want_groups, strict=True):
        by_player = sorted(got_lines, key=lambda line: line["player_id"])
        wanted = sorted(want_lines, key=lambda line: line["player_id"])
        found += differences(by_player, wanted, f"{where} rank {rank}")
    return found


async def board_answer(tx: Transaction, case: Case) -> Any:
    entries = await tx.boards.top(
        GAPLE.name,
        case["scope"],
        Board(case["board"]),
        Period(case["period"]),
        limit=BOARD_LIMIT,
        now=NOW,
        include_computers=case["include_computers"],
    )
    return plain(entries)


def with_old_extras(answer: dict[str, Any]) -> dict[str, Any]:
    """Gaple's extras back in the fields they had at 0006 (none yet counts 0)."""
    extras = answer.pop("extras")
    return answer | {name: extras.get(name, 0) for name in ("gaples", "best_round")}


async def player_stats_answer(tx: Transaction, case: Case) -> Any:
    stats = plain(await tx.boards.player_stats(GAPLE.name, case["scope"], case["player_id"]))
    return None if stats is None else with_old_extras(stats)


async def results_answer(tx: Transaction, case: Case) -> Any:
    return [with_old_extras(r) for r in plain(await tx.results.of_game(case["game_id"]))]


async def chat_answer(tx: Transaction, case: Case) -> Any:
    settings = await tx.chats.get(case["chat_id"])
    if settings is None:
        return None
    # Gaple's options as the settings fields of 0006 (the kind's defaults where none stored).
    stored = settings.options.get(GAPLE.name, {})
    options = checked_options(GAPLE.options, stored, {})
    rule_set, stuck_rule = rule_set_of(options)
    return plain(
        {
            "chat_id": settings.chat_id,
            "title": settings.title,
            "rule_set": rule_set,
            "target": int(options["target"]),
            "stuck_rule": stuck_rule,
            "turn_seconds": int(stored.get("turn", options["turn"])),
            "computer_level": options["level"],
            "language": settings.language,
        }
    )


async def game_answer(tx: Transaction, case: Case) -> Any:
    record = plain(await tx.games.get(case["game_id"]))
    assert record.pop("kind") == GAPLE.name
    # Migration 0022 gives every finished game a replay token of its own (random, so not in
    # the answers), and no other game one.
    token = record.pop("replay_token")
    if record["status"] == "finished":
        assert isinstance(token, str) and len(token) == 22 and token != record["join_token"]
        assert await tx.games.by_replay_token(token) is not None
    else:
        assert token is None
    seats = await tx.seats.of_game(case["game_id"])
    return {"record": record, "seats": plain(seats)}


def load_dump(path: Path) -> None:
    """A new SQLite file holding the dumped database."""
    connection = sqlite3.connect(path)
    try:
        connection.executescript(DUMP.read_text("utf-8"))
    finally:
        connection.close()


def revision_of(path: Path) -> str | None:
    """The Alembic revision the database file says it is at."""
    connection = sqlite3.connect(path)
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    finally:
        connection.close()
    return None if row is None else str(row[0])


@pytest.fixture
def old_database(tmp_path: Path) -> Path:
    """This test's own copy of the database, as it was at 0006."""
    path = tmp_path / "old.sqlite3"
    load_dump(path)
    return path


@pytest.fixture
async def upgraded(old_database: Path) -> AsyncIterator[Store]:
    """A store on the old database after every migration since 0006."""
    url = sqlite_url(old_database)
    await upgrade_to_head(url)
    store = Store.open(url)
    try:
        yield store
    finally:
        await store.close()


async def mismatches(
    store: Store,
    cases: list[Case],
    answer: Answer,
    expected_key: str,
    compare: Compare = differences,
) -> list[str]:
    """Every difference between today's answers and the recorded ones (`expected_key` holds
    the recorded answer, the case's other keys what was asked)."""
    found: list[str] = []
    async with store.read() as tx:
        for case in cases:
            asked = {key: value for key, value in case.items() if key != expected_key}
            got = await answer(tx, case)
            found += compare(got, case[expected_key], f"{answer.__name__}{asked}")
    return found


def report(found: list[str]) -> str:
    return f"{len(found)} answers changed:\n" + "\n".join(found[:20])


def test_the_dump_is_a_database_at_0006(old_database: Path) -> None:
    assert ANSWERS["revision"] == OLD_REVISION
    assert revision_of(old_database) == OLD_REVISION


def test_the_answers_cover_the_history() -> None:
    """The recorded answers are not empty: the history has several chats, every game status,
    every rule set, and weekly boards that differ from the all-time ones."""
    statuses = {case["record"]["status"] for case in ANSWERS["games"]}
    assert statuses == {"lobby", "running", "finished", "aborted"}
    configs = {
        (game["record"]["config"]["rule_set"], game["record"]["config"]["stuck_rule"])
        for game in ANSWERS["games"]
    }
    assert {("classic", "discard"), ("discards", "discard"), ("discards", "pass")} <= configs
    assert sum(chat["settings"] is not None for chat in ANSWERS["chats"]) >= 3
    boards = {
        (case["scope"], case["board"], case["period"], case["include_computers"]): case["entries"]
        for case in ANSWERS["boards"]
    }
    assert all(boards[(0, board.value, Period.ALL_TIME.value, True)] for board in Board)
    assert any(
        entries != boards[(*key[:2], Period.ALL_TIME.value, key[3])]
        for key, entries in boards.items()
        if key[2] == Period.WEEK.value and entries
    )


async def test_every_board_is_unchanged(upgraded: Store) -> None:
    cases = ANSWERS["boards"]
    found = await mismatches(upgraded, cases, board_answer, "entries", board_differences)
    assert not found, report(found)


async def test_every_players_stats_are_unchanged(upgraded: Store) -> None:
    found = await mismatches(upgraded, ANSWERS["player_stats"], player_stats_answer, "stats")
    assert not found, report(found)


async def test_every_games_results_are_unchanged(upgraded: Store) -> None:
    found = await mismatches(upgraded, ANSWERS["results"], results_answer, "results")
    assert not found, report(found)


async def test_every_chats_settings_are_unchanged(upgraded: Store) -> None:
    found = await mismatches(upgraded, ANSWERS["chats"], chat_answer, "settings")
    assert not found, report(found)


NEW_GAME_FIELDS = {
    "hand_due": None,
    "hand_owner": None,
    "round_break_until": None,
    "round_break_ready": 0,
}
"""What migrations 0016, 0019 and 0021 add to a game's record: an old game owes nobody a hand,
no worker owes it, and it is in no break after a round's end."""


async def test_every_games_record_and_seats_are_unchanged(upgraded: Store) -> None:
    cases = [
        {
            "game_id": case["game_id"],
            "answer": {"record": {**case["record"], **NEW_GAME_FIELDS}, "seats": case["seats"]},
        }
        for case in ANSWERS["games"]
    ]
    found = await mismatches(upgraded, cases, game_answer, "answer")
    assert not found, report(found)


NEW_SEND_FIELDS = {"kind": "send", "game_id": None, "message_id": None, "paced": False}
"""What migrations 0013 and 0025 add to a queued send: an old one is a plain send of no
game's, which never waits for a table's pace."""


async def test_the_queued_group_sends_are_unchanged(upgraded: Store) -> None:
    async with upgraded.read() as tx:
        got = plain(await tx.outbox.pending())
    want = [{**send, **NEW_SEND_FIELDS} for send in ANSWERS["outbox"]]
    assert want, "the old database has queued sends to check"
    found = differences(got, want, "outbox")
    assert not found, report(found)
