"""The timer sweep: on a database several workers share, the turns, lobbies and breaks after a
round's end whose timer was on a worker that stopped or died are ended by a worker that is
alive, which also sends the
hands and half-time reminders such a worker owed, plays on a game left in the middle of its
computers' moves, sends the group messages such a worker left waiting and handles the updates
it took in and did not."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from telegram.ext import JobQueue

from .deps import Deps, GapleContext
from .server import take_left_updates
from .timers import (
    end_round_break,
    expire_lobby,
    job_queue,
    play_on,
    remind_turn,
    send_owed_hand,
    turn_ran_out,
)

log = logging.getLogger(__name__)

SWEEP_SECONDS = 5.0
"""How often a worker looks for turns and lobbies nobody ended, and reminders nobody sent."""
GRACE = timedelta(seconds=3)
"""How long past its time a turn or lobby is left to the timer of the worker that armed it."""
SWEEP_JOB = "sweep"
SWEEPING_KEY = "sweeping"
"""The sweep under way (bot_data): the next is not started until it is done."""


def arm_sweep(deps: Deps, queue: JobQueue[GapleContext]) -> None:
    """Sweep every SWEEP_SECONDS when other workers may share the database (one process on
    SQLite has every timer itself: no sweep)."""
    if deps.service.shared:
        queue.run_repeating(
            start_sweep, interval=SWEEP_SECONDS, first=SWEEP_SECONDS, name=SWEEP_JOB
        )


async def start_sweep(context: GapleContext) -> None:
    """Start a sweep unless the last one is still under way (a busy worker's sweep may last
    longer than its interval: the next one is simply not needed)."""
    running = context.bot_data.get(SWEEPING_KEY)
    if isinstance(running, asyncio.Task) and not running.done():
        return
    context.bot_data[SWEEPING_KEY] = context.application.create_task(sweep(context), name="sweep")


async def sweep(context: GapleContext) -> None:
    """End what is overdue. Each end runs under the game's lock and checks the game's version
    or status first, so a turn or lobby ends once whichever worker gets there first."""
    deps = context.deps
    try:
        # First: they came before anything the sweep would end now.
        await take_left_updates(deps, context.application)
    except Exception:
        log.exception("the sweep could not take the updates a worker left")
    now = deps.clock()
    # First the hands a worker that died owed (or this one failed to send): the person may
    # still make their move. One still on its way from here is not owed.
    for game_id, version in await deps.service.hands_owed(now - GRACE):
        if deps.outcomes.delivering(game_id):
            continue
        try:
            await send_owed_hand(deps, job_queue(context), game_id, version)
        except Exception:
            log.exception("game %s: the sweep could not send the hand it owed", game_id)
    lobby_age = timedelta(seconds=deps.settings.lobby_timeout_seconds)
    turns, lobbies = await deps.service.overdue(now - GRACE, now - GRACE - lobby_age)
    for game_id, version in await deps.service.reminders_due(now - GRACE):
        try:
            await remind_turn(deps, game_id, version)
        except Exception:
            log.exception("game %s: the sweep could not send its reminder", game_id)
    for game_id, version in await deps.service.round_breaks_over(now - GRACE):
        try:
            await end_round_break(deps, job_queue(context), game_id, version)
        except Exception:
            log.exception("game %s: the sweep could not end its break", game_id)
    for game_id, version in turns:
        try:
            await turn_ran_out(deps, job_queue(context), game_id, version)
        except Exception:
            # One game's failure (its recovery is scheduled) must not stop the others' ends.
            log.exception("game %s: the sweep could not end its turn", game_id)
    for game_id in await deps.service.stalled():
        try:
            await play_on(deps, job_queue(context), game_id)
        except Exception:
            log.exception("game %s: the sweep could not play it on", game_id)
    for game_id in lobbies:
        try:
            await expire_lobby(deps, game_id)
        except Exception:
            log.exception("game %s: the sweep could not close its lobby", game_id)
    try:
        await deps.service.forget_old_paces()
    except Exception:
        log.exception("the sweep could not forget the private chats' old paces")
    try:
        # A group whose queue waits with no worker sending it (its worker stopped) gets one.
        await deps.outbox.restore()
    except Exception:
        log.exception("the sweep could not look for group messages left waiting")
