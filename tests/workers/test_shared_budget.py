"""Two workers writing to one group share its budget of messages a minute: together they stay
within it, and each one's messages keep their order."""

from __future__ import annotations

from gaple_bot.bot.outbox import GroupOutbox, open_outbox
from gaple_bot.service.outbox import GroupLedger
from gaple_bot.store import Store
from tests.bot.outbox_kit import assert_window_holds, outbox_clock
from tests.fakes.clock import ManualClock
from tests.fakes.telegram_server import FakeTelegram, running_fake

GROUP = -1003
PER_MINUTE = 5


async def _settle(fake: FakeTelegram, clock: ManualClock, *outboxes: GroupOutbox) -> None:
    """Wait until every outbox has sent all it may now: idle, or asleep on the clock."""
    await fake.wait_for(
        lambda: (
            fake.requests_in_flight == 0
            and (clock.next_wake is not None or not any(outbox.busy for outbox in outboxes))
        ),
        timeout=30,
        message="the outboxes did not settle",
    )


async def test_two_workers_together_keep_the_groups_budget(
    two_workers: tuple[Store, Store],
) -> None:
    clock = ManualClock()
    first, second = two_workers
    async with (
        running_fake(group_limit_per_minute=PER_MINUTE, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_group(GROUP, "Shared")
        outboxes = [
            open_outbox(bot, PER_MINUTE, ledger=GroupLedger(store), clock=outbox_clock(clock))
            for store in (first, second)
        ]
        for n in range(6):
            for name, outbox in zip("ab", outboxes, strict=True):
                outbox.send(GROUP, text=f"{name}{n}")
        await _settle(fake, clock, *outboxes)
        assert len(fake.bot_messages(GROUP)) == PER_MINUTE
        for _ in range(10):
            if not any(outbox.busy for outbox in outboxes):
                break
            clock.advance(61.0)
            await _settle(fake, clock, *outboxes)
        assert not any(outbox.busy for outbox in outboxes)
        shown = [message.text for message in fake.bot_messages(GROUP)]
        assert sorted(shown) == sorted(f"{name}{n}" for name in "ab" for n in range(6))
        for name in "ab":
            assert [text for text in shown if text[0] == name] == [f"{name}{n}" for n in range(6)]
        assert_window_holds(fake, GROUP, PER_MINUTE)
        for outbox in outboxes:
            await outbox.close(10)
