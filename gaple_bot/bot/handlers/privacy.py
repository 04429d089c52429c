"""/privacy and /deletemydata: what the bot keeps about a person, and deleting it."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update
from telegram.error import BadRequest

from ...service.errors import ServiceError
from ...service.outcome import Outcome
from ...service.progress import Progress
from ..callback_data import Callback
from ..deps import Deps, GapleContext
from ..render.privacy import CONFIRM, render_delete_question, render_privacy
from ..taps import answer_tap
from ..timers import job_queue, recovering
from .commands import reply
from .common import chat_of, is_group, reply_t, user_of, user_t

log = logging.getLogger(__name__)


async def privacy(update: Update, context: GapleContext) -> None:
    """/privacy: what is kept about a person, why, and for how long."""
    await reply(context.deps, update, render_privacy(await reply_t(context, update)))


async def delete_my_data(update: Update, context: GapleContext) -> None:
    """/deletemydata: in private, ask to confirm; in a group, send the person to private."""
    deps = context.deps
    t = await reply_t(context, update)
    if is_group(chat_of(update)):
        text = t.gettext(
            "Send /deletemydata to me in a private chat: I will ask you to confirm there."
        )
        await reply(deps, update, text)
        return
    question = render_delete_question(t)
    await reply(deps, update, question.text, reply_markup=question.markup)


async def on_forget_button(update: Update, context: GapleContext, callback: Callback) -> None:
    """The answer to /deletemydata: delete everything of the presser's, or nothing."""
    query = update.callback_query
    assert query is not None
    user = user_of(update)
    t = await user_t(context, user)
    if is_group(chat_of(update)):
        # The question is only ever asked in private; a copy in a group is forged.
        await answer_tap(
            context.deps, query, t.gettext("That button is not valid."), show_alert=True
        )
        return
    # CallbackQueries need to be answered; leaving the tables may take a moment.
    await answer_tap(context.deps, query)
    if callback.field("confirm") != CONFIRM:
        await _replace_question(query, t.gettext("Nothing was deleted."))
        return
    await forget_person(context.deps, context, user.id)
    log.info("user data deleted on request")
    await _replace_question(
        query,
        t.gettext(
            "Done: I deleted your data. If you write to me again, I will start afresh "
            "and know nothing of you."
        ),
    )


async def _replace_question(query: CallbackQuery, text: str) -> None:
    """Put the answer where the question was; a second tap finds it there already."""
    try:
        await query.edit_message_text(text)
    except BadRequest as error:
        if "not modified" in error.message.lower():
            return
        # The button was not on a question of ours (a forged press): say it in a new message.
        log.info("the answer to /deletemydata could not replace its question: %s", error.message)
        await query.get_bot().send_message(query.from_user.id, text)


async def forget_person(deps: Deps, context: GapleContext, user_id: int) -> None:
    """Take the person out of every open table, delete their data, and show the tables that
    now play on with a former player in their seat."""
    queue = job_queue(context)
    forgetting = deps.service.forgetting
    commands = deps.service.commands
    for game_id in await forgetting.open_games(user_id):

        def tell(outcome: Outcome) -> None:
            if outcome.progress is not None:
                _tell_the_table(deps, outcome.progress)

        try:
            # A lobby or table is shown with the outcome (the group told first, in order).
            async with recovering(deps, queue, game_id), deps.outcomes.issuing(before_stage=tell):
                await commands.leave_for_good(game_id, user_id)
        except ServiceError:
            continue  # the game ended in the meantime: nothing to leave
    # The seats the computer now plays change hands while no update of theirs runs; each
    # table shows it with its outcome.
    await commands.forget_person(user_id)


def _tell_the_table(deps: Deps, progress: Progress) -> None:
    """The group learns that the computer plays the seat from now on (names no one)."""
    table = progress.table
    if table is None or progress.abandoned is not None:
        return
    t = deps.presenter.render.group_t(table.language)
    deps.presenter.group.group_notice(
        table, t.gettext("🤖 A player left the table: the computer plays their seat from now on.")
    )
