"""/games and /review: a group's finished games with their replay links, and a game's review."""

from __future__ import annotations

from telegram import LinkPreviewOptions, Message, Update

from ...games.review import GameReview
from ...i18n import Translator
from ...service.errors import NoSuchGame
from ...service.reviews import FinishedGame
from ..callback_data import Action, BadCallbackData, decode
from ..deps import Deps, GapleContext
from ..render.reviews import (
    not_in_a_group_text,
    off_text,
    preparing_text,
    render_finished_games,
)
from ..review_requests import Asked, review_text
from .commands import reply, reply_in_group
from .common import chat_of, is_group, reply_t, thread_of

GAMES_LISTED = 10
"""How many of a chat's last finished games /games lists."""
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


async def games_command(update: Update, context: GapleContext) -> None:
    """/games: the group's last finished games, one line each, with their replay links."""
    deps, chat = context.deps, chat_of(update)
    t = await reply_t(context, update)
    if not is_group(chat):
        await reply(deps, update, not_in_a_group_text(t))
        return
    games = await deps.service.reviews.finished(chat.id, limit=GAMES_LISTED)
    page = deps.presenter.render.page
    text = render_finished_games(t, deps.service.registry, games, deps.clock(), page)
    reply_in_group(deps, update, text, link_preview_options=NO_PREVIEW)


async def review_command(update: Update, context: GapleContext) -> None:
    """/review: the review of the group's last finished game, or of the game whose end
    message the command replies to."""
    deps, chat = context.deps, chat_of(update)
    t = await reply_t(context, update)
    if not is_group(chat):
        await reply(deps, update, not_in_a_group_text(t))
        return
    game = await _replied_game(deps, update, context.bot.id) or await _last_game(deps, update)
    if game is None:
        text = t.gettext(
            "No game has ended in this chat yet: once one is over, /review sums up how "
            "everyone played."
        )
        reply_in_group(deps, update, text)
        return
    if not deps.settings.reviews:
        # No analysis runs here: only a review stored before can be shown.
        review = await deps.service.reviews.review(game.game_id)
        text = off_text(t) if review is None else await _review_text(deps, t, game, review)
        reply_in_group(deps, update, text)
        return
    message = update.effective_message
    assert message is not None
    # Asked before the review is read: one stored meanwhile is posted all the same.
    asked = Asked(chat.id, thread_of(update), message.message_id, t.language, deps.clock())
    requests = deps.review_requests
    requests.ask(game.game_id, asked)
    review = await deps.service.reviews.review(game.game_id)
    if review is None:
        reply_in_group(deps, update, preparing_text(t))
        return
    if requests.withdraw(game.game_id, asked):
        reply_in_group(deps, update, await _review_text(deps, t, game, review))


async def _review_text(deps: Deps, t: Translator, game: FinishedGame, review: GameReview) -> str:
    """The review's summary, as /review answers."""
    return await review_text(deps.service, t, game, review, deps.clock())


async def _last_game(deps: Deps, update: Update) -> FinishedGame | None:
    """The chat's last finished game: the topic's own if the command came from a topic that
    had one lately, else the chat's."""
    games = await deps.service.reviews.finished(chat_of(update).id, limit=GAMES_LISTED)
    thread_id = thread_of(update)
    return next((g for g in games if g.thread_id == thread_id), games[0] if games else None)


async def _replied_game(deps: Deps, update: Update, bot_id: int) -> FinishedGame | None:
    """The finished game of this chat whose end message the command replies to, if it does."""
    message = update.effective_message
    replied = message.reply_to_message if message is not None else None
    if replied is None:
        return None
    game_id = ended_game_id(replied, bot_id)
    if game_id is None:
        return None
    try:
        game = await deps.service.reviews.game(game_id)
    except NoSuchGame:
        return None
    # A message of another chat's game (forwarded here, say) is not this chat's.
    return game if game.chat_id == chat_of(update).id else None


def ended_game_id(message: Message, bot_id: int) -> int | None:
    """Which game a game-end message of the bot's is about: the one its Play again button
    names. Only the bot can put buttons on a message, and only its own (a person's message
    that quotes one carries none)."""
    sender = message.from_user
    if sender is None or sender.id != bot_id:
        return None
    markup = message.reply_markup
    if markup is None:
        return None
    for row in markup.inline_keyboard:
        for button in row:
            try:
                data = button.callback_data
                callback = decode(data if isinstance(data, str) else None)
            except BadCallbackData:
                continue
            if callback.action is Action.PLAY_AGAIN:
                return callback.field("game")
    return None
