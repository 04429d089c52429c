"""When Telegram changes the group under a game: the bot removed or muted, the group upgraded."""

from __future__ import annotations

import html
import logging

from telegram.error import Forbidden, TelegramError
from telegram.ext import JobQueue

from ..service.api import GameStatus
from ..service.errors import ServiceError
from ..service.facts import GameFacts
from ..service.session import GameSession
from .deps import Deps, GapleContext
from .flow import cancel_turn_timers, recovery_job_name, show_progress
from .held import hold, hold_all
from .render.common import Rendered
from .timers import cancel_lobby_expiry

log = logging.getLogger(__name__)


def cancel_game_jobs(job_queue: JobQueue[GapleContext], game_id: int) -> None:
    """Stop every timer of a game: turn, reminder, lobby expiry and recovery."""
    cancel_turn_timers(job_queue, game_id)
    cancel_lobby_expiry(job_queue, game_id)
    for job in job_queue.get_jobs_by_name(recovery_job_name(game_id)):
        job.schedule_removal()


async def chat_removed(deps: Deps, job_queue: JobQueue[GapleContext], chat_id: int) -> None:
    """The bot was removed or banned from the group: its lobby and game there end as aborted,
    their timers stop and nothing more goes to the group; the players hear it privately."""
    changes = deps.service.chat_changes
    # Nothing waiting for the group goes out any more, now or after a restart.
    await deps.outbox.forget_chat(chat_id)
    for game_id in await changes.active_in(chat_id):
        async with hold(deps, game_id) as game:
            cancel_game_jobs(job_queue, game_id)
            ended = await game.end_with_chat()
            deps.presenter.forget_table(game_id, chat_id)
            deps.presenter.shown.lobby_closed(game_id)
            turn = deps.presenter.shown.pop_turn(game_id)
            if ended is None:
                continue
            log.info("game %s ended: the bot left chat %s", game_id, chat_id)
            for seat in ended.seats:
                if seat.user_id is None:
                    continue
                t = deps.presenter.render.private_t(seat, ended.chat_language)
                text = t.gettext(
                    "🚪 The table in {chat} was closed: I was removed from the group. It counts "
                    "as abandoned: no results, no rating changes."
                ).format(chat=html.escape(ended.chat_title))
                if turn is not None and turn.user_id == seat.user_id:
                    # The live buttons go; the note takes their place.
                    await deps.presenter.edit_private(seat.user_id, turn.message_id, Rendered(text))
                else:
                    await deps.presenter.send_private(seat.user_id, Rendered(text))


async def chat_muted(deps: Deps, job_queue: JobQueue[GapleContext], chat_id: int) -> None:
    """The bot may not send in the group: its running game pauses (no timers, no computer
    moves in anyone's name) and each person at the table is told privately."""
    changes = deps.service.chat_changes
    for game_id in await changes.active_in(chat_id):
        async with hold(deps, game_id) as game:
            paused = await game.pause()
            if paused is None:
                continue
            cancel_turn_timers(job_queue, game_id)
            # The table is posted afresh on resuming: the old one may be far up by then.
            deps.presenter.forget_table(game_id, chat_id)
            log.info("game %s paused: the bot may not write in chat %s", game_id, chat_id)
            await _tell_people(deps, paused, paused=True)


async def chat_writable(deps: Deps, job_queue: JobQueue[GapleContext], chat_id: int) -> None:
    """The bot may send in the group again: a paused game goes on with a fresh table message
    and the person to move gets a whole turn."""
    changes = deps.service.chat_changes
    for game_id in await changes.active_in(chat_id):
        async with hold(deps, game_id) as game:
            try:
                progress = await game.go_on()
            except ServiceError:
                continue
            if progress is None:
                continue
            deps.presenter.forget_table(game_id, chat_id)
            log.info("game %s resumed in chat %s", game_id, chat_id)
            await _tell_people(deps, await game.facts(), paused=False)
            await show_progress(deps, job_queue, progress)


async def chat_unwritable(deps: Deps, job_queue: JobQueue[GapleContext], chat_id: int) -> None:
    """A group send failed because the bot may not write there (403, or not enough rights):
    Telegram says whether the bot is gone (the games end) or only muted (they pause)."""
    try:
        member = await deps.presenter.bot.get_chat_member(chat_id, deps.presenter.bot.id)
    except Forbidden:
        await chat_removed(deps, job_queue, chat_id)
        return
    except TelegramError as exc:
        # Unsure: pausing loses nothing and undoes itself when the bot may write again.
        log.warning("chat %s: membership unknown (%s); pausing its game", chat_id, exc)
        await chat_muted(deps, job_queue, chat_id)
        return
    if member.status in ("left", "kicked") or getattr(member, "is_member", True) is False:
        await chat_removed(deps, job_queue, chat_id)
    else:
        await chat_muted(deps, job_queue, chat_id)


async def chat_migrated(
    deps: Deps, job_queue: JobQueue[GapleContext], old_id: int, new_id: int
) -> None:
    """The group became a supergroup: its settings, boards and games now live under the new
    id; a lobby or table continues there with a fresh message, its timers as they were."""
    changes = deps.service.chat_changes
    async with hold_all(deps, await changes.active_in(old_id)) as games:
        moved = await changes.move(old_id, new_id)
        # Round results and notices still waiting for the old chat go to the new one.
        await deps.outbox.move_chat(old_id, new_id)
        for game_id in moved:
            # Message ids do not carry over to the new chat: post the lobby or table afresh.
            deps.presenter.forget_table(game_id, new_id)
            deps.presenter.shown.lobby_closed(game_id)
            try:
                await _show_moved(deps, job_queue, games[game_id])
            except (ServiceError, KeyError):
                log.exception("game %s could not be shown in chat %s", game_id, new_id)
    if moved:
        log.info("chat %s moved to %s with games %s", old_id, new_id, moved)


async def _show_moved(deps: Deps, job_queue: JobQueue[GapleContext], game: GameSession) -> None:
    presenter = deps.presenter
    facts = await game.facts()
    if facts.status is GameStatus.LOBBY:
        lobby = await game.lobby()
        link = presenter.shown.needs_join_link(facts.game_id)
        presenter.show_lobby(lobby, presenter.render.lobby(lobby, deps.bot_username, link))
        return
    if facts.paused:
        return  # shown when the bot may write again
    progress = await game.resume()
    await show_progress(deps, job_queue, progress)


async def _tell_people(deps: Deps, game: GameFacts, *, paused: bool) -> None:
    """A private note to each person at the table that the game paused (or goes on)."""
    for seat in game.seats:
        if seat.user_id is None:
            continue
        t = deps.presenter.render.private_t(seat, game.chat_language)
        if paused:
            text = t.gettext(
                "⏸ The game in {chat} is paused: I may not write in the group right now. "
                "It goes on as soon as I can."
            )
        else:
            text = t.gettext("▶️ The game in {chat} goes on: I can write in the group again.")
        await deps.presenter.send_private(
            seat.user_id, Rendered(text.format(chat=html.escape(game.chat_title)))
        )
