"""Helpers shared by the handlers: who is asking, in which language, with which rights."""

from __future__ import annotations

from telegram import Chat, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

from ...i18n import Translator, pick_language
from ...service.views import Person
from ..deps import GapleContext


def user_of(update: Update) -> User:
    """The person behind the update (every handler here is for updates that have one)."""
    user = update.effective_user
    assert user is not None
    return user


def chat_of(update: Update) -> Chat:
    """The chat the update came from."""
    chat = update.effective_chat
    assert chat is not None
    return chat


def is_group(chat: Chat) -> bool:
    """Games live in groups and supergroups."""
    return chat.type in (ChatType.GROUP, ChatType.SUPERGROUP)


def thread_of(update: Update) -> int | None:
    """The forum topic the update came from, if the chat has topics."""
    message = update.effective_message
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


def is_anonymous(update: Update) -> bool:
    """Whether the message was sent on behalf of a chat (an anonymous admin or a channel):
    Telegram then names a placeholder account, not the person, so it must not act."""
    message = update.effective_message
    return message is not None and message.sender_chat is not None


def anonymous_text(t: Translator) -> str:
    """The reply to a command that acts for someone, sent on behalf of a chat."""
    return t.gettext(
        "I can't tell who you are when you write anonymously or as a channel: write as yourself."
    )


def person_of(update: Update) -> Person:
    """The person behind the update, with their app's language if the bot speaks it."""
    user = user_of(update)
    return Person(user.id, user.full_name, pick_language(user.language_code))


async def user_t(context: GapleContext, user: User) -> Translator:
    """The translator for a reply only this person sees: their /language choice, else their
    app's language."""
    stored = await context.deps.service.players.user(user.id)
    chosen = stored.language if stored is not None else None
    return context.deps.translators.get(chosen or user.language_code)


async def seated_t(
    context: GapleContext, user: User, languages: dict[int, str | None]
) -> Translator:
    """The translator for a reply to a person at a game: the language their hand messages
    are in (the live game knows it, so no database read per tap), else as `user_t`."""
    if user.id in languages:
        return context.deps.translators.get(languages[user.id] or user.language_code)
    return await user_t(context, user)


async def reply_t(context: GapleContext, update: Update) -> Translator:
    """The translator for a reply where the command was sent: the chat's language in a group
    (everyone there reads it), the person's own in private."""
    chat = chat_of(update)
    if is_group(chat):
        settings = await context.deps.service.players.chat(chat.id, chat.title)
        return context.deps.translators.get(settings.language)
    return await user_t(context, user_of(update))


async def is_admin(context: GapleContext, chat_id: int, user_id: int) -> bool:
    """Whether the person administers the group (asked from Telegram each time)."""
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return False
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)
