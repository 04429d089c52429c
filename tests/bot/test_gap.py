"""End-to-end tests of Gap (G1-G6, issue 11) over real HTTP against the fake Bot API: whole
games with 2, 4 and 6 seats, the take-choice step with Back, stale and forged card buttons, a
restart in the middle of a round, and /settings, /gap and /gaple side by side.

The harness's turn helpers read Gaple's tile buttons (✅, ⬅️, ➡️); Gap's card buttons are
"🟥7 → 🟩6 🟦8", "🟥7 → middle" or "🟥7 → choose", so this module has its own. What the bot
should show is computed here from the engine's state with this module's own formatting of
cards (a colour square and the value), not with Gap's presentation code.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gaple_bot.bot.callback_data import Action, decode, encode
from gaple_bot.bot.render.settings import menu_options
from gaple_bot.games.gap.kind import TARGET as TARGET_OPTION
from gaple_bot.games.gap.kind import GapKind, GapMatch
from gaple_bot.games.gap.rules import Played, move
from gaple_bot.games.options import COMPUTERS as COMPUTERS_OPTION
from gaple_bot.games.registry import default_registry
from gaple_bot.store import GameStatus, SeatRecord, Store
from tests.bot.driver import GAP_CARDS, Player, Players, card_buttons, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, gaple_options, lobby_message, running_bot
from tests.bot.leaks import (
    assert_group_saw_nothing_hidden,
    assert_player_saw_only_their_own,
    load_secrets,
)
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA, BUDI, CITRA, DEWI = 501, 502, 503, 504
NAMES = {ANA: "Ana", BUDI: "Budi", CITRA: "Citra", DEWI: "Dewi"}
OTHER_GROUP = -1005555555555
QUIET = 0.1
"""Seconds without a Bot API call after which the bot counts as done with an update."""
TURN_SECONDS = "3600"
"""An hour a turn: no turn runs out however slow the machine (no test here waits for one)."""
GAP = default_registry().names.index("gap")
"""Gap's index in the registry: the `kind` field of its /settings buttons."""
OPTIONS = menu_options(GapKind())
TARGET, COMPUTERS = OPTIONS.index("target"), OPTIONS.index("computers")
"""Option indexes of Gap's /settings buttons."""
TARGET_20, TARGET_50 = TARGET_OPTION.choices.index("20"), TARGET_OPTION.choices.index("50")
ON, OFF = COMPUTERS_OPTION.choices.index("on"), COMPUTERS_OPTION.choices.index("off")
OUT_OF_DATE = "That button is out of date."
PLAYED_ALREADY = "You have played: your next hand comes in this message."
ALREADY_OPEN = "A game is already open here: it is this one."
BACK = "↩️ Back"
SQUARES = ("🟥", "🟩", "🟦", "🟨", "🟪", "🟧")
"""G1's six colours as the issue shows cards: red, green, blue, yellow, purple, orange."""
TABLE_HEAD = re.compile(r"^Gap · round (\d+) · first to (\d+)$")
SEAT_ROW = re.compile(
    r"^(▶️|▫️) (.+?) — (\d+) in hand · (.+?) \((-?\d+) now\) · (-?\d+) points?(?: · ⏳ .+)?$"
)
"""A seat's row of the group table: marker, name, cards in hand, collection, its score now,
the running total (and, for the person to move, the time left)."""
RESULT_ROW = re.compile(r"^(.+?): (.+) = (-?\d+)$")
STANDING = re.compile(r"^(\d+)\. (.+) — (-?\d+)$")


# Cards as players read them, written independently of Gap's presentation ------------------


def card(c: int) -> str:
    """🟥7: the colour's square and the value (card ids are colour * 10 + value)."""
    return f"{SQUARES[c // 10]}{c % 10}"


def cards(cs: Iterable[int]) -> str:
    """Cards by colour then value, a dash when none."""
    return " ".join(card(c) for c in sorted(cs)) or "—"


def counts(cs: Iterable[int]) -> list[int]:
    """How many cards of each colour."""
    found = [0] * len(SQUARES)
    for c in cs:
        found[c // 10] += 1
    return found


def collection(cs: Iterable[int]) -> str:
    """A collection by colour as G5 counts it: 🟥×3 🟩×1."""
    shown = [f"{SQUARES[i]}×{n}" for i, n in enumerate(counts(cs)) if n]
    return " ".join(shown) or "—"


def g5_score(cs: Iterable[int]) -> int:
    """G5: colours tied for the largest count, minus those tied for the smallest when they are
    not also the largest; absent colours ignored."""
    present = [n for n in counts(cs) if n]
    if not present:
        return 0
    top, bottom = max(present), min(present)
    score = top * present.count(top)
    return score if top == bottom else score - bottom * present.count(bottom)


def play_line(name: str, event: Played) -> str:
    """A play as the table's 'Last moves' says it."""
    if event.taken:
        return f"{name} played {card(event.card)} and took {cards(event.taken)}"
    return f"{name} played {card(event.card)}: it joins the middle"


# The world, the bot and its database ---------------------------------------------------------


def populate(fake: FakeTelegram) -> None:
    """Ana administers both groups; Budi, Citra and Dewi are members."""
    for user, name in NAMES.items():
        fake.add_user(user, name)
    others = tuple(u for u in NAMES if u != ANA)
    fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=others)
    fake.add_group(OTHER_GROUP, "Warung Kopi", admins=(ANA,), members=others)


