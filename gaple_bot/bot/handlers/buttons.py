"""The one callback-query handler: decode the button and hand it to its action's handler."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Update

from ..callback_data import Action, BadCallbackData, Callback, decode
from ..deps import GapleContext
from ..taps import answer_tap
from .common import user_of, user_t
from .language import on_language_button
from .lobby_buttons import on_lobby_button, on_play_again
from .play_buttons import on_move_button, on_show_hand, on_take_back
from .privacy import on_forget_button
from .settings import on_setting_button

ButtonHandler = Callable[[Update, GapleContext, Callback], Awaitable[None]]

HANDLERS: dict[Action, ButtonHandler] = {
    Action.JOIN: on_lobby_button,
    Action.LEAVE: on_lobby_button,
    Action.ADD_COMPUTER: on_lobby_button,
    Action.START: on_lobby_button,
    Action.CANCEL: on_lobby_button,
    Action.PLAY_AGAIN: on_play_again,
    Action.SHOW_HAND: on_show_hand,
    Action.MOVE: on_move_button,
    Action.PICK: on_move_button,
    Action.BACK: on_move_button,
    Action.TAKE_BACK_SEAT: on_take_back,
    Action.SETTING: on_setting_button,
    Action.LANGUAGE: on_language_button,
    Action.FORGET: on_forget_button,
}


async def on_button(update: Update, context: GapleContext) -> None:
    """Route a tapped button; forged or unknown data gets a short alert and changes nothing."""
    query = update.callback_query
    assert query is not None
    if query.message is None:
        # The bot never sends messages in inline mode: a button without one is not ours.
        await _not_valid(context, update)
        return
    try:
        callback = decode(query.data)
    except BadCallbackData:
        await _not_valid(context, update)
        return
    handler = HANDLERS.get(callback.action)
    if handler is None:
        # CallbackQueries need to be answered, even when there is nothing to do.
        await answer_tap(context.deps, query)
        return
    await handler(update, context, callback)


async def _not_valid(context: GapleContext, update: Update) -> None:
    query = update.callback_query
    assert query is not None
    t = await user_t(context, user_of(update))
    await answer_tap(context.deps, query, t.gettext("That button is not valid."), show_alert=True)
