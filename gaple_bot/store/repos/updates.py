"""Received updates: which Telegram updates were already taken in."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import ReceivedUpdate
from ..types import utc_now
from ._sql import rowcount, upsert_insert


class UpdateRepository:
    """Reads and writes `received_updates`."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def first_delivery(self, update_id: int, *, now: datetime | None = None) -> bool:
        """Record the update as received; False if it already was (a second delivery)."""
        stmt = (
            upsert_insert(self._session, ReceivedUpdate)
            .values(update_id=update_id, received_at=now or utc_now())
            .on_conflict_do_nothing(index_elements=["update_id"])
        )
        return await rowcount(self._session, stmt) == 1

    async def forget_before(self, cutoff: datetime) -> int:
        """Delete the ids received before `cutoff` (Telegram gives up on an update after a
        day); returns how many."""
        stmt = delete(ReceivedUpdate).where(ReceivedUpdate.received_at < cutoff)
        return await rowcount(self._session, stmt)
