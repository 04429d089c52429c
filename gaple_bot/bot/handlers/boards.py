"""/top and /stats: leaderboards and a player's record."""

from __future__ import annotations

from telegram import ReplyParameters, Update
from telegram.constants import ParseMode

from ...games.pictures.stats import stats_picture
from ...service.api import Board, Period
from ..deps import GapleContext
from ..painter import picture_or_none
from ..render.boards import render_board, render_stats
from .commands import chosen_kind, reply
from .common import chat_of, is_group, reply_t, thread_of, user_of, user_t

BOARD_WORDS = {"rating": Board.RATING, "wins": Board.WINS, "points": Board.POINTS}
PERIOD_WORDS = {"week": Period.WEEK, "7d": Period.WEEK, "all": Period.ALL_TIME}


async def top(update: Update, context: GapleContext) -> None:
    """/top [game] [global] [rating|wins|points] [week]: a leaderboard of a game (by default
    the one last played in the chat)."""
    chat, deps = chat_of(update), context.deps
    words = [word.lower() for word in context.args or []]
    global_ = "global" in words or not is_group(chat)
    kind = await chosen_kind(deps, chat.id, words)
    board = next((BOARD_WORDS[w] for w in words if w in BOARD_WORDS), Board.RATING)
    period = next((PERIOD_WORDS[w] for w in words if w in PERIOD_WORDS), Period.ALL_TIME)
    entries = await deps.service.players.top(kind.name, None if global_ else chat.id, board, period)
    if is_group(chat):
        settings = await deps.service.players.chat(chat.id, chat.title)
        t = deps.presenter.render.group_t(settings.language)
    else:
        t = await user_t(context, user_of(update))
    await reply(deps, update, render_board(t, kind.name, board, period, entries, global_))


async def stats(update: Update, context: GapleContext) -> None:
    """/stats [game]: your record here; as a reply, the replied person's."""
    chat, deps = chat_of(update), context.deps
    user = user_of(update)
    t = await reply_t(context, update)
    if not is_group(chat):
        await reply(
            deps, update, t.gettext("Ask for /stats in a group: records are kept per chat.")
        )
        return
    message = update.effective_message
    target = user
    if message is not None and message.reply_to_message and message.reply_to_message.from_user:
        target = message.reply_to_message.from_user
    kind = await chosen_kind(deps, chat.id, [w.lower() for w in context.args or []])
    record = await deps.service.players.stats(kind.name, chat.id, target.id)
    settings = await deps.service.players.chat(chat.id, chat.title)
    group_t = deps.presenter.render.group_t(settings.language)
    text = render_stats(group_t, kind.presentation, record, target.full_name)
    pictures = deps.service.players.chat_options(kind, settings)["pictures"] == "on"
    if record is None or record.games == 0 or not pictures:
        await reply(deps, update, text)
        return
    # The card draws the same lines as the text, with the rating's course over recent games.
    ratings = await deps.service.players.rating_history(kind.name, chat.id, target.id)
    title, *lines = text.split("\n")
    card = picture_or_none(lambda: stats_picture(group_t, title, lines, ratings))
    if card is None:
        await reply(deps, update, text)
        return
    message = update.effective_message
    assert message is not None
    deps.outbox.send_photo(
        chat.id,
        card,
        caption=text,
        message_thread_id=thread_of(update),
        parse_mode=ParseMode.HTML,
        reply_parameters=ReplyParameters(message.message_id, allow_sending_without_reply=True),
    )
