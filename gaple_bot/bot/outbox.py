"""The group outbox's names where the bot has always imported them (see `bot.delivery`)."""

from .delivery import (
    CAPTION_LIMIT,
    GroupOutbox,
    MessageHandle,
    OutboxClock,
    Painter,
    open_outbox,
    retry_seconds,
)

__all__ = [
    "CAPTION_LIMIT",
    "GroupOutbox",
    "MessageHandle",
    "OutboxClock",
    "Painter",
    "open_outbox",
    "retry_seconds",
]
