"""The choice of driver, made once: in-process alone, database-shared beside other workers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Bot

from ...service.outbox import GroupLedger
from .handle import OutboxClock, Painter
from .local import LocalOutbox
from .protocol import GroupOutbox
from .runtime import Hooks
from .shared import SharedOutbox


def open_outbox(
    bot: Bot,
    per_minute: int,
    *,
    ledger: GroupLedger | None = None,
    clock: OutboxClock | None = None,
    on_unwritable: Callable[[int], Awaitable[None]] | None = None,
    on_migrated: Callable[[int, int], Awaitable[None]] | None = None,
    painter: Painter | None = None,
    table_edit_seconds: float = 0.0,
) -> GroupOutbox:
    """The group outbox for `ledger`: shared in the database if other workers write to the
    same groups, else this process's own (stored in the ledger, if there is one).
    `on_unwritable(chat_id)` runs (in its own task) when the bot may not write in a group, once
    until a request there succeeds again; `on_migrated(old, new)` when Telegram answers that a
    group became a supergroup. `table_edit_seconds`: beside other workers, the least time
    between a group's last request and an edit of a table (`paced`) with nothing else waiting."""
    hooks = Hooks(on_unwritable, on_migrated)
    if ledger is not None and ledger.shared:
        return SharedOutbox(
            bot,
            per_minute,
            ledger=ledger,
            clock=clock,
            hooks=hooks,
            painter=painter,
            table_edit_seconds=table_edit_seconds,
        )
    return LocalOutbox(bot, per_minute, ledger=ledger, clock=clock, hooks=hooks, painter=painter)
