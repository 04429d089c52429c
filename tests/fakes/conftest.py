"""Fixtures for the tests of the fake Telegram Bot API server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.fakes.telegram_server import FakeTelegram, running_fake


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegram]:
    """A running fake with users Ana (1, started), Budi (2, never started the bot), Citra (3)
    and a supergroup -1001000000001 administered by Ana. Fails the test on Bot API violations.
    """
    async with running_fake() as server:
        server.add_user(1, "Ana", username="ana")
        server.add_user(2, "Budi", started=False)
        server.add_user(3, "Citra", language_code="id")
        server.add_group(-1001000000001, "Gaple room", admins=(1,), members=(2, 3))
        yield server
