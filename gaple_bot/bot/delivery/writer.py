"""The outbox's database writer: one background task keeps the ledger in step, in order, so
no request waits on it: new sends first, then request times and the stored sends done."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from ...service.outbox import GroupLedger, GroupRequest
from ..pacing.budget import WINDOW
from .job import Job
from .stored_json import stored_json

log = logging.getLogger(__name__)


class LedgerWriter:
    """Writes stored sends, request times and finished sends to the ledger in the background.
    `stored(jobs)` runs once sends are written (their rows known), `unstored(jobs)` if the
    database refused them."""

    def __init__(
        self,
        ledger: GroupLedger,
        *,
        stored: Callable[[Sequence[Job]], None] = lambda jobs: None,
        unstored: Callable[[Sequence[Job]], None] = lambda jobs: None,
    ) -> None:
        self.ledger = ledger
        self._stored = stored
        self._unstored = unstored
        self._unsaved: list[Job] = []
        self._answers: list[tuple[int, float]] = []
        self._finished: list[Job] = []
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """Whether something is still to be written."""
        return self._task is not None and not self._task.done()

    def tasks(self) -> list[asyncio.Task[None]]:
        """The writer's task, while it runs."""
        return [self._task] if self._task is not None and not self._task.done() else []

    def store(self, job: Job) -> None:
        """Keep the send (or edit) in the database until Telegram accepts it."""
        job.stored = True
        self._unsaved.append(job)
        self._soon()

    def answered(self, chat_id: int, at: float, delivered: Job | None = None) -> None:
        """Telegram answered a request to the chat at `at`; a delivered stored send is done."""
        self._answers.append((chat_id, at))
        if delivered is not None and delivered.stored:
            self._finished.append(delivered)
        self._soon()

    def finished(self, job: Job) -> None:
        """A stored send was refused for good: forget it."""
        self._finished.append(job)
        self._soon()

    async def flush(self) -> None:
        """Wait until the database holds everything written so far."""
        while self._task is not None and not self._task.done():
            await self._task

    def _soon(self) -> None:
        if not self.busy:
            self._task = asyncio.create_task(self._write())

    async def _write(self) -> None:
        while self._unsaved or self._answers or self._finished:
            if self._unsaved:
                await self._write_sends()
                continue
            answers, self._answers = self._answers, []
            finished, self._finished = self._finished, []
            done = [job.row_id for job in finished if job.row_id is not None]
            try:
                await self.ledger.answered(answers, window=WINDOW, done=done)
            except Exception:
                log.exception("group request times could not be stored")

    async def _write_sends(self) -> None:
        batch, self._unsaved = self._unsaved, []
        rows: list[GroupRequest] = []
        storable: list[Job] = []
        for job in batch:
            handle = job.target
            try:
                rows.append(
                    GroupRequest(
                        handle.chat_id,
                        handle.thread_id,
                        stored_json(job.message),
                        kind=job.message.kind.value,
                        game_id=handle.game_id,
                        message_id=handle.message_id if handle.game_id is None else None,
                        paced=job.message.paced,
                    )
                )
                storable.append(job)
            except TypeError:
                log.exception("group %s: a message could not be stored", handle.chat_id)
        try:
            ids = await self.ledger.queue_requests(rows)
        except Exception:
            # The messages still go out; only a restart before then would lose them.
            log.exception("group messages could not be stored")
            self._unstored(storable)
            return
        for job, row_id in zip(storable, ids, strict=True):
            job.row_id = row_id
        self._stored(storable)


class NoLedger:
    """No database: nothing is stored, and the budget is this process's count alone."""

    busy = False

    def tasks(self) -> list[asyncio.Task[None]]:
        """Nothing runs."""
        return []

    def store(self, job: Job) -> None:
        """Nothing to store it in."""

    def answered(self, chat_id: int, at: float, delivered: Job | None = None) -> None:
        """Nothing to count it in but the budget."""

    def finished(self, job: Job) -> None:
        """Nothing to forget."""

    async def flush(self) -> None:
        """Nothing to wait for."""
