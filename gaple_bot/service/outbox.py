"""The group outbox's memory in the database: what the groups have not been shown yet, and
when each group was last written to (its budget survives a restart)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from ..store import GameNotFound, Hold, QueuedSend, Store
from ..store.game_locks import GROUP_SPACE, group_key

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class GroupRequest:
    """A group send or edit to store: its chat, topic and JSON parameters, and the message it
    changes (a game's lobby or table, or a message by id)."""

    chat_id: int
    thread_id: int | None
    params: dict[str, Any]
    kind: str = "send"
    game_id: int | None = None
    message_id: int | None = None
    paced: bool = False
    """A table edit that may wait at the head of its group's queue for the table's pace."""


class GroupLedger:
    """Stores queued group sends until Telegram accepts them, and recent group request times."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pruned_at: float | None = None
        """When (on the answers' clock) old request times were last forgotten."""

    async def queue(self, sends: Sequence[tuple[int, int | None, dict[str, Any]]]) -> list[int]:
        """Store sends (chat, topic, JSON parameters) in this order, as this worker's; returns
        their ids."""
        return await self.queue_requests([GroupRequest(*send) for send in sends])

    async def queue_requests(self, requests: Sequence[GroupRequest]) -> list[int]:
        """Store sends and edits in this order, as this worker's; returns their ids."""
        owner = self._owner()
        async with self.store.transaction() as tx:
            return [
                await tx.outbox.add(
                    request.chat_id,
                    request.thread_id,
                    request.params,
                    owner=owner,
                    kind=request.kind,
                    game_id=request.game_id,
                    message_id=request.message_id,
                    paced=request.paced,
                )
                for request in requests
            ]

    async def waiting(self, chat_id: int) -> list[QueuedSend]:
        """The group's stored sends and edits, in their order."""
        async with self.store.read() as tx:
            return await tx.outbox.waiting(chat_id)

    async def chats_waiting(self) -> list[int]:
        """The groups with sends or edits waiting."""
        async with self.store.read() as tx:
            return await tx.outbox.chats_waiting()

    async def waiting_counts(self) -> list[int]:
        """How many sends and edits wait for each group that has some."""
        async with self.store.read() as tx:
            return await tx.outbox.counts()

    async def finish(self, send_ids: list[int]) -> None:
        """Forget stored sends and edits: delivered, merged into a later one, or refused."""
        async with self.store.transaction() as tx:
            await tx.outbox.remove_all(send_ids)

    async def game_message(self, game_id: int) -> int | None:
        """The group message that shows the game's lobby or table now, if there is one."""
        async with self.store.read() as tx:
            try:
                return (await tx.games.get(game_id)).message_id
            except GameNotFound:
                return None

    async def game_message_sent(self, game_id: int, message_id: int | None) -> None:
        """A new message shows the game's lobby or table: later edits go to it (None: no
        message does; the next edit posts one)."""
        async with self.store.transaction() as tx:
            try:
                await tx.games.set_message(game_id, message_id)
            except GameNotFound:
                log.info("game %s is gone: its message %s is not kept", game_id, message_id)

    async def adopt(self) -> list[QueuedSend]:
        """Every waiting send, oldest first, for a process working alone after a restart
        (beside other workers the groups' queues are shared and never adopted: whoever
        holds a group's turn sends what waits for it)."""
        async with self.store.transaction() as tx:
            return await tx.outbox.claim()

    def _owner(self) -> int | None:
        locks = self.store.game_locks
        return locks.worker_id if locks.shared else None

    async def pending(self) -> list[QueuedSend]:
        """Every send still waiting, oldest first (to queue again after a restart)."""
        async with self.store.read() as tx:
            return await tx.outbox.pending()

    async def answered(
        self, answers: list[tuple[int, float]], *, window: float, done: list[int]
    ) -> None:
        """Telegram answered requests (chat, time): count them in their chats' budgets, forget
        times older than `window` before the newest (at most once a window: a budget reads
        only the times within it, so older ones cost nothing but room meanwhile), and drop the
        stored sends in `done` (delivered, or refused for good)."""
        newest = max((at for _, at in answers), default=None)
        prune = newest is not None and (
            self._pruned_at is None or newest - self._pruned_at >= window
        )
        async with self.store.transaction() as tx:
            for chat_id, at in answers:
                await tx.outbox.stamp(chat_id, at)
            if prune and newest is not None:
                await tx.outbox.prune_stamps(newest - window)
            for send_id in done:
                await tx.outbox.remove(send_id)
        if prune:
            self._pruned_at = newest

    @property
    def shared(self) -> bool:
        """Whether other workers write to the same groups (their budgets are one)."""
        return self.store.game_locks.shared

    @asynccontextmanager
    async def group_turn(self, chat_id: int) -> AsyncIterator[None]:
        """Be the only worker writing to the group for the block (nothing to wait for when
        this process works alone)."""
        locks = self.store.game_locks
        if not locks.shared:
            yield
            return
        hold = await locks.acquire(group_key(chat_id), GROUP_SPACE)
        try:
            yield
        finally:
            await self._give_turn_back(chat_id, hold)

    @asynccontextmanager
    async def group_turn_if_free(self, chat_id: int) -> AsyncIterator[bool]:
        """The group's turn for the block if no other worker holds it now (True), else no
        wait (False): the worker that holds it sends what waits, and looks again once it lets
        the turn go (see SharedOutbox)."""
        locks = self.store.game_locks
        if not locks.shared:
            yield True
            return
        hold = await locks.try_acquire(group_key(chat_id), GROUP_SPACE)
        if hold is None:
            yield False
            return
        try:
            yield True
        finally:
            await self._give_turn_back(chat_id, hold)

    async def _give_turn_back(self, chat_id: int, hold: Hold) -> None:
        try:
            await self.store.game_locks.release(group_key(chat_id), hold, GROUP_SPACE)
        except Exception:
            # The lock went with the connection that failed.
            log.warning("group %s: its turn could not be given back", chat_id, exc_info=True)

    async def recent(self, chat_id: int, since: float) -> list[float]:
        """The chat's request times from `since` on, oldest first."""
        async with self.store.read() as tx:
            return await tx.outbox.stamps(chat_id, since)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its waiting sends and budget follow it."""
        async with self.store.transaction() as tx:
            await tx.outbox.move_chat(old_chat_id, new_chat_id)

    async def forget_chat(self, chat_id: int) -> None:
        """The bot may not write in the group any more: drop its waiting sends and budget."""
        async with self.store.transaction() as tx:
            await tx.outbox.forget_chat(chat_id)
