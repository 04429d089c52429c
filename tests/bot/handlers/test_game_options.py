"""End-to-end tests of the "Empty seats" option (C2, D1) and of the game word of /top, /stats,
/rules and /settings: the real application over HTTP against the fake Bot API."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from gaple_bot.bot.callback_data import Action, decode, encode
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.store import GameStatus, SeatRecord
from tests.bot.driver import Players, play_until, turn_message
from tests.bot.harness import (
    GROUP,
    GROUP_TITLE,
    deps_of,
    gaple_options,
    load_engine_game,
    lobby_message,
    running_bot,
    tiles_in_text,
)
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA, BUDI, CITRA, DEWI, EKO = 101, 102, 103, 104, 105
NAMES = {ANA: "Ana", BUDI: "Budi", CITRA: "Citra", DEWI: "Dewi", EKO: "Eko"}
QUIET = 0.1
"""Seconds without a Bot API call after which the bot counts as done with an update."""
RULES, TARGET, TURN, LEVEL, COMPUTERS, PICTURES, LANGUAGE = range(7)
"""Option indexes of the /settings buttons (menu_options(GapleKind()))."""
CLASSIC, DISCARDS = 0, 1
"""Choice indexes of the rules option."""
TARGET_50 = 0
ON, OFF = 0, 1
"""Choice indexes of the computers option."""
FILL_LINE = "Empty seats: computer players fill them"
NO_FILL_LINE = "Empty seats: none, the game starts with whoever joined"
LOBBY_FILLS = "Empty seats get computer players at the start."
LOBBY_NO_FILL = "The game starts with whoever joined: computers do not fill seats in this chat."
NEEDS = "This game needs at least {n} players: computers do not fill seats in this chat."
SEAT_ROW = re.compile(r"^(?:▶️|▫️) (.+?) — (\d+) tiles? · ", re.MULTILINE)
"""A seat's row in the table message: its marker, name and tile count."""


def populate(fake: FakeTelegram) -> None:
    """Ana administers the group; Budi, Citra, Dewi and Eko are members."""
    for user, name in NAMES.items():
        fake.add_user(user, name)
    fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI, CITRA, DEWI, EKO))


async def say(fake: FakeTelegram, user: int, chat: int, text: str, **kwargs: int) -> FakeMessage:
    """The user writes `text` in the chat; returns the bot's first message after it."""
    sent = await fake.send_message(user, chat, text, **kwargs)
    after = int(sent["message_id"])

    def answers() -> list[FakeMessage]:
        return [m for m in fake.bot_messages(chat) if m.message_id > after]

    await fake.wait_for(lambda: bool(answers()), message=f"no answer to {text!r}")
    await fake.wait_idle(quiet=QUIET)
    return answers()[0]


async def tap(fake: FakeTelegram, user: int, message: FakeMessage, data: str) -> dict[str, Any]:
    """The user taps the button with this data; returns the callback answer once the bot is
    done."""
    query = await fake.press(user, message.chat_id, message.message_id, data)
    answer = await fake.wait_callback_answer(query)
    await fake.wait_idle(quiet=QUIET)
    return answer


async def open_private_chats(fake: FakeTelegram, *users: int) -> None:
    """These people send /start in their private chat, so the bot may send them tiles."""
    for user in users:
        await say(fake, user, user, "/start")


async def choose_setting(fake: FakeTelegram, option: int, choice: int) -> FakeMessage:
    """Ana (an admin) opens /settings and taps a choice; returns the redrawn menu."""
    menu = await say(fake, ANA, GROUP, "/settings")
    answer = await tap(fake, ANA, menu, encode(Action.SETTING, GROUP, 0, option, choice))
    assert answer.get("text") == "Saved.", answer
    await fake.wait_for(
        lambda: len(fake.message(GROUP, menu.message_id).versions) > 1,
        message="the menu was not redrawn",
    )
    await fake.wait_idle(quiet=QUIET)
    return fake.message(GROUP, menu.message_id)


def row_labels(menu: FakeMessage, option: int) -> list[str]:
    """The labels of one option's row of buttons in the settings menu."""
    return [text for text, _ in menu.button_rows()[option]]


