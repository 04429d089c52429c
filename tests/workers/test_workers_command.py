"""`gaple-bot --workers N` as an operator runs it: it refuses settings several workers cannot
share, and on PostgreSQL behind one webhook port its workers play and stop together."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest

from gaple_bot.store import Store
from tests.bot.exposition import samples, types, value
from tests.bot.test_webhook import WAIT, _output, _wait
from tests.fakes.telegram_server import FakeTelegram, running_fake
from tests.postgres import free_port
from tests.workers.processes import start_gaple_bot

GROUP = -1009876543001
ANA, BUDI = 1501, 1502
SECRET = "workers_secret-7"


def _environment(fake: FakeTelegram | None, database_url: str, port: int) -> dict[str, str]:
    return {
        "PATH": "/usr/bin:/bin",
        "TELEGRAM_BOT_TOKEN": fake.token if fake else "123:not-used",
        "TELEGRAM_API_BASE_URL": fake.base_url if fake else "http://127.0.0.1:9",
        "DATABASE_URL": database_url,
        "COMPUTER_PROCESSES": "0",
        "WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_SECRET": SECRET,
    }


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"WEBHOOK_URL": ""}, "need WEBHOOK_URL"),
        ({"WEBHOOK_SECRET": ""}, "need a fixed WEBHOOK_SECRET"),
        ({"DATABASE_URL": "sqlite+aiosqlite:///gaple.sqlite3"}, "need PostgreSQL"),
    ],
)
def test_several_workers_are_refused_without_what_they_must_share(
    tmp_path: Path, change: dict[str, str], said: str
) -> None:
    environ = {**_environment(None, "postgresql+asyncpg://u@127.0.0.1:9/db", 8443), **change}
    done = subprocess.run(
        [sys.executable, "-m", "gaple_bot", "--workers", "3"],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert said in done.stderr


async def test_two_workers_on_one_port_play_and_stop_together(
    tmp_path: Path, postgres_url: str
) -> None:
    port = free_port()
    log = tmp_path / "bot.log"
    # Where the supervisor makes the workers' metrics directory.
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    async with running_fake() as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, "Two workers", admins=(ANA,))
        environ = {**_environment(fake, postgres_url, port), "TMPDIR": str(temporary)}
        bot = await _two_workers(environ, tmp_path, log)
        try:
            await _wait(lambda: fake.webhook is not None, bot, log)
            await _wait(lambda: "worker 1/2 started" in _output(log), bot, log)
            # Both workers are up: each holds its own lock on the database.
            while len(await _live_workers(postgres_url)) < 2:
                assert bot.returncode is None, _output(log)
                await asyncio.sleep(0.1)
            await fake.start_private(ANA)
            await fake.start_private(BUDI)
            await fake.send_message(ANA, GROUP, "/gaple")
            await _deliver_until(fake, bot, log, lambda: _lobby(fake) is not None)
            lobby = _lobby(fake)
            assert lobby is not None
            # The tap may reach the other worker: it finds the lobby's message once stored
            # (one still in flight is not shared yet: docs/RUNNING.md, What the workers share).
            while not await _lobby_stored(postgres_url):
                assert bot.returncode is None, _output(log)
                await asyncio.sleep(0.05)
            await fake.press_button(BUDI, GROUP, lobby, "✋ Join")
            # Whichever worker takes the tap edits the lobby the other one may have posted.
            await _deliver_until(
                fake, bot, log, lambda: "Budi" in (fake.message(GROUP, lobby).text or "")
            )
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{port}/healthz") as health,
            ):
                assert health.status == 200
            async with (
                aiohttp.ClientSession() as session,
                session.get(f"http://127.0.0.1:{port}/metrics") as metrics,
            ):
                assert metrics.status == 200
                exposition = await metrics.read()
            assert value(samples(exposition), "gaple_games_running") == 0
            # The workers' counts come from the files of the supervisor's directory: a counter
            # nobody counted in yet is not there (a process alone lists it, empty).
            assert "gaple_moves" not in types(exposition)
            assert len(list(temporary.glob("gaple-metrics-*"))) == 1
            # One window of the token's pace for both, in a file of the supervisor's.
            [pace] = temporary.glob("gaple-pace-*")
            assert pace.stat().st_size > 0, "no worker took its place in the shared window"
            bot.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(bot.wait(), WAIT)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
        fake.assert_no_violations()
    text = _output(log)
    assert code == 0, text
    assert "Traceback" not in text, text
    assert len([m for m in fake.bot_messages(GROUP) if "✋ Join" in m.button_texts()]) == 1
    # The workers' metrics directory and pace file are gone with them.
    assert not list(temporary.glob("gaple-metrics-*"))
    assert not list(temporary.glob("gaple-pace-*"))


async def _two_workers(
    environ: dict[str, str], directory: Path, log: Path
) -> asyncio.subprocess.Process:
    """`gaple-bot --workers 2` started as an operator would, its output in `log`."""
    return await start_gaple_bot(["--workers", "2"], directory, environ, log)


async def _live_workers(url: str) -> set[int]:
    """The workers alive on the database, as one more worker sees them."""
    looking = Store.open(url)
    try:
        return await looking.game_locks.live_workers() - {looking.game_locks.worker_id}
    finally:
        await looking.close()


async def _lobby_stored(url: str) -> bool:
    looking = Store.open(url)
    try:
        async with looking.read() as tx:
            record = await tx.games.active(GROUP, None)
        return record is not None and record.message_id is not None
    finally:
        await looking.close()


def _lobby(fake: FakeTelegram) -> int | None:
    for message in fake.bot_messages(GROUP):
        if "✋ Join" in message.button_texts():
            return message.message_id
    return None


async def _deliver_until(
    fake: FakeTelegram, bot: asyncio.subprocess.Process, log: Path, done: Callable[[], bool]
) -> None:
    """Post the waiting updates to the workers' port until `done` (a worker still starting
    answers 503, and Telegram posts again)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not done():
        assert bot.returncode is None, _output(log)
        assert loop.time() < deadline, _output(log)
        with contextlib.suppress(OSError):  # not listening yet
            await fake.deliver_to_webhook()
        await asyncio.sleep(0.1)


async def test_workers_stop_when_their_supervisor_is_killed(
    tmp_path: Path, postgres_url: str
) -> None:
    """Killed outright (no chance to pass a signal on), the supervisor leaves no worker behind
    to serve the port with old code."""
    port = free_port()
    log = tmp_path / "bot.log"
    # Killed outright, the supervisor cannot remove its metrics directory and pace file: they
    # stay in the test's folder, not in the machine's.
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    async with running_fake() as fake:
        environ = {**_environment(fake, postgres_url, port), "TMPDIR": str(temporary)}
        bot = await _two_workers(environ, tmp_path, log)
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + WAIT
            while len(await _live_workers(postgres_url)) < 2:
                assert bot.returncode is None, _output(log)
                assert loop.time() < deadline, _output(log)
                await asyncio.sleep(0.1)
            bot.kill()
            await bot.wait()
            while await _live_workers(postgres_url):
                assert loop.time() < deadline, _output(log)
                await asyncio.sleep(0.2)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
    assert "its supervisor is gone; stopping" in _output(log)
