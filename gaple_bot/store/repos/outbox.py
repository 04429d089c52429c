"""The group outbox: queued group messages and the times of recent group requests."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update

from ..models import GroupSend, GroupStamp
from ..statements import Statements
from ..types import utc_now


@dataclass(frozen=True, slots=True)
class QueuedSend:
    """A stored group send: its row id (the queue's order), chat, topic and parameters."""

    id: int
    chat_id: int
    thread_id: int | None
    params: dict[str, Any]
    kind: str = "send"
    """send, edit, or forget (the game's message is not edited again)."""
    game_id: int | None = None
    """The game whose lobby or table message it sends or edits."""
    message_id: int | None = None
    """The message an edit changes, when it is no game's."""
    paced: bool = False
    """A table edit that may wait at the head of its group's queue for the table's pace."""


class OutboxRepository:
    """Reads and writes `group_sends` and `group_stamps`."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def add(
        self,
        chat_id: int,
        thread_id: int | None,
        params: dict[str, Any],
        *,
        owner: int | None = None,
        now: datetime | None = None,
        kind: str = "send",
        game_id: int | None = None,
        message_id: int | None = None,
        paced: bool = False,
    ) -> int:
        """Store a send (or an edit) waiting for Telegram, held by worker `owner`; returns
        its id."""
        stmt = (
            insert(GroupSend)
            .values(
                chat_id=chat_id,
                thread_id=thread_id,
                params=params,
                queued_at=now or utc_now(),
                owner=owner,
                kind=kind,
                game_id=game_id,
                message_id=message_id,
                paced=paced,
            )
            .returning(GroupSend.id)
        )
        return int((await self._session.execute(stmt)).scalar_one())

    async def remove(self, send_id: int) -> None:
        """Forget a send (delivered, or refused for good)."""
        await self._session.execute(delete(GroupSend).where(GroupSend.id == send_id))

    async def remove_all(self, send_ids: list[int]) -> None:
        """Forget several sends and edits (delivered, merged, or refused for good)."""
        if send_ids:
            await self._session.execute(delete(GroupSend).where(GroupSend.id.in_(send_ids)))

    async def waiting(self, chat_id: int) -> list[QueuedSend]:
        """The chat's sends and edits, in their order."""
        rows = await self._session.execute(
            select(
                GroupSend.id,
                GroupSend.chat_id,
                GroupSend.thread_id,
                GroupSend.params,
                GroupSend.kind,
                GroupSend.game_id,
                GroupSend.message_id,
                GroupSend.paced,
            )
            .where(GroupSend.chat_id == chat_id)
            .order_by(GroupSend.id)
        )
        return [QueuedSend(*row) for row in rows]

    async def chats_waiting(self) -> list[int]:
        """The chats with sends or edits waiting."""
        return [
            int(chat)
            for chat in (await self._session.scalars(select(GroupSend.chat_id).distinct())).all()
        ]

    async def counts(self) -> list[int]:
        """How many sends and edits wait for each chat that has some."""
        stmt = select(func.count()).select_from(GroupSend).group_by(GroupSend.chat_id)
        return [int(count) for count in (await self._session.scalars(stmt)).all()]

    async def pending(self) -> list[QueuedSend]:
        """Every stored send, oldest first."""
        rows = await self._session.execute(
            select(GroupSend.id, GroupSend.chat_id, GroupSend.thread_id, GroupSend.params).order_by(
                GroupSend.id
            )
        )
        return [QueuedSend(*row) for row in rows]

    async def claim(self) -> list[QueuedSend]:
        """Every stored send of a process that worked alone (no owner), oldest first."""
        stmt = (
            select(GroupSend.id, GroupSend.chat_id, GroupSend.thread_id, GroupSend.params)
            .where(GroupSend.owner.is_(None))
            .order_by(GroupSend.id)
        )
        return [QueuedSend(*row) for row in await self._session.execute(stmt)]

    async def stamp(self, chat_id: int, at: float) -> None:
        """Record a group request Telegram answered at `at`."""
        await self._session.execute(insert(GroupStamp).values(chat_id=chat_id, at=at))

    async def stamps(self, chat_id: int, since: float) -> list[float]:
        """The chat's request times from `since` on, oldest first."""
        rows = await self._session.execute(
            select(GroupStamp.at)
            .where(GroupStamp.chat_id == chat_id, GroupStamp.at >= since)
            .order_by(GroupStamp.at)
        )
        return [float(at) for at in rows.scalars()]

    async def prune_stamps(self, before: float) -> None:
        """Delete every chat's request times older than `before`."""
        await self._session.execute(delete(GroupStamp).where(GroupStamp.at < before))

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its queue and budget follow it, but for the lobbies'
        and tables' messages and the edits (the old chat's messages), which are dropped:
        lobbies and tables are posted afresh in the new chat."""
        await self._session.execute(
            delete(GroupSend).where(
                GroupSend.chat_id == old_chat_id,
                or_(GroupSend.kind != "send", GroupSend.game_id.is_not(None)),
            )
        )
        for model in (GroupSend, GroupStamp):
            await self._session.execute(
                update(model).where(model.chat_id == old_chat_id).values(chat_id=new_chat_id)
            )

    async def forget_chat(self, chat_id: int) -> None:
        """The bot left the group: drop what was queued for it and its budget."""
        for model in (GroupSend, GroupStamp):
            await self._session.execute(delete(model).where(model.chat_id == chat_id))
