"""This process's group queues at work: one task per group with something to send."""

from __future__ import annotations

import asyncio

from .answers import Outcome
from .job import Job
from .queues import Queues, Wait
from .sending import Sender
from .turns import Turns


class Workers:
    """Sends each group's queue in order, one request at a time, each in its turn; a group's
    task runs while something waits for the group or is in flight."""

    def __init__(self, sender: Sender, turns: Turns) -> None:
        self._sender = sender
        self._turns = turns
        self.queues: Queues[Job] = Queues(sender.budgets)
        self.running: dict[int, asyncio.Task[None]] = {}

    def queued(self) -> tuple[int, int]:
        """Requests waiting their turn: in all, and in the longest queue."""
        lengths = self.queues.lengths()
        return sum(lengths), max(lengths, default=0)

    def push(self, job: Job) -> None:
        """Queue the request last in its group's queue."""
        self.queues.push(job)
        self._start(job.chat_id)

    def edit(self, job: Job) -> None:
        """Queue an edit, merged into the one of its message still waiting."""
        if self.queues.edit(job, idle=job.chat_id not in self.running):
            self._start(job.chat_id)

    def drop(self, chat_id: int) -> list[Job]:
        """Take every request still queued for the group; their handles settle as not sent."""
        dropped = self.queues.drop(chat_id)
        for job in dropped:
            job.target.settle_unsent()
        return dropped

    def repoint(self, job: Job) -> None:
        """Queue a stored send again for the chat its message now names (a group's new
        supergroup id)."""
        handle = job.target
        handle.chat_id = job.message.chat_id
        handle.thread_id = None
        handle.failed = False
        handle.settled.clear()
        self.push(job)

    def _start(self, chat_id: int) -> None:
        if chat_id not in self.running:
            self.running[chat_id] = asyncio.create_task(self._work(chat_id))

    async def _work(self, chat_id: int) -> None:
        try:
            await self._turns.prepare(chat_id)
            while not self.queues.empty(chat_id):
                async with self._turns.hold(chat_id):
                    if not await self._send_next(chat_id):
                        return  # closed: what is stored goes out after the restart
        finally:
            del self.running[chat_id]

    async def _send_next(self, chat_id: int) -> bool:
        """Send the group's next request once its budget allows; False if the outbox closes
        first."""
        sender = self._sender
        while True:
            step = self.queues.next(chat_id, sender.pauses.now())
            if step is None:
                # Emptied while waiting (the bot left the chat, or it moved), or changed back.
                return True
            if not isinstance(step, Wait):
                break
            if not await sender.pauses.pause(step.seconds):
                return False
        outcome = await sender.run(step)
        if outcome is Outcome.GONE:
            # The message is gone: this change goes out as a fresh message, in turn.
            self.queues.send_fresh(step)
        elif outcome is Outcome.MIGRATED and step.stored:
            self.repoint(step)
        return True