def game_of(lobby: FakeMessage) -> int:
    """The game id the lobby's Join button carries."""
    data = dict(lobby.buttons()).get("✋ Join")
    assert data is not None, lobby.buttons()
    return decode(data).field("game")


async def open_table(fake: FakeTelegram, opener: int, *others: int) -> FakeMessage:
    """`opener` types /gaple in the group and the others tap Join; returns the lobby."""
    lobby = await say(fake, opener, GROUP, "/gaple")
    assert lobby == lobby_message(fake), lobby.text
    for user in others:
        answer = await tap(fake, user, lobby, encode(Action.JOIN, game_of(lobby)))
        assert answer.get("text") == "You joined. Your tiles will come in our private chat."
    return fake.message(GROUP, lobby.message_id)


async def press_start(fake: FakeTelegram, user: int, lobby: FakeMessage) -> dict[str, Any]:
    """The user taps Start on the lobby; returns the callback answer."""
    return await tap(fake, user, lobby, encode(Action.START, game_of(lobby)))


async def stored(app: GapleApplication, game_id: int) -> tuple[GameStatus, int, list[SeatRecord]]:
    """The stored game's status, seat count of its config, and seats."""
    async with deps_of(app).service.store.read() as tx:
        record = await tx.games.get(game_id)
        seats = await tx.seats.of_game(game_id)
    return record.status, int(record.config["seats"]), seats


def table_rows(fake: FakeTelegram) -> list[tuple[str, int]]:
    """The seats the group's round-1 table message lists: (name, tiles in hand)."""
    tables = [m for m in fake.bot_messages(GROUP) if "round 1" in m.text]
    assert len(tables) == 1, [m.text for m in tables]
    return [(name, int(count)) for name, count in SEAT_ROW.findall(tables[0].text)]


def dealt_hand(fake: FakeTelegram, user: int) -> set[tuple[int, int]]:
    """The tiles of the person's first round-1 private message ('Your hand: ...')."""
    for message in fake.bot_messages(user):
        for version in message.versions:
            if "round 1" in version.text:
                match = re.search(r"^Your hand: (.*)$", version.text, re.MULTILINE)
                assert match is not None, version.text
                return tiles_in_text(match.group(1))
    raise AssertionError(f"user {user} got no hand")


async def assert_started_with_people_only(
    fake: FakeTelegram, app: GapleApplication, game_id: int, people: tuple[int, ...], tiles: int
) -> None:
    """The game runs with exactly these people's seats, no computer, `tiles` tiles each."""
    status, seats, records = await stored(app, game_id)
    assert status is GameStatus.RUNNING
    assert seats == len(people)
    assert [(s.seat, s.user_id, s.computer_level) for s in records] == [
        (number, user, None) for number, user in enumerate(people)
    ]
    game = await load_engine_game(deps_of(app).service.store, game_id)
    assert game.config.seats == len(people)
    assert [game.round.hands[seat].bit_count() for seat in range(len(people))] == [tiles] * len(
        people
    )
    for user in people:
        assert len(dealt_hand(fake, user)) == tiles
    assert table_rows(fake) == [(NAMES[user], tiles) for user in people]
    assert "🤖" not in fake.message(GROUP, table_message_id(fake)).text


def table_message_id(fake: FakeTelegram) -> int:
    """The message id of the group's round-1 table message."""
    return next(m.message_id for m in fake.bot_messages(GROUP) if "round 1" in m.text)


async def finish(
    fake: FakeTelegram, app: GapleApplication, game_id: int, people: tuple[int, ...], seed: int
) -> None:
    """The people play legal moves until the game is finished."""

    async def finished() -> bool:
        return (await stored(app, game_id))[0] is GameStatus.FINISHED

    await play_until(fake, people, finished, random.Random(seed), seconds=120)
    await fake.wait_idle(quiet=QUIET)


