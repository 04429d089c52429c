"""A tap is answered once and best effort: an answer Telegram refuses (given after its 15 s, or
given before) is logged, never a failure; an update handled again after a restart, or after its
worker died before marking it handled, does not answer its tap a second time; a second tap on a
hand whose move is stored is told what was played."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from sqlalchemy import func, select

from gaple_bot.bot.callback_data import decode
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.bot.server import TrackingApplication
from gaple_bot.bot.timers import recovery_job_name
from gaple_bot.settings import Settings
from gaple_bot.store import Store
from gaple_bot.store.models import ReceivedUpdate
from tests.bot.driver import Player, Players, seat_and_start, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, lobby_message, running_bot
from tests.fakes.telegram_server import FakeTelegram, running_fake
from tests.fakes.world import ANSWER_WINDOW_SECONDS

ANA, BUDI = 3801, 3802
PEOPLE = (ANA, BUDI)
DEAD_WORKER = 987_654_321
"""The id of a worker that took an update in and is gone."""
WAIT = 120.0
"""Seconds to wait for something the bot does (CI may be slow)."""


class FakeTime:
    """The fake Telegram's clock: real time, moved on by the test at will."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.ahead


@asynccontextmanager
async def two_people(fake_time: FakeTime | None = None) -> AsyncIterator[FakeTelegram]:
    """A fake Telegram (on `fake_time` if given) where Ana and Budi share a group."""
    options = {"clock": fake_time} if fake_time is not None else {}
    async with running_fake(group_limit_per_minute=1000, **options) as fake:
        for user, name in ((ANA, "Ana"), (BUDI, "Budi")):
            fake.add_user(user, name, language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        yield fake


def answers_to(fake: FakeTelegram, query_id: str) -> list[int]:
    """The statuses of the bot's answerCallbackQuery calls for this tap, in order."""
    return [
        r.status
        for r in fake.requests
        if r.method == "answerCallbackQuery" and r.params.get("callback_query_id") == query_id
    ]


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The bot's log records at ERROR or above."""
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR and r.name.startswith("gaple_bot")
    ]


def no_recovery(app: GapleApplication, game_id: int) -> bool:
    """Whether no attempt to resume the game after a failure is queued."""
    assert app.job_queue is not None
    return not app.job_queue.get_jobs_by_name(recovery_job_name(game_id))


async def game_of(app: GapleApplication) -> int:
    game_id = await deps_of(app).service.active_game(GROUP, None)
    assert game_id is not None
    return game_id


async def tapped_too_late(
    fake: FakeTelegram,
    app: GapleApplication,
    fake_time: FakeTime,
    tap: Callable[[], Awaitable[str]],
) -> str:
    """Tap while the game is held elsewhere (the bot is too busy to get to it) until Telegram
    no longer takes the answer; returns the query id once the bot tried to answer and is
    quiet."""
    async with deps_of(app).service.cache.lock(await game_of(app)):
        query = await tap()
        await fake.wait_for(lambda: not fake.waiting_updates(), message="tap not taken")
        fake_time.ahead += ANSWER_WINDOW_SECONDS + 1
    await fake.wait_for(lambda: answers_to(fake, query) != [], message="no answer tried")
    await fake.wait_idle()
    return query


