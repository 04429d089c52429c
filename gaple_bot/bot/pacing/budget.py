"""Each group's sliding budget: at most N requests answered in any window of Telegram's."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

WINDOW_SECONDS = 60.0
"""Telegram's window: at most `per_minute` group messages and edits in any 60 seconds."""
MARGIN_SECONDS = 1.0
"""Added to the window: Telegram's clock and ours need not agree to the millisecond."""
WINDOW = WINDOW_SECONDS + MARGIN_SECONDS
"""How long a request counts in its group's budget."""


class Budgets:
    """The times of every group's requests in the last window, as Telegram answered them.

    A request's time is taken when its answer arrives: a request started now is received no
    earlier than now, and the oldest one in the window was received no later than its answer,
    so waiting until that one leaves the window keeps Telegram's count under `per_minute`."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._times: dict[int, deque[float]] = {}

    def known(self, chat_id: int) -> bool:
        """Whether the group's times are known here (else they are read from the ledger)."""
        return chat_id in self._times

    def load(self, chat_id: int, times: Iterable[float]) -> None:
        """Replace the group's times by these (stored ones: after a restart, or beside other
        workers whose requests count too), oldest first."""
        self._times[chat_id] = deque(times)

    def count(self, chat_id: int, at: float) -> None:
        """Telegram answered a request to the group at `at`."""
        self._times.setdefault(chat_id, deque()).append(at)

    def wait(self, chat_id: int, now: float) -> float:
        """Seconds from `now` until the group may be sent one more request (0: at once)."""
        times = self._times.setdefault(chat_id, deque())
        while times and now - times[0] >= WINDOW:
            times.popleft()
        if len(times) < self.per_minute:
            return 0.0
        return WINDOW - (now - times[0])

    def last(self, chat_id: int) -> float | None:
        """When the group's newest request counted here was answered (None: none is)."""
        times = self._times.get(chat_id)
        return times[-1] if times else None

    def since(self, now: float) -> float:
        """The earliest time that still counts at `now` (what to read from the ledger)."""
        return now - WINDOW
