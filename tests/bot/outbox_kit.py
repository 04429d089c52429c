"""What the outbox tests share: a manual clock for bot and fake, a store, window checks."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from gaple_bot.bot.outbox import GroupOutbox, OutboxClock
from gaple_bot.store import Store
from tests.fakes.clock import ManualClock
from tests.fakes.telegram_server import GROUP_WRITE_METHODS, FakeTelegram

GROUP_WRITES = GROUP_WRITE_METHODS
"""What counts in a group's per-minute budget: sends (photos too) and edits."""


def outbox_clock(clock: ManualClock) -> OutboxClock:
    """The outbox's view of a manual clock."""
    return OutboxClock(now=clock.now, sleep=clock.sleep)


@asynccontextmanager
async def migrated_store(path: Path) -> AsyncIterator[Store]:
    """A store on a new database file at the newest schema."""
    store = await Store.start(f"sqlite+aiosqlite:///{path}")
    try:
        yield store
    finally:
        await store.close()


async def settle(fake: FakeTelegram, clock: ManualClock, outbox: GroupOutbox) -> None:
    """Wait until the outbox has sent all it may: it is idle, or it sleeps on the clock."""
    await fake.wait_for(
        lambda: fake.requests_in_flight == 0 and (not outbox.busy or clock.next_wake is not None),
        timeout=30,
        message="the outbox did not settle",
    )


def group_receipts(fake: FakeTelegram, chat_id: int) -> list[float]:
    """When the fake received each group send or edit it accepted, in order."""
    return [
        r.time
        for r in fake.requests
        if r.chat_id == chat_id and r.method in GROUP_WRITES and r.status == 200
    ]


def assert_window_holds(fake: FakeTelegram, chat_id: int, per_minute: int) -> None:
    """No 429 in the group, and never more than `per_minute` receipts in any 60 seconds."""
    refused = [r for r in fake.requests if r.chat_id == chat_id and r.status == 429]
    assert not refused, refused
    times = sorted(group_receipts(fake, chat_id))
    for first, last in zip(times, times[per_minute:], strict=False):
        assert last - first >= 60, f"{per_minute + 1} group requests within {last - first}s"
