"""A bot process killed outright (SIGKILL) takes its children with it: the computer players'
and the pictures' process pools and multiprocessing's resource tracker end too, for a webhook
worker as for a single bot polling."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from tests.bot.driver import play_one_turn, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, lobby_message
from tests.fakes.telegram_server import FakeTelegram, running_fake
from tests.postgres import free_port

ANA = 2301
SECRET = "worker_children-secret"
WAIT = 120.0
"""Seconds to wait for the bot to start, to answer, or to reach a round's end (CI may be slow)."""
GONE = 60.0
"""Seconds the children of the killed process get to end."""
POOLS = 2
"""Pool processes a bot with COMPUTER_PROCESSES=1 runs: one thinks, one draws pictures."""
POOL_FLAG = "--multiprocessing-fork"
"""How a process that multiprocessing spawned (a pool's process) shows in its command line."""


@dataclass(frozen=True)
class Proc:
    """A process as /proc shows it: its pid and its start time (a pid may be used again)."""

    pid: int
    started: int

    def alive(self) -> bool:
        """Running still (a zombie has ended: it only waits to be reaped)."""
        stat = _stat(self.pid)
        return stat is not None and stat[2] != "Z" and stat[1] == self.started

    def kill(self) -> None:
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)


def _stat(pid: int) -> tuple[int, int, str] | None:
    """(parent pid, start time, state) of `pid`, or None if there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # The command name is in parentheses and may hold spaces: the fields follow the last ")".
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[19]), fields[0]


def _descendants(root: int) -> list[Proc]:
    """Every process below `root` now (children, their children, ...)."""
    parents: dict[int, list[Proc]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            parents.setdefault(stat[0], []).append(Proc(int(entry.name), stat[1]))
    found: list[Proc] = []
    below = [root]
    while below:
        for child in parents.get(below.pop(), []):
            found.append(child)
            below.append(child.pid)
    return found


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ProcessLookupError):
        return ""


@dataclass
class Bot:
    """The bot's process, its log, and (as a webhook worker) the port it serves."""

    process: asyncio.subprocess.Process
    log: Path
    port: int | None
    below: set[Proc] = field(default_factory=set)
    """The processes seen below it, for the test's cleanup to kill if they outlive it."""

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-6000:]

    def pools(self) -> list[Proc]:
        return [p for p in _descendants(self.process.pid) if POOL_FLAG in _command_line(p.pid)]


async def _wait_for(condition: Callable[[], bool | Awaitable[bool]], bot: Bot, what: str) -> None:
    """Wait for `condition` while the bot runs, failing with its output if it does not come."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        outcome = condition()
        if outcome if isinstance(outcome, bool) else await outcome:
            return
        assert bot.process.returncode is None, f"the bot stopped\n{bot.output()}"
        assert loop.time() < deadline, f"{what}: not in {WAIT}s\n{bot.output()}"
        await asyncio.sleep(0.05)


async def _post_updates(fake: FakeTelegram, url: str) -> None:
    """Telegram's side of the webhook: post each waiting update until the worker takes it."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
        while True:
            for update in fake.waiting_updates():
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    await fake.post_update(session, update, url)
            await asyncio.sleep(0.02)


async def _healthy(port: int) -> bool:
    with contextlib.suppress(aiohttp.ClientError):
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{port}/healthz") as answer,
        ):
            return answer.status == 200
    return False


