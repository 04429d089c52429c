"""A chat's settings, created on first sight from the bot's defaults."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..store import ChatSettings, Transaction


@dataclass(frozen=True, slots=True)
class ChatDefaults:
    """What a new chat starts with (from the bot's settings)."""

    turn_seconds: int = 60


async def ensure_chat(
    tx: Transaction, chat_id: int, title: str | None, defaults: ChatDefaults
) -> ChatSettings:
    """The chat's settings; a chat seen for the first time gets the bot's defaults."""
    if await tx.chats.get(chat_id) is None:
        created = await tx.chats.ensure(chat_id, title)
        settings = dataclasses.replace(created, turn_seconds=defaults.turn_seconds)
        await tx.chats.save(settings)
        return settings
    return await tx.chats.ensure(chat_id, title)
