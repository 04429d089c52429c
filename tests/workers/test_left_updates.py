"""An update a worker took in (recorded, answered 200) and died before handling: Telegram never
sends it again, so a live worker handles it, once (on SQLite, the process when it starts
again)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy import func, select

from gaple_bot.store import Store
from gaple_bot.store.models import ReceivedUpdate
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, lobby_message, running_bot
from tests.fakes.telegram_server import FakeTelegram, running_fake
from tests.postgres import free_port

ANA = 2301
SECRET = "left_updates-secret"
REPO = Path(__file__).resolve().parents[2]
WAIT = 120.0
"""Seconds to wait for a process to start or for a change to be shown (CI may be slow)."""


@asynccontextmanager
async def _stuck_worker(
    fake: FakeTelegram, database_url: str, log: Path
) -> AsyncIterator[asyncio.subprocess.Process]:
    """A worker whose handlers never get an update (tests/workers/stuck_worker.py); killed at
    the end if the test did not kill it."""
    port = free_port()
    environ = {
        "PATH": "/usr/bin:/bin",
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE_URL": fake.base_url,
        "DATABASE_URL": database_url,
        "COMPUTER_PROCESSES": "0",
        "WEBHOOK_URL": f"http://127.0.0.1:{port}/telegram",
        "WEBHOOK_PORT": str(port),
        "WEBHOOK_LISTEN": "127.0.0.1",
        "WEBHOOK_SECRET": SECRET,
    }
    with log.open("wb") as errors:
        worker = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.workers.stuck_worker",
            cwd=REPO,
            env=environ,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=errors,
        )
    try:
        yield worker
    finally:
        if worker.returncode is None:
            worker.kill()
            await worker.wait()


async def _deliver_to(worker: asyncio.subprocess.Process, fake: FakeTelegram, log: Path) -> None:
    """Post the waiting updates to the stuck worker until each is answered 200 (it answers 503
    or not at all until it is ready), then wait until its handlers hold every one."""
    count = len(fake.waiting_updates())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while fake.waiting_updates():
        assert worker.returncode is None, _output(log)
        assert loop.time() < deadline, _output(log)
        try:
            if fake.webhook is not None:
                await fake.deliver_to_webhook()
        except OSError:
            pass  # registered, not listening yet
        await asyncio.sleep(0.1)
    assert worker.stdout is not None
    for _ in range(count):
        line = await asyncio.wait_for(worker.stdout.readline(), WAIT)
        assert line.startswith(b"stuck "), (line, _output(log))


def _output(log: Path) -> str:
    return log.read_text(errors="replace")


async def _kill(worker: asyncio.subprocess.Process) -> None:
    """SIGKILL: the worker has no chance to handle or hand over anything."""
    worker.send_signal(signal.SIGKILL)
    await worker.wait()


async def _unhandled(store: Store) -> int:
    async with store.read() as tx:
        query = select(func.count()).where(ReceivedUpdate.handled_at.is_(None))
        return int(await tx.session.scalar(query) or 0)


async def _wait_handled(store: Store) -> None:
    """Wait until every update taken in is marked handled (the marks are written in batches,
    just after the handlers are done)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while await _unhandled(store):
        assert loop.time() < deadline, "the updates were not marked handled"
        await asyncio.sleep(0.05)


def _group_texts(fake: FakeTelegram) -> list[str]:
    return [message.text or "" for message in fake.bot_messages(GROUP)]


async def test_a_live_worker_handles_what_a_dead_one_took_in(
    postgres_url: str, tmp_path: Path
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, postgres_url, poll=False, worker=True) as live:
            deps = deps_of(live)
            log = tmp_path / "stuck.log"
            async with _stuck_worker(fake, postgres_url, log) as stuck:
                await fake.start_private(ANA)
                await fake.send_message(ANA, GROUP, "/gaple")
                await _deliver_to(stuck, fake, log)
                # Its taker lives: nobody else takes the updates.
                assert await deps.service.left_updates() == []
                assert await _unhandled(deps.service.store) == 2
                await _kill(stuck)
            # The live worker's sweep takes them and handles them.
            await fake.wait_for(
                lambda: any("✋ Join" in m.button_texts() for m in fake.bot_messages(GROUP)),
                timeout=WAIT,
                message="the live worker did not handle the /gaple the dead one took in",
            )
            await fake.wait_idle(timeout=WAIT)
            await _wait_handled(deps.service.store)
            assert await deps.service.left_updates() == []
            assert "Ana" in (lobby_message(fake).text or "")
            assert len(_group_texts(fake)) == 1, _group_texts(fake)
            assert len(fake.bot_messages(ANA)) == 1  # one answer to /start
        fake.assert_no_violations()


async def test_the_restarted_process_handles_what_it_took_in_before(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'gaple.sqlite3'}"
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        log = tmp_path / "stuck.log"
        async with _stuck_worker(fake, url, log) as stuck:
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            await _deliver_to(stuck, fake, log)
            await _kill(stuck)
        assert not fake.bot_messages(GROUP)
        async with running_bot(fake, url, poll=False, worker=True) as restarted:
            await fake.wait_for(
                lambda: any("✋ Join" in m.button_texts() for m in fake.bot_messages(GROUP)),
                timeout=WAIT,
                message="the restarted process did not handle the /gaple it took in before",
            )
            await fake.wait_idle(timeout=WAIT)
        # Stopped: every mark is written. Started again, it handles nothing a second time.
        async with running_bot(fake, url, poll=False, worker=True) as again:
            assert await _unhandled(deps_of(again).service.store) == 0
            await fake.wait_idle(timeout=WAIT)
        assert restarted is not again
        assert "Ana" in (lobby_message(fake).text or "")
        assert len(_group_texts(fake)) == 1, _group_texts(fake)
        assert len(fake.bot_messages(ANA)) == 1  # one answer to /start
        fake.assert_no_violations()
