"""The group outbox's tables: stored sends in order until delivered, and the budget's times."""

from __future__ import annotations

from gaple_bot.service.outbox import GroupLedger, GroupRequest
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


async def test_old_request_times_are_forgotten_once_a_window_not_at_every_answer(
    store: Store,
) -> None:
    ledger = GroupLedger(store)
    await ledger.answered([(CHAT, 91.0), (CHAT, 100.0)], window=10.0, done=[])
    await ledger.answered([(CHAT, 105.0)], window=10.0, done=[])
    async with store.read() as tx:
        # 91 is out of the window at 105 but kept until a window after the last forgetting,
        # and the budget does not count it.
        assert await tx.outbox.stamps(CHAT, 0.0) == [91.0, 100.0, 105.0]
    assert await ledger.recent(CHAT, 105.0 - 10.0) == [100.0, 105.0]
    await ledger.answered([(CHAT, 110.0)], window=10.0, done=[])
    async with store.read() as tx:
        assert await tx.outbox.stamps(CHAT, 0.0) == [100.0, 105.0, 110.0]


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


async def test_sends_and_edits_of_every_worker_wait_in_one_queue_per_group(store: Store) -> None:
    """Beside other workers edits wait too, each naming its message or its game's, and
    whether it may wait for its table's pace."""
    ledger = GroupLedger(store)
    ids = await ledger.queue_requests(
        [
            GroupRequest(CHAT, None, {"text": "table"}, game_id=5),
            GroupRequest(OTHER, 3, {"text": "notice"}),
            GroupRequest(CHAT, None, {"text": "table, later"}, kind="edit", game_id=5, paced=True),
            GroupRequest(CHAT, None, {"text": "menu"}, kind="edit", message_id=77),
        ]
    )
    assert await ledger.waiting(CHAT) == [
        QueuedSend(ids[0], CHAT, None, {"text": "table"}, "send", 5, None),
        QueuedSend(ids[2], CHAT, None, {"text": "table, later"}, "edit", 5, None, paced=True),
        QueuedSend(ids[3], CHAT, None, {"text": "menu"}, "edit", None, 77),
    ]
    assert sorted(await ledger.chats_waiting()) == sorted([CHAT, OTHER])
    await ledger.finish([ids[0], ids[2]])
    assert [s.id for s in await ledger.waiting(CHAT)] == [ids[3]]
    await ledger.finish([ids[3]])
    assert await ledger.chats_waiting() == [OTHER]


async def test_a_group_that_moves_keeps_its_plain_sends_but_not_its_old_messages(
    store: Store,
) -> None:
    """Edits, lobbies and tables are of the old chat's messages: the new chat gets fresh
    ones, so only the results and notices move with it."""
    ledger = GroupLedger(store)
    await ledger.queue_requests(
        [
            GroupRequest(CHAT, None, {"text": "table"}, game_id=5),
            GroupRequest(CHAT, None, {"text": "result"}),
            GroupRequest(CHAT, None, {"text": "table, later"}, kind="edit", game_id=5),
            GroupRequest(CHAT, None, {"text": "menu"}, kind="edit", message_id=77),
        ]
    )
    await ledger.move_chat(CHAT, NEW)
    assert [(s.chat_id, s.params["text"]) for s in await ledger.pending()] == [(NEW, "result")]
