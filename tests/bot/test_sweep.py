"""On PostgreSQL, a turn or lobby whose timer was on a worker that died is ended by the sweep
of a worker that is alive (here the same bot, its own timers removed as a dead worker's go)."""

from __future__ import annotations

from gaple_bot.bot.flow import cancel_turn_timers
from gaple_bot.bot.timers import cancel_lobby_expiry
from tests.bot.harness import (
    GROUP,
    GROUP_TITLE,
    deps_of,
    lobby_message,
    running_bot,
    seat_and_start,
    turn_message,
)
from tests.fakes.telegram_server import running_fake

ANA = 401
WAIT = 120.0
"""Seconds for the sweep to get there: a turn of 8 s, then the grace and a sweep period."""


async def test_the_sweep_ends_a_turn_nobody_times(postgres_url: str) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, postgres_url, DEFAULT_TURN_SECONDS="8") as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA)
            await fake.wait_for(lambda: turn_message(fake, ANA) is not None, timeout=WAIT)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            assert app.job_queue is not None
            cancel_turn_timers(app.job_queue, game_id)
            await fake.wait_for(
                lambda: any(
                    "Ana ran out of time: the computer played" in m.text
                    for m in fake.bot_messages(GROUP)
                ),
                timeout=WAIT,
                message="the sweep did not end Ana's turn",
            )


async def test_the_sweep_closes_a_lobby_nobody_times(postgres_url: str) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, postgres_url, LOBBY_TIMEOUT_SECONDS="6") as app:
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
