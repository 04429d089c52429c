"""One group request through PTB's Bot: made, retried and judged by the core's rules."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from telegram import Bot, InputFile, Message
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)

from ...games.pictures import Picture, plain
from ..pacing.budget import Budgets
from .answers import Answer, Groups, Outcome, Reply
from .handle import Painter
from .job import Job
from .records import Kind
from .runtime import Hooks, Pauses

log = logging.getLogger(__name__)
CAPTION_LIMIT = 1024
"""Telegram's longest photo caption, in UTF-16 code units after the HTML is parsed."""


class Writes(Protocol):
    """Where answers are counted and finished stored sends forgotten (the ledger, or nothing)."""

    def answered(self, chat_id: int, at: float, delivered: Job | None = None) -> None:
        """Telegram answered a request to the chat at `at`."""

    def finished(self, job: Job) -> None:
        """A stored send was refused for good."""


class Sender:
    """Makes a job's request with retries; each answer counts in the group's budget at once
    (and in the ledger soon), the hooks hear of lost rights and moved groups."""

    def __init__(
        self,
        bot: Bot,
        budgets: Budgets,
        writes: Writes,
        pauses: Pauses,
        hooks: Hooks,
        painter: Painter | None,
    ) -> None:
        self._bot = bot
        self.budgets = budgets
        self.writes = writes
        self.pauses = pauses
        self.hooks = hooks
        self.groups = Groups()
        self._painter = painter

    async def wait_for_budget(self, chat_id: int) -> bool:
        """Wait until the group's budget allows a request; False if the outbox closes first."""
        while (seconds := self.budgets.wait(chat_id, self.pauses.now())) > 0:
            if not await self.pauses.pause(seconds):
                return False
        return True

    def draw_soon(self, job: Job) -> None:
        """Start drawing the job's picture, if it can go as a photo at all."""
        picture, caption = job.message.picture, job.message.text or ""
        if picture is None or self._painter is None or not caption_fits(caption):
            return
        if self.groups.refuses_photos(job.chat_id, self.pauses.now()):
            return
        job.drawing = asyncio.ensure_future(self._painter(picture))

    async def run(self, job: Job) -> Outcome:
        """Make the request (with retries) and settle its handle; GONE: the message to edit
        is gone and the change should be sent as a fresh message; MIGRATED: the group moved
        (`job.message` then names the new chat, for a stored send to follow it)."""
        handle, attempts = job.target, job.attempts
        attempts.tries = 0
        job.outcome = Outcome.UNANSWERED
        while attempts.left:
            if attempts.tries and not await self.wait_for_budget(handle.chat_id):
                return job.outcome  # a retry spends the budget too
            fresh = job.message.kind is Kind.SEND or (await handle.wait()) is None
            message: Message | None = None
            try:
                message = await self._request(job, fresh)
                reply = Reply(Answer.ACCEPTED)
            except TelegramError as exc:
                reply = _reply(exc)
            verdict = attempts.judge(reply, fresh=fresh)
            at = self.pauses.now()
            if verdict.counts:
                self.budgets.count(handle.chat_id, at)
            if verdict.warning is not None:
                log.warning(
                    "group %s: %s %s: %s",
                    handle.chat_id,
                    job.message.kind,
                    verdict.warning,
                    reply.reason,
                )
            if verdict.lost_rights and self.groups.lost_rights(handle.chat_id):
                self.hooks.unwritable(handle.chat_id)
            if verdict.photo_refused:
                self._photo_refused(job, reply.reason, verdict.no_photos, at)
            if verdict.outcome is None:
                if verdict.counts:
                    self.writes.answered(handle.chat_id, at)
                if verdict.pause and not await self.pauses.pause(verdict.pause):
                    return job.outcome
                continue
            job.outcome = verdict.outcome
            return await self._settle(job, message, at, reply)
        self._unsent(job)
        return job.outcome

    async def _settle(self, job: Job, message: Message | None, at: float, reply: Reply) -> Outcome:
        handle = job.target
        outcome = job.outcome
        if outcome is Outcome.DELIVERED:
            self.writes.answered(handle.chat_id, at, job)
            self.groups.wrote(handle.chat_id)
            handle.shown = job.message.content() if not job.attempts.photo_tried else None
            if message is not None:
                handle.message_id = message.message_id
                handle.failed = False
                handle.settled.set()
                if handle.on_sent is not None:
                    await handle.on_sent(message)
            return outcome
        self.writes.answered(handle.chat_id, at)
        if outcome is Outcome.GONE:
            log.info("group %s: message %s is gone", handle.chat_id, handle.message_id)
            handle.message_id = None
            handle.failed = True
            return outcome
        if outcome is Outcome.MIGRATED and reply.new_chat_id is not None:
            log.info("group %s became %s", handle.chat_id, reply.new_chat_id)
            if self.groups.migrated(handle.chat_id):
                self.hooks.migrated(handle.chat_id, reply.new_chat_id)
            if job.stored:
                job.message = job.message.moved_to(reply.new_chat_id)
                return outcome
        elif job.stored:
            # Refused for good; a send that never got an answer stays stored for a restart.
            self.writes.finished(job)
        self._unsent(job)
        return outcome

    @staticmethod
    def _unsent(job: Job) -> None:
        job.target.settle_unsent()

    async def _request(self, job: Job, fresh: bool) -> Message | None:
        """Send the message (afresh, if it is an edit of a message that does not exist), or
        edit it; returns the message sent, None after an edit."""
        handle, message = job.target, job.message
        arguments = message.arguments()
        if not fresh:
            await self._bot.edit_message_text(
                chat_id=handle.chat_id, message_id=handle.message_id, **arguments
            )
            return None
        thread_id = message.thread_id if message.thread_id is not None else handle.thread_id
        if thread_id is not None:
            arguments["message_thread_id"] = thread_id
        job.attempts.photo_tried = False
        if message.picture is not None:
            photo = await self._photo(job, message.picture)
            if photo is not None:
                caption = arguments.pop("text")
                arguments.pop("link_preview_options", None)
                upload = InputFile(photo, filename="picture.png")
                job.attempts.photo_tried = True
                return await self._bot.send_photo(
                    chat_id=handle.chat_id, photo=upload, caption=caption, **arguments
                )
        return await self._bot.send_message(chat_id=handle.chat_id, **arguments)

    async def _photo(self, job: Job, picture: Picture) -> bytes | None:
        """The photo's PNG, drawn once (a retry sends the same bytes); None: send text."""
        if job.attempts.text_only:
            return None
        if job.drawing is None:
            self.draw_soon(job)
            if job.drawing is None:
                return None
        try:
            return await job.drawing
        except Exception:
            log.exception("group %s: a %s picture failed", job.chat_id, picture.drawer)
            return None

    def _photo_refused(self, job: Job, answer: str, no_rights: bool, at: float) -> None:
        """Send the refused photo's caption as text from now on; a group that refuses photos
        over rights gets its later pictures' captions as text straight away."""
        if no_rights:
            self.groups.photos_refused(job.chat_id, at)
        log.info("group %s: a photo was refused (%s): its text goes alone", job.chat_id, answer)


