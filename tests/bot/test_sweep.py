"""On PostgreSQL, a turn or lobby whose timer was on a worker that died is ended by the sweep
of a worker that is alive (here the same bot, its own timers removed as a dead worker's go),
which also sends the turn's half-time reminder, once."""

from __future__ import annotations

import asyncio

import pytest

from gaple_bot.bot import timers
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.bot.sweep import GRACE, SWEEPING_KEY
from gaple_bot.bot.timers import cancel_lobby_expiry, cancel_turn_timers, remind_turn
from tests.bot.driver import Player, seat_and_start, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, lobby_message, running_bot
from tests.clock import TestClock
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA = 401
WAIT = 120.0
"""Seconds for the sweep to get there (a turn of 8 s, then the grace and a sweep period), or
to look again."""
TURN = 900
"""Seconds of the turn whose reminder the sweep sends, moved on by its clock rather than
waited: longer than every wait of the test before its end, so that the sweep's later looks
come within it however slow the machine."""


async def _sweep_ended_anas_turn(fake: FakeTelegram) -> None:
    """Until the group is told the computer played Ana's turn that ran out."""
    await fake.wait_for(
        lambda: any(
            "Ana ran out of time: the computer played" in m.text for m in fake.bot_messages(GROUP)
        ),
        timeout=WAIT,
        message="the sweep did not end Ana's turn",
    )


async def test_the_sweep_ends_a_turn_nobody_times(postgres_url: str) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, postgres_url, worker=True, DEFAULT_TURN_SECONDS="8") as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA)
            await fake.wait_for(lambda: turn_message(fake, ANA) is not None, timeout=WAIT)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            assert app.job_queue is not None
            cancel_turn_timers(app.job_queue, game_id)
            await _sweep_ended_anas_turn(fake)


def _reminders(fake: FakeTelegram) -> list[FakeMessage]:
    return [m for m in fake.bot_messages(ANA) if m.text.startswith("⏳ Your move in")]


def _sent_at(fake: FakeTelegram, chat_id: int, part: str) -> list[float]:
    """When the fake took each message or edit in `chat_id` whose text holds `part`."""
    return [
        r.time
        for r in fake.requests
        if r.method in ("sendMessage", "editMessageText")
        and r.status == 200
        and r.chat_id == chat_id
        and part in str(r.params.get("text", ""))
    ]


async def test_the_sweep_reminds_a_person_nobody_reminds_once(postgres_url: str) -> None:
    """Ana's timers are gone with their worker: the sweep sends her half-time reminder, and
    neither its later looks nor another timer of the same turn send it again."""
    clock = TestClock()
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(
            fake, postgres_url, worker=True, clock=clock, DEFAULT_TURN_SECONDS=str(TURN)
        ) as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA)
            await fake.wait_for(lambda: turn_message(fake, ANA) is not None, timeout=WAIT)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None and app.job_queue is not None
            cancel_turn_timers(app.job_queue, game_id)
            version = deps.service.cache.games[game_id].version
            # Past half time and the grace, well before the turn's end: the reminder is owed.
            clock.advance(TURN / 2 + GRACE.total_seconds() + 1)
            await fake.wait_for(
                lambda: bool(_reminders(fake)),
                timeout=WAIT,
                message="the sweep did not remind Ana",
            )
            assert f"Your move in {GROUP_TITLE}" in _reminders(fake)[0].text
            # A timer of a worker that armed the same turn comes too late: it was sent.
            await remind_turn(deps, game_id, version)
            # The sweep looks twice more within the turn, then ends it: still one reminder.
            await _sweeps_done(fake, app, 2)
            assert _sent_at(fake, GROUP, "Ana ran out of time") == []
            clock.advance(TURN)
            await _sweep_ended_anas_turn(fake)
            assert len(_reminders(fake)) == 1
            # It was the reminder of the turn whose timers went (sent before that turn ended),
            # not one a later turn's own timer sent.
            (reminded,) = _sent_at(fake, ANA, "⏳ Your move in")
            ended, *_ = _sent_at(fake, GROUP, "Ana ran out of time")
            assert reminded < ended


async def _sweeps_done(fake: FakeTelegram, app: GapleApplication, count: int) -> None:
    """Until `count` sweeps begun from now on have finished."""
    seen: list[object] = []

    def done() -> bool:
        sweep = app.bot_data.get(SWEEPING_KEY)
        if isinstance(sweep, asyncio.Task) and sweep.done() and sweep not in seen:
            seen.append(sweep)
        # The first one seen may have begun before this call.
        return len(seen) > count

    await fake.wait_for(done, timeout=WAIT, message="the sweep did not look again")


async def test_the_sweep_closes_a_lobby_nobody_times(postgres_url: str) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, postgres_url, worker=True, LOBBY_TIMEOUT_SECONDS="6") as app:
            deps = deps_of(app)
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None and app.job_queue is not None
            cancel_lobby_expiry(app.job_queue, game_id)
            await fake.wait_for(
                lambda: "so it was closed" in fake.message(GROUP, lobby.message_id).text,
                timeout=WAIT,
                message="the sweep did not close the lobby",
            )
            assert await deps.service.active_game(GROUP, None) is None


async def test_the_sweep_plays_on_a_game_left_in_the_computers_moves(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ana's move is stored, then the worker dies before the computers after her have moved
    (nothing retries it): the sweep of a live worker plays them, and Ana gets her turn."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, postgres_url, worker=True) as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA)
            await fake.wait_for(lambda: turn_message(fake, ANA) is not None, timeout=WAIT)
            tables = deps.service.tables
            died = asyncio.Event()

            async def dies(live: object, seat: int) -> int:
                del tables._computer_move  # the next decision is the method's again
                died.set()
                raise RuntimeError("the worker died here")

            tables._computer_move = dies  # type: ignore[method-assign]
            # A dead worker schedules no retry of its own.
            monkeypatch.setattr(timers, "schedule_recovery", lambda queue, recovery: None)
            first = turn_message(fake, ANA)
            assert first is not None
            await Player(fake, ANA).tap_first_move(first)
            await asyncio.wait_for(died.wait(), WAIT)
            await fake.wait_for(
                lambda: (
                    (turn := turn_message(fake, ANA)) is not None
                    and turn.message_id != first.message_id
                ),
                timeout=WAIT,
                message="the sweep did not play the game on",
            )
