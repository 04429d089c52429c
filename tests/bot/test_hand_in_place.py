"""A person playing along gets their next hand by an edit of the last one (no new message, no
ring), the edit taking a played hand's buttons off merges with it, and a pause or anything
written below the hand brings a new message again; a tap on a played hand moves nothing."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from gaple_bot.bot.callback_data import decode
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.bot.playing_along import PLAYING_ALONG_SECONDS
from tests.bot.driver import Player, seat_and_start, turn_message, turn_version
from tests.bot.harness import GROUP, GROUP_TITLE, carries_moves, running_bot
from tests.clock import TestClock
from tests.fakes.telegram_server import FakeMessage, FakeRequest, FakeTelegram, running_fake

ANA, BUDI = 101, 102
PEOPLE = (ANA, BUDI)
RETIRED = re.compile(r"\bYou (played|passed|discarded) ")
"""What the edit that takes a played hand's buttons off says (the hand, then the move made)."""


@asynccontextmanager
async def two_people_at_a_table(
    database: Path | str, hold: int, clock: TestClock | None = None
) -> AsyncIterator[tuple[FakeTelegram, GapleApplication]]:
    """Ana and Budi at a Gaple table with two computers, a played hand's buttons held `hold`
    seconds for the person's next hand."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        for user, name in ((ANA, "Ana"), (BUDI, "Budi")):
            fake.add_user(user, name, language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        extra = {"clock": clock} if clock is not None else {}
        async with running_bot(fake, database, TAPPED_HAND_HOLD_SECONDS=str(hold), **extra) as app:
            await seat_and_start(fake, ANA, BUDI)
            await fake.wait_idle()
            yield fake, app


async def whose_turn(fake: FakeTelegram) -> tuple[int, FakeMessage]:
    """Once the bot is quiet, the person to move and their live message: the one with the
    newest turn (a played hand held for the next keeps its older buttons)."""
    await fake.wait_idle(quiet=0.1)
    shown = [(user, turn_message(fake, user)) for user in PEOPLE]
    live = [(turn_version(m), user, m) for user, m in shown if m is not None]
    assert live, "nobody has move buttons"
    _version, user, message = max(live, key=lambda found: found[0] or 0)
    return user, message


async def play_a_turn(fake: FakeTelegram) -> tuple[int, FakeMessage, str]:
    """The person to move taps their first legal move (and first end); returns who, the
    message tapped and the move's data, once the bot is quiet."""
    user, message = await whose_turn(fake)
    player = Player(fake, user)
    data = player.moves.first(message)[0][1]
    before = len(fake.requests)
    await player.tap_first_move(message)
    await fake.wait_idle(quiet=0.1)
    taps = [
        r.params
        for r in fake.requests[before:]
        if r.method == "answerCallbackQuery" and str(r.params.get("text", "")).startswith("You ")
    ]
    assert taps, "the move was not answered"
    return user, message, data


def private_writes(fake: FakeTelegram, user_id: int) -> list[FakeRequest]:
    """The sends and edits the bot made in the person's private chat, in order."""
    return fake.group_writes(user_id)


def sends(writes: list[FakeRequest]) -> list[FakeRequest]:
    return [w for w in writes if w.method == "sendMessage"]


def retirements(writes: list[FakeRequest]) -> list[FakeRequest]:
    """The edits that took a played hand's buttons off (and showed nothing newer)."""
    return [
        w
        for w in writes
        if w.method == "editMessageText"
        and not carries_moves(w.params)
        and RETIRED.search(str(w.params.get("text", "")))
    ]


