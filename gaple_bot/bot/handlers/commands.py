"""Commands in groups and private chats: /start, each game's, /stop, /rules, /help."""

from __future__ import annotations

import html
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, ReplyParameters, Update
from telegram.constants import ParseMode

from ...games.seam import AnyGameKind, next_config
from ...games.views import PrivateNote
from ...service.errors import GameAlreadyOpen, ServiceError
from ...service.outcome import LobbyChanged
from ..deps import Deps, GapleContext
from ..doors import DoorClosed
from ..handover import offer_seats_back
from ..present import JOIN_PREFIX
from ..refusals import door_text, refusal_text
from ..render.info import render_greeting, render_help, render_rules
from .common import (
    anonymous_text,
    chat_of,
    is_admin,
    is_anonymous,
    is_group,
    person_of,
    reply_t,
    thread_of,
    user_of,
    user_t,
)


def reply_in_group(deps: Deps, update: Update, text: str, **kwargs: Any) -> None:
    """Answer a command in its group (or topic) through the outbox, as a reply."""
    message = update.effective_message
    assert message is not None
    deps.outbox.send(
        message.chat_id,
        message_thread_id=thread_of(update),
        text=text,
        parse_mode=ParseMode.HTML,
        reply_parameters=ReplyParameters(message.message_id, allow_sending_without_reply=True),
        **kwargs,
    )


async def reply(deps: Deps, update: Update, text: str, **kwargs: Any) -> None:
    """Answer a command where it was sent: through the outbox in groups, directly in private."""
    chat = chat_of(update)
    if is_group(chat):
        reply_in_group(deps, update, text, **kwargs)
        return
    message = update.effective_message
    assert message is not None
    await message.reply_text(text, parse_mode=ParseMode.HTML, **kwargs)


def add_to_group_markup(deps: Deps, label: str) -> InlineKeyboardMarkup:
    """The button that lets a person add the bot to one of their groups."""
    url = f"https://t.me/{deps.bot_username}?startgroup=true"
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, url=url)]])


async def start(update: Update, context: GapleContext) -> None:
    """/start: in private, the bot may now send the person's hand; `join_<token>` completes a
    join."""
    user, chat, deps = user_of(update), chat_of(update), context.deps
    t = await reply_t(context, update)
    if is_group(chat):
        await reply(deps, update, render_help(t, deps.service.registry))
        return
    await deps.service.players.private_chat_opened(person_of(update))
    await offer_seats_back(deps, user.id)
    payload = context.args[0] if context.args else ""
    if payload.startswith(JOIN_PREFIX):
        await _join_from_link(update, context, payload[len(JOIN_PREFIX) :])
        return
    text = render_greeting(t, deps.service.registry, html.escape(user.first_name))
    await reply(
        deps,
        update,
        text,
        reply_markup=add_to_group_markup(deps, t.gettext("👥 Add me to a group")),
    )


async def _join_from_link(update: Update, context: GapleContext, join_token: str) -> None:
    """Seat a member of the lobby's group who followed its link (the token, not the id, says
    which lobby: a guessed or stale link, or an outsider, is refused and nothing changes)."""
    user, deps = user_of(update), context.deps
    t = await user_t(context, user)
    try:
        invited = await deps.service.lobbies.invited(join_token)
        # Asked afresh: someone who just left the group must not take a seat.
        await deps.members.admit(invited.chat_id, user.id, fresh=True)
    except ServiceError as error:
        await reply(deps, update, refusal_text(t, error))
        return
    except DoorClosed as error:
        await reply(deps, update, door_text(t, error))
        return
    game_id = invited.id
    try:
        # The lobby is shown with the outcome.
        outcome = await deps.service.commands.join(game_id, person_of(update))
        facts = await deps.service.commands.facts(game_id)
    except ServiceError as error:
        await reply(deps, update, refusal_text(t, error))
        return
    changed = outcome.first(LobbyChanged)
    assert changed is not None
    chat = html.escape(facts.chat_title)
    await reply(
        deps,
        update,
        deps.presenter.render.private_note(t, changed.lobby.kind, PrivateNote.JOINED_BY_LINK, chat),
    )


