"""Act as the people of a group in the fake Bot API: tap a legal move (and an end or a take when
asked), wait for someone's turn, play until something holds. The one driver of the bot's
whole-game tests, for Gaple's tiles and Gap's cards alike."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from gaple_bot.bot.callback_data import Action, decode
from tests.bot.harness import GROUP, lobby_message
from tests.fakes.telegram_server import FakeMessage, FakeTelegram

Buttons = list[tuple[str, str]]
QUIET = 0.1
"""How long the bot must have made no request before a turn counts as shown."""


def turn_message(fake: FakeTelegram, user_id: int) -> FakeMessage | None:
    """The player's private message with live move buttons, if it is their turn."""
    for message in reversed(fake.bot_messages(user_id)):
        datas = [data for _, data in message.buttons() if data]
        if any(d.startswith((Action.MOVE.value + ":", Action.PICK.value + ":")) for d in datas):
            return message
    return None


def turn_version(message: FakeMessage) -> int | None:
    """The game version of the message's live move buttons, None if it has none."""
    for _, data in message.buttons():
        if data and data.startswith((Action.MOVE.value + ":", Action.PICK.value + ":")):
            version = decode(data).field("version")
            assert isinstance(version, int)
            return version
    return None


def legal_buttons(message: FakeMessage) -> Buttons:
    """The buttons of a Gaple turn message that make (or lead to) a legal move."""
    return [
        (text, data)
        for text, data in message.buttons()
        if data and (text.startswith(("✅", "🗑", "⬅️")) or text.endswith("➡️"))
    ]


def card_buttons(message: FakeMessage) -> Buttons:
    """The card buttons of a Gap turn message: plays (mv:) and cards that ask which take (pk:)."""
    return [
        (text, data)
        for text, data in message.buttons()
        if data and data.startswith((Action.MOVE.value + ":", Action.PICK.value + ":"))
    ]


def _take_buttons(message: FakeMessage) -> Buttons:
    return [(text, data) for text, data in message.buttons() if data and data.startswith("mv:")]


@dataclass(frozen=True, slots=True)
class MoveButtons:
    """How a kind's turn message offers its moves: the buttons that make (or lead to) one, how
    to tell that a pick's second step is shown, the buttons of that step, and what the answer
    to a move made says, when the tests hold the bot to it."""

    first: Callable[[FakeMessage], Buttons]
    second_shown: Callable[[FakeMessage], bool]
    second: Callable[[FakeMessage], Buttons]
    second_missing: str
    played_answer: str | None = None
    quiet_after_pick: bool = False


GAPLE_TILES = MoveButtons(
    first=legal_buttons,
    second_shown=lambda message: any(t.startswith("⬅️") for t, _ in message.buttons()),
    second=legal_buttons,
    second_missing="the end choice was not shown",
)
GAP_CARDS = MoveButtons(
    first=card_buttons,
    second_shown=lambda message: "↩️ Back" in message.button_texts(),
    second=_take_buttons,
    second_missing="the take choice was not shown",
    played_answer="You played ",
    quiet_after_pick=True,
)


class Player:
    """One person in the fake Bot API, acting in their private chat and in the group."""

    def __init__(self, fake: FakeTelegram, user_id: int, moves: MoveButtons = GAPLE_TILES) -> None:
        self.fake = fake
        self.user_id = user_id
        self.moves = moves
        self.played: int | None = None
        """The game version of the last turn this person played (a hand just played may keep
        its buttons a while, held for the person's next hand)."""

    def turn(self) -> FakeMessage | None:
        """The person's message with live move buttons, if it is their turn (not a turn they
        played already)."""
        message = turn_message(self.fake, self.user_id)
        if message is None or self.played is None:
            return message
        version = turn_version(message)
        return message if version is None or version > self.played else None

    def shown(self, message: FakeMessage) -> FakeMessage:
        """The message as the person sees it now."""
        return self.fake.message(message.chat_id, message.message_id)

    async def tap(self, message: FakeMessage, data: str, *, check: bool = True) -> dict[str, Any]:
        """Tap the button with this data (any data when not `check`); returns the answer."""
        query = await self.fake.press(
            self.user_id, message.chat_id, message.message_id, data, check_button=check
        )
        return await self.fake.wait_callback_answer(query)

    async def play_turn(self, rng: random.Random) -> str:
        """Tap a legal move in the turn message (and an end or a take when asked); returns the
        callback data of the move made once the played message's buttons are retired."""
        message = self.turn()
        assert message is not None, f"user {self.user_id} has no turn message"
        _label, data = rng.choice(self.moves.first(message))
        if decode(data).action is Action.PICK:
            answer = await self.tap(message, data)
            if self.moves.quiet_after_pick:
                await self.fake.wait_idle(quiet=QUIET)
            assert not answer.get("show_alert"), answer
            await self.fake.wait_for(
                lambda: self.moves.second_shown(self.shown(message)),
                message=self.moves.second_missing,
            )
            _label, data = rng.choice(self.moves.second(self.shown(message)))
        answer = await self.tap(message, data)
        if self.moves.played_answer is not None:
            assert str(answer.get("text", "")).startswith(self.moves.played_answer), answer
        self.played = decode(data).field("version")
        await self.fake.wait_for(
            lambda: self.moved_on(message, decode(data).field("version")),
            message="the played message kept live buttons",
        )
        return data

    def moved_on(self, message: FakeMessage, played: int) -> bool:
        """Whether the played message no longer offers the turn played at version `played`:
        its buttons are gone, or it shows the person's next turn in place (they play along)."""
        shown = self.shown(message)
        version = turn_version(shown)
        return not shown.buttons() or (version is not None and version > played)

    async def press(self, chat_id: int, message_id: int, data: str) -> dict[str, Any]:
        """Press any callback data (even one the message does not show); returns the answer."""
        query = await self.fake.press(self.user_id, chat_id, message_id, data, check_button=False)
        return await self.fake.wait_callback_answer(query)

    async def make_move(self, message: FakeMessage, data: str) -> dict[str, Any]:
        """Tap a button that plays a move (shown or not); returns its answer once the message
        lost its buttons and the bot is quiet."""
        answer = await self.tap(message, data, check=False)
        await self.fake.wait_for(
            lambda: self.moved_on(message, decode(data).field("version")),
            message="the played move's buttons stayed",
        )
        await self.fake.wait_idle(quiet=QUIET)
        return answer

    async def tap_first_move(self, message: FakeMessage) -> None:
        """Tap the first legal move, and the first end of the line if asked for one, without
        waiting for the bot to show it."""
        _label, data = self.moves.first(message)[0]
        await self.fake.wait_callback_answer(
            await self.fake.press(self.user_id, message.chat_id, message.message_id, data)
        )
        if decode(data).action is Action.PICK:
            await self.fake.wait_for(
                lambda: self.moves.second_shown(self.shown(message)),
                message=self.moves.second_missing,
            )
            _label, end = self.moves.second(self.shown(message))[0]
            await self.fake.press(self.user_id, message.chat_id, message.message_id, end)


