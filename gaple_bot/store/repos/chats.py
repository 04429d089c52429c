"""Chats and their settings for new games."""

from __future__ import annotations

from dataclasses import astuple
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import ChatNotFound
from ..models import Chat
from ..records import ChatSettings
from ..types import utc_now
from ._sql import rowcount, upsert_insert

_COLUMNS = (
    Chat.id,
    Chat.title,
    Chat.rule_set,
    Chat.target,
    Chat.stuck_rule,
    Chat.turn_seconds,
    Chat.computer_level,
    Chat.language,
)


class ChatRepository:
    """Reads and writes `chats`."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def get(self, chat_id: int) -> ChatSettings | None:
        """The chat's settings, or None if the bot has not seen the chat."""
        row = (await self._session.execute(select(*_COLUMNS).where(Chat.id == chat_id))).first()
        return None if row is None else ChatSettings(*row)

    async def ensure(
        self, chat_id: int, title: str | None, *, now: datetime | None = None
    ) -> ChatSettings:
        """The chat's settings, creating the chat with the defaults; a known chat gets its new
        title (when one is given) and keeps its settings."""
        now = now or utc_now()
        defaults = astuple(ChatSettings(chat_id, title))
        values = {column.key: value for column, value in zip(_COLUMNS, defaults, strict=True)}
        values |= {"created_at": now, "updated_at": now}
        stmt = upsert_insert(self._session, Chat).values(values)
        stmt = stmt.on_conflict_do_update(
            index_elements=["id"],
            set_={
                "title": func.coalesce(stmt.excluded.title, Chat.title),
                "updated_at": stmt.excluded.updated_at,
            },
        )
        await self._session.execute(stmt)
        settings = await self.get(chat_id)
        assert settings is not None
        return settings

    async def save(self, settings: ChatSettings, *, now: datetime | None = None) -> None:
        """Store every setting of an existing chat (build the value with dataclasses.replace)."""
        stmt = (
            update(Chat)
            .where(Chat.id == settings.chat_id)
            .values(
                title=settings.title,
                rule_set=settings.rule_set,
                target=settings.target,
                stuck_rule=settings.stuck_rule,
                turn_seconds=settings.turn_seconds,
                computer_level=settings.computer_level,
                language=settings.language,
                updated_at=now or utc_now(),
            )
        )
        if not await rowcount(self._session, stmt):
            raise ChatNotFound(f"no chat {settings.chat_id}")
