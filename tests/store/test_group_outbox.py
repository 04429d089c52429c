"""The group outbox's tables: stored sends in order until delivered, and the budget's times."""

from __future__ import annotations

from gaple_bot.service.outbox import GroupLedger
from gaple_bot.store import QueuedSend, Store

CHAT, OTHER, NEW = -1001, -1002, -1003


async def test_stored_sends_come_back_in_order_until_delivered(store: Store) -> None:
    ledger = GroupLedger(store)
    first = await ledger.queue([(CHAT, None, {"text": "one"}), (OTHER, 7, {"text": "two"})])
    second = await ledger.queue([(CHAT, None, {"text": "three", "reply_markup": {"a": [1]}})])
    assert (await ledger.pending()) == [
        QueuedSend(first[0], CHAT, None, {"text": "one"}),
        QueuedSend(first[1], OTHER, 7, {"text": "two"}),
        QueuedSend(second[0], CHAT, None, {"text": "three", "reply_markup": {"a": [1]}}),
    ]
    await ledger.answered([(CHAT, 100.0)], window=61.0, done=[first[0]])
    await ledger.answered([], window=61.0, done=[first[1]])
    assert [s.id for s in await ledger.pending()] == second


async def test_request_times_are_kept_for_one_window_only(store: Store) -> None:
    ledger = GroupLedger(store)
    await ledger.answered([(CHAT, 10.0), (CHAT, 20.0)], window=61.0, done=[])
    await ledger.answered([(CHAT, 30.0), (OTHER, 40.0)], window=61.0, done=[])
    assert await ledger.recent(CHAT, 15.0) == [20.0, 30.0]
    # A request at 85 prunes every chat's times older than 85 - 61 = 24.
    await ledger.answered([(OTHER, 85.0)], window=61.0, done=[])
    assert await ledger.recent(CHAT, 0.0) == [30.0]
    async with store.read() as tx:
        assert await tx.outbox.stamps(OTHER, 0.0) == [40.0, 85.0]


async def test_a_chat_that_moves_or_goes_takes_its_queue_and_budget_along(store: Store) -> None:
    ledger = GroupLedger(store)
    await ledger.queue([(CHAT, None, {"text": "one"}), (OTHER, None, {"text": "two"})])
    await ledger.answered([(CHAT, 10.0)], window=61.0, done=[])
    await ledger.move_chat(CHAT, NEW)
    assert [s.chat_id for s in await ledger.pending()] == [NEW, OTHER]
    assert await ledger.recent(NEW, 0.0) == [10.0]
    await ledger.forget_chat(NEW)
    assert [s.chat_id for s in await ledger.pending()] == [OTHER]
    assert await ledger.recent(NEW, 0.0) == []