@asynccontextmanager
async def gap_world(
    tmp_path: Path, seed: int = 1, database: Path | str | None = None
) -> AsyncIterator[tuple[FakeTelegram, Path | str]]:
    """The fake Bot API with the people and groups; yields it and the database (an SQLite
    file in `tmp_path` unless another is given)."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        yield fake, tmp_path / "gap.sqlite3" if database is None else database


async def say(fake: FakeTelegram, user: int, chat: int, text: str) -> FakeMessage:
    """The user writes `text` in the chat; returns the bot's first message after it."""
    sent = await fake.send_message(user, chat, text)
    after = int(sent["message_id"])

    def answers() -> list[FakeMessage]:
        return [m for m in fake.bot_messages(chat) if m.message_id > after]

    await fake.wait_for(lambda: bool(answers()), message=f"no answer to {text!r}")
    await fake.wait_idle(quiet=QUIET)
    return answers()[0]


async def tap(
    fake: FakeTelegram, user: int, message: FakeMessage, data: str, *, check: bool = True
) -> dict[str, Any]:
    """The user taps the button with this data (any data when not `check`); returns the
    callback answer once the bot is done."""
    query = await fake.press(user, message.chat_id, message.message_id, data, check_button=check)
    answer = await fake.wait_callback_answer(query)
    await fake.wait_idle(quiet=QUIET)
    return answer


async def gap_setting(fake: FakeTelegram, option: int, choice: int) -> FakeMessage:
    """Ana (an admin) opens `/settings gap` and taps a choice; returns the redrawn menu."""
    menu = await say(fake, ANA, GROUP, "/settings gap")
    answer = await tap(fake, ANA, menu, encode(Action.SETTING, GROUP, GAP, option, choice))
    assert answer.get("text") == "Saved.", answer
    await fake.wait_for(
        lambda: len(fake.message(GROUP, menu.message_id).versions) > 1,
        message="the menu was not redrawn",
    )
    await fake.wait_idle(quiet=QUIET)
    return fake.message(GROUP, menu.message_id)


def row_labels(menu: FakeMessage, option: int) -> list[str]:
    """The labels of one option's row of the settings menu."""
    return [text for text, _ in menu.button_rows()[option]]


def game_of(lobby: FakeMessage) -> int:
    """The game id the lobby's Join button carries."""
    data = dict(lobby.buttons()).get("✋ Join")
    assert data is not None, lobby.buttons()
    return decode(data).field("game")


async def start_gap(
    fake: FakeTelegram,
    people: Sequence[int],
    *,
    target: int = TARGET_20,
    computers: int = ON,
    added: int = 0,
) -> tuple[int, str]:
    """Gap's target and empty-seats option set, people[0] opens `/gap`, the others join, the
    opener adds `added` computers and starts; returns the game id and the lobby's text as it
    was before Start."""
    for user in people:
        await say(fake, user, user, "/start")
    await gap_setting(fake, TARGET, target)
    if computers != ON:  # on is the default: the menu would have nothing to redraw
        await gap_setting(fake, COMPUTERS, computers)
    opener, *others = people
    lobby = await say(fake, opener, GROUP, "/gap")
    assert lobby == lobby_message(fake), lobby.text
    game_id = game_of(lobby)
    for user in others:
        answer = await tap(fake, user, lobby, encode(Action.JOIN, game_id))
        assert str(answer.get("text", "")).startswith("You joined."), answer
    for _ in range(added):
        answer = await tap(fake, opener, lobby, encode(Action.ADD_COMPUTER, game_id))
        assert not answer.get("show_alert"), answer
    before_start = fake.message(GROUP, lobby.message_id).text
    answer = await tap(fake, opener, lobby, encode(Action.START, game_id))
    assert answer.get("text") == "Let's play!", answer
    return game_id, before_start


async def seats_of(store: Store, game_id: int) -> list[SeatRecord]:
    """The game's seats in seat order."""
    async with store.read() as tx:
        return await tx.seats.of_game(game_id)


def seat_names(seats: Sequence[SeatRecord]) -> list[str]:
    """How the group names each seat: a person's first name, a computer by its level (numbered
    in seat order when several share it)."""
    levels = [s.computer_level or "normal" for s in seats if s.user_id is None]
    names, numbers = [], dict.fromkeys(levels, 0)
    for s in seats:
        if s.user_id is not None:
            names.append(NAMES[s.user_id])
            continue
        level = s.computer_level or "normal"
        numbers[level] += 1
        number = f" {numbers[level]}" if levels.count(level) > 1 else ""
        names.append(f"🤖 {level.title()}{number}")
    return names


async def stored_rounds(
    store: Store, game_id: int
) -> tuple[dict[str, Any], tuple[tuple[dict[str, Any], tuple[int, ...]], ...]]:
    """The stored config and every round's deal and move codes."""
    async with store.read() as tx:
        stored = await tx.load_play(game_id)
    assert stored.kind == "gap"
    return stored.config, stored.rounds


