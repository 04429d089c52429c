"""End-to-end tests of the move buttons: double taps, forged, stale and foreign data, ends."""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from gaple_bot.bot.callback_data import Action, decode, encode
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.games.gaple.rules import Discarded, Game, Played, Side, tile_text
from tests.bot.driver import Player, Players, legal_buttons, turn_message
from tests.bot.harness import (
    GROUP,
    GROUP_TITLE,
    deps_of,
    load_engine_game,
    lobby_message,
    running_bot,
    tiles_in_text,
)
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA, BUDI, CITRA = 101, 102, 103
PEOPLE = (ANA, BUDI)
QUIET = 0.1
"""Seconds without a Bot API call after which the bot counts as done with an update."""
OUT_OF_DATE = "That button is out of date."
PLAYED_ALREADY = "You have played: your next hand comes in this message."
NOT_VALID = "That button is not valid."


@dataclass
class Table:
    """A running game of Ana, Budi and two computers; Citra watches from the group."""

    fake: FakeTelegram
    app: GapleApplication
    game_id: int

    async def engine(self) -> Game:
        """The game as stored (deals and moves replayed)."""
        return await load_engine_game(deps_of(self.app).service.store, self.game_id)

    async def state(self) -> tuple[object, ...]:
        """Everything that makes the game: equal before and after means nothing changed."""
        async with deps_of(self.app).service.store.read() as tx:
            record = await tx.games.get(self.game_id)
        return (record.version, record.status, (await self.engine()).replay_key())

    async def seat_of(self, user: int) -> int:
        async with deps_of(self.app).service.store.read() as tx:
            seats = await tx.seats.of_game(self.game_id)
        return next(s.seat for s in seats if s.user_id == user)


@asynccontextmanager
async def running_table(tmp_path: Path, seed: int = 1) -> AsyncIterator[Table]:
    """Ana opens a table, Budi joins, Ana starts; yields once a person is to move."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_user(CITRA, "Citra")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI, CITRA))
        async with running_bot(fake, tmp_path / "gaple.sqlite3", seed=seed) as app:
            for user in (ANA, BUDI, CITRA):
                await fake.start_private(user)
            await fake.wait_for(lambda: all(fake.bot_messages(u) for u in (ANA, BUDI, CITRA)))
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_for(lambda: bool(fake.bot_messages(GROUP)), message="no lobby")
            await fake.wait_idle(quiet=QUIET)
            lobby = lobby_message(fake)
            for user, label in ((BUDI, "✋ Join"), (ANA, "▶️ Start")):
                query = await fake.press_button(user, GROUP, lobby.message_id, label)
                await fake.wait_callback_answer(query)
            game_id = await deps_of(app).service.active_game(GROUP, None)
            assert game_id is not None
            table = Table(fake, app, game_id)
            await Players(table.fake, PEOPLE).next_turn()
            yield table


def moves_by(game: Game, seat: int) -> int:
    """How many tiles the seat has played or discarded in the whole game."""
    return sum(
        1
        for round_ in game.rounds
        for event in round_.events
        if isinstance(event, Played | Discarded) and event.seat == seat
    )


def hand_line(text: str) -> set[tuple[int, int]]:
    """The tiles of the 'Your hand: ...' line of a message."""
    match = re.search(r"^Your hand: (.*)$", text, re.MULTILINE)
    assert match is not None, text
    return tiles_in_text(match.group(1))


def as_pairs(game: Game, seat: int) -> set[tuple[int, int]]:
    """The seat's hand in the stored game, as (low, high) pairs."""
    return tiles_in_text(
        " ".join(tile_text(t) for t in range(28) if game.round.hands[seat] >> t & 1)
    )


def data_of(message: FakeMessage, label: str) -> str:
    """The callback data of the message's button with this label."""
    data = dict(message.buttons()).get(label)
    assert data is not None, f"no button {label!r} in {message.buttons()}"
    return data