def _reply(exc: TelegramError) -> Reply:
    """The core's view of Telegram's refusal (or of no answer)."""
    if isinstance(exc, RetryAfter):
        return Reply(Answer.RETRY_AFTER, exc.message, retry_after=retry_seconds(exc))
    if isinstance(exc, BadRequest):
        return Reply(Answer.BAD_REQUEST, exc.message)
    if isinstance(exc, Forbidden):
        return Reply(Answer.FORBIDDEN, exc.message)
    if isinstance(exc, NetworkError):
        return Reply(Answer.NETWORK, str(exc))
    if isinstance(exc, ChatMigrated):
        return Reply(Answer.MIGRATED, exc.message, new_chat_id=exc.new_chat_id)
    return Reply(Answer.OTHER, str(exc))


def caption_fits(caption: str) -> bool:
    """Whether an HTML caption is short enough for a photo once Telegram has parsed it."""
    return len(plain(caption).encode("utf-16-le")) // 2 <= CAPTION_LIMIT


def retry_seconds(refusal: RetryAfter) -> float:
    """The seconds a 429 asks the bot to wait."""
    # The period as python-telegram-bot keeps it (its own rate limiter reads it so): the public
    # `retry_after` warns that it becomes a timedelta in v23 unless PTB_TIMEDELTA is set.
    return refusal._retry_after.total_seconds()
