"""The token's window of messages over all chats: this process's own, or one file the workers
of one machine share, so that one worker may use what the others leave."""

from __future__ import annotations

import fcntl
import mmap
import os
import struct
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

PACE_FILE_VARIABLE = "GAPLE_PACE_FILE"
"""Where the supervisor tells its workers their shared window is (internal)."""
POLL_SECONDS = 0.05
"""A shared window full of other workers' requests in flight frees with their answers, which
only reach this worker by looking again this long after."""

_INT = struct.Struct("q")
_TIME = struct.Struct("d")


class TokenWindow:
    """The messages of the whole bot in the last window: those in flight and those answered
    within it may be at most `per_second` (this process's own, as when it works alone)."""

    def __init__(self, per_second: int) -> None:
        self.per_second = per_second
        self._in_flight = 0
        self._answers: deque[float] = deque()

    def try_take(self, now: float, window: float) -> bool:
        """Take a place for a request that starts now (False: none is free)."""
        expire(self._answers, now - window)
        if self._in_flight + len(self._answers) >= self.per_second:
            return False
        self._in_flight += 1
        return True

    def give_back(self, now: float) -> None:
        """A request taken earlier got its answer (or failed) now: it counts from now."""
        self._in_flight -= 1
        self._answers.append(now)

    def free_at(self, now: float, window: float) -> float | None:
        """When a place frees if none is free now (None: one is free, or only requests in
        flight hold them, whose answers wake the queue)."""
        expire(self._answers, now - window)
        if self._in_flight + len(self._answers) < self.per_second or not self._answers:
            return None
        return self._answers[0] + window

    def close(self) -> None:
        """Let go of the window (nothing to do for this process's own)."""


class SharedTokenWindow(TokenWindow):
    """The window in a memory-mapped file every worker of one supervisor shares, each change
    made under the file's lock: each worker's requests in flight (its own slot; what its
    previous run left there counts as answered when it starts again), then the answers'
    times in the order they came (a ring of `per_second`, on the machine's monotonic clock,
    the oldest dropped as they leave the window)."""

    def __init__(self, path: str, slot: int, slots: int, per_second: int) -> None:
        super().__init__(per_second)
        if not 0 <= slot < slots:
            raise ValueError(f"no slot {slot} of {slots}")
        self._slot = _INT.size * slot
        self._slots = slots
        self._head = _INT.size * slots
        self._count = self._head + _INT.size
        self._times = self._count + _INT.size
        size = self._times + _TIME.size * per_second
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            with _locked(self._fd):
                if os.fstat(self._fd).st_size < size:
                    os.ftruncate(self._fd, size)  # zeros: nothing in flight, no answer
                self._map = mmap.mmap(self._fd, size)
                # What this worker's previous run had in flight may have reached Telegram.
                self._answer_in_flight()
        except BaseException:
            os.close(self._fd)
            raise

    def try_take(self, now: float, window: float) -> bool:
        if self._map.closed:
            return super().try_take(now, window)
        with _locked(self._fd):
            if self._used(now - window) >= self.per_second:
                return False
            self._add(self._slot, 1)
        return True

    def give_back(self, now: float) -> None:
        if self._map.closed:
            # Taken before the close: it counted in the shared window, whose slot is empty.
            self._answers.append(now)
            return
        with _locked(self._fd):
            if self._get(self._slot) > 0:
                self._add(self._slot, -1)
            self._append(now)

    def free_at(self, now: float, window: float) -> float | None:
        if self._map.closed:
            return super().free_at(now, window)
        with _locked(self._fd):
            if self._used(now - window) < self.per_second:
                return None
            if self._get(self._count):
                return self._time(self._get(self._head)) + window
        return now + POLL_SECONDS

    def close(self) -> None:
        """Let go of the file (what this worker still has in flight counts as answered now,
        and from then on in this process's own window); again: no-op (the bot may be shut
        down twice)."""
        if self._map.closed:
            return
        with _locked(self._fd):
            self._answer_in_flight()
        self._map.close()
        os.close(self._fd)

    def _used(self, since: float) -> int:
        """Requests in flight and answers after `since`, dropping the older answers."""
        head, count = self._get(self._head), self._get(self._count)
        while count and self._time(head) <= since:
            head, count = (head + 1) % self.per_second, count - 1
        _INT.pack_into(self._map, self._head, head)
        _INT.pack_into(self._map, self._count, count)
        in_flight = sum(self._get(_INT.size * slot) for slot in range(self._slots))
        return in_flight + count

    def _answer_in_flight(self) -> None:
        """Count this worker's requests in flight as answered now (under the lock)."""
        for _ in range(self._get(self._slot)):
            self._append(time.monotonic())
        _INT.pack_into(self._map, self._slot, 0)

    def _append(self, now: float) -> None:
        """Add an answer's time at the ring's end (under the lock)."""
        head, count = self._get(self._head), self._get(self._count)
        if count == self.per_second:
            # Full: the oldest answer is out of the window (this request held a place).
            head, count = (head + 1) % self.per_second, count - 1
            _INT.pack_into(self._map, self._head, head)
        if count:
            # Answers stay in order: another worker's may have come a moment later.
            now = max(now, self._time((head + count - 1) % self.per_second))
        _TIME.pack_into(self._map, self._at((head + count) % self.per_second), now)
        _INT.pack_into(self._map, self._count, count + 1)

    def _get(self, offset: int) -> int:
        return int(_INT.unpack_from(self._map, offset)[0])

    def _add(self, offset: int, change: int) -> None:
        _INT.pack_into(self._map, offset, self._get(offset) + change)

    def _time(self, index: int) -> float:
        return float(_TIME.unpack_from(self._map, self._at(index))[0])

    def _at(self, index: int) -> int:
        return self._times + _TIME.size * index


@contextmanager
def _locked(fd: int) -> Iterator[None]:
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


def expire(times: deque[float], before: float) -> None:
    """Drop the times at `before` or earlier from the front of `times` (oldest first)."""
    while times and times[0] <= before:
        times.popleft()