def command_word(update: Update) -> str:
    """The command a message starts with, without '/' and '@botname', in lower case."""
    text = update.effective_message.text if update.effective_message else None
    word = (text or "").split(maxsplit=1)[0] if text else ""
    return word.removeprefix("/").split("@", 1)[0].lower()


async def open_table(update: Update, context: GapleContext) -> None:
    """/gaple (or another game's command): open a lobby of that game in this group (or
    topic); one game at a time, whatever its kind."""
    user, chat, deps = user_of(update), chat_of(update), context.deps
    t = await user_t(context, user)
    if not is_group(chat):
        await reply(
            deps,
            update,
            t.gettext("Games live in groups: add me to one and type /{command} there.").format(
                command=command_word(update)
            ),
            reply_markup=add_to_group_markup(deps, t.gettext("👥 Add me to a group")),
        )
        return
    if is_anonymous(update):
        await reply(deps, update, anonymous_text(await reply_t(context, update)))
        return
    thread_id = thread_of(update)
    try:
        kind = deps.service.registry.get(command_word(update))
        lobby = await deps.service.lobbies.open(
            kind, chat.id, chat.title, thread_id, person_of(update)
        )
    except GameAlreadyOpen as error:
        group_t = deps.presenter.render.group_t(
            (await deps.service.players.chat(chat.id, chat.title)).language
        )
        deps.outbox.send(
            chat.id,
            message_thread_id=thread_id,
            text=group_t.gettext("A game is already open here: it is this one."),
            reply_parameters=ReplyParameters(
                error.message_id or update.effective_message.message_id,  # type: ignore[union-attr]
                allow_sending_without_reply=True,
            ),
        )
        return
    deps.outcomes.show_new_lobby(lobby)


async def stop(update: Update, context: GapleContext) -> None:
    """/stop: abort this group's game (whoever opened it, or an admin)."""
    user, chat, deps = user_of(update), chat_of(update), context.deps
    t = await reply_t(context, update)
    if not is_group(chat):
        await reply(deps, update, t.gettext("There is no game here to stop."))
        return
    if is_anonymous(update):
        await reply(deps, update, anonymous_text(t))
        return
    game_id = await deps.service.active_game(chat.id, thread_of(update))
    if game_id is None:
        await reply(deps, update, t.gettext("There is no game here to stop."))
        return
    facts = await deps.service.commands.facts(game_id)
    admin = facts.opener_id != user.id and await is_admin(context, chat.id, user.id)
    try:
        # The table (or lobby) says so with the outcome; the live buttons go after.
        async with deps.outcomes.issuing():
            await deps.service.commands.stop(game_id, user.id, admin)
    except ServiceError as error:
        await reply(deps, update, refusal_text(t, error))
        return
    group_t = deps.presenter.render.group_t(facts.chat_language)
    reply_in_group(
        deps,
        update,
        group_t.gettext(
            "The game was stopped. It counts as abandoned: no results, no rating changes."
        ),
    )


async def rules(update: Update, context: GapleContext) -> None:
    """/rules [game]: the rules the chat's next game of that kind (else the last played)
    would have, short."""
    chat, deps = chat_of(update), context.deps
    settings = await deps.service.players.chat(chat.id, chat.title if is_group(chat) else None)
    kind = await chosen_kind(deps, chat.id, context.args or [])
    options = deps.service.players.chat_options(kind, settings)
    t = await reply_t(context, update)
    text = render_rules(t, kind.presentation, next_config(kind, options), int(options["turn"]))
    await reply(deps, update, text)


async def chosen_kind(deps: Deps, chat_id: int, words: list[str]) -> AnyGameKind:
    """The game a command asks about: the one named in its words, else the one last opened
    in the chat, else the bot's first game."""
    registry = deps.service.registry
    named = next((w.lower() for w in words if w.lower() in registry), None)
    name = named or await deps.service.players.last_kind(chat_id)
    return registry.get(name) if name is not None and name in registry else registry.default


async def help_command(update: Update, context: GapleContext) -> None:
    """/help: what the bot does and its commands."""
    registry = context.deps.service.registry
    await reply(context.deps, update, render_help(await reply_t(context, update), registry))
