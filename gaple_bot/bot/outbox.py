"""Group messages in order and within a per-minute budget, merging edits that wait in line;
sends wait in the database until Telegram accepts them, and the budget survives a restart."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from telegram import Bot, InputFile, Message, TelegramObject
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from ..games.pictures import Picture, plain
from ..service.api import QueuedSend
from ..service.outbox import GroupLedger, GroupRequest
from .outbox_json import params_from_json, params_to_json

log = logging.getLogger(__name__)
FORGET = "forget"
"""A stored queue's mark that the game's message is not to be edited again."""
WINDOW_SECONDS = 60.0
"""Telegram's window: at most `per_minute` group messages and edits in any 60 seconds."""
MARGIN_SECONDS = 1.0
"""Added to the window: Telegram's clock and ours need not agree to the millisecond."""
RETRIES = 3
NO_RIGHTS = ("not enough rights", "have no rights to send", "chat_write_forbidden")
"""Parts of a 400 answer saying the bot may not write in the group."""
CAPTION_LIMIT = 1024
"""Telegram's longest photo caption, in UTF-16 code units after the HTML is parsed."""
NO_PHOTOS_SECONDS = 3600.0
"""How long captions go as text in a group that refused a photo over rights."""


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
    on_sent: Callable[[Message], Awaitable[None]] | None = None
    """Called once the message exists (to remember its id), and again if it is sent afresh."""
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    shown: str | None = None
    """What the message shows as Telegram last accepted it (see `_content`): an edit to the
    same is not made (Telegram would refuse it, and it would spend the group's budget)."""

    async def wait(self) -> int | None:
        """The message id once the send has been made (None if it failed or is gone)."""
        await self.settled.wait()
        return self.message_id


@dataclass(eq=False)
class _Op:
    handle: MessageHandle
    kind: str  # "send" or "edit"
    kwargs: dict[str, Any]
    stored: bool = False
    """A send kept in the database until Telegram accepts it (or refuses it for good)."""
    row_id: int | None = None
    """Its row, once written."""
    drawing: asyncio.Future[bytes | None] | None = None
    """A photo's picture being drawn since it was queued (restored photos draw when due)."""
    photo_tried: bool = False
    """The last request sent it as a photo (a refusal then sends its caption as text)."""
    text_only: bool = False
    """Telegram refused the photo: the caption goes as a text message."""
    outcome: str = ""
    """How its last request ended: delivered, refused (for good), migrated (the group moved
    on), or empty (no answer, or the outbox closed)."""