async def test_computers_off_two_people_play_a_whole_two_seat_classic_game(
    tmp_path: Path,
) -> None:
    """C2/C3: with "Empty seats" off, two people start a 2-seat classic game of 7 tiles each
    and play it to its end, with results for exactly two seats."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            store = deps_of(app).service.store
            await open_private_chats(fake, ANA, BUDI)
            menu = await say(fake, ANA, GROUP, "/settings")
            assert FILL_LINE in menu.text
            assert row_labels(menu, COMPUTERS) == ["✅ On", "Off"]

            menu = await choose_setting(fake, COMPUTERS, OFF)
            assert NO_FILL_LINE in menu.text
            assert FILL_LINE not in menu.text
            assert row_labels(menu, COMPUTERS) == ["On", "✅ Off"]
            options = await gaple_options(store, GROUP)
            assert options is not None and options["computers"] == "off"
            await choose_setting(fake, TARGET, TARGET_50)

            lobby = await open_table(fake, ANA, BUDI)
            assert LOBBY_NO_FILL in lobby.text
            assert LOBBY_FILLS not in lobby.text
            assert "Seats taken: 2 of 4" in lobby.text
            game_id = game_of(lobby)
            answer = await press_start(fake, ANA, lobby)
            assert answer.get("text") == "Let's play!"
            await Players(fake, (ANA, BUDI)).wait_for_turn()
            await assert_started_with_people_only(fake, app, game_id, (ANA, BUDI), 7)
            lobby = fake.message(GROUP, lobby.message_id)
            assert "The game has started." in lobby.text
            assert "🤖" not in lobby.text

            await finish(fake, app, game_id, (ANA, BUDI), seed=5)
            assert any("wins the game" in text for text in fake.all_texts_sent_to(GROUP))
            async with store.read() as tx:
                results = await tx.results.of_game(game_id)
            assert sorted(r.player_id for r in results) == [ANA, BUDI]
            game = await load_engine_game(store, game_id)
            assert len(game.scores) == 2
            assert sorted(r.points for r in results) == sorted(game.scores)
            assert max(game.scores) >= 50
            assert sorted(r.place for r in results) == [1, 2]


async def test_computers_off_three_people_make_a_three_seat_game(tmp_path: Path) -> None:
    """C2: with "Empty seats" off, three people start a 3-seat classic game."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            people = (BUDI, CITRA, DEWI)
            await open_private_chats(fake, *people)
            await choose_setting(fake, COMPUTERS, OFF)
            lobby = await open_table(fake, *people)
            assert "Seats taken: 3 of 4" in lobby.text
            game_id = game_of(lobby)
            answer = await press_start(fake, BUDI, lobby)
            assert answer.get("text") == "Let's play!"
            await Players(fake, people).wait_for_turn()
            await assert_started_with_people_only(fake, app, game_id, people, 7)