async def gap_match(store: Store, game_id: int) -> GapMatch:
    """The stored game replayed through `GapKind().replay` (hidden information)."""
    config, rounds = await stored_rounds(store, game_id)
    return GapKind().replay(config, rounds)


async def state(store: Store, game_id: int) -> tuple[object, ...]:
    """Everything that makes the game: equal before and after means nothing changed."""
    async with store.read() as tx:
        record = await tx.games.get(game_id)
    match = await gap_match(store, game_id)
    return record.version, record.status, match.game.replay_key()


async def version_of(store: Store, game_id: int) -> int:
    """The stored game's version (the one its live buttons carry)."""
    async with store.read() as tx:
        return (await tx.games.get(game_id)).version


def finished(store: Store, game_id: int) -> Callable[[], Awaitable[bool]]:
    """Whether the game is stored as finished."""

    async def check() -> bool:
        async with store.read() as tx:
            return (await tx.games.get(game_id)).status is GameStatus.FINISHED

    return check


# Playing Gap's card buttons ------------------------------------------------------------------


def hand_of(text: str) -> str:
    """The 'Your cards: …' line of a private hand message."""
    found = re.search(r"^Your cards: (.*)$", text, re.MULTILINE)
    assert found is not None, text
    return found.group(1)


# What the group should see, position by position ----------------------------------------------


@dataclass(frozen=True, slots=True)
class TableShows:
    """The parts of a group table message that show the round's public state."""

    middle: str
    pile: int
    rows: tuple[tuple[str, str, int, str, int, int], ...]
    """By seat: marker, name, cards in hand, collection, its score now, running total."""
    recent: tuple[str, ...]


def parse_table(text: str) -> tuple[int, TableShows]:
    """The round number and what a table message shows."""
    lines = text.splitlines()
    head = TABLE_HEAD.match(lines[0])
    assert head is not None, text
    middle = re.fullmatch(r"Middle: (.*)", lines[1])
    pile = re.fullmatch(r"Pile: (\d+) cards?", lines[2])
    assert middle is not None and pile is not None, text
    rows = []
    recent: list[str] = []
    for line in lines[3:]:
        row = SEAT_ROW.match(line)
        if row is not None:
            marker, name, held, cs, now, total = row.groups()
            rows.append((marker, name, int(held), cs, int(now), int(total)))
        elif line.startswith("• "):
            recent.append(line[2:])
    return int(head.group(1)), TableShows(
        middle.group(1), int(pile.group(1)), tuple(rows), tuple(recent)
    )


def shows(match: GapMatch, names: Sequence[str]) -> TableShows:
    """What the table should show at the match's current position."""
    current = match.game.round
    plays = [e for e in current.events if isinstance(e, Played)]
    return TableShows(
        middle=cards(current.middle),
        pile=len(current.pile),
        rows=tuple(
            (
                "▶️" if seat == current.to_move else "▫️",
                name,
                len(current.hands[seat]),
                collection(current.collections[seat]),
                g5_score(current.collections[seat]),
                match.scores[seat],
            )
            for seat, name in enumerate(names)
        ),
        recent=tuple(play_line(names[e.seat], e) for e in plays[-5:]),
    )


@dataclass(frozen=True, slots=True)
class Position:
    """One position of a round: what the table shows, and what each seat holds and has."""

    table: TableShows
    middle: str
    hands: tuple[tuple[int, ...], ...]
    collections: tuple[tuple[int, ...], ...]
    to_move: int | None
    legal: frozenset[int]
    """The codes of the moves the seat to move may make."""
    picks: frozenset[int]
    """The cards whose move asks which take (several legal moves)."""


def position(match: GapMatch, names: Sequence[str]) -> Position:
    """The match's current position."""
    current = match.game.round
    legal = match.game.legal_moves()
    return Position(
        table=shows(match, names),
        middle=cards(current.middle),
        hands=tuple(tuple(h) for h in current.hands),
        collections=tuple(tuple(c) for c in current.collections),
        to_move=current.to_move,
        legal=frozenset(m.code for m in legal),
        picks=frozenset(m.card for m in legal if len(current.moves_of(m.card)) > 1),
    )


@dataclass(frozen=True, slots=True)
class Replayed:
    """Every position of every round of a stored game, replayed move by move."""

    rounds: tuple[tuple[Position, ...], ...]
    """By round: each position, the deal first."""
    firsts: tuple[int, ...]
    """By round: the seat that moves first (G6)."""
    final: GapMatch


async def replay_positions(store: Store, game_id: int, names: Sequence[str]) -> Replayed:
    """Replay the stored game through GapKind one move at a time."""
    config, rounds = await stored_rounds(store, game_id)
    kind = GapKind()
    found: list[tuple[Position, ...]] = []
    for index, (deal, codes) in enumerate(rounds):
        match = kind.replay(config, [*rounds[:index], (deal, ())])
        seen = [position(match, names)]
        for code in codes:
            seat = match.to_move
            assert seat is not None, "a move after the round's end"
            match.apply(seat, code)
            seen.append(position(match, names))
        found.append(tuple(seen))
    firsts = tuple(int(deal["first"]) for deal, _ in rounds)
    return Replayed(tuple(found), firsts, kind.replay(config, rounds))


