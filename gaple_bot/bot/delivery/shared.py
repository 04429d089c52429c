"""The database-shared driver: beside other workers every send and edit waits in the
database, one queue per group, sent in order by whichever worker holds the group's turn."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from enum import Enum
from typing import Any

from telegram import Bot, Message

from ...games.pictures import Picture
from ...service.api import QueuedSend
from ...service.outbox import GroupLedger
from ..pacing.budget import Budgets
from .answers import Outcome
from .base import DriverBase, edit_job, photo_params, send_job
from .handle import MessageHandle, OnSent, OutboxClock, Painter, settled_handle
from .job import Job
from .records import GroupMessage, Kind
from .runtime import Hooks, Pauses
from .sending import Sender
from .stored import Forget, Request, head_request, paced_edit
from .turns import Shared
from .workers import Workers
from .writer import LedgerWriter

log = logging.getLogger(__name__)


class Drained(Enum):
    """How a drainer's turn at a group's stored queue ended."""

    EMPTY = "empty"
    """Nothing waited any more."""
    STOPPED = "stopped"
    """The outbox closes, or a request got no answer: the next kick goes on."""
    ELSEWHERE = "elsewhere"
    """Another worker held the group's turn: it sends what waits."""
    PACED = "paced"
    """A table edit heads the queue, waiting for its table's pace: the group is kicked again
    when the pace has passed, and any worker's next message for it lets the edit go."""


