"""The group outbox's memory in the database: what the groups have not been shown yet, and
when each group was last written to (its budget survives a restart)."""

from __future__ import annotations

from typing import Any

from ..store import QueuedSend, Store


class GroupLedger:
    """Stores queued group sends until Telegram accepts them, and recent group request times."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def queue(self, sends: list[tuple[int, int | None, dict[str, Any]]]) -> list[int]:
        """Store sends (chat, topic, JSON parameters) in this order; returns their ids."""
        async with self.store.transaction() as tx:
            return [await tx.outbox.add(chat, thread, params) for chat, thread, params in sends]

    async def pending(self) -> list[QueuedSend]:
        """Every send still waiting, oldest first (to queue again after a restart)."""
        async with self.store.read() as tx:
            return await tx.outbox.pending()

    async def answered(
        self, chat_id: int, at: float, *, window: float, done: int | None = None
    ) -> None:
        """Telegram answered a request to the chat at `at`: count it in the chat's budget,
        forget times older than `window`, and drop the stored send `done` if there is one."""
        async with self.store.transaction() as tx:
            await tx.outbox.stamp(chat_id, at)
            await tx.outbox.prune_stamps(at - window)
            if done is not None:
                await tx.outbox.remove(done)

    async def drop(self, send_id: int) -> None:
        """Forget a stored send that Telegram refused for good."""
        async with self.store.transaction() as tx:
            await tx.outbox.remove(send_id)

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
