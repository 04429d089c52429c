"""/settings: the admins' menu of a game's options (its own, turn time, computer level,
empty seats, pictures) and the chat's language."""

from __future__ import annotations

import html
import re

from telegram import MaybeInaccessibleMessage, Message, Update
from telegram.constants import ParseMode

from ...service.api import ChatSettings
from ...service.errors import BadSetting, ServiceError
from ..callback_data import Callback
from ..deps import Deps, GapleContext
from ..refusals import refusal_text
from ..render.common import Rendered
from ..render.settings import LANGUAGE, choices, menu_options, render_settings
from ..taps import answer_tap
from .commands import chosen_kind, reply
from .common import (
    anonymous_text,
    chat_of,
    is_admin,
    is_anonymous,
    is_group,
    reply_t,
    user_of,
    user_t,
)

TAG = re.compile(r"<[^>]+>")
"""An HTML tag of a message's text (Telegram shows the text without them)."""


async def settings_command(update: Update, context: GapleContext) -> None:
    """/settings: the menu (admins only)."""
    user, chat, deps = user_of(update), chat_of(update), context.deps
    t = await reply_t(context, update)
    if not is_group(chat):
        await reply(deps, update, t.gettext("Settings belong to a group: use /settings there."))
        return
    if is_anonymous(update):
        await reply(deps, update, anonymous_text(t))
        return
    if not await is_admin(context, chat.id, user.id):
        await reply(deps, update, t.gettext("Only group admins can change the settings."))
        return
    settings = await deps.service.players.chat(chat.id, chat.title)
    kind = await chosen_kind(deps, chat.id, context.args or [])
    rendered = settings_menu(deps, deps.service.registry.names.index(kind.name), settings)
    await reply(deps, update, rendered.text, reply_markup=rendered.markup)


def settings_menu(deps: Deps, kind_index: int, settings: ChatSettings) -> Rendered:
    """The menu of the `kind_index`-th game, in the chat's language."""
    kind = deps.service.registry.get(deps.service.registry.names[kind_index])
    options = deps.service.players.chat_options(kind, settings)
    t = deps.presenter.render.group_t(settings.language)
    return render_settings(t, kind_index, kind, settings, options)


async def on_setting_button(update: Update, context: GapleContext, callback: Callback) -> None:
    """A choice in the menu was tapped: store it and redraw the menu."""
    query = update.callback_query
    assert query is not None and query.message is not None
    user, deps = user_of(update), context.deps
    t = await user_t(context, user)
    chat_id, kind_index = callback.field("chat"), callback.field("kind")
    option_index, choice_index = callback.field("option"), callback.field("value")
    if chat_id != query.message.chat.id:
        await answer_tap(
            context.deps, query, refusal_text(t, BadSetting("wrong chat")), show_alert=True
        )
        return
    if not await is_admin(context, chat_id, user.id):
        await answer_tap(
            context.deps,
            query,
            t.gettext("Only group admins can change the settings."),
            show_alert=True,
        )
        return
    try:
        names = deps.service.registry.names
        if not 0 <= kind_index < len(names):
            raise BadSetting(f"no game {kind_index}")
        kind = deps.service.registry.get(names[kind_index])
        options = menu_options(kind)
        if not 0 <= option_index < len(options):
            raise BadSetting(f"no option {option_index}")
        option = options[option_index]
        if option == LANGUAGE:
            languages = choices(kind, option)
            if not 0 <= choice_index < len(languages):
                raise BadSetting(f"no language {choice_index}")
            title = query.message.chat.title
            await deps.service.players.set_chat_language(chat_id, title, languages[choice_index])
            settings = await deps.service.players.chat(chat_id, title)
        else:
            settings = await deps.service.players.change_setting(
                chat_id, kind, option, choice_index
            )
    except ServiceError as error:
        await answer_tap(context.deps, query, refusal_text(t, error), show_alert=True)
        return
    rendered = settings_menu(deps, kind_index, settings)
    if _shows(query.message, rendered):
        # The value it already had: nothing changes, so no edit spends the group's budget.
        await answer_tap(context.deps, query, t.gettext("Saved."))
        return
    # Group edits go through the outbox, which keeps the group within its message budget.
    menu = deps.outbox.existing(chat_id, query.message.message_id)
    deps.outbox.edit(
        menu, text=rendered.text, parse_mode=ParseMode.HTML, reply_markup=rendered.markup
    )
    await answer_tap(context.deps, query, t.gettext("Saved."))
    if option in ("computers", LANGUAGE):
        # What an open lobby says depends on these two; each redraw costs a group edit.
        await redraw_lobbies(deps, chat_id)


async def redraw_lobbies(deps: Deps, chat_id: int) -> None:
    """Open lobbies of the chat show the settings they will start with (empty seats filled
    or not) as soon as an admin changes them."""
    for game_id in await deps.service.lobbies.open_in_chat(chat_id):
        # Shown again with the outcome (nothing, if it started or closed meanwhile).
        await deps.service.commands.redraw(game_id)


def _shows(message: MaybeInaccessibleMessage, rendered: Rendered) -> bool:
    """Whether the menu message already shows `rendered`: the same text (its HTML read as
    Telegram shows it) and the same buttons, compared whole (a choice's mark may be its style
    alone, which button equality leaves out)."""
    if not isinstance(message, Message) or message.text is None:
        return False
    text = html.unescape(TAG.sub("", rendered.text))
    shown = message.reply_markup.to_dict() if message.reply_markup is not None else None
    wanted = rendered.markup.to_dict() if rendered.markup is not None else None
    return message.text == text and shown == wanted
