"""Users: Telegram people and the computer levels' reserved rows."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from ..errors import UserNotFound
from ..models import User
from ..records import UserRecord
from ..statements import Statements
from ..types import utc_now
from ._sql import rowcount, upsert

_COLUMNS = (
    User.id,
    User.display_name,
    User.language,
    User.can_message,
    User.is_computer,
    User.telegram_language,
)


def _record(row: Sequence[Any]) -> UserRecord:
    return UserRecord(*row)


class UserRepository:
    """Reads and writes `users`."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def get(self, user_id: int) -> UserRecord | None:
        """The user, or None."""
        row = (await self._session.execute(select(*_COLUMNS).where(User.id == user_id))).first()
        return None if row is None else _record(row)

    async def many(self, user_ids: Collection[int]) -> dict[int, UserRecord]:
        """The stored users among `user_ids`, by id (one query)."""
        if not user_ids:
            return {}
        rows = await self._session.execute(select(*_COLUMNS).where(User.id.in_(set(user_ids))))
        return {record.id: record for record in map(_record, rows)}

    async def upsert(
        self,
        user_id: int,
        display_name: str,
        *,
        telegram_language: str | None = None,
        now: datetime | None = None,
    ) -> UserRecord:
        """Create the user or refresh their display name (and their app's language, when
        Telegram reports one)."""
        now = now or utc_now()
        refreshed = ["display_name", "updated_at"]
        if telegram_language is not None:
            refreshed.append("telegram_language")
        stmt = upsert(self._session, User, ["id"], refreshed).values(
            id=user_id,
            display_name=display_name,
            telegram_language=telegram_language,
            can_message=False,
            is_computer=False,
            created_at=now,
            updated_at=now,
        )
        await self._session.execute(stmt)
        record = await self.get(user_id)
        assert record is not None
        return record

    async def set_can_message(self, user_id: int, can_message: bool) -> None:
        """Record whether the bot may message the user privately."""
        await self._set(user_id, can_message=can_message)

    async def set_language(self, user_id: int, language: str | None) -> None:
        """Record the user's chosen language (None: follow the chat's)."""
        await self._set(user_id, language=language)

    async def _set(self, user_id: int, **values: object) -> None:
        stmt = update(User).where(User.id == user_id).values(updated_at=utc_now(), **values)
        if not await rowcount(self._session, stmt):
            raise UserNotFound(f"no user {user_id}")
