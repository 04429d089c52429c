"""A flood of frames from one person is refused: a bucket of frames refilled over time."""

from __future__ import annotations

from collections.abc import Callable

BURST = 20
"""Frames a person may send at once (double taps, a reconnect's hello and sync)."""
PER_SECOND = 5.0
"""Frames a second a person may keep sending."""


class FrameBucket:
    """One person's allowance of frames, over all their sockets on this worker."""

    def __init__(
        self, now: Callable[[], float], burst: int = BURST, per_second: float = PER_SECOND
    ) -> None:
        self._now = now
        self._burst = float(burst)
        self._per_second = per_second
        self._left = float(burst)
        self._at = now()

    def take(self) -> bool:
        """Whether one more frame may be handled now (it is counted if so)."""
        now = self._now()
        self._left = min(self._burst, self._left + (now - self._at) * self._per_second)
        self._at = now
        if self._left < 1:
            return False
        self._left -= 1
        return True