async def test_computers_off_one_person_cannot_start(tmp_path: Path) -> None:
    """Alone at a classic table with "Empty seats" off, Start is refused with an alert saying
    why, and the lobby stays as it was."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, BUDI)
            await choose_setting(fake, COMPUTERS, OFF)
            lobby = await open_table(fake, BUDI)
            game_id = game_of(lobby)
            before = await stored(app, game_id)
            versions = len(lobby.versions)
            sends = len(fake.requests_for("sendMessage"))

            for user in (BUDI, ANA):  # the opener, then an admin
                answer = await press_start(fake, user, lobby)
                assert answer.get("show_alert") is True
                assert answer.get("text") == NEEDS.format(n=2)

            assert await stored(app, game_id) == before
            assert before[0] is GameStatus.LOBBY
            assert [s.user_id for s in before[2]] == [BUDI]
            now = fake.message(GROUP, lobby.message_id)
            assert len(now.versions) == versions
            assert now.text == lobby.text and now.buttons() == lobby.buttons()
            assert len(fake.requests_for("sendMessage")) == sends
            assert turn_message(fake, BUDI) is None
            assert await deps_of(app).service.active_game(GROUP, None) == game_id


async def test_computers_off_discards_need_four_people(tmp_path: Path) -> None:
    """D1: with discards and "Empty seats" off, three people are refused ("at least 4
    players"); once a fourth joins the game starts with 4 seats of 6 tiles each."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            people = (ANA, BUDI, CITRA, DEWI)
            await open_private_chats(fake, *people)
            await choose_setting(fake, RULES, DISCARDS)
            menu = await choose_setting(fake, COMPUTERS, OFF)
            assert NO_FILL_LINE in menu.text
            assert row_labels(menu, RULES)[DISCARDS].startswith("✅ ")

            lobby = await open_table(fake, ANA, BUDI, CITRA)
            game_id = game_of(lobby)
            assert "with discards" in lobby.text
            assert "Seats taken: 3 of 5" in lobby.text
            answer = await press_start(fake, ANA, lobby)
            assert answer.get("show_alert") is True
            assert answer.get("text") == NEEDS.format(n=4)
            status, _, seats = await stored(app, game_id)
            assert status is GameStatus.LOBBY
            assert [s.user_id for s in seats] == [ANA, BUDI, CITRA]
            assert "Seats taken: 3 of 5" in fake.message(GROUP, lobby.message_id).text

            answer = await tap(fake, DEWI, lobby, encode(Action.JOIN, game_id))
            assert answer.get("text") == "You joined. Your tiles will come in our private chat."
            answer = await press_start(fake, ANA, lobby)
            assert answer.get("text") == "Let's play!"
            await Players(fake, people).wait_for_turn()
            await assert_started_with_people_only(fake, app, game_id, people, 6)


async def test_computers_on_by_default_fill_a_two_person_table_to_four(tmp_path: Path) -> None:
    """With "Empty seats" on (the default), two people start a 4-seat game: two computers sit
    in the empty seats."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA, BUDI)
            options = await gaple_options(deps_of(app).service.store, GROUP)
            assert options is None or options["computers"] == "on"
            lobby = await open_table(fake, ANA, BUDI)
            assert LOBBY_FILLS in lobby.text
            assert LOBBY_NO_FILL not in lobby.text
            game_id = game_of(lobby)
            answer = await press_start(fake, ANA, lobby)
            assert answer.get("text") == "Let's play!"
            await Players(fake, (ANA, BUDI)).wait_for_turn()
            status, seats, records = await stored(app, game_id)
            assert status is GameStatus.RUNNING
            assert seats == 4
            assert [s.user_id for s in records] == [ANA, BUDI, None, None]
            assert [s.computer_level is not None for s in records] == [False, False, True, True]
            names = [name for name, _ in table_rows(fake)]
            assert names[:2] == ["Ana", "Budi"]
            assert names[2:] == ["🤖 Normal 1", "🤖 Normal 2"]
            game = await load_engine_game(deps_of(app).service.store, game_id)
            assert game.config.seats == 4


async def test_the_game_word_of_commands_names_the_same_game_as_the_default(
    tmp_path: Path,
) -> None:
    """After a finished Gaple game, `/top gaple`, `/stats gaple`, `/rules gaple` and
    `/settings gaple` answer exactly as the commands without the word; an unknown word is
    ignored."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA, BUDI)
            # Before any game the default is the bot's first game: Gaple too.
            assert (await say(fake, CITRA, GROUP, "/top gaple")).text == (
                await say(fake, CITRA, GROUP, "/top")
            ).text
            await choose_setting(fake, COMPUTERS, OFF)
            await choose_setting(fake, TARGET, TARGET_50)
            lobby = await open_table(fake, ANA, BUDI)
            game_id = game_of(lobby)
            assert (await press_start(fake, ANA, lobby)).get("text") == "Let's play!"
            await Players(fake, (ANA, BUDI)).wait_for_turn()
            await finish(fake, app, game_id, (ANA, BUDI), seed=3)

            pairs = [
                ("/top", "/top gaple"),
                ("/top wins week", "/top gaple wins week"),
                ("/top wins week", "/top wins gaple week"),
                ("/top points global", "/top gaple points global"),
                ("/stats", "/stats gaple"),
                ("/rules", "/rules gaple"),
                ("/top", "/top chess"),
                ("/stats", "/stats chess"),
                ("/rules", "/rules chess"),
                ("/top", "/top GAPLE"),
            ]
            for plain, worded in pairs:
                expected = await say(fake, ANA, GROUP, plain)
                got = await say(fake, ANA, GROUP, worded)
                assert got.text == expected.text, (plain, worded)
                assert got.buttons() == expected.buttons(), (plain, worded)

            board = await say(fake, ANA, GROUP, "/top gaple")
            assert board.text.startswith("🏆 Best rated — this chat")
            assert "Ana" in board.text and "Budi" in board.text
            mine = await say(fake, ANA, GROUP, "/stats gaple")
            assert mine.text.startswith("Ana in this chat")
            assert "Games: 1" in mine.text
            rules = await say(fake, ANA, GROUP, "/rules gaple")
            assert rules.text.startswith("Gaple rules here: classic, first to 50 points.")

            for word in ("gaple", "chess"):
                menu = await say(fake, ANA, GROUP, "/settings")
                named = await say(fake, ANA, GROUP, f"/settings {word}")
                assert named.text == menu.text, word
                assert named.button_rows() == menu.button_rows(), word
                assert NO_FILL_LINE in named.text
                assert row_labels(named, COMPUTERS) == ["On", "✅ Off"]
                assert row_labels(named, TARGET)[TARGET_50] == "✅ 50"


async def test_turning_computers_off_before_start_applies_to_an_open_lobby(
    tmp_path: Path,
) -> None:
    """A lobby opened while computers filled seats reads the option when it starts: an admin
    who turns "Empty seats" off before Start gets a game of only the people seated."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, BUDI, CITRA)
            lobby = await open_table(fake, BUDI, CITRA)
            assert LOBBY_FILLS in lobby.text
            game_id = game_of(lobby)

            menu = await choose_setting(fake, COMPUTERS, OFF)
            assert row_labels(menu, COMPUTERS) == ["On", "✅ Off"]
            assert (await stored(app, game_id))[0] is GameStatus.LOBBY

            answer = await press_start(fake, BUDI, lobby)
            assert answer.get("text") == "Let's play!"
            await Players(fake, (BUDI, CITRA)).wait_for_turn()
            await assert_started_with_people_only(fake, app, game_id, (BUDI, CITRA), 7)


async def test_turning_computers_on_before_start_lets_a_lone_person_start(
    tmp_path: Path,
) -> None:
    """The other way round: alone at a table with "Empty seats" off, Start is refused; once
    an admin turns the option on, the same lobby starts with three computers."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, BUDI)
            await choose_setting(fake, COMPUTERS, OFF)
            lobby = await open_table(fake, BUDI)
            game_id = game_of(lobby)
            answer = await press_start(fake, BUDI, lobby)
            assert answer.get("text") == NEEDS.format(n=2)

            await choose_setting(fake, COMPUTERS, ON)
            answer = await press_start(fake, BUDI, lobby)
            assert answer.get("text") == "Let's play!"
            await Players(fake, (BUDI,)).wait_for_turn()
            status, seats, records = await stored(app, game_id)
            assert (status, seats) == (GameStatus.RUNNING, 4)
            assert [s.user_id for s in records] == [BUDI, None, None, None]


async def test_an_open_lobby_shows_the_empty_seats_option_changed_under_it(
    tmp_path: Path,
) -> None:
    """The lobby's promise about empty seats follows the option its Start will read: once an
    admin turns "Empty seats" off, the open lobby no longer says computers fill them."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            await open_private_chats(fake, BUDI, CITRA)
            lobby = await open_table(fake, BUDI, CITRA)
            assert LOBBY_FILLS in lobby.text
            await choose_setting(fake, COMPUTERS, OFF)
            text = fake.message(GROUP, lobby.message_id).text
            assert LOBBY_NO_FILL in text, f"the open lobby still says: {text!r}"
            assert LOBBY_FILLS not in text


async def test_choosing_the_value_already_set_saves_without_an_edit(tmp_path: Path) -> None:
    """Tapping the choice the chat already has is answered like any other, and the menu is not
    edited: nothing on it would change, and the edit would spend the group's budget."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            menu = await choose_setting(fake, COMPUTERS, OFF)
            assert NO_FILL_LINE in menu.text
            edits = len(fake.message(GROUP, menu.message_id).versions)
            answer = await tap(fake, ANA, menu, encode(Action.SETTING, GROUP, 0, COMPUTERS, OFF))
            assert answer.get("text") == "Saved.", answer
            assert len(fake.message(GROUP, menu.message_id).versions) == edits
            refused = [r for r in fake.requests if r.status != 200]
            assert refused == []
            # A real change is still drawn.
            answer = await tap(fake, ANA, menu, encode(Action.SETTING, GROUP, 0, COMPUTERS, ON))
            assert answer.get("text") == "Saved.", answer
            assert FILL_LINE in fake.message(GROUP, menu.message_id).text
