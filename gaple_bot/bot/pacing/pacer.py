"""The whole bot's pace: Telegram's limits for all chats and for each private chat, kept as
sliding windows, with what a player needs to move going first."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from ..outbox import OutboxClock, retry_seconds
from .limits import (
    AGED_SECONDS,
    GROUP_EDIT,
    GROUP_SEND,
    MARGIN_SECONDS,
    MESSAGES_PER_SECOND,
    PACED_PREFIXES,
    PRIVATE,
    PRIVATE_PER_SECOND,
    RETRIES,
    WINDOW_SECONDS,
    WITHDRAWABLE,
    WITHDRAWABLE_AGED_SECONDS,
)
from .shared_turn import SharedPace, shared_turn
from .token_window import POLL_SECONDS, TokenWindow, expire
from .withdrawable import Withdrawable, Withdrawn, was_granted

log = logging.getLogger(__name__)
JSONDict = dict[str, Any]
Result = bool | JSONDict | list[JSONDict]


@dataclass(order=True)
class _Waiter:
    priority: int
    seq: int
    chat_id: int = field(compare=False)
    since: float = field(compare=False)
    granted: asyncio.Future[None] = field(compare=False)


class Pacer(BaseRateLimiter[Withdrawable]):
    """Paces every message the bot sends so Telegram never has to refuse one: at most
    `per_second` in any second over all chats, and `private_per_second` in any private chat.
    A request holds its place from when it starts until its answer arrives, and counts from
    then: the answer comes no earlier than Telegram received it, so the window as Telegram
    counts it holds too. When requests wait, private ones go first; group chats' own budget of
    20 a minute is the group outbox's. A 429 all the same (another client of the token) holds
    every request back for as long as Telegram says, then the request is tried again."""

    def __init__(
        self,
        per_second: int = MESSAGES_PER_SECOND,
        private_per_second: int = PRIVATE_PER_SECOND,
        *,
        clock: OutboxClock | None = None,
        retries: int = RETRIES,
        window: TokenWindow | None = None,
    ) -> None:
        self._window = window or TokenWindow(per_second)
        """The whole bot's window (`per_second` unless a shared one is given)."""
        self._private_per_second = private_per_second
        self._clock = clock or OutboxClock(now=_monotonic)
        self._retries = retries
        self._private_answers: dict[int, deque[float]] = {}
        self._private_in_flight: dict[int, int] = {}
        self._waiters: list[_Waiter] = []
        self._arrivals: deque[_Waiter] = deque()
        """The same waiters in the order they came (granted ones dropped lazily)."""
        self._seq = itertools.count()
        self._timer: asyncio.Task[None] | None = None
        self._timer_at: float | None = None
        self._held_until = 0.0
        self._shared: SharedPace | None = None
        self._late_arrivals: deque[_Waiter] = deque()
        """The withdrawable waiters in the order they came."""
        self._private_listeners: list[Callable[[int, int], None]] = []

    def share_private_pace(self, shared: SharedPace) -> None:
        """Beside other workers: each private chat's pace is also kept in `shared`, so that
        together they send no more than `private_per_second` to one chat."""
        self._shared = shared

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Stop the wake-up timer and let go of the window."""
        if self._timer is not None:
            self._timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer
        self._window.close()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: Withdrawable | None,
    ) -> Result:
        """Run the request in its turn; answers to button presses and reads go at once. A
        `Withdrawable` request raises Withdrawn if it is taken back before its turn."""
        chat_id = _chat_id(data.get("chat_id"))
        if chat_id is None or not endpoint.startswith(PACED_PREFIXES):
            return await callback(*args, **kwargs)
        ticket = rate_limit_args
        priority = WITHDRAWABLE if ticket is not None else _priority(chat_id, endpoint)
        for attempt in range(self._retries + 1):
            # The chat's shared turn first: waiting for it holds none of this worker's places.
            async with shared_turn(self._shared, chat_id, self._private_per_second) as turn:
                if ticket is not None and ticket.withdrawn:
                    raise Withdrawn
                await self._acquire(chat_id, priority, ticket)
                try:
                    result = await callback(*args, **kwargs)
                except RetryAfter as exc:
                    seconds = retry_seconds(exc)
                    turn.hold(seconds)
                    if attempt == self._retries:
                        raise
                    log.warning(
                        "Telegram asked to wait %.0f s (%s to %s)", seconds, endpoint, chat_id
                    )
                    self._held_until = max(self._held_until, self._clock.now() + seconds)
                    continue
                finally:
                    self._release(chat_id)
                if chat_id > 0 and endpoint.startswith("send") and isinstance(result, dict):
                    self._heard_private(chat_id, result)
                return result
        raise AssertionError("unreachable")  # pragma: no cover

    def backlog_seconds(self) -> float:
        """Roughly how long a request made now would wait for its turn: the requests waiting,
        at the whole bot's pace."""
        return len(self._waiters) / self._window.per_second

    def on_private_message(self, listener: Callable[[int, int], None]) -> None:
        """Tell `listener` (chat, message) of each message this bot sends to a private chat."""
        self._private_listeners.append(listener)

    def _heard_private(self, chat_id: int, result: JSONDict) -> None:
        message_id = result.get("message_id")
        if isinstance(message_id, int):
            for listener in self._private_listeners:
                listener(chat_id, message_id)

    # The queue -------------------------------------------------------------------------------

    async def _acquire(self, chat_id: int, priority: int, ticket: Withdrawable | None) -> None:
        """Wait for a place in the windows (by priority, the long-waiting first)."""
        loop = asyncio.get_running_loop()
        now = self._clock.now()
        waiter = _Waiter(priority, next(self._seq), chat_id, now, loop.create_future())
        heapq.heappush(self._waiters, waiter)
        (self._late_arrivals if ticket is not None else self._arrivals).append(waiter)
        if ticket is not None:
            ticket._waits_on(waiter.granted)
        self._pump()
        try:
            await waiter.granted
        except (asyncio.CancelledError, Withdrawn):
            granted = waiter.granted
            if was_granted(granted):
                self._release(chat_id)  # granted, then cancelled before it ran
            else:
                if not granted.done():
                    granted.cancel()
                # Its future is done, so both queues skip it from now on (a pump may have
                # dropped it from the heap already).
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)
                    heapq.heapify(self._waiters)
            raise

    def _release(self, chat_id: int) -> None:
        """A request's answer arrived (or it failed): it counts in the windows from now."""
        now = self._clock.now()
        self._window.give_back(now)
        if chat_id > 0:
            left = self._private_in_flight[chat_id] - 1
            if left:
                self._private_in_flight[chat_id] = left
            else:
                del self._private_in_flight[chat_id]
            self._private_answers.setdefault(chat_id, deque()).append(now)
        self._pump()

    def _pump(self) -> None:
        """Let every waiter in whose turn has come, best first; wake again when the next
        place frees."""
        now = self._clock.now()
        window = WINDOW_SECONDS + MARGIN_SECONDS
        wake: float | None = None
        if now < self._held_until:
            wake = self._held_until
        else:
            wake = self._grant_aged(now, window)
            blocked: list[_Waiter] = []
            refused = False
            while self._waiters:
                waiter = heapq.heappop(self._waiters)
                if waiter.granted.done():
                    continue
                free_at = self._private_free_at(waiter.chat_id, now, window)
                if free_at is not None:
                    blocked.append(waiter)
                    wake = free_at if wake is None else min(wake, free_at)
                    continue
                if not self._grant(waiter, now, window):
                    blocked.append(waiter)
                    refused = True
                    break
            for waiter in blocked:
                heapq.heappush(self._waiters, waiter)
            self._drop_done_arrivals()
            aged_at = self._next_aged_at()
            if aged_at is not None and aged_at > now:
                # The oldest waiter's priority rises then: wake to let it in.
                wake = aged_at if wake is None else min(wake, aged_at)
            free_at = self._window.free_at(now, window) if self._waiters else None
            if free_at is None and refused:
                # A window shared with other workers may have freed since it refused: look
                # again soon (their answers do not wake this queue).
                free_at = now + POLL_SECONDS
            if free_at is not None:
                wake = free_at if wake is None else min(wake, free_at)
        if wake is not None:
            self._wake_at(wake)

    def _grant_aged(self, now: float, window: float) -> float | None:
        """Let in the waiters that have waited AGED_SECONDS or more, and the withdrawable ones
        that have waited WITHDRAWABLE_AGED_SECONDS, the one that came first first (their heap
        entries are skipped later); returns when a blocked one's private chat frees."""
        self._drop_done_arrivals()
        wake: float | None = None
        aged = heapq.merge(
            _aged(self._arrivals, now - AGED_SECONDS),
            _aged(self._late_arrivals, now - WITHDRAWABLE_AGED_SECONDS),
            key=lambda waiter: (waiter.since, waiter.seq),
        )
        for waiter in aged:  # granting leaves the deques as they are
            if waiter.granted.done():
                continue
            free_at = self._private_free_at(waiter.chat_id, now, window)
            if free_at is not None:
                wake = free_at if wake is None else min(wake, free_at)
                continue
            if not self._grant(waiter, now, window):
                break
        return wake

    def _drop_done_arrivals(self) -> None:
        for arrivals in (self._arrivals, self._late_arrivals):
            while arrivals and arrivals[0].granted.done():
                arrivals.popleft()

    def _next_aged_at(self) -> float | None:
        """When the oldest waiter of either lane ages (its priority rises then)."""
        times = [
            arrivals[0].since + aged
            for arrivals, aged in (
                (self._arrivals, AGED_SECONDS),
                (self._late_arrivals, WITHDRAWABLE_AGED_SECONDS),
            )
            if arrivals
        ]
        return min(times, default=None)

    def _private_free_at(self, chat_id: int, now: float, window: float) -> float | None:
        """None if a request to the chat may start now; else when it may (a private chat's
        request in flight frees its place when its answer comes, which wakes the queue)."""
        if chat_id <= 0:
            return None
        answers = self._private_answers.get(chat_id)
        if answers is not None:
            expire(answers, now - window)
            if not answers:
                del self._private_answers[chat_id]
                answers = None
        in_flight = self._private_in_flight.get(chat_id, 0)
        used = in_flight + (len(answers) if answers else 0)
        if used < self._private_per_second:
            return None
        if answers:
            return answers[0] + window
        return now + window  # only requests in flight: their answers wake the queue sooner

    def _grant(self, waiter: _Waiter, now: float, window: float) -> bool:
        """Let the waiter in if the whole bot's window has a place (False: it has none)."""
        if not self._window.try_take(now, window):
            return False
        if waiter.chat_id > 0:
            self._private_in_flight[waiter.chat_id] = (
                self._private_in_flight.get(waiter.chat_id, 0) + 1
            )
        waiter.granted.set_result(None)
        return True

    def _wake_at(self, at: float) -> None:
        """Run the queue again at `at` (or sooner, if already set to)."""
        if self._timer is not None and not self._timer.done():
            if self._timer_at is not None and self._timer_at <= at:
                return
            self._timer.cancel()
        self._timer_at = at
        self._timer = asyncio.create_task(self._sleep_then_pump(at))

    async def _sleep_then_pump(self, at: float) -> None:
        await self._clock.sleep(max(0.0, at - self._clock.now()))
        self._timer_at = None
        self._pump()


def _aged(arrivals: deque[_Waiter], since: float) -> Iterator[_Waiter]:
    """The waiters of a lane that came at `since` or before, in the order they came."""
    for waiter in arrivals:
        if waiter.since > since:
            return
        yield waiter


def _priority(chat_id: int, endpoint: str) -> int:
    if chat_id > 0:
        return PRIVATE
    return GROUP_EDIT if endpoint.startswith("edit") else GROUP_SEND


def _chat_id(value: object) -> int | None:
    """A chat id as an int; None for none, or for a channel's @username (not paced here)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            return int(value)
    return None


def _monotonic() -> float:
    return asyncio.get_running_loop().time()
