"""A queued request as the drivers hold it: the core's item and its attempts' state."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from .answers import Attempts, Outcome
from .handle import MessageHandle
from .queues import Item


@dataclass(eq=False, slots=True)
class Job(Item[MessageHandle]):
    """A request for the drivers: what the core queues, with the photo being drawn and how
    its attempts went."""

    drawing: asyncio.Future[bytes | None] | None = None
    """A photo's picture being drawn since it was queued (restored photos draw when due)."""
    attempts: Attempts = field(default_factory=Attempts)
    outcome: Outcome = Outcome.UNANSWERED
    """How its last request ended."""
