"""Workers know which of them are alive (each holds a lock of its own while it lives), and one
of those started together is senior: the one that resumes the games at start."""

from __future__ import annotations

import pytest

from gaple_bot.store import Store

pytestmark = pytest.mark.asyncio


async def test_each_worker_sees_the_others_alive(two_workers: tuple[Store, Store]) -> None:
    first, second = two_workers
    # A worker shows as live once its lock connection is open (Store.start opens it).
    await second.game_locks.live_workers()
    ids = {first.game_locks.worker_id, second.game_locks.worker_id}
    assert len(ids) == 2 and 0 not in ids
    assert await first.game_locks.live_workers() >= ids
    await second.game_locks.close()
    assert second.game_locks.worker_id not in await first.game_locks.live_workers()


async def test_of_workers_started_together_one_is_senior(
    two_workers: tuple[Store, Store],
) -> None:
    """The senior resumes the games at start; the other leaves them, and a worker that comes
    after the senior died becomes senior."""
    first, second = two_workers
    assert await first.game_locks.take_seniority()
    assert not await second.game_locks.take_seniority()
    await first.close()
    assert await second.game_locks.take_seniority()