def table_message(fake: FakeTelegram) -> FakeMessage:
    """The group's table message (the one with 'My hand')."""
    for message in reversed(fake.bot_messages(GROUP)):
        if any(d and d.startswith(Action.SHOW_HAND.value + ":") for _, d in message.buttons()):
            return message
    raise AssertionError("no table message with a 'My hand' button")


async def test_double_tap_on_a_move_plays_it_once(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        user, message = await Players(table.fake, PEOPLE).next_turn()
        seat = await table.seat_of(user)
        _, data = next((t, d) for t, d in legal_buttons(message) if d.startswith("mv:"))
        before = moves_by(await table.engine(), seat)
        first = await table.fake.press(user, user, message.message_id, data)
        second = await table.fake.press(user, user, message.message_id, data)
        answers = [
            await table.fake.wait_callback_answer(first),
            await table.fake.wait_callback_answer(second),
        ]
        await table.fake.wait_idle(quiet=QUIET)
        played = [a for a in answers if str(a.get("text", "")).startswith("You played ")]
        # The person plays along: the refusal says where their next hand comes.
        refused = [a for a in answers if a.get("text") == PLAYED_ALREADY]
        assert len(played) == 1, answers
        assert len(refused) == 1, answers
        assert not refused[0].get("show_alert")
        game = await table.engine()
        assert moves_by(game, seat) == before + 1
        tile = decode(data).field("code") // 2
        assert not game.round.hands[seat] >> tile & 1
        assert table.fake.message(user, message.message_id).buttons() == []


FORGED = [
    ("zz:1", NOT_VALID),
    ("x" * 64, NOT_VALID),
    ("mv:1", NOT_VALID),
    ("mv:1:2:3:4", NOT_VALID),
    ("mv:1:a:3", NOT_VALID),
    ("mv:999:1:3", "This game no longer exists."),
    ("pk:999:1:3", "This game no longer exists."),
    ("sh:999", "This game no longer exists."),
    ("lj:999", "This game no longer exists."),
    # Lobby buttons pressed in a private chat belong to another chat than their game's.
    ("lj:1", NOT_VALID),
    ("ls:1", NOT_VALID),
    ("pk:1:{version}:99", "That tile fits neither open end."),
]
"""Callback data no button of the bot carries, and the alert each one gets."""


async def test_forged_button_gets_an_alert_and_changes_nothing(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        user, message = await Players(table.fake, PEOPLE).next_turn()
        assert table.game_id == 1
        version = decode(legal_buttons(message)[0][1]).field("version")
        before, edits = await table.state(), len(message.versions)
        for pattern, expected in FORGED:
            data = pattern.format(version=version)
            answer = await Player(table.fake, user).press(user, message.message_id, data)
            assert answer.get("text") == expected, (data, answer)
            assert answer.get("show_alert") is True, (data, answer)
        await table.fake.wait_idle(quiet=QUIET)
        assert await table.state() == before
        assert len(table.fake.message(user, message.message_id).versions) == edits


async def test_forged_button_with_a_number_beyond_64_bits_gets_an_alert(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        user, message = await Players(table.fake, PEOPLE).next_turn()
        before = await table.state()
        for data in (f"mv:{2**63}:1:3", f"sh:{2**70}", f"lj:{-(2**64)}"):
            answer = await Player(table.fake, user).press(user, message.message_id, data)
            assert answer.get("show_alert") is True, (data, answer)
            assert answer.get("text") in (NOT_VALID, "This game no longer exists."), (data, answer)
        assert await table.state() == before


async def test_forged_move_version_or_code_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        user, message = await Players(table.fake, PEOPLE).next_turn()
        version = decode(legal_buttons(message)[0][1]).field("version")
        before = await table.state()
        for forged in (
            encode(Action.MOVE, table.game_id, version + 999, 3),
            encode(Action.MOVE, table.game_id, version, 999),
            encode(Action.MOVE, table.game_id, version, -1),
        ):
            answer = await Player(table.fake, user).press(user, message.message_id, forged)
            # Indistinguishable from a double tap: the quiet 'out of date' toast.
            assert answer.get("text") == OUT_OF_DATE, (forged, answer)
        await table.fake.wait_idle(quiet=QUIET)
        assert await table.state() == before
        assert turn_message(table.fake, user) == message


async def test_stale_button_is_out_of_date_and_changes_nothing(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        user, message = await Players(table.fake, PEOPLE).next_turn()
        _, data = next((t, d) for t, d in legal_buttons(message) if d.startswith("mv:"))
        await Player(table.fake, user).make_move(message, data)
        await Players(table.fake, PEOPLE).next_turn()
        before = await table.state()
        # Every button the old message showed, pressed again after the game moved on.
        live = next(v for v in reversed(message.versions) if v.reply_markup)
        assert live.reply_markup is not None
        old_datas = [
            str(button["callback_data"])
            for row in live.reply_markup["inline_keyboard"]
            for button in row
        ]
        assert data in old_datas
        for old in old_datas:
            answer = await Player(table.fake, user).press(user, message.message_id, old)
            # The person just played on this message: their next hand comes in it.
            assert answer.get("text") == PLAYED_ALREADY, (old, answer)
            assert not answer.get("show_alert")
        await table.fake.wait_idle(quiet=QUIET)
        assert await table.state() == before


async def test_someone_elses_move_button_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        fake = table.fake
        user, message = await Players(table.fake, PEOPLE).next_turn()
        other = BUDI if user == ANA else ANA
        _, data = legal_buttons(message)[0]
        before, edits = await table.state(), len(message.versions)
        for intruder, expected in (
            (other, "It is not your turn."),
            (CITRA, "You are not at this table."),
        ):
            # The intruder presses the data in a message of their own private chat.
            own = fake.bot_messages(intruder)[-1]
            answer = await Player(fake, intruder).press(intruder, own.message_id, data)
            assert answer.get("text") == expected
            assert answer.get("show_alert") is True
        await fake.wait_idle(quiet=QUIET)
        assert await table.state() == before
        assert turn_message(fake, user) == message
        assert len(fake.message(user, message.message_id).versions) == edits, "it was edited"


async def test_a_tile_that_fits_neither_end_gets_a_short_alert(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        fake = table.fake
        rng = random.Random(3)
        for _ in range(60):
            user, message = await Players(table.fake, PEOPLE).next_turn()
            stuck = [
                (text, data)
                for text, data in message.buttons()
                if data
                and data.startswith(Action.PICK.value + ":")
                and not text.startswith(("✅", "🗑"))
            ]
            if stuck:
                break
            await Players(table.fake, PEOPLE).play_a_turn(rng)
        else:
            raise AssertionError("no turn offered a tile that does not fit")
        _, data = stuck[0]
        before, edits = await table.state(), len(message.versions)
        answer = await Player(fake, user).press(user, message.message_id, data)
        await fake.wait_idle(quiet=QUIET)
        assert answer.get("text") == "That tile fits neither open end."
        assert answer.get("show_alert") is True
        assert await table.state() == before
        assert len(fake.message(user, message.message_id).versions) == edits, "it was edited"


async def test_a_tile_that_fits_both_ends_asks_which_end_with_a_way_back(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        fake = table.fake
        rng = random.Random(5)
        for _ in range(200):
            user, message = await Players(table.fake, PEOPLE).next_turn()
            both = [
                (text, data)
                for text, data in message.buttons()
                if data and data.startswith(Action.PICK.value + ":") and text.startswith("✅")
            ]
            if both:
                break
            await Players(table.fake, PEOPLE).play_a_turn(rng)
        else:
            raise AssertionError("no turn offered a tile that fits both ends")
        tile_label, pick = both[0]
        tile_buttons = message.buttons()
        seat = await table.seat_of(user)
        game = await table.engine()
        ends = game.round.ends
        assert ends is not None and ends[0] != ends[1]

        answer = await Player(fake, user).press(user, message.message_id, pick)
        assert not answer.get("show_alert")
        await fake.wait_for(lambda: "Which end" in fake.message(user, message.message_id).text)
        choice = fake.message(user, message.message_id)
        labels = choice.button_texts()
        assert f"Which end for {tile_label.removeprefix('✅ ')}?" in choice.text
        assert labels == [f"⬅️ Left end ({ends[0]})", f"Right end ({ends[1]}) ➡️", "↩️ Back"]

        answer = await Player(fake, user).press(user, message.message_id, data_of(choice, "↩️ Back"))
        assert not answer.get("show_alert")
        await fake.wait_for(lambda: "Which end" not in fake.message(user, message.message_id).text)
        assert fake.message(user, message.message_id).buttons() == tile_buttons
        assert (await table.engine()).replay_key() == game.replay_key()

        await Player(fake, user).press(user, message.message_id, pick)
        await fake.wait_for(lambda: "Which end" in fake.message(user, message.message_id).text)
        left = data_of(fake.message(user, message.message_id), f"⬅️ Left end ({ends[0]})")
        answer = await Player(table.fake, user).make_move(message, left)
        assert str(answer.get("text", "")).startswith("You played ")
        after = await table.engine()
        played = [
            e for r in after.rounds for e in r.events if isinstance(e, Played) and e.seat == seat
        ]
        tile = decode(pick).field("step")
        assert played[-1].tile == tile
        assert played[-1].side is Side.LEFT
        assert played[-1].ends == ends


async def test_my_hand_on_the_table_shows_the_tappers_own_tiles(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        fake = table.fake
        board = table_message(fake)
        assert "🁢 My hand" in board.button_texts()
        game = await table.engine()
        for user in PEOPLE:
            answer = await Player(fake, user).press(
                GROUP, board.message_id, data_of(board, "🁢 My hand")
            )
            assert answer.get("show_alert") is True
            text = str(answer.get("text"))
            assert text.startswith("Your hand: ")
            seat = await table.seat_of(user)
            assert tiles_in_text(text) == as_pairs(game, seat)
            private = [m for m in fake.bot_messages(user) if "Your hand:" in m.text][-1]
            assert hand_line(private.text) == tiles_in_text(text)
        answer = await Player(fake, CITRA).press(
            GROUP, board.message_id, data_of(board, "🁢 My hand")
        )
        assert answer.get("text") == "You are not at this table."
        assert answer.get("show_alert") is True


async def test_after_a_move_the_message_keeps_no_live_buttons(tmp_path: Path) -> None:
    async with running_table(tmp_path) as table:
        fake = table.fake
        user, message = await Players(table.fake, PEOPLE).next_turn()
        text, data = next((t, d) for t, d in legal_buttons(message) if d.startswith("mv:"))
        answer = await Player(table.fake, user).make_move(message, data)
        assert str(answer.get("text")).startswith(f"You played {text.removeprefix('✅ ')}")
        after = fake.message(user, message.message_id)
        assert after.buttons() == []
        assert f"You played {text.removeprefix('✅ ')}." in after.text
        assert turn_message(fake, user) != message


async def test_move_data_pressed_outside_the_private_chat_changes_no_private_message(
    tmp_path: Path,
) -> None:
    async with running_table(tmp_path) as table:
        fake = table.fake
        user, message = await Players(table.fake, PEOPLE).next_turn()
        version = decode(legal_buttons(message)[0][1]).field("version")
        # A message of the player's private chat that is not the turn message (the greeting),
        # and a group message with the same id to press the forged data on.
        greeting = next(m for m in fake.bot_messages(user) if m.message_id != message.message_id)
        while greeting.message_id not in fake.chats[GROUP].messages:
            await fake.send_message(CITRA, GROUP, "filler")
        before, edits = await table.state(), len(greeting.versions)
        answer = await Player(fake, user).press(
            GROUP, greeting.message_id, encode(Action.BACK, table.game_id, version)
        )
        await fake.wait_idle(quiet=QUIET)
        assert answer.get("show_alert") is True, answer
        assert await table.state() == before
        assert len(fake.message(user, greeting.message_id).versions) == edits, "it was edited"

        # Playing from the real turn message still retires its buttons.
        _, data = next((t, d) for t, d in legal_buttons(message) if d.startswith("mv:"))
        await Player(table.fake, user).make_move(message, data)