class GroupOutbox:
    """One queue per group chat; a worker sends its items in order, never more than
    `per_minute` in any 60 seconds as Telegram counts them, so the game never waits on
    Telegram's group limit.

    A send is stored in the `ledger` until Telegram accepts it and queued again by `restore`
    after a restart; a send with `on_sent` (a table or lobby message the caller tracks) is not,
    since the resume path shows those again from the database. Each request's time is taken
    when its answer arrives and stored, so a restarted outbox knows the group's budget.
    `on_unwritable(chat_id)` runs (in its own task) when the bot may not write in a group, once
    until a request there succeeds again; `on_migrated(old, new)` when Telegram answers that a
    group became a supergroup (its stored sends then go to the new chat).

    Beside other workers (a shared ledger) every send and edit waits in the database instead,
    one queue per group for all workers, and whichever worker holds the group's turn sends
    what waits there in order, merging the edits of one message: so a group sees its messages
    in the order the games made them, each edit reaches the message it is meant for (a
    game's lobby or table as stored when its turn comes), and no worker's backlog keeps
    another's messages waiting."""

    def __init__(
        self,
        bot: Bot,
        per_minute: int,
        *,
        ledger: GroupLedger | None = None,
        clock: OutboxClock | None = None,
        on_unwritable: Callable[[int], Awaitable[None]] | None = None,
        on_migrated: Callable[[int, int], Awaitable[None]] | None = None,
        painter: Painter | None = None,
    ) -> None:
        self._bot = bot
        self._painter = painter
        self._per_minute = per_minute
        self._ledger = ledger
        self._clock = clock or OutboxClock()
        self._on_unwritable = on_unwritable
        self._on_migrated = on_migrated
        self._migrated: set[int] = set()
        self._queues: dict[int, deque[_Op]] = {}
        self._sent_at: dict[int, deque[float]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._pending_edit: dict[MessageHandle, _Op] = {}
        self._existing: weakref.WeakValueDictionary[tuple[int, int], MessageHandle] = (
            weakref.WeakValueDictionary()
        )
        self._unsaved: list[_Op] = []
        self._answers: list[tuple[int, float]] = []
        self._finished: list[_Op] = []
        self._writer: asyncio.Task[None] | None = None
        self._unwritable: set[int] = set()
        self._no_photos: dict[int, float] = {}
        """Groups where the bot may write but not send photos, and since when: their captions
        go as text for NO_PHOTOS_SECONDS, then a photo is tried again (admins change rights)."""
        self._hooks: set[asyncio.Task[None]] = set()
        self._closed = asyncio.Event()
        self._drainers: dict[int, asyncio.Task[None]] = {}
        """Beside other workers: the groups whose stored queue this worker is sending (or
        waiting for the turn to send)."""
        self._again: set[int] = set()
        """Groups given more to send while their drainer was already at work."""

    @property
    def shared(self) -> bool:
        """Whether the groups' queues are in the database, shared with other workers."""
        return self._ledger is not None and self._ledger.shared

    def queued(self) -> tuple[int, int]:
        """Group messages waiting their turn: in all, and in the longest queue (for /metrics)."""
        lengths = [len(queue) for queue in self._queues.values()]
        return sum(lengths), max(lengths, default=0)

    async def queued_now(self) -> tuple[int, int]:
        """As `queued`, but beside other workers the shared queues in the database (all
        workers' messages: each worker's /metrics shows the same)."""
        if not self.shared:
            return self.queued()
        assert self._ledger is not None
        lengths = await self._ledger.waiting_counts()
        return sum(lengths), max(lengths, default=0)

    def send(
        self,
        chat_id: int,
        on_sent: Callable[[Message], Awaitable[None]] | None = None,
        *,
        game_id: int | None = None,
        **kwargs: Any,
    ) -> MessageHandle:
        """Queue a sendMessage; the handle learns the message id when it goes out (beside
        other workers, the message of `game_id` is stored on the game instead)."""
        handle = MessageHandle(
            chat_id, thread_id=kwargs.get("message_thread_id"), game_id=game_id, on_sent=on_sent
        )
        op = _Op(handle, "send", {"chat_id": chat_id, **kwargs})
        if self.shared:
            self._store(op)
            return handle
        if on_sent is None and self._ledger is not None:
            self._store(op)
        self._push(op)
        return handle

    def send_photo(
        self,
        chat_id: int,
        picture: Picture,
        *,
        caption: str,
        on_sent: Callable[[Message], Awaitable[None]] | None = None,
        **kwargs: Any,
    ) -> MessageHandle:
        """Queue a photo of `picture` with its HTML caption: one group message like a send,
        in its turn. The picture is drawn off the event loop from now on; if it cannot be
        drawn, or the caption is too long for a photo, the caption goes as a text message
        (readable all the same). Such a message is never edited."""
        handle = MessageHandle(chat_id, thread_id=kwargs.get("message_thread_id"), on_sent=on_sent)
        params = {"chat_id": chat_id, "picture": picture, "text": caption, **kwargs}
        op = _Op(handle, "send", params)
        if self.shared:
            # Drawn by whichever worker sends it, when its turn comes.
            self._store(op)
            return handle
        op.drawing = self._draw_soon(chat_id, picture, caption)
        if on_sent is None and self._ledger is not None:
            self._store(op)
        self._push(op)
        return handle

    def _draw_soon(
        self, chat_id: int, picture: Picture, caption: str
    ) -> asyncio.Future[bytes | None] | None:
        """Start drawing the picture, if it can go as a photo at all."""
        if self._painter is None or self._refuses_photos(chat_id) or not _caption_fits(caption):
            return None
        return asyncio.ensure_future(self._painter(picture))

    def edit(self, handle: MessageHandle, **kwargs: Any) -> None:
        """Queue an edit of the handle's message; an edit still waiting is replaced instead."""
        if self.shared:
            self._store(_Op(handle, "edit", kwargs))
            return
        waiting = self._pending_edit.get(handle)
        if waiting is not None:
            waiting.kwargs = kwargs
            return
        if handle.shown == _content(kwargs) and handle.chat_id not in self._workers:
            # Nothing of the chat waits or is in flight, so what it shows is what it will show.
            return
        op = _Op(handle, "edit", kwargs)
        self._pending_edit[handle] = op
        self._push(op)

    @property
    def busy(self) -> bool:
        """Whether any group message is still waiting to go out (or to be stored)."""
        return bool(self._workers) or self._writing or bool(self._hooks) or bool(self._drainers)

    def existing(
        self,
        chat_id: int,
        message_id: int,
        *,
        thread_id: int | None = None,
        on_sent: Callable[[Message], Awaitable[None]] | None = None,
        game_id: int | None = None,
    ) -> MessageHandle:
        """A handle for a message sent earlier (for instance before a restart); `on_sent` runs
        if the message is gone and an edit sends it afresh. `game_id`: the message shows that
        game's lobby or table (beside other workers an edit goes to the game's message as
        stored when its turn comes)."""
        if self.shared and game_id is not None:
            return self.game_message(chat_id, game_id, thread_id=thread_id)
        known = self._existing.get((chat_id, message_id))
        if known is not None and known.message_id == message_id:
            # The same handle while it lives: its edits merge, and it knows what it shows.
            if on_sent is not None:
                known.on_sent = on_sent
            return known
        handle = MessageHandle(chat_id, message_id, thread_id=thread_id, on_sent=on_sent)
        handle.settled.set()
        self._existing[(chat_id, message_id)] = handle
        return handle

    def game_message(
        self, chat_id: int, game_id: int, *, thread_id: int | None = None
    ) -> MessageHandle:
        """Beside other workers: a handle on the game's lobby or table message, whichever
        message the game stores when an edit's turn comes (none: the edit is sent afresh)."""
        handle = MessageHandle(chat_id, thread_id=thread_id, game_id=game_id)
        handle.settled.set()
        return handle

    def forget_game_message(self, chat_id: int, game_id: int) -> None:
        """Beside other workers: the game's message is not edited again once what is queued
        before now has gone out; the next edit of the game's message posts a fresh one (after
        a pause the old one may be far up the chat)."""
        if self.shared:
            handle = MessageHandle(chat_id, game_id=game_id)
            self._store(_Op(handle, FORGET, {}))

    async def restore(self) -> int:
        """Queue again, in order, the stored sends Telegram has not accepted yet and no live
        worker holds (at start, before games resume, and from time to time beside other
        workers: a worker that died leaves its sends to the others); returns how many."""
        if self._ledger is None:
            return 0
        if self.shared:
            # Whoever holds a group's turn sends every worker's waiting messages: a group
            # with some waiting and no drainer here gets one (it waits for the turn).
            for chat_id in await self._ledger.chats_waiting():
                if chat_id not in self._drainers:
                    self._kick(chat_id)
            return 0
        pending = await self._ledger.adopt()
        for stored in pending:
            handle = MessageHandle(stored.chat_id, thread_id=stored.thread_id)
            kwargs = {"chat_id": stored.chat_id, **params_from_json(stored.params)}
            op = _Op(handle, "send", kwargs, stored=True, row_id=stored.id)
            self._push(op)
        return len(pending)

    async def drain(self) -> None:
        """Wait until every queue is empty (or, once closed, has stopped at the budget)."""
        while self._workers or self._writing or self._drainers:
            tasks: list[asyncio.Task[None]] = [*self._workers.values(), *self._drainers.values()]
            if self._writer is not None:
                tasks.append(self._writer)
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close(self, timeout: float) -> None:  # noqa: ASYNC109 - a shutdown bound
        """At shutdown: store what is not stored yet, send what the budget allows right now,
        and leave the rest in the database for the next start. Edits still waiting are dropped
        (the resume path edits every table again)."""
        self._closed.set()
        try:
            async with asyncio.timeout(timeout):
                while self._workers or self._hooks or self._drainers:
                    await asyncio.wait(
                        [*self._workers.values(), *self._hooks, *self._drainers.values()]
                    )
        except TimeoutError:
            log.warning("group requests still in flight at shutdown were cut off")
            tasks = [*self._workers.values(), *self._hooks, *self._drainers.values()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        # What was stored or answered reaches the database before the store closes.
        await self.flush()

    def close_painter(self) -> None:
        """At shutdown, after `close`: the painter's workers stop."""
        if self._painter is not None:
            self._painter.close()

    async def forget_chat(self, chat_id: int) -> None:
        """The bot left the group: drop whatever waits for it, here and in the database."""
        self._drop_queue(chat_id)
        await self.flush()
        if self._ledger is not None:
            await self._ledger.forget_chat(chat_id)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup: the stored sends waiting for it (round results,
        notices) go to the new chat, in order; tracked messages and edits are dropped, since
        the tables and lobbies are posted afresh there."""
        moving = [op for op in self._drop_queue(old_chat_id) if op.stored]
        await self.flush()
        if self._ledger is not None:
            await self._ledger.move_chat(old_chat_id, new_chat_id)
        for op in moving:
            self._repoint(op, new_chat_id)
        if self.shared:
            self._kick(new_chat_id)

    async def flush(self) -> None:
        """Wait until the database holds every send and request time this outbox knows."""
        while self._writer is not None and not self._writer.done():
            await self._writer

    # The database ---------------------------------------------------------------------------
    # One background writer keeps the database in step, in order, so no request waits on it:
    # new sends first, then request times and the stored sends that are done.

    @property
    def _writing(self) -> bool:
        return self._writer is not None and not self._writer.done()

    def _store(self, op: _Op) -> None:
        op.stored = True
        self._unsaved.append(op)
        self._write_soon()

    def _write_soon(self) -> None:
        if self._ledger is not None and not self._writing:
            self._writer = asyncio.create_task(self._write())

    async def _write(self) -> None:
        assert self._ledger is not None
        while self._unsaved or self._answers or self._finished:
            if self._unsaved:
                await self._write_sends(self._ledger)
                continue
            answers, self._answers = self._answers, []
            finished, self._finished = self._finished, []
            done = [op.row_id for op in finished if op.row_id is not None]
            try:
                await self._ledger.answered(answers, window=_window(), done=done)
            except Exception:
                log.exception("group request times could not be stored")

    async def _write_sends(self, ledger: GroupLedger) -> None:
        batch, self._unsaved = self._unsaved, []
        rows: list[GroupRequest] = []
        storable: list[_Op] = []
        for op in batch:
            params = {k: v for k, v in op.kwargs.items() if k != "chat_id"}
            handle = op.handle
            try:
                rows.append(
                    GroupRequest(
                        handle.chat_id,
                        handle.thread_id,
                        params_to_json(params),
                        kind=op.kind,
                        game_id=handle.game_id,
                        message_id=handle.message_id if handle.game_id is None else None,
                    )
                )
                storable.append(op)
            except TypeError:
                log.exception("group %s: a message could not be stored", handle.chat_id)
        try:
            ids = await ledger.queue_requests(rows)
        except Exception:
            # The messages still go out; only a restart before then would lose them.
            log.exception("group messages could not be stored")
            if self.shared:
                # On this worker's own, in its order (the database does not answer).
                for op in storable:
                    op.stored = False
                    self._push(op)
            return
        for op, row_id in zip(storable, ids, strict=True):
            op.row_id = row_id
        if self.shared:
            for chat_id in dict.fromkeys(op.handle.chat_id for op in storable):
                self._kick(chat_id)

    # The shared queue -------------------------------------------------------------------
    # Beside other workers: one queue per group in the database, sent by whichever worker
    # holds the group's turn.

    def _kick(self, chat_id: int) -> None:
        """See that the group's stored queue gets sent: start a drainer, or tell the one at
        work that there is more."""
        if chat_id in self._drainers:
            self._again.add(chat_id)
            return
        if self._closed.is_set():
            return
        self._drainers[chat_id] = asyncio.create_task(self._drain(chat_id))

    async def _drain(self, chat_id: int) -> None:
        ledger = self._ledger
        assert ledger is not None
        try:
            while True:
                self._again.discard(chat_id)
                await self._drain_turn(ledger, chat_id)
                if chat_id not in self._again or self._closed.is_set():
                    return
        except Exception:
            # What waits stays stored: the sweep kicks the group again.
            log.exception("group %s: its waiting messages could not be sent", chat_id)
        finally:
            del self._drainers[chat_id]

    async def _drain_turn(self, ledger: GroupLedger, chat_id: int) -> None:
        """Hold the group's turn and send what waits for it, every worker's, in order, until
        nothing does (or the outbox closes, or a request gets no answer: then it waits for
        the next kick)."""
        async with ledger.group_turn(chat_id):
            await self._reload_budget(ledger, chat_id)
            while not self._closed.is_set():
                if not await ledger.waiting(chat_id):
                    return
                if not await self._wait_for_budget(chat_id):
                    return
                # Read again once the budget allows: edits queued meanwhile merge in.
                rows = await ledger.waiting(chat_id)
                if not rows:
                    return
                head = rows[0]
                if head.kind == FORGET and head.game_id is not None:
                    await ledger.game_message_sent(head.game_id, None)
                    await ledger.finish([head.id])
                    continue
                op, covered = await self._next_stored(ledger, rows)
                if await self._run(op):
                    # The message is gone: the change goes out as a fresh message.
                    if not await self._wait_for_budget(chat_id):
                        return
                    await self._run(op)
                # Request times stored before the next worker's turn reads them.
                await self.flush()
                if op.outcome not in ("delivered", "refused"):
                    return
                await ledger.finish(covered)

    async def _next_stored(
        self, ledger: GroupLedger, rows: list[QueuedSend]
    ) -> tuple[_Op, list[int]]:
        """The request the queue's head makes, and the rows it covers: an edit carries the
        newest content of the edits of its message waiting after it (up to a fresh send of
        the same game's message, which later edits are for)."""
        head = rows[0]
        covered = [head.id]
        params = head.params
        if head.kind == "edit":
            for row in rows[1:]:
                if head.game_id is not None and row.game_id == head.game_id and row.kind != "edit":
                    # A fresh message of the game (or none): later edits are for that one.
                    break
                if (row.kind, row.game_id, row.message_id) == (
                    "edit",
                    head.game_id,
                    head.message_id,
                ):
                    covered.append(row.id)
                    params = row.params
        message_id = head.message_id
        if head.kind == "edit" and head.game_id is not None:
            message_id = await ledger.game_message(head.game_id)
        handle = MessageHandle(
            head.chat_id, message_id, thread_id=head.thread_id, game_id=head.game_id
        )
        handle.settled.set()
        if head.game_id is not None:
            handle.on_sent = _store_game_message(ledger, head.game_id)
        kwargs = params_from_json(params)
        if head.kind == "send":
            kwargs["chat_id"] = head.chat_id
        return _Op(handle, head.kind, kwargs), covered

    # Sending ------------------------------------------------------------------------------

    def _push(self, op: _Op) -> None:
        chat_id = op.handle.chat_id
        self._queues.setdefault(chat_id, deque()).append(op)
        if chat_id not in self._workers:
            self._workers[chat_id] = asyncio.create_task(self._work(chat_id))

    async def _work(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        try:
            await self._load_budget(chat_id)
            while queue:
                if self._drop_unchanged(queue):
                    continue
                async with self._turn(chat_id):
                    if not await self._send_next(chat_id, queue):
                        return  # closed: what is stored goes out after the restart
        finally:
            del self._workers[chat_id]

    async def _send_next(self, chat_id: int, queue: deque[_Op]) -> bool:
        """Send the queue's next item once the budget allows; False if the outbox closes
        first."""
        if not await self._wait_for_budget(chat_id):
            return False
        if not queue or self._drop_unchanged(queue):
            # Emptied while waiting (the bot left the chat, or it moved), or changed back.
            return True
        op = queue.popleft()
        if op.kind == "edit":
            self._pending_edit.pop(op.handle, None)
        if await self._run(op) and op.handle not in self._pending_edit:
            # The message is gone: this change goes out as a fresh message, in turn.
            if op.kind == "edit":
                self._pending_edit[op.handle] = op
            queue.appendleft(op)
        return True

    @asynccontextmanager
    async def _turn(self, chat_id: int) -> AsyncIterator[None]:
        """One request's turn at the group. Beside other workers it holds the group's lock,
        with the budget read afresh (their requests count in it) and this request's time
        stored before the next worker's turn; alone, nothing to wait for."""
        ledger = self._ledger
        if ledger is None or not ledger.shared:
            yield
            return
        async with AsyncExitStack() as stack:
            try:
                await stack.enter_async_context(ledger.group_turn(chat_id))
                await self._reload_budget(ledger, chat_id)
            except Exception:
                # The database does not answer: the group's messages still go, on this
                # worker's own count of the budget.
                log.exception("group %s: its turn could not be taken", chat_id)
            yield
            await self.flush()

    async def _reload_budget(self, ledger: GroupLedger, chat_id: int) -> None:
        sent = self._sent_at.setdefault(chat_id, deque())
        recent = await ledger.recent(chat_id, self._clock.now() - _window())
        sent.clear()
        sent.extend(recent)

    def _drop_unchanged(self, queue: deque[_Op]) -> bool:
        """Drop the next item if it is an edit to what its message shows already (nothing of
        this chat is in flight while its worker looks: it sends one item at a time)."""
        head = queue[0]
        if head.kind != "edit" or head.handle.shown != _content(head.kwargs):
            return False
        queue.popleft()
        self._pending_edit.pop(head.handle, None)
        return True

    async def _load_budget(self, chat_id: int) -> None:
        """The chat's recent request times, from the database the first time (a restart).
        Only then: a read before every burst would delay the group's messages behind their
        players' private ones."""
        if chat_id in self._sent_at:
            return
        sent: deque[float] = deque()
        self._sent_at[chat_id] = sent
        if self._ledger is None or self._ledger.shared:
            return  # beside other workers each request's turn reads the times afresh
        try:
            sent.extend(await self._ledger.recent(chat_id, self._clock.now() - _window()))
        except Exception:
            log.exception("group %s: its recent requests could not be read", chat_id)

    async def _wait_for_budget(self, chat_id: int) -> bool:
        """Wait until fewer than `per_minute` requests were answered in the last window;
        False if the outbox closes first."""
        sent = self._sent_at[chat_id]
        window = _window()
        while True:
            now = self._clock.now()
            while sent and now - sent[0] >= window:
                sent.popleft()
            if len(sent) < self._per_minute:
                return True
            # A request started now is received no earlier than now, and the oldest one in
            # the window was received no later than its answer: the window holds.
            if not await self._pause(window - (now - sent[0])):
                return False

    async def _pause(self, seconds: float) -> bool:
        """Sleep on the clock; False if the outbox closes meanwhile."""
        if self._closed.is_set():
            return False
        sleeper = asyncio.ensure_future(self._clock.sleep(seconds))
        closer = asyncio.ensure_future(self._closed.wait())
        try:
            await asyncio.wait({sleeper, closer}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            closer.cancel()
        return not self._closed.is_set()

    async def _run(self, op: _Op) -> bool:
        """Make the request (with retries); True if the message is gone and the change should
        be sent as a fresh message."""
        handle = op.handle
        refused = False
        for attempt in range(RETRIES):
            if attempt and not await self._wait_for_budget(handle.chat_id):
                return False  # a retry spends the budget too
            fresh = op.kind == "send" or (await handle.wait()) is None
            try:
                message = await self._request(op, fresh)
            except RetryAfter as exc:
                # Telegram's own limit was hit anyway (another client): wait as told.
                if not await self._pause(retry_seconds(exc.retry_after)):
                    return False
                continue
            except BadRequest as exc:
                self._answered(handle.chat_id)
                text = exc.message.lower()
                if op.photo_tried:
                    # A photo Telegram will not take (its size, its file, no right to send
                    # photos here) still says what it says: its caption goes as text.
                    self._photo_refused(op, text)
                    continue
                if not fresh and "message to edit not found" in text:
                    log.info("group %s: message %s is gone", handle.chat_id, handle.message_id)
                    handle.message_id = None
                    handle.failed = True
                    return True
                if any(part in text for part in NO_RIGHTS):
                    self._lost_rights(handle.chat_id)
                elif "not modified" not in text:
                    log.warning("group %s: %s failed: %s", handle.chat_id, op.kind, exc.message)
                refused = True
                break
            except Forbidden as exc:
                self._answered(handle.chat_id)
                self._lost_rights(handle.chat_id)
                log.warning("group %s: %s refused: %s", handle.chat_id, op.kind, exc.message)
                refused = True
                break
            except NetworkError as exc:
                # It may have reached Telegram: count it.
                self._answered(handle.chat_id)
                log.warning("group %s: %s failed, retrying: %s", handle.chat_id, op.kind, exc)
                if not await self._pause(attempt + 1):
                    return False
                continue
            except ChatMigrated as exc:
                self._answered(handle.chat_id)
                op.outcome = "migrated"
                if self._follow_migration(op, exc.new_chat_id):
                    return False
                refused = True
                break
            except TelegramError as exc:
                self._answered(handle.chat_id)
                log.warning("group %s: %s failed: %s", handle.chat_id, op.kind, exc)
                refused = True
                break
            self._answered(handle.chat_id, op)
            op.outcome = "delivered"
            self._unwritable.discard(handle.chat_id)
            handle.shown = _content(op.kwargs) if not op.photo_tried else None
            if message is not None:
                handle.message_id = message.message_id
                handle.failed = False
                handle.settled.set()
                if handle.on_sent is not None:
                    await handle.on_sent(message)
            return False
        if refused and op.outcome != "migrated":
            op.outcome = "refused"
        if refused and op.stored:
            # Refused for good; a send that never got an answer stays stored for a restart.
            self._finished.append(op)
            self._write_soon()
        if handle.message_id is None:
            handle.failed = True
            handle.settled.set()
        return False

    async def _request(self, op: _Op, fresh: bool) -> Message | None:
        """Send the message (afresh, if it is an edit of a message that does not exist), or
        edit it; returns the message sent, None after an edit."""
        handle = op.handle
        if not fresh:
            await self._bot.edit_message_text(
                chat_id=handle.chat_id, message_id=handle.message_id, **op.kwargs
            )
            return None
        kwargs = dict(op.kwargs)
        kwargs.setdefault("chat_id", handle.chat_id)
        if handle.thread_id is not None:
            kwargs.setdefault("message_thread_id", handle.thread_id)
        picture = kwargs.pop("picture", None)
        op.photo_tried = False
        if isinstance(picture, Picture):
            photo = await self._photo(op, picture, kwargs["text"])
            if photo is not None:
                caption = kwargs.pop("text")
                kwargs.pop("link_preview_options", None)
                upload = InputFile(photo, filename="picture.png")
                op.photo_tried = True
                return await self._bot.send_photo(photo=upload, caption=caption, **kwargs)
        return await self._bot.send_message(**kwargs)

    def _refuses_photos(self, chat_id: int) -> bool:
        """Whether the group refused a photo over rights lately."""
        since = self._no_photos.get(chat_id)
        if since is None:
            return False
        if self._clock.now() - since < NO_PHOTOS_SECONDS:
            return True
        del self._no_photos[chat_id]
        return False

    def _photo_refused(self, op: _Op, answer: str) -> None:
        """Send the refused photo's caption as text from now on; a group that refuses photos
        over rights gets its later pictures' captions as text straight away."""
        op.text_only = True
        if any(part in answer for part in NO_RIGHTS):
            self._no_photos[op.handle.chat_id] = self._clock.now()
        log.info(
            "group %s: a photo was refused (%s): its text goes alone", op.handle.chat_id, answer
        )

    async def _photo(self, op: _Op, picture: Picture, caption: str) -> bytes | None:
        """The photo's PNG, drawn once (a retry sends the same bytes); None: send text."""
        if op.text_only:
            return None
        if op.drawing is None:
            op.drawing = self._draw_soon(op.handle.chat_id, picture, caption)
            if op.drawing is None:
                return None
        try:
            return await op.drawing
        except Exception:
            log.exception("group %s: a %s picture failed", op.handle.chat_id, picture.drawer)
            return None

    def _answered(self, chat_id: int, delivered: _Op | None = None) -> None:
        """Telegram answered a request to the chat now: it counts in the chat's budget at
        once, in the database soon; a delivered stored send is forgotten there."""
        at = self._clock.now()
        self._sent_at.setdefault(chat_id, deque()).append(at)
        self._answers.append((chat_id, at))
        if delivered is not None and delivered.stored:
            self._finished.append(delivered)
        self._write_soon()

    def _drop_queue(self, chat_id: int) -> list[_Op]:
        """Take every request still queued for the chat; their handles settle as not sent."""
        queue = self._queues.get(chat_id)
        dropped = list(queue or ())
        if queue:
            queue.clear()
        for op in dropped:
            self._pending_edit.pop(op.handle, None)
            if op.handle.message_id is None:
                op.handle.failed = True
                op.handle.settled.set()
        return dropped

    def _repoint(self, op: _Op, chat_id: int) -> None:
        """Queue a stored send again for another chat (a group's new supergroup id)."""
        op.handle.chat_id = chat_id
        op.handle.thread_id = None
        op.handle.failed = False
        op.handle.settled.clear()
        op.kwargs = {**op.kwargs, "chat_id": chat_id}
        op.kwargs.pop("message_thread_id", None)
        op.kwargs.pop("reply_parameters", None)  # the message replied to stayed behind
        self._push(op)

    def _follow_migration(self, op: _Op, new_chat_id: int) -> bool:
        """Telegram says the group moved: tell the hook (which moves the games and what waits
        in the database) and send a stored message in the new chat; whether it was resent."""
        old_chat_id = op.handle.chat_id
        log.info("group %s became %s", old_chat_id, new_chat_id)
        if self._on_migrated is not None and old_chat_id not in self._migrated:
            # Every request still queued for the old chat is refused the same way: once does.
            self._migrated.add(old_chat_id)
            task = asyncio.create_task(
                self._call_migrated(self._on_migrated, old_chat_id, new_chat_id)
            )
            self._hooks.add(task)
            task.add_done_callback(self._hooks.discard)
        if not op.stored:
            return False
        self._repoint(op, new_chat_id)
        return True

    async def _call_migrated(
        self, hook: Callable[[int, int], Awaitable[None]], old_chat_id: int, new_chat_id: int
    ) -> None:
        try:
            await hook(old_chat_id, new_chat_id)
        except Exception:
            log.exception("group %s: the migration hook failed", old_chat_id)

    def _lost_rights(self, chat_id: int) -> None:
        """The bot may not write in the group: tell the hook, once until it may again."""
        if chat_id in self._unwritable:
            return
        self._unwritable.add(chat_id)
        if self._on_unwritable is None:
            return
        task = asyncio.create_task(self._call_hook(self._on_unwritable, chat_id))
        self._hooks.add(task)
        task.add_done_callback(self._hooks.discard)

    async def _call_hook(self, hook: Callable[[int], Awaitable[None]], chat_id: int) -> None:
        try:
            await hook(chat_id)
        except Exception:
            log.exception("group %s: the unwritable hook failed", chat_id)


def _store_game_message(ledger: GroupLedger, game_id: int) -> Callable[[Message], Awaitable[None]]:
    """Store a new lobby or table message on its game, for the edits that follow it."""

    async def store(message: Message) -> None:
        await ledger.game_message_sent(game_id, message.message_id)

    return store


def _content(kwargs: dict[str, Any]) -> str | None:
    """A text message's text, format and buttons as one string (None for a photo's)."""
    if "picture" in kwargs:
        return None
    markup = kwargs.get("reply_markup")
    buttons = markup.to_dict() if isinstance(markup, TelegramObject) else markup
    return json.dumps([kwargs.get("text"), kwargs.get("parse_mode"), buttons], sort_keys=True)


def _caption_fits(caption: str) -> bool:
    """Whether an HTML caption is short enough for a photo once Telegram has parsed it."""
    return len(plain(caption).encode("utf-16-le")) // 2 <= CAPTION_LIMIT


def _window() -> float:
    """How long a request counts in the budget: Telegram's window and our margin."""
    return WINDOW_SECONDS + MARGIN_SECONDS


def retry_seconds(value: object) -> float:
    """RetryAfter.retry_after is an int or a timedelta depending on the library's settings."""
    total_seconds = getattr(value, "total_seconds", None)
    if callable(total_seconds):
        return float(total_seconds())
    return float(value)  # type: ignore[arg-type]
