"""What callers of the outbox hold: a handle on a group message, the clock, the painter."""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from telegram import Message

from ...games.pictures import Picture

OnSent = Callable[[Message], Awaitable[None]]
"""Called once a message exists (to remember its id), and again if it is sent afresh."""


class Painter(Protocol):
    """Draws a picture off the event loop; None if it could not be drawn."""

    async def __call__(self, picture: Picture) -> bytes | None:
        """The picture's PNG bytes, or None."""

    def close(self) -> None:
        """Stop drawing (at shutdown)."""


@dataclass(frozen=True, slots=True)
class OutboxClock:
    """Wall-clock seconds (stored request times must mean the same after a restart) and a
    way to wait on that clock; tests inject their own."""

    now: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep


@dataclass(eq=False)
class MessageHandle:
    """A group message that may not have been sent yet; edits can be queued against it."""

    chat_id: int
    message_id: int | None = None
    thread_id: int | None = None
    game_id: int | None = None
    """The game whose lobby or table this is: beside other workers an edit goes to the
    game's message as stored when the edit's turn comes."""
    failed: bool = False
    on_sent: OnSent | None = None
    """Called once the message exists (to remember its id), and again if it is sent afresh."""
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    shown: str | None = None
    """What the message shows as Telegram last accepted it (`GroupMessage.content`): an edit
    to the same is not made (Telegram would refuse it, and it would spend the budget)."""

    async def wait(self) -> int | None:
        """The message id once the send has been made (None if it failed or is gone)."""
        await self.settled.wait()
        return self.message_id

    def settle_unsent(self) -> None:
        """Nothing more will send it: waiters learn it does not exist (unless it does)."""
        if self.message_id is None:
            self.failed = True
            self.settled.set()


def settled_handle(
    chat_id: int,
    message_id: int | None = None,
    *,
    thread_id: int | None = None,
    game_id: int | None = None,
    on_sent: OnSent | None = None,
) -> MessageHandle:
    """A handle on a message that exists already (or, with no id, is sent by its first edit)."""
    handle = MessageHandle(chat_id, message_id, thread_id, game_id, on_sent=on_sent)
    handle.settled.set()
    return handle


class KnownMessages:
    """The handles on messages sent earlier, one per message while it lives: its edits merge,
    and it knows what it shows."""

    def __init__(self) -> None:
        self._handles: weakref.WeakValueDictionary[tuple[int, int], MessageHandle] = (
            weakref.WeakValueDictionary()
        )

    def get(
        self,
        chat_id: int,
        message_id: int,
        *,
        thread_id: int | None = None,
        on_sent: OnSent | None = None,
    ) -> MessageHandle:
        """The handle on the message, made if there is none."""
        known = self._handles.get((chat_id, message_id))
        if known is not None and known.message_id == message_id:
            if on_sent is not None:
                known.on_sent = on_sent
            return known
        handle = settled_handle(chat_id, message_id, thread_id=thread_id, on_sent=on_sent)
        self._handles[(chat_id, message_id)] = handle
        return handle
