"""What the drivers share around the core: sleeping on the clock until the outbox closes, and
running the chat hooks in tasks of their own."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from .handle import OutboxClock

log = logging.getLogger(__name__)


class Pauses:
    """Sleeps on the outbox's clock, cut short when the outbox closes."""

    def __init__(self, clock: OutboxClock) -> None:
        self.clock = clock
        self.closed = asyncio.Event()

    def now(self) -> float:
        """The clock's time."""
        return self.clock.now()

    async def pause(self, seconds: float) -> bool:
        """Sleep; False if the outbox closes first (or has closed)."""
        if self.closed.is_set():
            return False
        sleeper = asyncio.ensure_future(self.clock.sleep(seconds))
        closer = asyncio.ensure_future(self.closed.wait())
        try:
            await asyncio.wait({sleeper, closer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            closer.cancel()
        return not self.closed.is_set()


class Hooks:
    """Tells the bot, each in its own task, that it may not write in a group
    (`on_unwritable(chat_id)`) or that a group became a supergroup (`on_migrated(old, new)`)."""

    def __init__(
        self,
        on_unwritable: Callable[[int], Awaitable[None]] | None = None,
        on_migrated: Callable[[int, int], Awaitable[None]] | None = None,
    ) -> None:
        self._on_unwritable = on_unwritable
        self._on_migrated = on_migrated
        self.running: set[asyncio.Task[None]] = set()

    def unwritable(self, chat_id: int) -> None:
        """The bot may not write in the group."""
        if self._on_unwritable is not None:
            self._start(self._call(self._on_unwritable(chat_id), "unwritable", chat_id))

    def migrated(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group moved to a new chat id (the hook moves the games and what waits)."""
        if self._on_migrated is not None:
            call = self._on_migrated(old_chat_id, new_chat_id)
            self._start(self._call(call, "migration", old_chat_id))

    def _start(self, call: Awaitable[None]) -> None:
        task = asyncio.ensure_future(call)
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    async def _call(self, call: Awaitable[None], name: str, chat_id: int) -> None:
        try:
            await call
        except Exception:
            log.exception("group %s: the %s hook failed", chat_id, name)
