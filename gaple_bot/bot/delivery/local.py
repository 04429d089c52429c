"""The in-process driver: this process alone writes to its groups (SQLite, one worker)."""

from __future__ import annotations

from typing import Any

from telegram import Bot

from ...games.pictures import Picture
from ...service.outbox import GroupLedger
from ..pacing.budget import Budgets
from .base import DriverBase, edit_job, photo_params, send_job
from .handle import MessageHandle, OnSent, OutboxClock, Painter
from .job import Job
from .records import Kind
from .runtime import Hooks, Pauses
from .sending import Sender
from .stored_json import stored_message
from .turns import Alone
from .workers import Workers
from .writer import LedgerWriter, NoLedger


class LocalOutbox(DriverBase):
    """One queue per group chat in this process; a task per group sends its items in order,
    never more than `per_minute` in any 60 seconds as Telegram counts them, so the game never
    waits on Telegram's group limit.

    A send is stored in the `ledger` until Telegram accepts it and queued again by `restore`
    after a restart; a send with `on_sent` (a table or lobby message the caller tracks) is not,
    since the resume path shows those again from the database. Each request's time is taken
    when its answer arrives and stored, so a restarted outbox knows the group's budget."""

    shared = False
    """The groups' queues are this process's own."""

    def __init__(
        self,
        bot: Bot,
        per_minute: int,
        *,
        ledger: GroupLedger | None = None,
        clock: OutboxClock | None = None,
        hooks: Hooks | None = None,
        painter: Painter | None = None,
    ) -> None:
        budgets = Budgets(per_minute)
        pauses = Pauses(clock or OutboxClock())
        writer: LedgerWriter | NoLedger = NoLedger() if ledger is None else LedgerWriter(ledger)
        sender = Sender(bot, budgets, writer, pauses, hooks or Hooks(), painter)
        super().__init__(sender, Workers(sender, Alone(budgets, pauses, ledger)), writer, painter)
        self._ledger = ledger

    async def queued_now(self) -> tuple[int, int]:
        """As `queued`."""
        return self.queued()

    def send(
        self,
        chat_id: int,
        on_sent: OnSent | None = None,
        *,
        game_id: int | None = None,
        **kwargs: Any,
    ) -> MessageHandle:
        """Queue a sendMessage; the handle learns the message id when it goes out."""
        job = send_job(chat_id, on_sent, game_id, kwargs)
        self._queue(job)
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
        """Queue a photo of `picture` with its HTML caption: one group message like a send,
        in its turn. The picture is drawn off the event loop from now on; if it cannot be
        drawn, or the caption is too long for a photo, the caption goes as a text message
        (readable all the same). Such a message is never edited."""
        job = send_job(chat_id, on_sent, None, photo_params(picture, caption, kwargs))
        self._sender.draw_soon(job)
        self._queue(job)
        return job.target

    def _queue(self, job: Job) -> None:
        if job.target.on_sent is None:
            self._writer.store(job)
        self._workers.push(job)

    def edit(self, handle: MessageHandle, **kwargs: Any) -> None:
        """Queue an edit of the handle's message; an edit still waiting is replaced instead."""
        self._workers.edit(edit_job(handle, kwargs))

    def existing(
        self,
        chat_id: int,
        message_id: int,
        *,
        thread_id: int | None = None,
        on_sent: OnSent | None = None,
        game_id: int | None = None,
    ) -> MessageHandle:
        """A handle for a message sent earlier (for instance before a restart); `on_sent` runs
        if the message is gone and an edit sends it afresh. The same handle while it lives:
        its edits merge, and it knows what it shows."""
        return self._known.get(chat_id, message_id, thread_id=thread_id, on_sent=on_sent)

    def forget_game_message(self, chat_id: int, game_id: int) -> None:
        """Nothing: alone, a game's message handle is the presenter's own."""

    async def restore(self) -> int:
        """Queue again, in order, the stored sends Telegram has not accepted yet (at start,
        before games resume); returns how many."""
        if self._ledger is None:
            return 0
        pending = await self._ledger.adopt()
        for stored in pending:
            handle = MessageHandle(stored.chat_id, thread_id=stored.thread_id)
            message = stored_message(
                stored.chat_id, Kind.SEND, stored.params, thread_id=stored.thread_id
            )
            self._workers.push(Job(handle, message, stored=True, row_id=stored.id))
        return len(pending)

    async def forget_chat(self, chat_id: int) -> None:
        """The bot left the group: drop whatever waits for it, here and in the database."""
        self._workers.drop(chat_id)
        await self.flush()
        if self._ledger is not None:
            await self._ledger.forget_chat(chat_id)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup: the stored sends waiting for it (round results,
        notices) go to the new chat, in order; tracked messages and edits are dropped, since
        the tables and lobbies are posted afresh there."""
        moving = [job for job in self._workers.drop(old_chat_id) if job.stored]
        await self.flush()
        if self._ledger is not None:
            await self._ledger.move_chat(old_chat_id, new_chat_id)
        for job in moving:
            job.message = job.message.moved_to(new_chat_id)
            self._workers.repoint(job)
