"""What both drivers do alike: handles, drawing and waiting, closing at shutdown."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from ...games.pictures import Picture
from .handle import KnownMessages, MessageHandle, OnSent, Painter, settled_handle
from .job import Job
from .records import GroupMessage, Kind
from .sending import Sender
from .workers import Workers
from .writer import LedgerWriter, NoLedger

log = logging.getLogger(__name__)


class DriverBase:
    """The parts of a driver that do not depend on where the queues are: the sender, this
    process's workers, the ledger writer, and shutdown."""

    def __init__(
        self,
        sender: Sender,
        workers: Workers,
        writer: LedgerWriter | NoLedger,
        painter: Painter | None,
    ) -> None:
        self._sender = sender
        self._workers = workers
        self._writer = writer
        self._painter = painter
        self._known = KnownMessages()

    def queued(self) -> tuple[int, int]:
        """Group messages waiting their turn: in all, and in the longest queue (for /metrics)."""
        return self._workers.queued()

    @property
    def busy(self) -> bool:
        """Whether any group message is still waiting to go out (or to be stored)."""
        return bool(self._tasks()) or self._writer.busy or bool(self._sender.hooks.running)

    def game_message(
        self, chat_id: int, game_id: int, *, thread_id: int | None = None
    ) -> MessageHandle:
        """Beside other workers: a handle on the game's lobby or table message, whichever
        message the game stores when an edit's turn comes (none: the edit is sent afresh)."""
        return settled_handle(chat_id, thread_id=thread_id, game_id=game_id)

    async def drain(self) -> None:
        """Wait until every queue is empty (or, once closed, has stopped at the budget)."""
        while tasks := [*self._tasks(), *self._writer.tasks()]:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self, timeout: float) -> None:  # noqa: ASYNC109 - a shutdown bound
        """At shutdown: store what is not stored yet, send what the budget allows right now,
        and leave the rest in the database for the next start. Edits still waiting are dropped
        (the resume path edits every table again)."""
        self._sender.pauses.closed.set()
        try:
            async with asyncio.timeout(timeout):
                while tasks := [*self._tasks(), *self._sender.hooks.running]:
                    await asyncio.wait(tasks)
        except TimeoutError:
            log.warning("group requests still in flight at shutdown were cut off")
            tasks = [*self._tasks(), *self._sender.hooks.running]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        # What was stored or answered reaches the database before the store closes.
        await self.flush()

    def close_painter(self) -> None:
        """At shutdown, after `close`: the painter's workers stop."""
        if self._painter is not None:
            self._painter.close()

    async def flush(self) -> None:
        """Wait until the database holds every send and request time this outbox knows."""
        await self._writer.flush()

    def _tasks(self) -> list[asyncio.Task[None]]:
        """The driver's tasks at work on the groups."""
        return list(self._workers.running.values())


def send_job(
    chat_id: int, on_sent: OnSent | None, game_id: int | None, params: dict[str, Any]
) -> Job:
    """The job of a sendMessage (or a photo: `params` has its picture)."""
    handle = MessageHandle(
        chat_id, thread_id=params.get("message_thread_id"), game_id=game_id, on_sent=on_sent
    )
    return Job(handle, GroupMessage.of(chat_id, Kind.SEND, params, game_id=game_id))


def photo_params(picture: Picture, caption: str, params: dict[str, Any]) -> dict[str, Any]:
    """A photo's parameters: its picture, its caption as the text, the rest as given."""
    return {"picture": picture, "text": caption, **params}


def edit_job(handle: MessageHandle, params: dict[str, Any]) -> Job:
    """The job of an edit of the handle's message."""
    return Job(handle, GroupMessage.of(handle.chat_id, Kind.EDIT, params, game_id=handle.game_id))