@contextlib.asynccontextmanager
async def _running(
    fake: FakeTelegram, directory: Path, database_url: str, *, worker: bool
) -> AsyncIterator[Bot]:
    """The bot as its own process (`python -m gaple_bot`, as one webhook worker when `worker`),
    with its pools; afterwards it and everything it started are killed, whatever happened."""
    environ = {
        "PATH": "/usr/bin:/bin",
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE_URL": fake.base_url,
        "DATABASE_URL": database_url,
        "COMPUTER_PROCESSES": "1",
        "GROUP_MESSAGES_PER_MINUTE": "1000",
        "BOT_MESSAGES_PER_SECOND": "1000",
        "PRIVATE_MESSAGES_PER_SECOND": "1000",
        # A played hand's buttons go at once (the hold has its own tests).
        "TAPPED_HAND_HOLD_SECONDS": "0",
        # The next round is played at once (the break after a round's end has its own tests).
        "ROUND_BREAK_SECONDS": "0",
    }
    arguments = ["-m", "gaple_bot"]
    port = free_port() if worker else None
    url = f"http://127.0.0.1:{port}/telegram"
    if worker:
        environ |= {
            "WEBHOOK_URL": url,
            "WEBHOOK_PORT": str(port),
            "WEBHOOK_LISTEN": "127.0.0.1",
            "WEBHOOK_SECRET": SECRET,
        }
        arguments += ["--worker", "0/1"]
    log = directory / "bot.log"
    with log.open("wb") as output:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            *arguments,
            cwd=directory,
            env=environ,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    bot = Bot(process, log, port)
    posting = asyncio.create_task(_post_updates(fake, url)) if worker else None
    try:
        if port is not None:
            await _wait_for(lambda: fake.webhook is not None, bot, "the webhook")
            await _wait_for(lambda: _healthy(port), bot, "a healthy worker")
        yield bot
    finally:
        if posting is not None:
            posting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await posting
        if process.returncode is None:
            bot.below.update(_descendants(process.pid))
            process.kill()
            await process.wait()
        for leftover in bot.below:
            leftover.kill()


async def _play_until_both_pools_run(fake: FakeTelegram, bot: Bot) -> None:
    """Ana opens a table that computers fill and plays her turns until a computer has thought
    (the players' pool runs) and a round has ended (its picture started the pictures' pool)."""
    await fake.start_private(ANA)
    await fake.send_message(ANA, GROUP, "/gaple")
    await _wait_for(lambda: _has_lobby(fake), bot, "the lobby")
    query = await fake.press_button(ANA, GROUP, lobby_message(fake).message_id, "▶️ Start")
    await fake.wait_callback_answer(query, timeout=WAIT)
    rng = random.Random(5)

    async def both_pools() -> bool:
        if len(bot.pools()) >= POOLS:
            return True
        if turn_message(fake, ANA) is not None:
            await play_one_turn(fake, ANA, rng)
        return False

    await _wait_for(both_pools, bot, f"{POOLS} pool processes")


def _has_lobby(fake: FakeTelegram) -> bool:
    try:
        lobby_message(fake)
    except AssertionError:
        return False
    return True


async def _kill_and_watch(bot: Bot) -> None:
    """SIGKILL the bot; every process that was below it must end within GONE seconds."""
    below = _descendants(bot.process.pid)
    bot.below.update(below)
    assert len([p for p in below if POOL_FLAG in _command_line(p.pid)]) >= POOLS
    commands = {p.pid: _command_line(p.pid) for p in below}
    bot.process.send_signal(signal.SIGKILL)
    await bot.process.wait()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + GONE
    # Polled: no event tells this process that one it did not start has ended.
    while (alive := [p for p in below if p.alive()]) and loop.time() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.2)
    assert not alive, "outlived the killed bot:\n" + "\n".join(
        f"{p.pid}: {commands[p.pid]}" for p in alive
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
async def test_a_killed_worker_leaves_no_process_behind(postgres_url: str, tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with _running(fake, tmp_path, postgres_url, worker=True) as bot:
            await _play_until_both_pools_run(fake, bot)
            await _kill_and_watch(bot)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
async def test_a_killed_polling_bot_leaves_no_process_behind(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        database = f"sqlite+aiosqlite:///{tmp_path / 'gaple.sqlite3'}"
        async with _running(fake, tmp_path, database, worker=False) as bot:
            await _play_until_both_pools_run(fake, bot)
            await _kill_and_watch(bot)
