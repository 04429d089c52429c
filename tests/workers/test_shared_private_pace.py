"""Two workers writing to one person's private chat share its pace: together they send no more
than one message a second there, so Telegram refuses none."""

from __future__ import annotations

import asyncio
import itertools

from telegram.ext import ExtBot

from gaple_bot.bot.pacing.pacer import Pacer
from gaple_bot.store import Store
from gaple_bot.store.private_paces import POLL_SECONDS
from tests.fakes.telegram_server import FakeTelegram, running_fake

ANA = 3101
EACH = 3
"""Messages each worker sends Ana at once."""


def _bot(fake: FakeTelegram, store: Store) -> ExtBot[None]:
    """A worker's bot: its own pacer, sharing private chats' pace through its store."""
    pacer = Pacer()
    assert store.private_paces is not None
    pacer.share_private_pace(store.private_paces)
    return ExtBot(
        fake.token, base_url=fake.api_url, base_file_url=fake.file_url, rate_limiter=pacer
    )


async def test_two_workers_together_keep_a_private_chat_s_pace(
    two_workers: tuple[Store, Store],
) -> None:
    first, second = two_workers
    async with running_fake(private_limit_per_second=1) as fake:
        fake.add_user(ANA, "Ana")
        await fake.start_private(ANA)
        bots = [_bot(fake, store) for store in (first, second)]
        async with bots[0], bots[1]:
            sends = [
                bot.send_message(ANA, f"{name}{n}")
                for n in range(EACH)
                for name, bot in zip("ab", bots, strict=True)
            ]
            await asyncio.wait_for(asyncio.gather(*sends), 120)
        requests = [r for r in fake.requests_for("sendMessage") if r.chat_id == ANA]
        assert [r.status for r in requests] == [200] * (2 * EACH)
        shown = [m.text for m in fake.bot_messages(ANA)]
        assert sorted(shown) == sorted(f"{name}{n}" for name in "ab" for n in range(EACH))
        times = sorted(r.time for r in requests)
        assert all(later - earlier >= 1.0 for earlier, later in itertools.pairwise(times))
        # Both workers' rows agree on one pace: the chat's single row.
        async with first.engine.connect() as connection:
            rows = (await connection.exec_driver_sql("SELECT chat_id FROM private_paces")).all()
        assert [row[0] for row in rows] == [ANA]


async def test_a_private_chat_is_one_worker_s_at_a_time_then_waits_its_spacing(
    two_workers: tuple[Store, Store],
) -> None:
    first, second = (store.private_paces for store in two_workers)
    assert first is not None and second is not None
    lease, wait = await first.take(ANA)
    assert lease is not None and wait == 0
    # In flight on the first worker: the second asks again soon.
    taken, wait = await second.take(ANA)
    assert taken is None and 0 < wait <= POLL_SECONDS
    await first.answered(ANA, lease, 30.0)
    # Answered: free again only its spacing later, for either worker.
    for paces in (second, first):
        taken, wait = await paces.take(ANA)
        assert taken is None and 20.0 < wait <= 30.0
    # Another person's chat is not held up.
    taken, wait = await second.take(ANA + 1)
    assert taken is not None and wait == 0


async def test_only_the_holder_of_a_chat_s_lease_ends_it(
    two_workers: tuple[Store, Store],
) -> None:
    """An answer that comes after its lease ran out (and another worker took the chat) must
    not end the other worker's lease."""
    first, second = (store.private_paces for store in two_workers)
    assert first is not None and second is not None
    lease, _ = await first.take(ANA)
    assert lease is not None
    await second.answered(ANA, lease + 1.0, 0.0)  # a lease that is not the one held
    taken, _ = await second.take(ANA)
    assert taken is None
    await first.answered(ANA, lease, 0.0)
    taken, _ = await second.take(ANA)
    assert taken is not None