def table_messages(fake: FakeTelegram) -> list[FakeMessage]:
    """The group's Gap table messages (one per round)."""
    return [m for m in fake.bot_messages(GROUP) if TABLE_HEAD.match(m.text.split("\n")[0])]


def assert_tables_show_positions(
    fake: FakeTelegram, replayed: Replayed, people: Sequence[int]
) -> None:
    """Every round has one table message and every version of it shows a real position of
    its round: the middle, the pile count, every seat's hand count, collection, score now and
    total, and the last moves; a round a person leads first shows its deal."""
    messages = table_messages(fake)
    assert [parse_table(m.text)[0] for m in messages] == list(range(1, len(replayed.rounds) + 1))
    for message in messages:
        number, first = parse_table(message.versions[0].text)
        tables = [p.table for p in replayed.rounds[number - 1]]
        if replayed.firsts[number - 1] < len(people):
            assert first == tables[0], (first, tables[0])
        for version in message.versions:
            _, shown = parse_table(version.text)
            assert shown in tables, f"round {number} table shows no position: {version.text}"
        assert parse_table(message.text)[1] == tables[-1], message.text


CARD = re.compile("[" + "".join(SQUARES) + "]\\d")
"""A card named in a text: a colour square and a value."""


def fits(p: Position, seat: int, named: set[str], moves: set[int], picks: set[int]) -> bool:
    """Whether a hand message names only cards the seat holds or that are public at this
    position (the middle, every collection), with move and pick buttons legal there."""
    collected = (c for cs in p.collections for c in cs)
    public = {card(c) for c in (*p.hands[seat], *collected)} | set(p.middle.split())
    turn = p.to_move == seat
    return (
        named <= public
        and moves <= (p.legal if turn else set())
        and picks <= (p.picks if turn else set())
    )


def assert_hands_shown(fake: FakeTelegram, replayed: Replayed, user: int, seat: int) -> None:
    """The person's private hand messages each show a real position of their round: their
    own cards and the middle as they were, no card that was neither theirs nor public then
    (in the middle or a collection), and only buttons for moves legal at that position;
    the first one shows the hand dealt in round 1."""
    versions = [
        (int(found.group(1)), version)
        for message in fake.bot_messages(user)
        for version in message.versions
        if (found := re.search(r"· round (\d+)", version.text)) and "Your cards:" in version.text
    ]
    assert versions, f"user {user} never saw a hand"
    dealt = replayed.rounds[0][0].hands[seat]
    assert (versions[0][0], hand_of(versions[0][1].text)) == (1, cards(dealt))
    for number, version in versions:
        middle = re.search(r"^Middle: (.*)$", version.text, re.MULTILINE)
        assert middle is not None, version.text
        candidates = [
            p
            for p in replayed.rounds[number - 1]
            if p.middle == middle.group(1) and cards(p.hands[seat]) == hand_of(version.text)
        ]
        assert candidates, f"user {user}'s hand shows no position of round {number}: {version}"
        labels = [
            str(b.get("text", ""))
            for row in (version.reply_markup or {}).get("inline_keyboard", [])
            for b in row
        ]
        named = {*CARD.findall(version.text), *(c for label in labels for c in CARD.findall(label))}
        datas = [
            decode(b["callback_data"])
            for row in (version.reply_markup or {}).get("inline_keyboard", [])
            for b in row
            if b.get("callback_data")
        ]
        moves = {d.field("code") for d in datas if d.action is Action.MOVE}
        picks = {d.field("step") for d in datas if d.action is Action.PICK}

        shown = any(fits(p, seat, named, moves, picks) for p in candidates)
        assert shown, f"user {user} saw {sorted(named)}: {version}"


def round_points(match: GapMatch) -> list[tuple[int, ...]]:
    """Every finished round's points by seat."""
    return [r.points for r in match.game.results]


def expected_places(points: Sequence[Sequence[int]]) -> list[int]:
    """G6 places: by total, then best single round, then who scored that best round first."""
    seats = range(len(points[0]))
    totals = [sum(p[s] for p in points) for s in seats]
    best = [max(p[s] for p in points) for s in seats]
    first = [next(i for i, p in enumerate(points) if p[s] == best[s]) for s in seats]
    key = [(totals[s], best[s], -first[s]) for s in seats]
    return [1 + sum(k > key[s] for k in key) for s in seats]


def assert_round_ends_shown(fake: FakeTelegram, match: GapMatch, names: Sequence[str]) -> None:
    """G5: each finished round has one '🏁 Round n' message listing every collection by colour
    with its score (as G5 counts it) and the totals after the round."""
    ends = [m.text for m in fake.bot_messages(GROUP) if m.text.startswith("🏁 Round ")]
    results = match.game.results
    assert len(ends) == len(results), ends
    running = [0] * len(names)
    for number, (text, result) in enumerate(zip(ends, results, strict=True), start=1):
        assert text.startswith(f"🏁 Round {number} is over"), text
        rows = [RESULT_ROW.match(line) for line in text.splitlines()[1:]]
        shown = [r.groups() for r in rows if r is not None]
        expected = []
        for seat, name in enumerate(names):
            cs = result.collections[seat]
            assert result.points[seat] == g5_score(cs), (cs, result.points[seat])
            expected.append((name, collection(cs), str(g5_score(cs))))
            running[seat] += result.points[seat]
        assert shown == expected, text
        totals = " · ".join(f"{name} {running[s]}" for s, name in enumerate(names))
        assert f"Totals: {totals}" in text, text


