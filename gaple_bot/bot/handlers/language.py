"""/language: the group's language (admins) or, in private, the person's own."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update

from ...i18n import SUPPORTED_LANGUAGES, Translator
from ..callback_data import Action, Callback, encode
from ..deps import GapleContext
from ..render.settings import LANGUAGE, LANGUAGE_NAMES, menu_options
from ..taps import answer_tap
from .commands import reply
from .common import chat_of, is_admin, is_group, person_of, reply_t, user_of, user_t


def _private_menu(t: Translator) -> InlineKeyboardMarkup:
    buttons = [
        InlineKeyboardButton(LANGUAGE_NAMES[code], callback_data=encode(Action.LANGUAGE, index))
        for index, code in enumerate(SUPPORTED_LANGUAGES)
    ]
    automatic = InlineKeyboardButton(
        t.gettext("Same as my Telegram app"),
        callback_data=encode(Action.LANGUAGE, len(SUPPORTED_LANGUAGES)),
    )
    return InlineKeyboardMarkup([buttons[:2], buttons[2:], [automatic]])


async def language_command(update: Update, context: GapleContext) -> None:
    """/language: a menu of the languages the bot speaks."""
    user, chat, deps = user_of(update), chat_of(update), context.deps
    t = await reply_t(context, update)
    if not is_group(chat):
        await reply(
            deps,
            update,
            t.gettext("Which language should I use with you in private?"),
            reply_markup=_private_menu(t),
        )
        return
    if not await is_admin(context, chat.id, user.id):
        await reply(deps, update, t.gettext("Only group admins can change the group's language."))
        return
    settings = await deps.service.players.chat(chat.id, chat.title)
    group_t = deps.presenter.render.group_t(settings.language)
    # The chat's language sits in every game's settings menu: the first game's serves.
    language_option = menu_options(deps.service.registry.default).index(LANGUAGE)
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    LANGUAGE_NAMES[code],
                    callback_data=encode(Action.SETTING, chat.id, 0, language_option, index),
                )
                for index, code in enumerate(SUPPORTED_LANGUAGES)
            ]
        ]
    )
    await reply(
        deps,
        update,
        group_t.gettext("Which language should I speak in this group?"),
        reply_markup=markup,
    )


async def on_language_button(update: Update, context: GapleContext, callback: Callback) -> None:
    """A private language choice: store it and confirm in the new language."""
    query = update.callback_query
    assert query is not None
    deps = context.deps
    choice = callback.field("choice")
    if not 0 <= choice <= len(SUPPORTED_LANGUAGES):
        t = await user_t(context, user_of(update))
        await answer_tap(
            context.deps, query, t.gettext("That setting does not exist."), show_alert=True
        )
        return
    language = SUPPORTED_LANGUAGES[choice] if choice < len(SUPPORTED_LANGUAGES) else None
    await deps.service.players.set_user_language(person_of(update), language)
    t = await user_t(context, user_of(update))
    await answer_tap(context.deps, query, t.gettext("Saved."))
    if query.message is not None:
        await query.edit_message_text(t.gettext("I will speak this language with you."))
