"""Received updates: which Telegram updates were taken in, by which worker, which of them the
handlers are not done with yet, and which taps were answered."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import delete, select, update

from ..models import AnsweredTap, ReceivedUpdate
from ..statements import Statements
from ..types import utc_now
from ._sql import rowcount, upsert_insert


class UpdateRepository:
    """Reads and writes `received_updates`."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def first_delivery(
        self,
        update_id: int,
        *,
        now: datetime | None = None,
        update_json: str | None = None,
        taken_by: int | None = None,
    ) -> bool:
        """Record the update as received, with its JSON, by worker `taken_by`; False if it
        already was (a second delivery: the record is left as it is)."""
        stmt = (
            upsert_insert(self._session, ReceivedUpdate)
            .values(
                update_id=update_id,
                received_at=now or utc_now(),
                update_json=update_json,
                taken_by=taken_by,
            )
            .on_conflict_do_nothing(index_elements=["update_id"])
        )
        return await rowcount(self._session, stmt) == 1

    async def handled(self, update_ids: Collection[int], *, now: datetime | None = None) -> int:
        """Mark updates as handled, and drop their JSON; returns how many there were."""
        if not update_ids:
            return 0
        stmt = (
            update(ReceivedUpdate)
            .where(ReceivedUpdate.update_id.in_(update_ids))
            .values(handled_at=now or utc_now(), update_json=None)
        )
        return await rowcount(self._session, stmt)

    async def takers(self, since: datetime) -> set[int]:
        """The workers holding updates received from `since` on and not handled."""
        stmt = (
            select(ReceivedUpdate.taken_by)
            .distinct()
            .where(
                ReceivedUpdate.handled_at.is_(None),
                ReceivedUpdate.taken_by.is_not(None),
                ReceivedUpdate.received_at >= since,
            )
        )
        takers = (await self._session.scalars(stmt)).all()
        return {int(taker) for taker in takers if taker is not None}

    async def claim(
        self, worker_id: int, *, since: datetime, of: Collection[int] | None
    ) -> list[tuple[int, str]]:
        """Take for worker `worker_id` the updates received from `since` on, not handled, that
        workers `of` hold (None: whoever holds them); returns (id, JSON) in id order.

        One guarded UPDATE: of workers claiming at once, each update goes to one (on
        PostgreSQL the others wait for its row, then see that its holder changed)."""
        if of is not None and not of:
            return []
        conditions = [
            ReceivedUpdate.handled_at.is_(None),
            ReceivedUpdate.update_json.is_not(None),
            ReceivedUpdate.received_at >= since,
        ]
        if of is not None:
            conditions.append(ReceivedUpdate.taken_by.in_(of))
        stmt = (
            update(ReceivedUpdate)
            .where(*conditions)
            .values(taken_by=worker_id)
            .returning(ReceivedUpdate.update_id, ReceivedUpdate.update_json)
        )
        rows = (await self._session.execute(stmt)).all()
        return sorted((int(update_id), str(data)) for update_id, data in rows)

    async def first_answer(self, query_id: str, *, now: datetime | None = None) -> bool:
        """Record that the tap `query_id` is being answered; False if it was already (Telegram
        takes one answer per tap: the update is handled a second time)."""
        stmt = (
            upsert_insert(self._session, AnsweredTap)
            .values(query_id=query_id, answered_at=now or utc_now())
            .on_conflict_do_nothing(index_elements=["query_id"])
        )
        return await rowcount(self._session, stmt) == 1

    async def forget_before(self, cutoff: datetime) -> int:
        """Delete the ids received, and the taps answered, before `cutoff` (Telegram gives up
        on an update after a day); returns how many updates."""
        await self._session.execute(delete(AnsweredTap).where(AnsweredTap.answered_at < cutoff))
        stmt = delete(ReceivedUpdate).where(ReceivedUpdate.received_at < cutoff)
        return await rowcount(self._session, stmt)
