"""A private chat's turn beside other workers: one message at a time, spaced, through a pace
they share."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol

from .limits import MARGIN_SECONDS, WINDOW_SECONDS

log = logging.getLogger(__name__)


class SharedPace(Protocol):
    """Each private chat's pace as every worker sees it (a database they share)."""

    async def take(self, chat_id: int) -> tuple[float | None, float]:
        """(the chat's lease, 0) if its next message may go now (one at a time), else (None,
        the seconds to wait before asking again)."""
        ...

    async def answered(self, chat_id: int, lease: float, spacing: float) -> None:
        """That message's answer came now: the lease goes, the next one waits `spacing`."""
        ...


@dataclass
class NextAfter:
    """How long after a message's answer the chat's next one may start."""

    seconds: float

    def hold(self, seconds: float) -> None:
        """Telegram asked to wait this long: every worker waits it out."""
        self.seconds = max(self.seconds, seconds)


@contextlib.asynccontextmanager
async def shared_turn(
    shared: SharedPace | None, chat_id: int, private_per_second: int
) -> AsyncIterator[NextAfter]:
    """Beside other workers (`shared` given), a private chat's message waits until no other
    worker's is in flight there and the last one's answer is its spacing ago; its own answer
    moves the chat's pace on by its spacing, or by what Telegram asked to wait (this worker's
    own pace is kept already)."""
    after = NextAfter(WINDOW_SECONDS / private_per_second + MARGIN_SECONDS)
    if shared is None or chat_id <= 0:
        yield after
        return
    lease: float | None = None
    try:
        # Polled: another worker's answer reaches this one only through the database.
        while True:
            lease, wait = await shared.take(chat_id)
            if lease is not None:
                break
            await asyncio.sleep(wait)  # on the database's clock, which is real time
    except Exception:
        # The database does not answer: the message goes on this worker's pace alone.
        log.exception("private chat %s: its shared pace could not be read", chat_id)
    if lease is None:
        yield after
        return
    try:
        yield after
    finally:
        try:
            await shared.answered(chat_id, lease, after.seconds)
        except Exception:
            log.exception("private chat %s: its shared pace could not be stored", chat_id)
