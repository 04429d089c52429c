"""The bot's HTTP server before the bot is ready: posts and checks answer 503, so Telegram
(and a load balancer) come back later; a post without the secret is refused even then."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from gaple_bot.app import build_bot
from gaple_bot.bot.metrics import Metrics
from gaple_bot.bot.server import SECRET_HEADER, BotServer
from gaple_bot.settings import settings_from
from tests.postgres import free_port

SECRET = "not-ready-secret"
UPDATE = {
    "update_id": 1,
    "message": {
        "message_id": 1,
        "date": 0,
        "chat": {"id": -100, "type": "group", "title": "G"},
        "from": {"id": 5, "is_bot": False, "first_name": "Ana"},
        "text": "/gaple",
    },
}


@pytest.fixture
async def not_ready(tmp_path: Path) -> AsyncIterator[str]:
    """The server of a bot built but not started, and its base address."""
    settings = settings_from(
        {
            "TELEGRAM_BOT_TOKEN": "1:not-used",
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'gaple.sqlite3'}",
        }
    )
    app = build_bot(settings)
    server = BotServer(app, Metrics(), webhook_path="telegram", secret=SECRET)
    port = free_port()
    await server.start("127.0.0.1", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        await server.stop()


async def test_before_the_bot_is_ready_every_request_gets_503(not_ready: str) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.post(
            f"{not_ready}/telegram", data=json.dumps(UPDATE), headers={SECRET_HEADER: SECRET}
        ) as response:
            assert response.status == 503
        async with session.get(f"{not_ready}/healthz") as response:
            assert (response.status, await response.text()) == (503, "starting\n")
        async with session.get(f"{not_ready}/metrics") as response:
            assert response.status == 503


async def test_a_post_without_the_secret_is_refused_before_anything_else(not_ready: str) -> None:
    async with aiohttp.ClientSession() as session:
        for headers in ({}, {SECRET_HEADER: "wrong"}):
            async with session.post(
                f"{not_ready}/telegram", data=json.dumps(UPDATE), headers=headers
            ) as response:
                assert response.status == 403