class SharedOutbox(DriverBase):
    """Every send and edit waits in the database, one queue per group for all workers, and
    whichever worker holds the group's turn sends what waits there in order, merging the edits
    of one message: so a group sees its messages in the order the games made them, each edit
    reaches the message it is meant for (a game's lobby or table as stored when its turn
    comes), and no worker's backlog keeps another's messages waiting. If the database does
    not take a message, this worker sends it from its own queue, in the group's turn.

    A table's edits keep the table's pace here, where every worker's edits meet: one that heads
    the queue with nothing but paced edits behind it waits until `table_edit_seconds` after the
    group's last request, and the edits queued meanwhile merge into it, as one process's table
    pace holds them back. It waits with the group's turn let go: whichever worker next queues
    a message for the group, or kicks it when the pace has passed, sends it."""

    shared = True
    """The groups' queues are in the database, shared with other workers."""

    def __init__(
        self,
        bot: Bot,
        per_minute: int,
        *,
        ledger: GroupLedger,
        clock: OutboxClock | None = None,
        hooks: Hooks | None = None,
        painter: Painter | None = None,
        table_edit_seconds: float = 0.0,
    ) -> None:
        budgets = Budgets(per_minute)
        pauses = Pauses(clock or OutboxClock())
        writer = LedgerWriter(ledger, stored=self._stored, unstored=self._unstored)
        sender = Sender(bot, budgets, writer, pauses, hooks or Hooks(), painter)
        self._turns = Shared(budgets, pauses, ledger, writer)
        super().__init__(sender, Workers(sender, self._turns), writer, painter)
        self._ledger = ledger
        self._table_edit_seconds = table_edit_seconds
        self._drainers: dict[int, asyncio.Task[None]] = {}
        """The groups whose stored queue this worker is sending (or waiting for the turn)."""
        self._again: set[int] = set()
        """Groups given more to send while their drainer was already at work."""
        self._pacing: dict[int, asyncio.Task[None]] = {}
        """Groups whose table edit waits for its pace: the kick when the pace has passed."""
        self._paced_since: dict[int, tuple[int, float]] = {}
        """Each such group's waiting edit (its first row) and when this worker first saw it."""

    async def queued_now(self) -> tuple[int, int]:
        """The shared queues in the database (all workers' messages: each worker's /metrics
        shows the same)."""
        lengths = await self._ledger.waiting_counts()
        return sum(lengths), max(lengths, default=0)

    def send(
        self,
        chat_id: int,
        on_sent: OnSent | None = None,
        *,
        game_id: int | None = None,
        **kwargs: Any,
    ) -> MessageHandle:
        """Queue a sendMessage in the database (the message of `game_id` is stored on the
        game when it goes out)."""
        job = send_job(chat_id, on_sent, game_id, kwargs)
        self._writer.store(job)
        return job.target

    def send_photo(
        self,
        chat_id: int,
        picture: Picture,
        *,
        caption: str,
        on_sent: OnSent | None = None,
        **kwargs: Any,
    ) -> MessageHandle:
        """Queue a photo of `picture` with its HTML caption, drawn by whichever worker sends
        it when its turn comes (its caption goes as text if it cannot be)."""
        job = send_job(chat_id, on_sent, None, photo_params(picture, caption, kwargs))
        self._writer.store(job)
        return job.target

    def edit(self, handle: MessageHandle, **kwargs: Any) -> None:
        """Queue an edit of the handle's message (of its game's, as stored when its turn
        comes) in the database; edits of one message waiting together merge."""
        self._writer.store(edit_job(handle, kwargs))

    def existing(
        self,
        chat_id: int,
        message_id: int,
        *,
        thread_id: int | None = None,
        on_sent: OnSent | None = None,
        game_id: int | None = None,
    ) -> MessageHandle:
        """A handle for a message sent earlier: the game's message (as stored when an edit's
        turn comes) for a game's, else that message."""
        if game_id is not None:
            return self.game_message(chat_id, game_id, thread_id=thread_id)
        return self._known.get(chat_id, message_id, thread_id=thread_id, on_sent=on_sent)

    def forget_game_message(self, chat_id: int, game_id: int) -> None:
        """The game's message is not edited again once what is queued before now has gone
        out; the next edit of the game's message posts a fresh one (after a pause the old one
        may be far up the chat)."""
        handle = MessageHandle(chat_id, game_id=game_id)
        self._writer.store(Job(handle, GroupMessage(chat_id, Kind.FORGET, game_id=game_id)))

    async def restore(self) -> int:
        """Whoever holds a group's turn sends every worker's waiting messages: a group with
        some waiting and no drainer here gets one (it waits for the turn); at start and from
        time to time (a worker that died leaves its messages to the others). Returns 0: none
        is adopted."""
        for chat_id in await self._ledger.chats_waiting():
            if chat_id not in self._drainers:
                self._kick(chat_id)
        return 0

    async def forget_chat(self, chat_id: int) -> None:
        """The bot left the group: drop whatever waits for it, here and in the database."""
        self._workers.drop(chat_id)
        await self.flush()
        await self._ledger.forget_chat(chat_id)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup: what waits for it in the database goes to the new
        chat, in order."""
        self._workers.drop(old_chat_id)
        await self.flush()
        await self._ledger.move_chat(old_chat_id, new_chat_id)
        self._kick(new_chat_id)

    def _tasks(self) -> list[asyncio.Task[None]]:
        return [*super()._tasks(), *self._drainers.values(), *self._pacing.values()]

    def _stored(self, jobs: Sequence[Job]) -> None:
        for chat_id in dict.fromkeys(job.chat_id for job in jobs):
            self._kick(chat_id)

    def _unstored(self, jobs: Sequence[Job]) -> None:
        # On this worker's own, in its order (the database does not answer).
        for job in jobs:
            job.stored = False
            self._workers.push(job)

    def _kick(self, chat_id: int) -> None:
        """See that the group's stored queue gets sent: start a drainer, or tell the one at
        work that there is more."""
        if chat_id in self._drainers:
            self._again.add(chat_id)
            return
        if self._sender.pauses.closed.is_set():
            return
        self._drainers[chat_id] = asyncio.create_task(self._drain(chat_id))

    async def _drain(self, chat_id: int) -> None:
        try:
            while True:
                self._again.discard(chat_id)
                ended = await self._drain_turn(chat_id)
                if ended is Drained.ELSEWHERE or self._sender.pauses.closed.is_set():
                    return
                if ended is Drained.PACED:
                    # What another worker stored while this one held the turn may let the
                    # edit go: it looks once it has let go, as for a queue it emptied.
                    # (`_again` is looked at after the read: a kick may come while it runs.)
                    if not await self._still_paced(chat_id) or chat_id in self._again:
                        continue
                    return
                if chat_id in self._again:
                    continue
                # What another worker stored while this one held the turn, when it could not
                # take the turn, is this one's to send: it looks once it has let go.
                if ended is Drained.EMPTY and (
                    await self._ledger.waiting(chat_id) or chat_id in self._again
                ):
                    continue
                return
        except Exception:
            # What waits stays stored: the sweep kicks the group again.
            log.exception("group %s: its waiting messages could not be sent", chat_id)
        finally:
            del self._drainers[chat_id]

    async def _drain_turn(self, chat_id: int) -> Drained:
        """Hold the group's turn and send what waits for it, every worker's, in order, until
        nothing does (or the outbox closes, or a request gets no answer: then it waits for
        the next kick). A turn another worker holds is not waited for: that worker sends
        what waits, this one's too."""
        ledger, sender = self._ledger, self._sender
        async with ledger.group_turn_if_free(chat_id) as ours:
            if not ours:
                return Drained.ELSEWHERE
            await self._turns.reload(chat_id)
            while not sender.pauses.closed.is_set():
                if not await ledger.waiting(chat_id):
                    return Drained.EMPTY
                if not await sender.wait_for_budget(chat_id):
                    return Drained.STOPPED
                # Read again once the budget allows: edits queued meanwhile merge in.
                waiting = await ledger.waiting(chat_id)
                head = head_request(waiting)
                if head is None:
                    return Drained.EMPTY
                if isinstance(head, Forget):
                    await ledger.game_message_sent(head.game_id, None)
                    await ledger.finish([head.row_id])
                    continue
                if (hold := self._pace_left(head, waiting)) > 0:
                    self._kick_later(chat_id, hold)
                    return Drained.PACED
                job = await self._job(head)
                outcome = await sender.run(job)
                if outcome is Outcome.GONE:
                    # The message is gone: the change goes out as a fresh message.
                    if not await sender.wait_for_budget(chat_id):
                        return Drained.STOPPED
                    outcome = await sender.run(job)
                # Request times stored before the next worker's turn reads them.
                await self.flush()
                if outcome not in (Outcome.DELIVERED, Outcome.REFUSED):
                    return Drained.STOPPED
                await ledger.finish(list(head.covered))
        return Drained.STOPPED

    def _pace_left(self, head: Request, waiting: Sequence[QueuedSend]) -> float:
        """Seconds the head waits yet for its table's pace, `table_edit_seconds` after the
        group's last request (or after this worker first saw the head, if that is earlier:
        another worker's clock may run ahead); none unless it is a paced edit and all that
        waits behind it is paced edits too (of another table in the group: they go in turn)."""
        chat_id, now = head.message.chat_id, self._sender.pauses.now()
        seen = self._paced_since.pop(chat_id, None)
        if self._table_edit_seconds <= 0 or not head.message.paced:
            return 0.0
        covered = set(head.covered)
        if any(row.id not in covered and not paced_edit(row) for row in waiting):
            return 0.0
        last = self._sender.budgets.last(chat_id)
        if last is None:
            return 0.0
        if seen is None or seen[0] != head.covered[0]:
            seen = (head.covered[0], now)
        left = min(last, seen[1]) + self._table_edit_seconds - now
        if left > 0:
            self._paced_since[chat_id] = seen
        return left

    async def _still_paced(self, chat_id: int) -> bool:
        """Whether the group's queue is still headed by an edit waiting for its pace."""
        waiting = await self._ledger.waiting(chat_id)
        head = head_request(waiting)
        return isinstance(head, Request) and self._pace_left(head, waiting) > 0

    def _kick_later(self, chat_id: int, seconds: float) -> None:
        """Kick the group again in `seconds` (in place of an earlier such kick)."""
        if (earlier := self._pacing.pop(chat_id, None)) is not None:
            earlier.cancel()
        self._pacing[chat_id] = asyncio.create_task(self._kick_after(chat_id, seconds))

    async def _kick_after(self, chat_id: int, seconds: float) -> None:
        try:
            if await self._sender.pauses.pause(seconds):
                self._kick(chat_id)
        finally:
            if self._pacing.get(chat_id) is asyncio.current_task():
                del self._pacing[chat_id]

    async def _job(self, head: Request) -> Job:
        """The job of the stored queue's head: an edit of a game's message goes to the
        message the game stores now."""
        message = head.message
        message_id = head.message_id
        if message.kind is Kind.EDIT and message.game_id is not None:
            message_id = await self._ledger.game_message(message.game_id)
        handle = settled_handle(
            message.chat_id, message_id, thread_id=message.thread_id, game_id=message.game_id
        )
        if message.game_id is not None:
            handle.on_sent = self._store_game_message(message.game_id)
        return Job(handle, message)

    def _store_game_message(self, game_id: int) -> OnSent:
        """Store a new lobby or table message on its game, for the edits that follow it."""

        async def store(message: Message) -> None:
            await self._ledger.game_message_sent(game_id, message.message_id)

        return store
