"""When Telegram changes the group under a game: the bot removed or muted, the group upgraded."""

from __future__ import annotations

import html
import logging

from telegram.error import Forbidden, TelegramError
from telegram.ext import JobQueue

from ..service.errors import ServiceError
from ..service.facts import GameFacts
from ..service.outcome import ClosedWithChat, Outcome, Paused
from .deps import Deps, GapleContext
from .render.common import Rendered
from .timers import cancel_lobby_expiry, cancel_turn_timers, recovery_job_name

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
    # The group cannot be written in: what follows is private, sent once each game is let go.
    for game_id in await changes.active_in(chat_id):
        cancel_game_jobs(job_queue, game_id)
        outcome = await deps.service.commands.end_with_chat(game_id)
        # What was on its way to private chats goes first: the note replaces its buttons.
        await deps.outcomes.delivered(game_id)
        deps.presenter.group.forget_table(game_id, chat_id)
        deps.presenter.shown.lobby_closed(game_id)
        turn = deps.presenter.shown.pop_turn(game_id)
        closed = outcome.first(ClosedWithChat)
        if closed is None:
            continue
        ended = closed.facts
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
                await deps.presenter.hands.edit_private(
                    seat.user_id, turn.message_id, Rendered(text)
                )
            else:
                await deps.presenter.hands.send_private(seat.user_id, Rendered(text))


async def chat_muted(deps: Deps, job_queue: JobQueue[GapleContext], chat_id: int) -> None:
    """The bot may not send in the group: its running game pauses (no timers, no computer
    moves in anyone's name) and each person at the table is told privately."""
    changes = deps.service.chat_changes
    # The group cannot be written in: the notes are private, sent once each game is let go.
    for game_id in await changes.active_in(chat_id):
        outcome = await deps.service.commands.pause(game_id)
        paused = outcome.first(Paused)
        if paused is None:
            continue
        cancel_turn_timers(job_queue, game_id)
        # The table is posted afresh on resuming: the old one may be far up by then.
        deps.presenter.group.forget_table(game_id, chat_id)
        log.info("game %s paused: the bot may not write in chat %s", game_id, chat_id)
        await deps.outcomes.delivered(game_id)  # what was on its way goes before the note
        await _tell_people(deps, paused.facts, paused=True)


async def chat_writable(deps: Deps, job_queue: JobQueue[GapleContext], chat_id: int) -> None:
    """The bot may send in the group again: a paused game goes on with a fresh table message
    and the person to move gets a whole turn."""
    changes = deps.service.chat_changes
    for game_id in await changes.active_in(chat_id):

        def fresh_table(_outcome: Outcome, game_id: int = game_id) -> None:
            deps.presenter.group.forget_table(game_id, chat_id)

        try:
            # The table is posted afresh; the notes go first, the hand when the block ends.
            async with deps.outcomes.issuing(before_stage=fresh_table):
                outcome = await deps.service.commands.go_on(game_id)
                if outcome.progress is None:
                    continue
                log.info("game %s resumed in chat %s", game_id, chat_id)
                await _tell_people(deps, await deps.service.commands.facts(game_id), paused=False)
        except ServiceError:
            continue


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

    async def moved(game_ids: list[int]) -> None:
        # Round results and notices still waiting for the old chat go to the new one.
        await deps.outbox.move_chat(old_id, new_id)
        for game_id in game_ids:
            # Message ids do not carry over to the new chat: the lobby or table is posted
            # afresh with its outcome.
            deps.presenter.group.forget_table(game_id, new_id)
            deps.presenter.shown.lobby_closed(game_id)

    async with deps.outcomes.issuing():
        outcomes = await deps.service.commands.move_chat(old_id, new_id, moved)
    if outcomes:
        log.info("chat %s moved to %s with games %s", old_id, new_id, [o.game_id for o in outcomes])


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
        await deps.presenter.hands.send_private(
            seat.user_id, Rendered(text.format(chat=html.escape(game.chat_title)))
        )
