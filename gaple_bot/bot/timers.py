"""Every timer of the chat front end: a lobby's expiry, a turn's reminder and end, the end of
the break after a round's end, a game's recovery after a failure; and what each does when it
fires (so does the sweep, for what a
worker that died left)."""

from __future__ import annotations

import contextlib
import html
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import cast

from apscheduler.jobstores.base import JobLookupError
from telegram.ext import Job, JobQueue

from ..games.texts import seconds_count
from ..service.errors import ServiceError
from ..service.outcome import Outcome, Reminded, TimedOut
from ..service.progress import Progress
from .deps import Deps, GapleContext
from .render.common import Rendered
from .shown import TurnMessage

log = logging.getLogger(__name__)


RECOVERY_DELAYS = (2.0, 5.0, 15.0, 60.0)
"""Seconds before each attempt to resume a game whose update failed unexpectedly."""


@dataclass(frozen=True, slots=True)
class Recovery:
    """A pending attempt to resume a game after an unexpected failure."""

    game_id: int
    attempt: int


@asynccontextmanager
async def recovering(
    deps: Deps, job_queue: JobQueue[GapleContext], game_id: int
) -> AsyncIterator[None]:
    """Around a command on a game: a refusal passes through; anything unexpected (a
    worker died, the database was busy too long) drops this worker's copy and resumes the
    game shortly from the database, so it never freezes with nobody to move."""
    try:
        yield
    except ServiceError:
        raise
    except Exception:
        log.exception("game %s: an update failed; it will be resumed", game_id)
        deps.service.forget(game_id)
        schedule_recovery(job_queue, Recovery(game_id, 0))
        raise


def recovery_job_name(game_id: int) -> str:
    """The name of a game's pending resume attempt (so it can be found again)."""
    return f"recover:{game_id}"


def schedule_recovery(job_queue: JobQueue[GapleContext], recovery: Recovery) -> None:
    """Try to resume the game after the attempt's delay (a few attempts, then give up)."""
    if recovery.attempt >= len(RECOVERY_DELAYS):
        log.error("game %s could not be resumed; /stop or a restart will", recovery.game_id)
        return
    job_queue.run_once(
        recover,
        RECOVERY_DELAYS[recovery.attempt],
        name=recovery_job_name(recovery.game_id),
        data=recovery,
    )


async def recover(context: GapleContext) -> None:
    """Resume a game from the database after a failure, and show where it stands."""
    assert context.job is not None and isinstance(context.job.data, Recovery)
    recovery = context.job.data
    deps = context.deps
    try:
        async with deps.outcomes.issuing():
            await deps.service.commands.resume(recovery.game_id)
    except ServiceError:
        return  # the game is over or gone: nothing to resume
    except Exception:
        log.exception("game %s: resuming failed", recovery.game_id)
        deps.service.forget(recovery.game_id)
        schedule_recovery(job_queue(context), Recovery(recovery.game_id, recovery.attempt + 1))


@dataclass(frozen=True, slots=True)
class TurnTimer:
    """What a turn job needs: the game, the version it was armed at, the seat to move."""

    game_id: int
    version: int
    seat: int


@dataclass(frozen=True, slots=True)
class BreakTimer:
    """What the job that ends a round's break needs: the game, and its version as the break
    began (it does not change during the break: nobody moves)."""

    game_id: int
    version: int


def turn_job_names(game_id: int) -> tuple[str, str]:
    """The names of a game's reminder and time-up jobs (so they can be found again)."""
    return f"remind:{game_id}", f"turn:{game_id}"


def break_job_name(game_id: int) -> str:
    """The name of the job that ends a game's break after a round's end."""
    return f"break:{game_id}"


TURN_JOBS_KEY = "turn_jobs"


def _turn_jobs(job_queue: JobQueue[GapleContext]) -> dict[int, list[Job[GapleContext]]]:
    """Each game's armed turn jobs, kept with the application: finding them by name would
    scan every job of every game at each move."""
    jobs: dict[int, list[Job[GapleContext]]] = job_queue.application.bot_data.setdefault(
        TURN_JOBS_KEY, {}
    )
    return jobs


def cancel_turn_timers(job_queue: JobQueue[GapleContext], game_id: int) -> None:
    """Remove a game's pending turn jobs."""
    for job in _turn_jobs(job_queue).pop(game_id, ()):
        with contextlib.suppress(JobLookupError):  # it has run already
            job.schedule_removal()


def arm_turn_timers(deps: Deps, job_queue: JobQueue[GapleContext], progress: Progress) -> None:
    """A reminder at half time and the computer at the end of the person's turn; the end of
    the break after a round's end, while one runs."""
    cancel_turn_timers(job_queue, progress.game_id)
    turn, table = progress.turn, progress.table
    if table is None:
        return
    jobs: list[Job[GapleContext]] = []
    # Deadlines are on the service's clock, the job queue runs on real time: schedule delays.
    now = deps.clock()
    # A turn's time runs from the end of the break after a round's end.
    rest = 0.0
    if progress.break_until is not None:
        rest = max((progress.break_until - now).total_seconds(), 0.0)
        data = BreakTimer(progress.game_id, table.version)
        name = break_job_name(progress.game_id)
        jobs.append(job_queue.run_once(break_over, when=rest, name=name, data=data))
    if turn is not None and table.deadline is not None:
        left = max((table.deadline - now).total_seconds(), 0.0)
        remind_name, turn_name = turn_job_names(progress.game_id)
        timer = TurnTimer(progress.game_id, turn.version, turn.seat)
        jobs.append(job_queue.run_once(time_up, when=left, name=turn_name, data=timer))
        turn_left = left - rest
        if turn_left > 2:
            half = rest + turn_left / 2
            jobs.append(job_queue.run_once(remind, when=half, name=remind_name, data=timer))
    if jobs:
        _turn_jobs(job_queue)[progress.game_id] = jobs


