"""A clock that only moves when the test says so, with sleepers that wake when it gets there."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field


@dataclass
class ManualClock:
    """Seconds since the epoch, frozen until `advance`; `sleep` waits for the clock (not for
    real time), so a test covers minutes of budget in milliseconds."""

    time: float = 1_800_000_000.0
    _sleepers: list[tuple[float, asyncio.Future[None]]] = field(default_factory=list)

    def now(self) -> float:
        """The current time."""
        return self.time

    async def sleep(self, seconds: float) -> None:
        """Return once the clock has moved `seconds` on (at once for nothing to wait)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (self.time + seconds, waiter)
        self._sleepers.append(entry)
        try:
            await waiter
        finally:
            if entry in self._sleepers:
                self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        """Move the clock on and wake whoever slept until then."""
        self.time += seconds
        for wake_at, waiter in list(self._sleepers):
            if wake_at <= self.time and not waiter.done():
                waiter.set_result(None)

    @property
    def next_wake(self) -> float | None:
        """When the earliest sleeper wakes (None if nobody sleeps)."""
        waiting = [at for at, waiter in self._sleepers if not waiter.done()]
        return min(waiting) if waiting else None
