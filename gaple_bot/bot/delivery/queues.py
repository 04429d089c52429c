"""Each group's queue in this process: its order, edits merged while they wait, what is due."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from ..pacing.budget import Budgets
from .records import GroupMessage, Kind


class Target(Protocol):
    """The message a request sends or edits, as the queue sees it."""

    @property
    def chat_id(self) -> int:
        """The group it is in."""

    @property
    def shown(self) -> str | None:
        """What it shows as Telegram last accepted it (`GroupMessage.content`)."""


H = TypeVar("H", bound=Target)


@dataclass(eq=False, slots=True)
class Item(Generic[H]):
    """A queued request: the message it sends or edits, and what it says."""

    target: H
    message: GroupMessage
    stored: bool = False
    """A send kept in the database until Telegram accepts it (or refuses it for good)."""
    row_id: int | None = None
    """Its row, once written."""

    @property
    def chat_id(self) -> int:
        """The group it goes to."""
        return self.target.chat_id

    @property
    def unchanged(self) -> bool:
        """An edit to what its message shows already (Telegram would refuse it, and it would
        spend the group's budget)."""
        return self.message.kind is Kind.EDIT and self.target.shown == self.message.content()


@dataclass(frozen=True, slots=True)
class Wait:
    """Nothing may go to the group for `seconds` (its budget is spent)."""

    seconds: float


Q = TypeVar("Q", bound="Item[Any]")
"""The queued item: the core's `Item`, or a driver's subclass of it."""


class Queues(Generic[Q]):
    """One queue per group, sent in order, one request at a time; an edit still waiting is
    replaced by a newer one of the same message, and an edit to what the message shows
    already is dropped."""

    def __init__(self, budgets: Budgets) -> None:
        self.budgets = budgets
        self._queues: dict[int, deque[Q]] = {}
        self._pending_edit: dict[Any, Q] = {}

    def lengths(self) -> list[int]:
        """How many requests wait for each group."""
        return [len(queue) for queue in self._queues.values()]

    def push(self, item: Q) -> None:
        """Queue a request at the end of its group's queue."""
        if item.message.kind is Kind.EDIT:
            self._pending_edit[item.target] = item
        self._queues.setdefault(item.chat_id, deque()).append(item)

    def edit(self, item: Q, *, idle: bool) -> bool:
        """Queue an edit; whether it was queued anew (False: it replaced the edit of the same
        message still waiting, or it changes nothing and nothing of the group waits or is in
        flight, `idle`)."""
        waiting = self._pending_edit.get(item.target)
        if waiting is not None:
            waiting.message = item.message
            return False
        if idle and item.unchanged:
            return False
        self.push(item)
        return True

    def next(self, chat_id: int, now: float) -> Q | Wait | None:
        """The group's next request if its budget allows it at `now` (taken off the queue),
        how long to wait if not, or None if nothing waits."""
        queue = self._queues.get(chat_id)
        while queue and queue[0].unchanged:
            self._take(chat_id, queue)
        if not queue:
            return None
        seconds = self.budgets.wait(chat_id, now)
        if seconds > 0:
            return Wait(seconds)
        return self._take(chat_id, queue)

    def send_fresh(self, item: Q) -> None:
        """The edited message is gone: the change goes out as a fresh message, first in its
        group's queue (unless a newer edit of it waits: that one goes instead)."""
        if item.message.kind is Kind.EDIT:
            if item.target in self._pending_edit:
                return
            self._pending_edit[item.target] = item
        self._queues.setdefault(item.chat_id, deque()).appendleft(item)

    def drop(self, chat_id: int) -> list[Q]:
        """Take every request queued for the group."""
        queue = self._queues.pop(chat_id, deque())
        for item in queue:
            self._pending_edit.pop(item.target, None)
        return list(queue)

    def empty(self, chat_id: int) -> bool:
        """Whether nothing waits for the group."""
        return not self._queues.get(chat_id)

    def _take(self, chat_id: int, queue: deque[Q]) -> Q:
        item = queue.popleft()
        if item.message.kind is Kind.EDIT and self._pending_edit.get(item.target) is item:
            del self._pending_edit[item.target]
        if not queue:
            del self._queues[chat_id]
        return item
