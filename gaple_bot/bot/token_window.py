"""The token's window of messages over all chats: this process's own, or one file the workers
of one machine share, so that one worker may use what the others leave."""

from __future__ import annotations

import fcntl
import mmap
import os
import struct
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager

PACE_FILE_VARIABLE = "GAPLE_PACE_FILE"
"""Where the supervisor tells its workers their shared window is (internal)."""
POLL_SECONDS = 0.05
"""A shared window full of other workers' requests in flight frees with their answers, which
only reach this worker by looking again this long after."""

NEVER = float("-inf")
"""The time of an answer that never came (a new file's places)."""

_SLOT = struct.Struct("q")
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
    made under the file's lock: each worker's requests in flight (its own slot, which it
    empties when it starts: what its previous run had in flight is over), then the times of
    the last `per_second` answers, all on the machine's monotonic clock."""

    def __init__(self, path: str, slot: int, slots: int, per_second: int) -> None:
        super().__init__(per_second)
        if not 0 <= slot < slots:
            raise ValueError(f"no slot {slot} of {slots}")
        self._slot = slot
        self._slots = slots
        size = _SLOT.size * slots + _TIME.size * per_second
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            with _locked(self._fd):
                new = os.fstat(self._fd).st_size < size
                if new:
                    os.ftruncate(self._fd, size)  # zeros: nothing in flight
                self._map = mmap.mmap(self._fd, size)
                if new:
                    for index in range(per_second):
                        _TIME.pack_into(self._map, self._time_offset(index), NEVER)
                _SLOT.pack_into(self._map, _SLOT.size * slot, 0)
        except BaseException:
            os.close(self._fd)
            raise

    def try_take(self, now: float, window: float) -> bool:
        with _locked(self._fd):
            if self._used(now - window) >= self.per_second:
                return False
            offset = _SLOT.size * self._slot
            (mine,) = _SLOT.unpack_from(self._map, offset)
            _SLOT.pack_into(self._map, offset, mine + 1)
        return True

    def give_back(self, now: float) -> None:
        with _locked(self._fd):
            offset = _SLOT.size * self._slot
            (mine,) = _SLOT.unpack_from(self._map, offset)
            _SLOT.pack_into(self._map, offset, max(0, mine - 1))
            # The oldest answer's place takes the newest.
            times = self._times()
            oldest = min(range(len(times)), key=times.__getitem__)
            _TIME.pack_into(self._map, self._time_offset(oldest), now)

    def free_at(self, now: float, window: float) -> float | None:
        since = now - window
        with _locked(self._fd):
            if self._used(since) < self.per_second:
                return None
            recent = [at for at in self._times() if at > since]
        return min(recent) + window if recent else now + POLL_SECONDS

    def close(self) -> None:
        """Let go of the file (what this worker has in flight no longer counts); again: no-op
        (the bot may be shut down twice)."""
        if self._map.closed:
            return
        with _locked(self._fd):
            _SLOT.pack_into(self._map, _SLOT.size * self._slot, 0)
        self._map.close()
        os.close(self._fd)

    def _used(self, since: float) -> int:
        in_flight = sum(
            int(_SLOT.unpack_from(self._map, _SLOT.size * slot)[0]) for slot in range(self._slots)
        )
        return in_flight + sum(1 for at in self._times() if at > since)

    def _times(self) -> list[float]:
        return [
            _TIME.unpack_from(self._map, self._time_offset(index))[0]
            for index in range(self.per_second)
        ]

    def _time_offset(self, index: int) -> int:
        return _SLOT.size * self._slots + _TIME.size * index


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
