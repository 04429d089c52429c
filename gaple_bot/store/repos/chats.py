"""Chats: their title and language, and their options per game kind."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime

from sqlalchemy import func, select, update

from ..errors import ChatNotFound
from ..models import Chat, ChatOption, Game
from ..records import ChatSettings
from ..statements import Statements
from ..types import utc_now
from ._sql import rowcount, upsert, upsert_insert


class ChatRepository:
    """Reads and writes `chats` and `chat_options`."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def get(self, chat_id: int) -> ChatSettings | None:
        """The chat's settings, or None if the bot has not seen the chat."""
        row = (
            await self._session.execute(select(Chat.title, Chat.language).where(Chat.id == chat_id))
        ).first()
        if row is None:
            return None
        options: defaultdict[str, dict[str, str]] = defaultdict(dict)
        stmt = (
            select(ChatOption.kind, ChatOption.name, ChatOption.value)
            .where(ChatOption.chat_id == chat_id)
            .order_by(ChatOption.kind, ChatOption.name)
        )
        for kind, name, value in await self._session.execute(stmt):
            options[kind][name] = value
        return ChatSettings(chat_id, row.title, row.language, dict(options))

    async def ensure(
        self, chat_id: int, title: str | None, *, now: datetime | None = None
    ) -> ChatSettings:
        """The chat's settings, creating the chat with none chosen; a known chat gets its new
        title (when one is given) and keeps its settings."""
        now = now or utc_now()
        stmt = upsert_insert(self._session, Chat).values(
            id=chat_id, title=title, language=None, created_at=now, updated_at=now
        )
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

    async def set_option(
        self, chat_id: int, kind: str, name: str, value: str, *, now: datetime | None = None
    ) -> None:
        """Store one option of the chat's games of `kind` (the kind validates it first)."""
        await self._touch(chat_id, now)
        stmt = upsert(self._session, ChatOption, ["chat_id", "kind", "name"], ["value"]).values(
            chat_id=chat_id, kind=kind, name=name, value=value
        )
        await self._session.execute(stmt)

    async def set_language(
        self, chat_id: int, language: str | None, *, now: datetime | None = None
    ) -> None:
        """The language of the chat's group messages (None: not chosen)."""
        await self._touch(chat_id, now, language=language)

    async def last_kind(self, chat_id: int) -> str | None:
        """The kind of the chat's most recently started game (a lobby nobody started does
        not count), if it had one."""
        stmt = (
            select(Game.kind)
            .where(Game.chat_id == chat_id, Game.started_at.is_not(None))
            .order_by(Game.started_at.desc(), Game.id.desc())
            .limit(1)
        )
        kind: str | None = await self._session.scalar(stmt)
        return kind

    async def _touch(self, chat_id: int, now: datetime | None, **values: object) -> None:
        stmt = update(Chat).where(Chat.id == chat_id).values(updated_at=now or utc_now(), **values)
        if not await rowcount(self._session, stmt):
            raise ChatNotFound(f"no chat {chat_id}")
