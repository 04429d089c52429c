"""Writes old_0006.sql and old_0006_answers.json: a database at migration 0006 and its answers.

Run once, at migration 0006, from the repository root:

    .venv/bin/python tests/store/data/make_old_0006.py

It plays three weeks of games with the real engine and stores them with the real store API,
on a scripted clock and one seeded random generator, so two runs write identical files.
"""

from __future__ import annotations

import asyncio
import base64
import json
import random
import sqlite3
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, is_dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import Enum
from pathlib import Path
from typing import Any
from unittest import mock

from alembic.script import ScriptDirectory
from sqlalchemy import text

from gaple_bot.games.gaple.ai.greedy import greedy_move
from gaple_bot.games.gaple.rules import Game, GameConfig, Move, RuleSet, StuckRule
from gaple_bot.store import (
    GLOBAL_SCOPE,
    Board,
    ComputerLevel,
    Period,
    Store,
    Transaction,
    alembic_config,
    computer_player_id,
)

REVISION = "0006"
SEED = 6
START = datetime(2026, 6, 1, tzinfo=UTC)
NOW = START + timedelta(days=21)
"""The `now` of the weekly boards: the end of the three weeks played."""
BOARD_LIMIT = 1000
"""Larger than the number of players, so no board is cut off."""
INDEX_STATEMENTS = ("CREATE INDEX ", "CREATE UNIQUE INDEX ")
HERE = Path(__file__).resolve().parent
DUMP = HERE / "old_0006.sql"
ANSWERS = HERE / "old_0006_answers.json"

Player = int | ComputerLevel
"""A Telegram user id, or a computer level taking the seat."""


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who plays: their Telegram id, name, app language and /language choice."""

    id: int
    name: str
    telegram_language: str | None
    chosen_language: str | None = None
    can_message: bool = False


ANI, BUDI, CITRA, DEWI, EKO, FAJAR, GITA, HADI = range(101, 109)
PEOPLE = (
    Person(ANI, "Ani", "id", can_message=True),
    Person(BUDI, "Budi", "id", "id"),
    Person(CITRA, "Citra", "en", can_message=True),
    Person(DEWI, "Dewi", None, "fr"),
    Person(EKO, "Eko", "id"),
    Person(FAJAR, "Fajar", "de", "de", can_message=True),
    Person(GITA, "Gita", "en"),
    Person(HADI, "Hadi", "id"),
)
FORGOTTEN = HADI
FORGET_DAY = 17
"""Hadi deletes his data on this day; he plays only before it."""

WARUNG_OLD, WARUNG = -4001, -1001000004001
"""A group that becomes a supergroup on MOVE_DAY (its history follows to the new id)."""
MOVE_DAY = 9
FORUM, FORUM_TOPIC, LOBBY_TOPIC = -1002000000002, 7, 12
KELUARGA = -5003
KANTOR = -6004
KELUARGA_SETTINGS_DAY = 2
"""Keluarga's first game is played with the default settings, the later ones with its own."""


@dataclass(frozen=True, slots=True)
class ChatPlan:
    """A chat: its title, its forum topic (None outside forums) and who plays there."""

    title: str
    thread_id: int | None
    pool: tuple[Player, ...]


CHATS: dict[int, ChatPlan] = {
    WARUNG_OLD: ChatPlan("Warung Kopi", None, (ANI, BUDI, EKO, HADI, ComputerLevel.NORMAL)),
    FORUM: ChatPlan(
        "Gaple Forum", FORUM_TOPIC, (ANI, CITRA, DEWI, FAJAR, GITA, ComputerLevel.EASY)
    ),
    KELUARGA: ChatPlan("Keluarga", None, (ANI, BUDI, DEWI, EKO, GITA, ComputerLevel.HARD)),
    KANTOR: ChatPlan("Kantor", None, (CITRA, FAJAR, HADI, ComputerLevel.NORMAL)),
}
PLANS = CHATS | {WARUNG: CHATS[WARUNG_OLD]}
"""The chats' plans by the id games are played under (Warung's moves with the chat)."""
SCOPES = (WARUNG_OLD, WARUNG, FORUM, KELUARGA, KANTOR, GLOBAL_SCOPE)
"""Every scope asked about; the old Warung id is gone after the move and answers empty."""
COMPUTERS = tuple(computer_player_id(level) for level in ComputerLevel)


