"""/healthz and /metrics in polling mode, on METRICS_PORT: what a game played changes there."""

from __future__ import annotations

import random
from pathlib import Path

import aiohttp

from tests.bot.driver import play_until, seat_and_start
from tests.bot.exposition import samples, types, value
from tests.bot.harness import GROUP, GROUP_TITLE, running_bot
from tests.fakes.telegram_server import running_fake
from tests.postgres import free_port

ANA = 301


async def _get(port: int, path: str) -> tuple[int, bytes]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}{path}") as response,
    ):
        return response.status, await response.read()


async def test_metrics_count_the_moves_and_the_computers_decisions(tmp_path: Path) -> None:
    port = free_port()
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        settings = {"METRICS_PORT": str(port), "WEBHOOK_LISTEN": "127.0.0.1"}
        async with running_bot(fake, tmp_path / "gaple.sqlite3", **settings):
            assert await _get(port, "/healthz") == (200, b"ok\n")
            status, before = await _get(port, "/metrics")
            assert status == 200
            assert value(samples(before), "gaple_games_running") == 0
            await seat_and_start(fake, ANA)
            rng = random.Random(5)
            moves = 0.0

            async def some_moves() -> bool:
                nonlocal moves
                _, now = await _get(port, "/metrics")
                moves = value(samples(now), "gaple_moves_total", kind="gaple")
                return moves >= 8

            await play_until(fake, (ANA,), some_moves, rng)
            _, after = await _get(port, "/metrics")
    found = samples(after)
    assert value(found, "gaple_games_running") == 1
    normal = {"kind": "gaple", "level": "normal"}
    decided = value(found, "gaple_computer_decision_seconds_count", **normal)
    assert decided >= moves / 2  # three computers to one person: most moves are theirs
    assert value(found, "gaple_computer_decision_seconds_bucket", **normal, le="+Inf") == decided
    assert types(after)["gaple_telegram_errors"] == "counter"
    assert ("gaple_group_queue_messages", frozenset()) in found