def _timer(context: GapleContext) -> TurnTimer:
    assert context.job is not None and isinstance(context.job.data, TurnTimer)
    return context.job.data


async def remind(context: GapleContext) -> None:
    """Half the turn is gone: nudge the person privately, and show the time left on the table."""
    timer = _timer(context)
    await remind_turn(context.deps, timer.game_id, timer.version)


async def remind_turn(deps: Deps, game_id: int, version: int) -> None:
    """The reminder of the turn the game is at `version`, unless another worker (or an
    earlier timer of this one) sent it, or the game moved on. (The table's edit with the time
    left is shown with the outcome; the private nudge is sent here, the game let go.)"""
    outcome = await deps.service.commands.remind(game_id, version)
    due = outcome.first(Reminded)
    if due is None:
        return
    if due.deadline <= deps.clock():
        return  # a timer run late, past the turn's end: the turn's end comes instead
    user_id = due.seat.user_id
    assert user_id is not None
    if deps.service.pages.is_open(game_id, user_id):
        return  # the page counts the turn down itself
    t = deps.presenter.render.private_t(due.seat, due.table.language)
    left = max(1, round((due.deadline - deps.clock()).total_seconds()))
    text = t.gettext("⏳ Your move in {chat}: {time} left.").format(
        chat=html.escape(due.table.chat_title), time=seconds_count(t, left)
    )
    await deps.presenter.hands.send_private(user_id, Rendered(text))


async def time_up(context: GapleContext) -> None:
    """The turn ran out: the computer moves for the person."""
    timer = _timer(context)
    await turn_ran_out(context.deps, job_queue(context), timer.game_id, timer.version)


async def turn_ran_out(
    deps: Deps, queue: JobQueue[GapleContext], game_id: int, version: int
) -> None:
    """The turn the game was at `version` ran out: the computer moves for the person, unless
    the game moved on since (then nothing happens, so a second timer for one turn is harmless)."""
    commands = deps.service.commands
    async with recovering(deps, queue, game_id):
        stored = await commands.stored_turn(game_id, version)

        def adopt(outcome: Outcome) -> None:
            if stored is not None and outcome.first(TimedOut) is not None:
                # The worker that sent the turn's message may be another one, or gone: its
                # buttons go as if this worker had sent it.
                seat, user_id, message_id = stored
                deps.presenter.shown.adopt_turn(
                    game_id, TurnMessage(seat, user_id, message_id, version)
                )

        async with deps.outcomes.issuing(before_stage=adopt):
            await commands.timeout(game_id, version)


async def break_over(context: GapleContext) -> None:
    """The break after a round's end ran out: the round is played on."""
    assert context.job is not None and isinstance(context.job.data, BreakTimer)
    timer = context.job.data
    await end_round_break(context.deps, job_queue(context), timer.game_id, timer.version)


async def end_round_break(
    deps: Deps, queue: JobQueue[GapleContext], game_id: int, version: int
) -> None:
    """The break the game began at `version` ran out: the computers move up to a person's
    turn, unless it ended sooner (then nothing happens, so a second timer is harmless)."""
    async with recovering(deps, queue, game_id), deps.outcomes.issuing():
        await deps.service.commands.end_break(game_id, version)


async def send_owed_hand(
    deps: Deps, queue: JobQueue[GapleContext], game_id: int, version: int
) -> None:
    """The person to move at `version` never got their hand (the worker that started the
    turn died, or the send failed): send it now, unless it went out meanwhile."""
    async with recovering(deps, queue, game_id), deps.outcomes.issuing():
        outcome = await deps.service.commands.owed_hand(game_id, version)
        if outcome.progress is not None:
            log.info("game %s: the hand of the turn at version %s is sent again", game_id, version)


async def play_on(deps: Deps, queue: JobQueue[GapleContext], game_id: int) -> None:
    """A game found waiting for nobody: the computers move on to the next person's turn,
    unless another worker got there first (the game waits for someone then)."""
    async with recovering(deps, queue, game_id), deps.outcomes.issuing():
        await deps.service.commands.play_on(game_id)


def job_queue(context: GapleContext) -> JobQueue[GapleContext]:
    """The application's job queue (always present: the job-queue extra is a dependency)."""
    queue = context.application.job_queue
    assert queue is not None
    return cast("JobQueue[GapleContext]", queue)


def lobby_job_name(game_id: int) -> str:
    """The name of a lobby's expiry job (so it can be found again)."""
    return f"lobby:{game_id}"


def arm_lobby_expiry(job_queue: JobQueue[GapleContext], game_id: int, seconds: float) -> None:
    """Close the lobby after `seconds` unless it starts first."""
    cancel_lobby_expiry(job_queue, game_id)
    job_queue.run_once(
        lobby_expired, when=max(0.0, seconds), name=lobby_job_name(game_id), data=game_id
    )


def cancel_lobby_expiry(job_queue: JobQueue[GapleContext], game_id: int) -> None:
    """Remove a lobby's pending expiry."""
    for job in job_queue.get_jobs_by_name(lobby_job_name(game_id)):
        job.schedule_removal()


async def lobby_expired(context: GapleContext) -> None:
    """Nobody started the lobby in time: close it."""
    assert context.job is not None and isinstance(context.job.data, int)
    await expire_lobby(context.deps, context.job.data)


async def expire_lobby(deps: Deps, game_id: int) -> None:
    """Close the lobby and say so, unless it started or closed meanwhile (then nothing
    happens, so a second timer for one lobby is harmless)."""
    # The expired lobby is shown with the outcome.
    await deps.service.commands.expire(game_id)
