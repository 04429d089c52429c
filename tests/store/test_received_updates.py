"""Received updates: an update id is taken in once; ids older than the cut-off are forgotten."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from gaple_bot.store import Store

pytestmark = pytest.mark.asyncio

NOON = datetime(2026, 12, 2, 12, tzinfo=UTC)


async def test_an_update_is_first_delivered_once(store: Store):
    async with store.transaction() as tx:
        assert await tx.updates.first_delivery(10, now=NOON)
        assert not await tx.updates.first_delivery(10, now=NOON)
        assert await tx.updates.first_delivery(11, now=NOON)
    async with store.transaction() as tx:
        assert not await tx.updates.first_delivery(11, now=NOON + timedelta(seconds=5))


async def test_old_update_ids_are_forgotten(store: Store):
    async with store.transaction() as tx:
        await tx.updates.first_delivery(1, now=NOON - timedelta(days=2))
        await tx.updates.first_delivery(2, now=NOON)
        assert await tx.updates.forget_before(NOON - timedelta(days=1)) == 1
    async with store.transaction() as tx:
        assert await tx.updates.first_delivery(1, now=NOON)  # forgotten: new again
        assert not await tx.updates.first_delivery(2, now=NOON)