def assert_standings_shown(fake: FakeTelegram, match: GapMatch, names: Sequence[str]) -> None:
    """G6: the game's last group message names the winner and lists the standings by total,
    with a Play again button."""
    end = fake.bot_messages(GROUP)[-1]
    winner = match.winner
    assert winner is not None
    assert end.text.startswith(f"🏆 {names[winner]} wins the game with "), end.text
    assert "🔁 Play again" in end.button_texts(), end.buttons()
    standings = [STANDING.match(line) for line in end.text.splitlines()]
    listed = [(m.group(2), int(m.group(3))) for m in standings if m is not None]
    assert sorted(listed, key=lambda x: -x[1]) == listed
    assert sorted(listed) == sorted(zip(names, match.scores, strict=True))


# 1. Whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("people", "computers", "added", "seats"),
    [
        pytest.param((ANA, BUDI), OFF, 0, 2, id="2-people-computers-off"),
        pytest.param((ANA, BUDI), ON, 0, 4, id="2-people-2-computers"),
        pytest.param((ANA, BUDI, CITRA), ON, 3, 6, id="3-people-3-added-computers"),
    ],
)
async def test_whole_gap_game(
    tmp_path: Path,
    database: Path | str,
    people: tuple[int, ...],
    computers: int,
    added: int,
    seats: int,
) -> None:
    """G1-G6 at the table: the people play whole games to a target of 20 by tapping card
    buttons; the group sees every position, the round results and the standings, each person
    only their own cards, and the results, /top, /stats and /rules follow."""
    async with (
        gap_world(tmp_path, database=database) as (fake, database),
        running_bot(fake, database, seed=seats, DEFAULT_TURN_SECONDS=TURN_SECONDS) as app,
    ):
        store = deps_of(app).service.store
        game_id, lobby = await start_gap(fake, people, computers=computers, added=added)
        assert lobby.startswith("Gap · first to 20"), lobby
        assert f"Seats taken: {len(people) + added} of 6" in lobby, lobby
        await Players(fake, people, GAP_CARDS).next_turn()
        records = await seats_of(store, game_id)
        assert [s.user_id for s in records][: len(people)] == list(people)
        assert len(records) == seats
        assert sum(s.computer_level is not None for s in records) == seats - len(people)
        names = seat_names(records)

        # G1/G3: the deal fits the seat count.
        config, rounds = await stored_rounds(store, game_id)
        assert config == {"seats": seats, "target": 20}
        deal = rounds[0][0]
        size = 6 if seats <= 4 else 5
        assert [len(h) for h in deal["hands"]] == [size] * seats
        assert len(deal["middle"]) == 4
        dealt = sorted([*(c for h in deal["hands"] for c in h), *deal["middle"], *deal["pile"]])
        assert dealt == list(range({2: 40, 3: 50}.get(seats, 60)))

        await Players(fake, people, GAP_CARDS).play_until(
            finished(store, game_id), random.Random(seats), 100
        )
        await fake.wait_idle(quiet=QUIET)

        replayed = await replay_positions(store, game_id, names)
        match = replayed.final
        assert match.is_over and max(match.scores) >= 20
        assert_tables_show_positions(fake, replayed, people)
        for seat, user in enumerate(people):
            assert_hands_shown(fake, replayed, user, seat)
        assert_round_ends_shown(fake, match, names)
        assert_standings_shown(fake, match, names)

        # Results for every seat, with G6's places and the best round.
        points = round_points(match)
        async with store.read() as tx:
            results = await tx.results.of_game(game_id)
        assert [r.seat for r in results] == list(range(seats))
        assert [r.points for r in results] == list(match.scores)
        assert [r.place for r in results] == expected_places(points)
        assert [r.extras.get("best_round") for r in results] == [
            max(p[s] for p in points) for s in range(seats)
        ]
        assert [r.player_id for r in results][: len(people)] == list(people)

        # Nothing hidden reached the group (the shared scanner; the private chats are
        # checked position by position above, see test_leak_scanner_on_gap_private_chats).
        assert_group_saw_nothing_hidden(fake, GROUP, await load_secrets(store, game_id))

        # The game word of the commands names Gap.
        top = await say(fake, CITRA, GROUP, "/top gap")
        assert top.text.startswith("🏆 Best rated — this chat"), top.text
        assert all(NAMES[user] in top.text for user in people), top.text
        mine = await say(fake, ANA, GROUP, "/stats gap")
        ana = results[0]
        assert mine.text.startswith("Ana in this chat"), mine.text
        assert "Games: 1" in mine.text, mine.text
        assert f"Rounds won: {ana.rounds_won}" in mine.text, mine.text
        assert f"Points: {ana.points} · best round: {ana.extras['best_round']}" in mine.text
        rules = await say(fake, ANA, GROUP, "/rules gap")
        assert rules.text.startswith("Gap rules here: first to 20 points."), rules.text
        assert "neighbour" in rules.text, rules.text


