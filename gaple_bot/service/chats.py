"""A chat's settings, created on first sight; the bot's defaults for options a chat never set."""

from __future__ import annotations

from dataclasses import dataclass

from ..store import ChatSettings, Transaction


@dataclass(frozen=True, slots=True)
class ChatDefaults:
    """What a chat's options are until it sets them (from the bot's settings)."""

    turn_seconds: int = 60

    def options(self) -> dict[str, str]:
        """The defaults as option values, over the kinds' own defaults."""
        return {"turn": str(self.turn_seconds)}


async def ensure_chat(tx: Transaction, chat_id: int, title: str | None) -> ChatSettings:
    """The chat's settings, the chat created on first sight (a new title is kept)."""
    return await tx.chats.ensure(chat_id, title)