class Clock:
    """The scripted time every write is stamped with."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def at(self, when: datetime) -> datetime:
        """Jump to a planned moment (the next game, the day's events)."""
        self.now = when
        return when

    def tick(self, rng: random.Random, low: int = 4, high: int = 40) -> datetime:
        """Some seconds pass (a player thinking, a message sent)."""
        self.now += timedelta(seconds=rng.randint(low, high))
        return self.now


@contextmanager
def scripted_clock(clock: Clock) -> Iterator[None]:
    """Point every store module's `utc_now` at the clock: a few writes take no `now=`
    (users' updated_at on /language), and the dump must not depend on the wall clock."""
    modules = [
        module
        for name, module in sorted(sys.modules.items())
        if name.startswith("gaple_bot.store") and hasattr(module, "utc_now")
    ]
    with ExitStack() as stack:
        for module in modules:
            stack.enter_context(mock.patch.object(module, "utc_now", lambda: clock.now))
        yield


def choose_move(game: Game, rng: random.Random) -> Move:
    """Greedy for even seats, a random legal move for odd ones (varied, quick games)."""
    seat = game.to_move
    assert seat is not None
    if seat % 2 == 0:
        return greedy_move(game.seat_view(seat), rng)
    return rng.choice(game.legal_moves())


def join_token(rng: random.Random) -> str:
    """A lobby's link secret, shaped like the service's (22 url-safe characters)."""
    return base64.urlsafe_b64encode(rng.randbytes(16)).decode().rstrip("=")


async def turn_deadline(tx: Transaction, chat_id: int, clock: Clock) -> datetime:
    """When the next turn runs out, by the chat's turn length."""
    settings = await tx.chats.get(chat_id)
    assert settings is not None
    return clock.now + timedelta(seconds=settings.turn_seconds)


@dataclass(slots=True)
class Table:
    """One game being played: its id, chat, engine state and stored version."""

    game_id: int
    chat_id: int
    game: Game
    version: int


async def open_lobby(
    tx: Transaction,
    chat_id: int,
    thread_id: int | None,
    players: Sequence[Player],
    rng: random.Random,
    clock: Clock,
) -> tuple[int, GameConfig]:
    """A lobby with the chat's settings, its group message and its seats taken. Like the
    service's, it is opened for four seats; the count is fixed when it starts."""
    settings = await tx.chats.get(chat_id)
    assert settings is not None
    config = GameConfig(settings.rule_set, 4, settings.target, settings.stuck_rule)
    opener = next(p for p in players if isinstance(p, int))
    record = await tx.games.create(
        chat_id, thread_id, config, opener, join_token=join_token(rng), now=clock.now
    )
    await tx.games.set_message(record.id, rng.randint(1000, 99_999))
    for seat, player in enumerate(players):
        clock.tick(rng)
        if isinstance(player, ComputerLevel):
            await tx.seats.add(record.id, seat, computer_level=player)
        else:
            await tx.seats.add(record.id, seat, user_id=player)
    return record.id, config


async def start_game(
    store: Store,
    chat_id: int,
    players: Sequence[Player],
    rng: random.Random,
    clock: Clock,
) -> Table:
    """Open a lobby, seat the players and deal the first round, as the service does."""
    async with store.transaction() as tx:
        game_id, config = await open_lobby(
            tx, chat_id, PLANS[chat_id].thread_id, players, rng, clock
        )
        config = replace(config, seats=len(players))
        await tx.games.set_config(game_id, config)
        await tx.games.start(game_id, now=clock.tick(rng))
        game = Game.new(config, rng)
        await tx.rounds.add(game_id, 1, game.round.deal, now=clock.now)
        for seat, player in enumerate(players):
            if isinstance(player, int):
                await tx.seats.set_hand_message(game_id, seat, rng.randint(1000, 99_999))
        deadline = await turn_deadline(tx, chat_id, clock)
        version = await tx.games.bump_version(game_id, 0, turn_deadline=deadline)
        table = Table(game_id, chat_id, game, version)
        await settle(tx, table, rng, clock)
    return table


async def settle(tx: Transaction, table: Table, rng: random.Random, clock: Clock) -> None:
    """Store each finished round's result, deal the next round or finish the game."""
    game = table.game
    while game.round.result is not None:
        await tx.rounds.set_result(
            table.game_id, game.round_number, game.round.result, now=clock.now
        )
        if game.is_over:
            await tx.finish_game(table.game_id, game, now=clock.now)
            return
        game.next_round(rng)
        await tx.rounds.add(table.game_id, game.round_number, game.round.deal, now=clock.tick(rng))


async def play_turn(store: Store, table: Table, rng: random.Random, clock: Clock) -> None:
    """One move in its own unit of work, like a player's button press."""
    game = table.game
    seat = game.to_move
    assert seat is not None
    move = choose_move(game, rng)
    game.apply(seat, move)
    clock.tick(rng)
    async with store.transaction() as tx:
        deadline = await turn_deadline(tx, table.chat_id, clock)
        table.version = await tx.record_move(
            table.game_id,
            table.version,
            game.round_number,
            len(game.round.moves) - 1,
            seat,
            move.code,
            turn_deadline=deadline,
            now=clock.now,
        )
        await settle(tx, table, rng, clock)


async def play_to_the_end(
    store: Store, chat_id: int, players: Sequence[Player], rng: random.Random, clock: Clock
) -> int:
    """A whole game, move by move; returns its id."""
    table = await start_game(store, chat_id, players, rng, clock)
    while not table.game.is_over:
        await play_turn(store, table, rng, clock)
    return table.game_id


async def meet_the_people(store: Store, clock: Clock) -> None:
    """Every person and chat the bot has seen on the first day, with their choices."""
    async with store.transaction() as tx:
        for person in PEOPLE:
            await tx.users.upsert(
                person.id, person.name, telegram_language=person.telegram_language, now=clock.now
            )
            if person.chosen_language is not None:
                await tx.users.set_language(person.id, person.chosen_language)
            if person.can_message:
                await tx.users.set_can_message(person.id, True)
        for chat_id, plan in CHATS.items():
            await tx.chats.ensure(chat_id, plan.title, now=clock.now)
        await change_settings(tx, WARUNG_OLD, clock, target=50, turn_seconds=45)
        await change_settings(
            tx,
            FORUM,
            clock,
            rule_set=RuleSet.DISCARDS,
            target=40,
            computer_level=ComputerLevel.EASY,
            language="de",
        )


async def change_settings(tx: Transaction, chat_id: int, clock: Clock, **changes: Any) -> None:
    """An admin changes some of the chat's settings for new games."""
    settings = await tx.chats.get(chat_id)
    assert settings is not None
    await tx.chats.save(replace(settings, **changes), now=clock.now)


def seat_count(rule_set: RuleSet, rng: random.Random, pool: Sequence[Player]) -> int:
    """2-4 seats for classic, 4-5 for the discard rules, never more than the chat has."""
    allowed = (2, 3, 4) if rule_set is RuleSet.CLASSIC else (4, 5)
    return rng.choice([n for n in allowed if n <= len(pool)])


async def players_for(store: Store, chat_id: int, day: int, rng: random.Random) -> list[Player]:
    """Who sits down: some of the chat's regulars, sometimes two computers of one level."""
    async with store.read() as tx:
        settings = await tx.chats.get(chat_id)
    assert settings is not None
    pool = [p for p in PLANS[chat_id].pool if not (p == FORGOTTEN and day >= FORGET_DAY)]
    players = rng.sample(pool, seat_count(settings.rule_set, rng, pool))
    computers = [p for p in pool if isinstance(p, ComputerLevel)]
    if day == 5 and chat_id == KELUARGA:
        # A computer level in two seats: its totals count both, its rating their mean.
        players = [p for p in players if p not in computers][: len(players) - 2]
        players += [computers[0], computers[0]]
    if not any(isinstance(p, int) for p in players):
        players[0] = next(p for p in pool if isinstance(p, int))
    return players


SCHEDULE: tuple[tuple[int, int], ...] = (
    (0, WARUNG_OLD), (0, FORUM), (1, KELUARGA), (1, KANTOR), (2, WARUNG_OLD),
    (3, FORUM), (4, KELUARGA), (5, KELUARGA), (6, WARUNG_OLD), (7, KANTOR),
    (8, FORUM), (8, WARUNG_OLD), (10, WARUNG), (11, KELUARGA), (12, FORUM),
    (13, KANTOR), (14, WARUNG), (15, KELUARGA), (15, FORUM), (16, WARUNG),
    (17, KANTOR), (18, FORUM), (18, KELUARGA), (19, WARUNG), (20, FORUM),
)  # fmt: skip
"""(day, chat) of each finished game; Warung plays under its new id after MOVE_DAY."""


async def play_history(store: Store, rng: random.Random, clock: Clock) -> None:
    """Three weeks: the finished games, the settings changes, the move and the forgetting."""
    await meet_the_people(store, clock)
    for day in range(21):
        await day_events(store, day, clock)
        for number, (game_day, chat_id) in enumerate(SCHEDULE):
            if game_day == day:
                clock.at(START + timedelta(days=day, hours=10 + number % 9))
                players = await players_for(store, chat_id, day, rng)
                await play_to_the_end(store, chat_id, players, rng, clock)
    await last_evening(store, rng, clock)


async def day_events(store: Store, day: int, clock: Clock) -> None:
    """What happens early on `day` besides games."""
    clock.at(START + timedelta(days=day, hours=8))
    async with store.transaction() as tx:
        if day == KELUARGA_SETTINGS_DAY:
            await change_settings(
                tx,
                KELUARGA,
                clock,
                rule_set=RuleSet.DISCARDS,
                stuck_rule=StuckRule.PASS,
                target=30,
                turn_seconds=90,
                computer_level=ComputerLevel.HARD,
                language="id",
            )
        if day == MOVE_DAY:
            await tx.move_chat(WARUNG_OLD, WARUNG, now=clock.now)
            await tx.chats.ensure(WARUNG, "Warung Kopi", now=clock.now)
        if day == 11:
            # Citra renamed herself in Telegram; the bot sees the new name.
            await tx.users.upsert(CITRA, "Citra W.", now=clock.now)
        if day == FORGET_DAY:
            await tx.forget_user(FORGOTTEN, now=clock.now)


async def last_evening(store: Store, rng: random.Random, clock: Clock) -> None:
    """The state at NOW: an aborted game, a game running mid-round and an open lobby."""
    clock.at(NOW - timedelta(hours=3))
    aborted = await start_game(store, KANTOR, [CITRA, FAJAR, ComputerLevel.NORMAL], rng, clock)
    for _ in range(4):
        await play_turn(store, aborted, rng, clock)
    async with store.transaction() as tx:
        await tx.games.abort(aborted.game_id, now=clock.tick(rng))

    clock.at(NOW - timedelta(minutes=50))
    running = await start_game(store, WARUNG, [BUDI, EKO, ANI, ComputerLevel.NORMAL], rng, clock)
    while not running.game.is_over and (
        running.game.round_number < 2 or len(running.game.round.moves) < 3
    ):
        await play_turn(store, running, rng, clock)
    assert not running.game.is_over, "the running game ended: pick another seed"
    async with store.transaction() as tx:
        await tx.seats.set_timeouts(running.game_id, 1, 1)
        await tx.outbox.add(WARUNG, None, {"text": "Giliran Ani"}, now=clock.tick(rng))

    clock.at(NOW - timedelta(minutes=10))
    async with store.transaction() as tx:
        await open_lobby(tx, FORUM, LOBBY_TOPIC, [CITRA, ComputerLevel.EASY], rng, clock)


def plain(value: Any) -> Any:
    """A read answer as JSON values: dataclasses as dicts, enums by value, times as ISO text."""
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


async def collect_answers(store: Store) -> dict[str, Any]:
    """Every answer of the read API on the database, keyed by what was asked."""
    async with store.read() as tx:
        game_ids = sorted(await tx.session.scalars(text("SELECT id FROM games")))
        player_ids = sorted(await tx.session.scalars(text("SELECT id FROM users")))
        players = sorted({*player_ids, FORGOTTEN, *COMPUTERS})
        boards = [
            {
                "scope": scope,
                "board": board.value,
                "period": period.value,
                "include_computers": include_computers,
                "entries": plain(
                    await tx.boards.top(
                        scope,
                        board,
                        period,
                        limit=BOARD_LIMIT,
                        now=NOW,
                        include_computers=include_computers,
                    )
                ),
            }
            for scope in SCOPES
            for board in Board
            for period in Period
            for include_computers in (True, False)
        ]
        stats = [
            {
                "scope": scope,
                "player_id": player,
                "stats": plain(await tx.boards.player_stats(scope, player)),
            }
            for scope in SCOPES
            for player in players
        ]
        results = [
            {"game_id": game_id, "results": plain(await tx.results.of_game(game_id))}
            for game_id in game_ids
        ]
        chats = [
            {"chat_id": chat_id, "settings": plain(await tx.chats.get(chat_id))}
            for chat_id in SCOPES
            if chat_id != GLOBAL_SCOPE
        ]
        games = [
            {
                "game_id": game_id,
                "record": plain(await tx.games.get(game_id)),
                "seats": plain(await tx.seats.of_game(game_id)),
            }
            for game_id in game_ids
        ]
        outbox = plain(await tx.outbox.pending())
    return {
        "revision": REVISION,
        "now": NOW.isoformat(),
        "boards": boards,
        "player_stats": stats,
        "results": results,
        "chats": chats,
        "games": games,
        "outbox": outbox,
    }


def check_head(url: str) -> None:
    """Refuse to run past 0006: the point of the files is a database from that schema."""
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    if head != REVISION:
        raise SystemExit(f"migrations are at {head}, not {REVISION}: keep the committed files")


def dump(path: Path) -> str:
    """The database as SQL text: SQLite's dump with its schema put in a fixed order."""
    connection = sqlite3.connect(path)
    try:
        statements = [sorted_constraints(statement) for statement in connection.iterdump()]
    finally:
        connection.close()
    *body, commit = statements
    assert commit == "COMMIT;"
    # The dump lists indexes in creation order, which batch migrations vary from run to run
    # (see sorted_constraints); they come last, after every row, so sorting them is safe.
    indexes = sorted(s for s in body if s.startswith(INDEX_STATEMENTS))
    rest = [s for s in body if not s.startswith(INDEX_STATEMENTS)]
    return "\n".join([*rest, *indexes, commit]) + "\n"


def sorted_constraints(statement: str) -> str:
    """A CREATE TABLE with its CONSTRAINT clauses sorted. Alembic's batch migrations rebuild
    a table from an unordered collection of constraints, so their order changes from run to
    run; SQLite gives the order no meaning, and sorting keeps the dump the same every time."""
    head, opening, rest = statement.partition("(\n")
    if not statement.startswith("CREATE TABLE") or not opening:
        return statement
    body, closing, tail = rest.rpartition("\n)")
    clauses = body.split(", \n")
    columns = [clause for clause in clauses if not clause.startswith("\tCONSTRAINT ")]
    constraints = sorted(clause for clause in clauses if clause.startswith("\tCONSTRAINT "))
    return head + opening + ", \n".join(columns + constraints) + closing + tail


async def build(path: Path) -> dict[str, Any]:
    url = f"sqlite+aiosqlite:///{path}"
    check_head(url)
    clock = Clock(START + timedelta(hours=9))
    with scripted_clock(clock):
        store = await Store.start(url)
        try:
            await play_history(store, random.Random(SEED), clock)
            return await collect_answers(store)
        finally:
            await store.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "old_0006.sqlite3"
        answers = asyncio.run(build(path))
        DUMP.write_text(dump(path), encoding="utf-8")
    ANSWERS.write_text(json.dumps(answers, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {DUMP.name} ({DUMP.stat().st_size} bytes), {ANSWERS.name}")


if __name__ == "__main__":
    main()