# 2. The take-choice step ------------------------------------------------------------------------


async def until_a_choice(
    fake: FakeTelegram, store: Store, game_id: int, people: Sequence[int], rng: random.Random
) -> tuple[int, FakeMessage, str]:
    """The people play until one of them is offered a card that asks which take; returns
    who, the turn message and the card's pick data."""
    deadline = time.monotonic() + 60
    while True:
        user, message = await Players(fake, people, GAP_CARDS).next_turn()
        picks = [d for _, d in card_buttons(message) if d.startswith(Action.PICK.value + ":")]
        if picks:
            return user, message, picks[0]
        assert time.monotonic() < deadline, "no card offered a choice of takes"
        assert not (await gap_match(store, game_id)).is_over, "the game ended without a choice"
        await Player(fake, user, GAP_CARDS).play_turn(rng)


async def test_a_card_with_a_choice_of_takes_asks_which_and_back_changes_nothing(
    tmp_path: Path,
) -> None:
    """G4: a card with several cards of a neighbour value in the middle is a "choose" button;
    it offers one button per possible take (labelled with what it takes) and Back; Back
    restores the card buttons with nothing stored; the chosen take is the move made."""
    people = (ANA, BUDI)
    async with (
        gap_world(tmp_path) as (fake, database),
        running_bot(fake, database, seed=3, DEFAULT_TURN_SECONDS=TURN_SECONDS) as app,
    ):
        store = deps_of(app).service.store
        game_id, _ = await start_gap(fake, people, target=TARGET_50, computers=OFF)
        user, message, pick = await until_a_choice(fake, store, game_id, people, random.Random(4))
        seat = people.index(user)
        picked = decode(pick).field("step")
        before_state = await state(store, game_id)
        before = await gap_match(store, game_id)
        middle = tuple(before.game.round.middle)
        choices = before.game.round.moves_of(picked)
        assert len(choices) >= 2, choices
        assert picked in before.game.round.hands[seat]
        label = next(t for t, d in message.buttons() if d == pick)
        assert label == f"{card(picked)} → choose", label
        for text, _data in card_buttons(message):
            assert text.startswith(tuple(SQUARES)) and " → " in text, text
        cards_shown = message.buttons()
        text_shown = message.text

        # The pick: one button per take, named by what it takes, then Back.
        answer = await tap(fake, user, message, pick)
        assert not answer.get("show_alert"), answer
        await fake.wait_for(lambda: BACK in fake.message(user, message.message_id).button_texts())
        asked = fake.message(user, message.message_id)
        assert f"Which cards should {card(picked)} take?" in asked.text, asked.text
        offered = asked.buttons()
        assert offered[-1][0] == BACK
        assert decode(offered[-1][1]).action is Action.BACK
        takes: dict[int, str] = {}
        datas: dict[int, str] = {}
        for text, data in offered[:-1]:
            assert data is not None and decode(data).action is Action.MOVE, data
            takes[decode(data).field("code")] = text
            datas[decode(data).field("code")] = data
        expected = {
            m.code: f"{card(picked)} → {cards(before.game.round.taken_by(m))}" for m in choices
        }
        assert takes == expected
        assert all(len(before.game.round.taken_by(m)) >= 1 for m in choices)
        assert await state(store, game_id) == before_state

        # Back: the card buttons again, nothing stored.
        back = dict(offered)[BACK]
        assert back is not None
        answer = await tap(fake, user, asked, back)
        assert not answer.get("show_alert"), answer
        await fake.wait_for(
            lambda: BACK not in fake.message(user, message.message_id).button_texts()
        )
        again = fake.message(user, message.message_id)
        assert again.buttons() == cards_shown
        without_clock = [line for line in again.text.splitlines() if "⏳" not in line]
        assert without_clock == [line for line in text_shown.splitlines() if "⏳" not in line]
        assert await state(store, game_id) == before_state

        # Choose: the move made is the take chosen.
        await tap(fake, user, again, pick)
        await fake.wait_for(lambda: BACK in fake.message(user, message.message_id).button_texts())
        chosen = max(takes)
        chosen_move = next(m for m in choices if m.code == chosen)
        taken = before.game.round.taken_by(chosen_move)
        query = await fake.press(user, user, message.message_id, datas[chosen])
        answer = await fake.wait_callback_answer(query)
        assert answer.get("text") == f"You played {card(picked)}.", answer
        await fake.wait_for(lambda: not fake.message(user, message.message_id).buttons())
        await fake.wait_idle(quiet=QUIET)
        after = await gap_match(store, game_id)
        current = after.game.rounds[before.round_number - 1]
        assert current.moves[len(before.game.round.moves)] == chosen
        assert current.events[len(before.game.round.events)] == Played(seat, picked, taken)
        assert tuple(current.collections[seat][-len(taken) - 1 :]) == (*taken, picked)
        # The other cards of the neighbour value stay in the middle; the chosen ones left it.
        left_behind = [c for c in middle if c not in taken]
        assert [c for c in middle if c in current.middle] == left_behind
        assert not set(taken) & set(current.middle)


# 3. Stale and forged card buttons --------------------------------------------------------------