async def test_playing_along_each_next_hand_comes_in_the_same_message(
    database: Path | str,
) -> None:
    # On PostgreSQL too: a single process works alone there.
    async with two_people_at_a_table(database, hold=30) as (fake, _app):
        first_taps: dict[int, int] = {}
        turns = {ANA: 0, BUDI: 0}
        for _ in range(14):
            user, _message = await whose_turn(fake)
            first_taps.setdefault(user, len(private_writes(fake, user)))
            turns[user] += 1
            await play_a_turn(fake)
        for user in PEOPLE:
            later = private_writes(fake, user)[first_taps[user] :]
            # Once they have tapped, no new message (so nothing rang) and no buttons taken off
            # on their own: each next hand came in the tapped message and took the edit's place.
            assert sends(later) == [], [w.params.get("text") for w in sends(later)]
            assert retirements(later) == [], [w.params.get("text") for w in retirements(later)]
            moving = {w.params["message_id"] for w in later if carries_moves(w.params)}
            assert len(moving) == 1, moving
            assert turns[user] >= 3


async def test_a_played_hand_is_refused_and_then_shows_the_next_turn(tmp_path: Path) -> None:
    async with two_people_at_a_table(tmp_path / "db.sqlite3", hold=30) as (fake, _app):
        # The first taps, so that both play along.
        for _ in range(2):
            await play_a_turn(fake)
        user, message, data = await play_a_turn(fake)
        player = Player(fake, user)
        played_version = decode(data).field("version")
        held = player.shown(message)
        if turn_version(held) == played_version:
            # Not the person's turn again yet: the played hand keeps its buttons (held for the
            # next hand), and a tap on one is refused with where the next hand comes.
            before = len(fake.requests)
            answer = await player.tap(held, data, check=False)
            assert answer.get("text") == "You have played: your next hand comes in this message."
            assert not answer.get("show_alert")
            await fake.wait_idle(quiet=0.1)
            # The answer aside, nothing: a long poll that happens to return meanwhile
            # (getUpdates) asks for updates and changes nothing.
            made = [
                r
                for r in fake.requests[before:]
                if r.method not in {"answerCallbackQuery", "getUpdates"}
            ]
            assert made == [], "a refused tap changed something"
        # The person's next turn comes in the same message; the old turn's buttons stay dead.
        while (await whose_turn(fake))[0] != user:
            await play_a_turn(fake)
        _user, live = await whose_turn(fake)
        assert live.message_id == message.message_id
        live_version = turn_version(live)
        assert live_version is not None and live_version > played_version
        answer = await player.tap(live, data, check=False)
        assert answer.get("text") == "That button is out of date.", answer


async def test_after_a_pause_the_next_hand_is_a_new_message(tmp_path: Path) -> None:
    clock = TestClock()
    async with two_people_at_a_table(tmp_path / "db.sqlite3", hold=30, clock=clock) as (fake, _app):
        user, _message, _data = await play_a_turn(fake)
        sent = len(sends(private_writes(fake, user)))
        clock.advance(PLAYING_ALONG_SECONDS + 1)
        while (await whose_turn(fake))[0] != user:
            await play_a_turn(fake)
        # The pause was too long for the person to be looking: the hand rings as a new message.
        assert len(sends(private_writes(fake, user))) == sent + 1


async def test_a_message_below_the_hand_brings_a_new_one(tmp_path: Path) -> None:
    async with two_people_at_a_table(tmp_path / "db.sqlite3", hold=30) as (fake, _app):
        user, _message, _data = await play_a_turn(fake)
        sent = len(sends(private_writes(fake, user)))
        # Something the person writes puts their hand out of sight, up the chat.
        await fake.send_message(user, user, "brb")
        await fake.wait_idle()
        while (await whose_turn(fake))[0] != user:
            await play_a_turn(fake)
        assert len(sends(private_writes(fake, user))) == sent + 1


async def test_a_held_hand_loses_its_buttons_when_the_hold_is_over(tmp_path: Path) -> None:
    async with two_people_at_a_table(tmp_path / "db.sqlite3", hold=1) as (fake, _app):
        await play_a_turn(fake)
        user, message, data = await play_a_turn(fake)
        # Nobody plays on: a second later the played hand shows the move, with no buttons.
        player = Player(fake, user)
        if turn_version(player.shown(message)) == decode(data).field("version"):
            await fake.wait_for(lambda: not player.shown(message).buttons(), timeout=30)
            assert len(retirements(private_writes(fake, user))) >= 1
