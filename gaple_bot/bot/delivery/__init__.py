"""Group message delivery: a pure core (order, merging, budgets, answers) and two drivers."""

from .answers import Outcome
from .factory import open_outbox
from .handle import MessageHandle, OutboxClock, Painter
from .local import LocalOutbox
from .protocol import GroupOutbox
from .records import GroupMessage, Kind
from .sending import CAPTION_LIMIT, retry_seconds
from .shared import SharedOutbox

__all__ = [
    "CAPTION_LIMIT",
    "GroupMessage",
    "GroupOutbox",
    "Kind",
    "LocalOutbox",
    "MessageHandle",
    "OutboxClock",
    "Outcome",
    "Painter",
    "SharedOutbox",
    "open_outbox",
    "retry_seconds",
]