async def test_stale_and_forged_card_buttons_change_nothing(tmp_path: Path) -> None:
    """A card button pressed again after its move, a forged move code that is not legal (a
    card not in hand, or a take the rules do not allow), a stale Back, and a forged pick of a
    card not in hand are all refused, and nothing is stored or redrawn."""
    people = (ANA, BUDI)
    async with (
        gap_world(tmp_path) as (fake, database),
        running_bot(fake, database, seed=2, DEFAULT_TURN_SECONDS=TURN_SECONDS) as app,
    ):
        store = deps_of(app).service.store
        game_id, _ = await start_gap(fake, people, target=TARGET_50, computers=OFF)
        user, message = await Players(fake, people, GAP_CARDS).next_turn()
        seat = people.index(user)
        match = await gap_match(store, game_id)
        version = await version_of(store, game_id)
        hand = match.game.round.hands[seat]
        legal = set(match.legal_codes())
        not_held = next(c for c in range(40) if c not in hand)
        wrong_take = next(
            move(c, low, high).code
            for c in hand
            for low in range(7)
            for high in range(7)
            if move(c, low, high).code not in legal
        )
        before = await state(store, game_id)
        shown = (message.text, message.buttons(), len(message.versions))
        for code in (move(not_held).code, wrong_take):
            answer = await tap(
                fake, user, message, encode(Action.MOVE, game_id, version, code), check=False
            )
            assert answer.get("text") == OUT_OF_DATE, (code, answer)
            assert not answer.get("show_alert"), answer
        answer = await tap(
            fake, user, message, encode(Action.PICK, game_id, version, not_held), check=False
        )
        assert answer.get("show_alert") is True, answer
        assert answer.get("text"), answer
        assert await state(store, game_id) == before
        now = fake.message(user, message.message_id)
        assert (now.text, now.buttons(), len(now.versions)) == shown

        # A real move, then the same button again once the game moved on.
        played = next(d for _, d in card_buttons(message) if d.startswith("mv:"))
        answer = await tap(fake, user, message, played)
        assert str(answer.get("text", "")).startswith("You played "), answer
        await fake.wait_for(lambda: not fake.message(user, message.message_id).buttons())
        await Players(fake, people, GAP_CARDS).next_turn()
        moved = await state(store, game_id)
        assert moved != before
        other = people[1 - seat]
        other_message = turn_message(fake, other)
        assert other_message is not None
        other_shown = (other_message.text, other_message.buttons())
        # Refused with where the person's next hand comes (they tapped this message: they play
        # along).
        for data in (played, encode(Action.BACK, game_id, version)):
            answer = await tap(fake, user, message, data, check=False)
            assert answer.get("text") == PLAYED_ALREADY, (data, answer)
        assert await state(store, game_id) == moved
        assert fake.message(user, message.message_id).buttons() == []
        assert (other_message.text, other_message.buttons()) == other_shown


# 4. A restart in the middle of a round -----------------------------------------------------------


async def test_restart_mid_round_brings_back_the_table_and_the_hand(
    tmp_path: Path, database: Path | str
) -> None:
    """A new application on the same database, mid-round: the group table and the hand of
    the person to move come back as they were, and the game finishes with every score as a
    replay through GapKind().replay gives it (G5, G6)."""
    people = (ANA, BUDI)
    rng = random.Random(21)
    async with gap_world(tmp_path, database=database) as (fake, database):
        async with running_bot(fake, database, seed=8, DEFAULT_TURN_SECONDS=TURN_SECONDS) as app:
            store = deps_of(app).service.store
            game_id, _ = await start_gap(fake, people, computers=OFF)

            async def some_moves_made() -> bool:
                current = (await gap_match(store, game_id)).game.round
                return len(current.moves) >= 5 and current.to_move is not None

            await Players(fake, people, GAP_CARDS).play_until(some_moves_made, rng, 100)
            await fake.wait_idle(quiet=QUIET)
            before = await state(store, game_id)
            names = seat_names(await seats_of(store, game_id))

        async with running_bot(fake, database, seed=9, DEFAULT_TURN_SECONDS=TURN_SECONDS) as app:
            store = deps_of(app).service.store
            await fake.wait_idle(quiet=QUIET)
            assert await state(store, game_id) == before
            match = await gap_match(store, game_id)
            seat = match.to_move
            assert seat is not None
            user, message = await Players(fake, people, GAP_CARDS).next_turn()
            assert user == people[seat]
            # The hand: the person's cards, and a button for every card, no other.
            assert hand_of(message.text) == cards(match.game.round.hands[seat])
            offered = {
                decode(d).field("code" if d.startswith("mv:") else "step")
                for _, d in card_buttons(message)
            }
            picks = {
                m.card
                for m in match.game.legal_moves()
                if len(match.game.round.moves_of(m.card)) > 1
            }
            singles = {m.code for m in match.game.legal_moves() if m.card not in picks}
            assert offered == picks | singles
            assert len(card_buttons(message)) == len(match.game.round.hands[seat])
            # The table: the current position, with 'My hand'.
            table = table_messages(fake)[-1]
            assert parse_table(table.text) == (match.round_number, shows(match, names))
            assert any(
                d and d.startswith(Action.SHOW_HAND.value + ":") for _, d in table.buttons()
            ), table.buttons()

            await Players(fake, people, GAP_CARDS).play_until(finished(store, game_id), rng, 100)
            await fake.wait_idle(quiet=QUIET)
            config, rounds = await stored_rounds(store, game_id)
            final = GapKind().replay(config, rounds)
            assert final.is_over
            async with store.read() as tx:
                results = await tx.results.of_game(game_id)
            assert [r.points for r in results] == list(final.scores)
            points = round_points(final)
            assert [r.place for r in results] == expected_places(points)
            assert list(final.scores) == [sum(p[s] for p in points) for s in range(2)]
            for result in final.game.results:
                assert list(result.points) == [g5_score(c) for c in result.collections]
            assert_round_ends_shown(fake, final, names)
            assert_standings_shown(fake, final, names)
            replayed = await replay_positions(store, game_id, names)
            assert_tables_show_positions(fake, replayed, people)
            for number, user in enumerate(people):
                assert_hands_shown(fake, replayed, user, number)