async def test_a_tap_answered_after_telegrams_window_is_still_played_and_shown(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gaple_bot")
    fake_time = FakeTime()
    async with two_people(fake_time) as fake, running_bot(fake, tmp_path / "db.sqlite3") as app:
        await seat_and_start(fake, ANA, BUDI)
        game_id = await game_of(app)
        players = Players(fake, PEOPLE)
        user, message = await players.next_turn()
        data = players.player(user).moves.first(message)[0][1]
        version = decode(data).field("version")
        query = await tapped_too_late(
            fake, app, fake_time, lambda: fake.press(user, user, message.message_id, data)
        )
        # The answer was refused, once, and the move stands: stored, and shown.
        assert answers_to(fake, query) == [400]
        assert fake.callback_answer(query) is None
        player = Player(fake, user)
        assert player.moved_on(message, version), player.shown(message).text
        assert "You played" in (player.shown(message).text or ""), player.shown(message).text
        assert errors_logged(caplog) == []
        assert no_recovery(app, game_id)
        refused = [r for r in caplog.records if "answer was refused" in r.getMessage()]
        assert [r.levelno for r in refused] == [logging.INFO]

        # A refusal answered late (the old hand's button again) is no failure either.
        late = await tapped_too_late(
            fake,
            app,
            fake_time,
            lambda: fake.press(user, user, message.message_id, data, check_button=False),
        )
        assert answers_to(fake, late) == [400]
        assert errors_logged(caplog) == []
        assert no_recovery(app, game_id)
        # The game goes on.
        await players.next_turn()


async def test_a_late_answer_to_a_lobby_button_is_no_failure(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gaple_bot")
    fake_time = FakeTime()
    async with two_people(fake_time) as fake, running_bot(fake, tmp_path / "db.sqlite3") as app:
        await fake.start_private(ANA)
        await fake.start_private(BUDI)
        await fake.send_message(ANA, GROUP, "/gaple")
        await fake.wait_idle()
        lobby = lobby_message(fake)
        game_id = await game_of(app)
        query = await tapped_too_late(
            fake,
            app,
            fake_time,
            lambda: fake.press_button(BUDI, GROUP, lobby.message_id, "✋ Join"),
        )
        assert answers_to(fake, query) == [400]
        # Budi sits at the table all the same.
        assert "Budi" in (lobby_message(fake).text or "")
        assert errors_logged(caplog) == []
        assert no_recovery(app, game_id)


async def _a_move_tapped(fake: FakeTelegram, app: GapleApplication) -> tuple[str, int]:
    """Seat Ana and Budi, and have whoever is to move tap a move; returns the tap's query id
    and the game's id, once the bot is quiet."""
    await seat_and_start(fake, ANA, BUDI)
    game_id = await game_of(app)
    players = Players(fake, PEOPLE)
    user, message = await players.next_turn()
    data = players.player(user).moves.first(message)[0][1]
    query = await fake.press(user, user, message.message_id, data)
    await fake.wait_callback_answer(query)
    await fake.wait_idle()
    return query, game_id


async def _game_state(app: GapleApplication, game_id: int) -> tuple[int, str]:
    async with deps_of(app).service.store.read() as tx:
        record = await tx.games.get(game_id)
    assert record is not None
    return record.version, str(record.status)


async def _unhandled(store: Store) -> int:
    """How many updates taken in are not marked handled."""
    async with store.read() as tx:
        query = select(func.count()).where(ReceivedUpdate.handled_at.is_(None))
        return int(await tx.session.scalar(query) or 0)


async def _handled_again_unanswered(
    fake: FakeTelegram,
    app: GapleApplication,
    query: str,
    before: tuple[int, tuple[int, str]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Once the bot is quiet: the tap handled again got no second answer, changed nothing,
    logged no error and queued no recovery; the game goes on."""
    game_id, state = before
    await fake.wait_idle()
    assert answers_to(fake, query) == [200]
    assert await _game_state(app, game_id) == state
    assert errors_logged(caplog) == []
    assert no_recovery(app, game_id)
    await Players(fake, PEOPLE).next_turn()


async def test_a_restart_that_handles_a_tap_again_does_not_answer_it_twice(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gaple_bot")
    database = tmp_path / "db.sqlite3"
    async with two_people() as fake:
        async with running_bot(fake, database) as before:
            query, game_id = await _a_move_tapped(fake, before)
            state = await _game_state(before, game_id)
        # Killed before its next poll confirmed the tap: Telegram sends it again.
        fake.deliver_again(fake.update_of_query(query))
        async with running_bot(fake, database) as after:
            await fake.wait_for(lambda: not fake.waiting_updates(), message="tap not taken")
            await _handled_again_unanswered(fake, after, query, (game_id, state), caplog)


async def test_a_tap_left_unmarked_by_a_dead_worker_is_not_answered_again(
    database: Path | str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gaple_bot")
    async with two_people() as fake:
        async with running_bot(fake, database) as before:
            query, game_id = await _a_move_tapped(fake, before)
            state = await _game_state(before, game_id)
            # The worker that took the tap in answered it, then died before marking it handled.
            update_id = fake.update_of_query(query)
            update_json = json.dumps(fake.queued_update(update_id))
            async with deps_of(before).service.store.transaction() as tx:
                await tx.updates.first_delivery(
                    update_id, update_json=update_json, taken_by=DEAD_WORKER
                )
        async with running_bot(fake, database) as after:
            # Handled again at start (its taker is gone), and marked handled this time.
            assert isinstance(after, TrackingApplication)
            await fake.wait_for(
                lambda: not after.in_hand.holding,
                timeout=WAIT,
                message="the update left was not handled and marked",
            )
            assert await _unhandled(deps_of(after).service.store) == 0
            await _handled_again_unanswered(fake, after, query, (game_id, state), caplog)


async def test_a_second_tap_on_a_played_hand_not_yet_retired_is_told_the_move(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gaple_bot")
    async with two_people() as fake, running_bot(fake, tmp_path / "db.sqlite3"):
        await seat_and_start(fake, ANA, BUDI)
        players = Players(fake, PEOPLE)
        user, message = await players.next_turn()
        player = players.player(user)
        # Something below the hand in the private chat: the next hand is to be a new message.
        await fake.send_message(user, user, "brb")
        await fake.wait_idle()
        data = next(d for _, d in player.moves.first(message) if d.startswith("mv:"))
        # The edit that shows the move in the tapped hand is held on its way.
        released = fake.hold_next(
            "editMessageText",
            chat_id=user,
            matching=lambda params: params.get("message_id") == message.message_id,
        )
        first = await player.tap(message, data)
        assert str(first.get("text", "")).startswith("You played "), first
        assert player.shown(message).buttons(), "the hand lost its buttons before the test"
        second = await player.tap(message, data)
        # What happened, not "That button is out of date."
        assert second.get("text") == first.get("text"), second
        assert not second.get("show_alert")
        released.set()
        version = decode(data).field("version")
        await fake.wait_for(
            lambda: player.moved_on(message, version), message="the played hand kept its buttons"
        )
        shown = player.shown(message).text or ""
        assert "You played" in shown, shown
        other = BUDI if user == ANA else ANA
        if turn_message(fake, other) is not None:
            # Whose turn it is, so that nothing says it is still the person's.
            name = "Budi" if other == BUDI else "Ana"
            assert f"Now it is {name}'s turn." in shown, shown
        assert errors_logged(caplog) == []


def test_a_played_hand_shows_its_move_at_once_by_default() -> None:
    # No hold: a tapped hand shows the move made (no live buttons) as soon as the private
    # chat's pace allows, rather than keeping them for the person's next hand.
    assert Settings.__dataclass_fields__["tapped_hand_hold_seconds"].default == 0
