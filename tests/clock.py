"""A clock tests move by hand, so that timing is proved without a stopwatch."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class TestClock:
    """Aware UTC time that runs with the real clock (or stands still when `frozen`) and jumps
    forward when the test says so. Pass it as the bot's `clock`; `seconds` suits the fake
    Telegram server's float clock."""

    __test__ = False  # not a test class, whatever pytest thinks of the name

    def __init__(self, *, frozen: bool = False) -> None:
        self._frozen = frozen
        self._start = datetime.now(UTC)
        self._offset = timedelta()

    def __call__(self) -> datetime:
        """The current time on this clock."""
        base = self._start if self._frozen else datetime.now(UTC)
        return base + self._offset

    def seconds(self) -> float:
        """The current time as a POSIX timestamp."""
        return self().timestamp()

    def advance(self, seconds: float) -> None:
        """Jump forward by `seconds`."""
        self._offset += timedelta(seconds=seconds)
