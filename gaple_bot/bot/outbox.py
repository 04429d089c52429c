"""Group messages in order and within a per-minute budget, merging edits that wait in line."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, Message
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError

log = logging.getLogger(__name__)
WINDOW_SECONDS = 60.0
RETRIES = 3


@dataclass(eq=False)
class MessageHandle:
    """A group message that may not have been sent yet; edits can be queued against it."""

    chat_id: int
    message_id: int | None = None
    thread_id: int | None = None
    failed: bool = False
    on_sent: Callable[[Message], Awaitable[None]] | None = None
    """Called once the message exists (to remember its id)."""
    settled: asyncio.Event = field(default_factory=asyncio.Event)

    async def wait(self) -> int | None:
        """The message id once the send has been made (None if it failed)."""
        await self.settled.wait()
        return self.message_id


@dataclass(eq=False)
class _Op:
    handle: MessageHandle
    kind: str  # "send" or "edit"
    kwargs: dict[str, Any]


class GroupOutbox:
    """One queue per group chat; a worker sends its items in order, never more than
    `per_minute` in any 60 seconds, so the game never waits on Telegram's group limit."""

    def __init__(
        self, bot: Bot, per_minute: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._bot = bot
        self._per_minute = per_minute
        self._clock = clock
        self._queues: dict[int, deque[_Op]] = {}
        self._sent_at: dict[int, deque[float]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._pending_edit: dict[MessageHandle, _Op] = {}

    def send(
        self,
        chat_id: int,
        on_sent: Callable[[Message], Awaitable[None]] | None = None,
        **kwargs: Any,
    ) -> MessageHandle:
        """Queue a sendMessage; the handle learns the message id when it goes out."""
        handle = MessageHandle(chat_id, thread_id=kwargs.get("message_thread_id"), on_sent=on_sent)
        self._push(_Op(handle, "send", {"chat_id": chat_id, **kwargs}))
        return handle

    def edit(self, handle: MessageHandle, **kwargs: Any) -> None:
        """Queue an edit of the handle's message; an edit still waiting is replaced instead."""
        waiting = self._pending_edit.get(handle)
        if waiting is not None:
            waiting.kwargs = kwargs
            return
        op = _Op(handle, "edit", kwargs)
        self._pending_edit[handle] = op
        self._push(op)

    @property
    def busy(self) -> bool:
        """Whether any group message is still waiting to go out."""
        return bool(self._workers)

    def existing(self, chat_id: int, message_id: int) -> MessageHandle:
        """A handle for a message sent earlier (for instance before a restart)."""
        handle = MessageHandle(chat_id, message_id)
        handle.settled.set()
        return handle

    async def drain(self) -> None:
        """Wait until every queue is empty."""
        while self._workers:
            await asyncio.gather(*self._workers.values(), return_exceptions=True)

    def _push(self, op: _Op) -> None:
        chat_id = op.handle.chat_id
        self._queues.setdefault(chat_id, deque()).append(op)
        if chat_id not in self._workers:
            self._workers[chat_id] = asyncio.create_task(self._work(chat_id))

    async def _work(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        try:
            while queue:
                await self._wait_for_budget(chat_id)
                op = queue.popleft()
                if op.kind == "edit":
                    self._pending_edit.pop(op.handle, None)
                await self._run(op)
        finally:
            del self._workers[chat_id]

    async def _wait_for_budget(self, chat_id: int) -> None:
        """Sleep until fewer than `per_minute` items went out in the last 60 seconds."""
        sent = self._sent_at.setdefault(chat_id, deque())
        while True:
            now = self._clock()
            while sent and now - sent[0] >= WINDOW_SECONDS:
                sent.popleft()
            if len(sent) < self._per_minute:
                sent.append(now)
                return
            await asyncio.sleep(WINDOW_SECONDS - (now - sent[0]) + 0.01)

    async def _run(self, op: _Op) -> None:
        handle = op.handle
        for attempt in range(RETRIES):
            try:
                if op.kind == "send" or (await handle.wait()) is None:
                    # An edit of a message whose send failed sends it afresh instead.
                    await self._send(handle, op)
                else:
                    await self._bot.edit_message_text(
                        chat_id=handle.chat_id, message_id=handle.message_id, **op.kwargs
                    )
                return
            except RetryAfter as exc:
                # Telegram's own limit was hit anyway (another client, a restart): wait as told.
                await asyncio.sleep(_seconds(exc.retry_after))
            except BadRequest as exc:
                if "not modified" not in exc.message.lower():
                    log.warning("group %s: %s failed: %s", handle.chat_id, op.kind, exc.message)
                break
            except NetworkError as exc:
                log.warning("group %s: %s failed, retrying: %s", handle.chat_id, op.kind, exc)
                await asyncio.sleep(attempt + 1)
            except TelegramError as exc:
                log.warning("group %s: %s failed: %s", handle.chat_id, op.kind, exc)
                break
        if handle.message_id is None:
            handle.failed = True
            handle.settled.set()

    async def _send(self, handle: MessageHandle, op: _Op) -> None:
        kwargs = dict(op.kwargs)
        kwargs.setdefault("chat_id", handle.chat_id)
        if handle.thread_id is not None:
            kwargs.setdefault("message_thread_id", handle.thread_id)
        message = await self._bot.send_message(**kwargs)
        handle.message_id = message.message_id
        handle.failed = False
        handle.settled.set()
        if handle.on_sent is not None:
            await handle.on_sent(message)


def _seconds(value: object) -> float:
    """RetryAfter.retry_after is an int or a timedelta depending on the library's settings."""
    total_seconds = getattr(value, "total_seconds", None)
    if callable(total_seconds):
        return float(total_seconds())
    return float(value)  # type: ignore[arg-type]
