"""Who may reach a table: members of its group, through buttons of its own chat and topic."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from telegram import Bot, ChatMember, ChatMemberRestricted, MaybeInaccessibleMessage, Message
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from ..service.facts import GameFacts

MEMBER_TTL = timedelta(seconds=60)
"""How long a 'yes, a member' from Telegram is trusted before asking again."""
MAX_REMEMBERED = 4096
"""Cached answers kept at most; expired ones are dropped first, then all."""


class DoorClosed(Exception):
    """The person, or the button, may not reach this table."""


class NotAMember(DoorClosed):
    """The person is not (or no longer) a member of the table's group."""


class ForeignButton(DoorClosed):
    """The button's payload names a game of another chat or topic than the one it was
    pressed in (forged), or a message the bot can no longer see."""


def button_topic(message: Message) -> int | None:
    """The forum topic a message lives in (None outside topics)."""
    return message.message_thread_id if message.is_topic_message else None


def check_button_chat(message: MaybeInaccessibleMessage | None, game: GameFacts) -> None:
    """Raise ForeignButton unless the button was pressed in the game's own chat and topic."""
    if not isinstance(message, Message):
        raise ForeignButton("the button's message is not accessible")
    if message.chat.id != game.chat_id or button_topic(message) != game.thread_id:
        raise ForeignButton(f"a button of game {game.game_id} pressed in chat {message.chat.id}")


class Membership:
    """Asks Telegram whether a person belongs to a group; remembers a 'yes' for a short time
    per (chat, person) so a player tapping around a lobby costs one getChatMember call."""

    def __init__(
        self, bot: Bot, clock: Callable[[], datetime], ttl: timedelta = MEMBER_TTL
    ) -> None:
        self.bot = bot
        self.clock = clock
        self.ttl = ttl
        self._confirmed: dict[tuple[int, int], datetime] = {}

    async def is_member(self, chat_id: int, user_id: int, *, fresh: bool = False) -> bool:
        """Whether the person is in the group now; `fresh` asks Telegram even if a recent
        'yes' is remembered (for taking a seat). Any error from Telegram means no."""
        key = (chat_id, user_id)
        now = self.clock()
        confirmed = self._confirmed.get(key)
        if not fresh and confirmed is not None and now - confirmed < self.ttl:
            return True
        try:
            member = await self.bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            member = None
        if member is None or not _belongs(member):
            self._confirmed.pop(key, None)
            return False
        self._remember(key, now)
        return True

    async def admit(self, chat_id: int, user_id: int, *, fresh: bool = False) -> None:
        """Raise NotAMember unless the person is in the group."""
        if not await self.is_member(chat_id, user_id, fresh=fresh):
            raise NotAMember(f"user {user_id} is not a member of chat {chat_id}")

    def _remember(self, key: tuple[int, int], now: datetime) -> None:
        if len(self._confirmed) >= MAX_REMEMBERED:
            self._confirmed = {k: t for k, t in self._confirmed.items() if now - t < self.ttl}
            if len(self._confirmed) >= MAX_REMEMBERED:
                self._confirmed.clear()
        self._confirmed[key] = now


def _belongs(member: ChatMember) -> bool:
    """creator, administrator and member belong; restricted people only while is_member."""
    if member.status in (
        ChatMemberStatus.OWNER,
        ChatMemberStatus.ADMINISTRATOR,
        ChatMemberStatus.MEMBER,
    ):
        return True
    return isinstance(member, ChatMemberRestricted) and member.is_member
