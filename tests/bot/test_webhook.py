"""Webhook mode as an operator runs it: `python -m gaple_bot` with WEBHOOK_URL set registers its
webhook with the secret, answers updates posted to it, and refuses posts without the secret."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp

from tests.bot.exposition import samples, types, value
from tests.fakes.telegram_server import FakeTelegram, running_fake

GROUP = -1009876543210
ANA = 901
SECRET = "webhook_secret-42"
WAIT = 120.0
"""Seconds to wait for the bot (starting a process and migrating is slow on a busy machine)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _wait(condition: Callable[[], bool], bot: asyncio.subprocess.Process, log: Path) -> None:
    """Wait for `condition`, failing at once with the bot's output if the bot exits."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not condition():
        output = _output(log)
        assert bot.returncode is None, f"the bot exited ({bot.returncode}):\n{output}"
        assert loop.time() < deadline, f"the bot did not get there in {WAIT}s:\n{output}"
        await asyncio.sleep(0.05)


def _output(log: Path) -> str:
    return log.read_text(errors="replace")


def _lobby_shown(fake: FakeTelegram) -> bool:
    return any("✋ Join" in message.button_texts() for message in fake.bot_messages(GROUP))


async def test_webhook_mode_answers_updates_with_the_secret_and_refuses_others(
    tmp_path: Path,
) -> None:
    port = _free_port()
    log = tmp_path / "bot.log"
    async with running_fake() as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, "Webhook table", admins=(ANA,))
        environ = {
            "PATH": "/usr/bin:/bin",
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_BASE_URL": fake.base_url,
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'gaple.sqlite3'}",
            "COMPUTER_PROCESSES": "0",
            "WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram",
            "WEBHOOK_PORT": str(port),
            "WEBHOOK_LISTEN": "127.0.0.1",
            "WEBHOOK_SECRET": SECRET,
        }
        with log.open("wb") as output:
            bot = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "gaple_bot",
                cwd=tmp_path,
                env=environ,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        try:
            await _wait(lambda: fake.webhook is not None, bot, log)
            assert fake.webhook is not None
            assert fake.webhook["url"] == environ["WEBHOOK_URL"]
            assert fake.webhook["secret_token"] == SECRET
            assert not fake.requests_for("getUpdates")

            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            # Someone who does not know the secret is turned away, and nothing happens.
            statuses: list[int] = []

            async def post_forged() -> None:
                statuses.extend(await fake.deliver_to_webhook(secret="guessed"))

            await _wait_for_server(post_forged, bot, log)
            assert statuses and all(status == 403 for status in statuses), statuses
            assert not _lobby_shown(fake)

            # Telegram posts each update twice (it missed the answers): one lobby opens.
            assert await fake.deliver_to_webhook(twice=True) == [200] * 4  # /start, /gaple
            assert "came again: applied once already" in _output(log)
            await _wait(lambda: _lobby_shown(fake), bot, log)
            async with aiohttp.ClientSession() as session:
                async with session.get(f"http://127.0.0.1:{port}/healthz") as health:
                    assert (health.status, await health.text()) == (200, "ok\n")
                async with session.get(f"http://127.0.0.1:{port}/metrics") as metrics:
                    assert metrics.status == 200
                    exposition = await metrics.read()
            # A lobby is not a game played.
            assert value(samples(exposition), "gaple_games_running") == 0
            assert types(exposition)["gaple_computer_decision_seconds"] == "histogram"
            bot.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(bot.wait(), WAIT)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
        fake.assert_no_violations()
    # The second /gaple was not applied: it would have been answered "a table is open".
    assert len(fake.bot_messages(GROUP)) == 1, [m.text for m in fake.bot_messages(GROUP)]
    output_text = _output(log)
    assert code == 0, output_text
    assert "Traceback" not in output_text, output_text


async def _wait_for_server(
    post: Callable[[], Awaitable[None]], bot: asyncio.subprocess.Process, log: Path
) -> None:
    """Retry `post` until the bot's webhook server accepts connections (it starts listening a
    moment after it registers the webhook)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        try:
            await post()
            return
        except OSError:
            assert bot.returncode is None, _output(log)
            assert loop.time() < deadline, _output(log)
            await asyncio.sleep(0.1)