# 5. /settings gap, /gaple beside /gap, one game per chat -----------------------------------------


async def test_settings_and_one_game_per_chat_whatever_its_kind(tmp_path: Path) -> None:
    """`/settings gap` shows Gap's target (G2: 30 by default) and empty-seats options and
    stores them for Gap alone; `/gaple` still opens Gaple in another chat; a chat with an open
    lobby of either kind refuses a lobby of the other."""
    async with (
        gap_world(tmp_path) as (fake, database),
        running_bot(fake, database, DEFAULT_TURN_SECONDS=TURN_SECONDS) as app,
    ):
        deps = deps_of(app)
        store = deps.service.store
        menu = await say(fake, ANA, GROUP, "/settings gap")
        assert "Target: 30 points" in menu.text, menu.text
        assert "Empty seats: computer players fill them" in menu.text, menu.text
        assert row_labels(menu, TARGET) == ["20", "✅ 30", "40", "50"]
        assert row_labels(menu, COMPUTERS) == ["✅ On", "Off"]
        for _, data in menu.buttons():
            assert data is not None and decode(data).field("kind") == GAP

        menu = await gap_setting(fake, TARGET, TARGET_20)
        menu = await gap_setting(fake, COMPUTERS, OFF)
        assert "Target: 20 points" in menu.text, menu.text
        assert "Empty seats: none, the game starts with whoever joined" in menu.text
        assert row_labels(menu, TARGET) == ["✅ 20", "30", "40", "50"]
        assert row_labels(menu, COMPUTERS) == ["On", "✅ Off"]
        gaple = await gaple_options(store, GROUP)
        assert gaple is not None
        assert gaple["target"] == "100" and gaple["computers"] == "on", gaple

        # A Gap lobby in the group: /gaple there is refused.
        lobby = await say(fake, BUDI, GROUP, "/gap")
        assert lobby.text.startswith("Gap · first to 20"), lobby.text
        assert "computers do not fill seats" in lobby.text, lobby.text
        gap_id = game_of(lobby)
        refused = await say(fake, CITRA, GROUP, "/gaple")
        assert refused.text == ALREADY_OPEN, refused.text
        assert refused.reply_to_message_id == lobby.message_id
        assert await deps.service.active_game(GROUP, None) == gap_id
        assert lobby_message(fake) == fake.message(GROUP, lobby.message_id)

        # Gaple in the other group, then /gap there is refused.
        other = await say(fake, ANA, OTHER_GROUP, "/gaple")
        assert other.text.startswith("Gaple · classic · first to 100"), other.text
        gaple_id = game_of(other)
        refused = await say(fake, DEWI, OTHER_GROUP, "/gap")
        assert refused.text == ALREADY_OPEN, refused.text
        assert await deps.service.active_game(OTHER_GROUP, None) == gaple_id
        async with store.read() as tx:
            kinds = ((await tx.games.get(gap_id)).kind, (await tx.games.get(gaple_id)).kind)
        assert kinds == ("gap", "gaple")
        lobbies = [m for m in fake.bot_messages(OTHER_GROUP) if "✋ Join" in m.button_texts()]
        assert lobbies == [fake.message(OTHER_GROUP, other.message_id)]


# The shared leak scanner on Gap's private chats ----------------------------------------------


async def test_leak_scanner_on_gap_private_chats(tmp_path: Path) -> None:
    """The shared leak scanner (tests/bot/leaks.py) finds nothing in the private chats of a
    whole two-person Gap game: each person saw only their own cards and public ones."""
    people = (ANA, BUDI)
    async with (
        gap_world(tmp_path) as (fake, database),
        running_bot(fake, database, seed=2, DEFAULT_TURN_SECONDS=TURN_SECONDS) as app,
    ):
        store = deps_of(app).service.store
        game_id, _ = await start_gap(fake, people, computers=OFF)
        await Players(fake, people, GAP_CARDS).play_until(
            finished(store, game_id), random.Random(2), 100
        )
        await fake.wait_idle(quiet=QUIET)
        secrets = await load_secrets(store, game_id)
        assert_group_saw_nothing_hidden(fake, GROUP, secrets)
        for seat, user in enumerate(people):
            assert_player_saw_only_their_own(fake, user, seat, secrets)
