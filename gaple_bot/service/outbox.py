"""The group outbox's memory in the database: what the groups have not been shown yet, and
when each group was last written to (its budget survives a restart)."""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from ..store import QueuedSend, Store
from ..store.game_locks import GROUP_SPACE, group_key

log = logging.getLogger(__name__)

DEAD_AFTER_SECONDS = 10.0
"""How long a worker holding stored sends must be missing from the live ones before another
worker takes its sends (two sweeps apart: a dropped lock connection is back by then)."""


class GroupLedger:
    """Stores queued group sends until Telegram accepts them, and recent group request times."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._clock = clock
        self._missing_since: dict[int, float] = {}
        """Owners of stored sends not among the live workers, and since when (seconds)."""

    async def queue(self, sends: list[tuple[int, int | None, dict[str, Any]]]) -> list[int]:
        """Store sends (chat, topic, JSON parameters) in this order, as this worker's; returns
        their ids."""
        owner = self._owner()
        async with self.store.transaction() as tx:
            return [
                await tx.outbox.add(chat, thread, params, owner=owner)
                for chat, thread, params in sends
            ]

    async def adopt(self) -> list[QueuedSend]:
        """Take every waiting send no live worker holds (all of them, for a process working
        alone), oldest first: the sends of a worker that stopped or died before Telegram
        accepted them. A worker missing from the live ones is taken for dead only once it has
        been missing for DEAD_AFTER_SECONDS (a worker whose lock connection dropped shows as
        missing until it reconnects)."""
        locks = self.store.game_locks
        if not locks.shared:
            async with self.store.transaction() as tx:
                return await tx.outbox.claim(None, set())
        live = await locks.live_workers()
        async with self.store.read() as tx:
            owners = await tx.outbox.owners()
        now = self._clock()
        missing = owners - live - {locks.worker_id}
        for owner in missing:
            self._missing_since.setdefault(owner, now)
        for owner in list(self._missing_since):
            if owner not in missing:
                del self._missing_since[owner]
        dead = {o for o, since in self._missing_since.items() if now - since >= DEAD_AFTER_SECONDS}
        async with self.store.transaction() as tx:
            return await tx.outbox.claim(locks.worker_id, dead)

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
        times older than `window` before the newest, and drop the stored sends in `done`
        (delivered, or refused for good)."""
        async with self.store.transaction() as tx:
            for chat_id, at in answers:
                await tx.outbox.stamp(chat_id, at)
            if answers:
                await tx.outbox.prune_stamps(max(at for _, at in answers) - window)
            for send_id in done:
                await tx.outbox.remove(send_id)

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
        key = group_key(chat_id)
        hold = await locks.acquire(key, GROUP_SPACE)
        try:
            yield
        finally:
            try:
                await locks.release(key, hold, GROUP_SPACE)
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