class Players:
    """The people at one table, played as a test plays them."""

    def __init__(
        self, fake: FakeTelegram, people: Sequence[int], moves: MoveButtons = GAPLE_TILES
    ) -> None:
        self.fake = fake
        self.people = tuple(Player(fake, user, moves) for user in people)

    def player(self, user_id: int) -> Player:
        """The person with this id."""
        return next(p for p in self.people if p.user_id == user_id)

    async def wait_for_turn(self) -> None:
        """Wait until one of the people has move buttons and the bot is quiet."""
        await self.fake.wait_for(
            lambda: any(p.turn() is not None for p in self.people),
            message="nobody got move buttons",
        )
        await self.fake.wait_idle(quiet=QUIET)

    async def next_turn(self) -> tuple[int, FakeMessage]:
        """Wait until one of the people has live move buttons; returns who and the message."""
        await self.wait_for_turn()
        for player in self.people:
            message = player.turn()
            if message is not None:
                return player.user_id, message
        raise AssertionError("the move buttons went away")

    async def play_a_turn(self, rng: random.Random) -> int:
        """Whoever is to move plays a legal move (a random end or take when asked); returns who,
        once the bot is quiet."""
        user, _message = await self.next_turn()
        await self.player(user).play_turn(rng)
        await self.fake.wait_idle(quiet=QUIET)
        return user

    async def play_until(
        self,
        done: Callable[[], Awaitable[bool] | bool],
        rng: random.Random,
        seconds: float = 180,
        *,
        watch: Callable[[], str] | None = None,
        story: Callable[[], str] | None = None,
        pause: float = 0.02,
    ) -> None:
        """The people play their turns (others leave theirs to run out) until `done`; `watch`,
        when given, is asked on every round: what it returns (say, that every worker died) ends
        the game with that message; `story` tells what to show when time runs out."""
        deadline = time.monotonic() + seconds
        while True:
            outcome = done()
            if outcome if isinstance(outcome, bool) else await outcome:
                return
            trouble = "" if watch is None else watch()
            assert not trouble, trouble
            assert time.monotonic() < deadline, (
                "the game did not get there in time" if story is None else story()
            )
            for player in self.people:
                if player.turn() is not None:
                    await player.play_turn(rng)
            await asyncio.sleep(pause)


async def play_one_turn(fake: FakeTelegram, user_id: int, rng: random.Random) -> str:
    """Tap a legal tile (and an end when asked) in the player's turn message; returns the
    callback data of the move made."""
    return await Player(fake, user_id).play_turn(rng)


async def play_until(
    fake: FakeTelegram,
    players: tuple[int, ...],
    done: Callable[[], Awaitable[bool] | bool],
    rng: random.Random,
    seconds: float = 180,
) -> None:
    """The given people play their Gaple turns (others leave theirs to run out) until `done`."""
    await Players(fake, players).play_until(done, rng, seconds)


async def seat_and_start(fake: FakeTelegram, opener: int, *others: int) -> None:
    """`opener` opens a table in GROUP, the others join, the opener starts: computers fill the
    empty seats. Everyone has opened their private chat with the bot first."""
    for user in (opener, *others):
        await fake.start_private(user)
    await fake.send_message(opener, GROUP, "/gaple")
    await fake.wait_idle()
    lobby = lobby_message(fake).message_id
    for user in others:
        await fake.wait_callback_answer(await fake.press_button(user, GROUP, lobby, "✋ Join"))
    await fake.wait_callback_answer(await fake.press_button(opener, GROUP, lobby, "▶️ Start"))
