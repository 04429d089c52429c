"""Published outcomes: every use case's Outcome, for the front ends that did not make it.

A subscriber (a page showing a table, say) reads the outcomes of every game in order; one
that falls too far behind loses the oldest, is told how many it missed, and reads the game
afresh (as a page coming back from the background does).
"""

from __future__ import annotations

import asyncio
from collections import deque

from .outcome import Outcome

QUEUE_LENGTH = 256
"""Outcomes kept for a subscriber that has not read them yet."""


class Subscription:
    """One subscriber's outcomes, oldest first."""

    def __init__(self, feed: OutcomeFeed, length: int) -> None:
        self._feed = feed
        self._queue: deque[Outcome] = deque(maxlen=length)
        self._ready = asyncio.Event()
        self.missed = 0
        """Outcomes dropped because this subscriber fell behind (it should read afresh)."""

    def put(self, outcome: Outcome) -> None:
        """Keep `outcome` for the subscriber (the oldest goes if it is too far behind)."""
        if len(self._queue) == self._queue.maxlen:
            self.missed += 1
        self._queue.append(outcome)
        self._ready.set()

    def waiting(self) -> list[Outcome]:
        """Every outcome not read yet, taken without waiting."""
        taken = list(self._queue)
        self._queue.clear()
        return taken

    async def next(self) -> Outcome:
        """The next outcome, waiting for one if none is there."""
        while not self._queue:
            self._ready.clear()
            await self._ready.wait()
        return self._queue.popleft()

    def close(self) -> None:
        """Stop receiving outcomes."""
        self._feed.unsubscribe(self)


class OutcomeFeed:
    """Hands each published outcome to every subscriber, without waiting for any."""

    def __init__(self) -> None:
        self._subscribers: set[Subscription] = set()

    def subscribe(self, length: int = QUEUE_LENGTH) -> Subscription:
        """A new subscriber, from the next outcome on."""
        subscription = Subscription(self, length)
        self._subscribers.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        """The subscriber receives nothing more."""
        self._subscribers.discard(subscription)

    @property
    def listened(self) -> bool:
        """Whether anyone subscribes (so an outcome is worth making)."""
        return bool(self._subscribers)

    def publish(self, outcome: Outcome) -> None:
        """Give `outcome` to every subscriber (one with no effect too: every command
        publishes exactly one outcome, even a command that found nothing to do)."""
        for subscription in self._subscribers:
            subscription.put(outcome)
