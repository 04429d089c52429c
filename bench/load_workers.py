"""bench/load.py's webhook workers: N `gaple_bot --worker I/N` processes, the fake's posts to
them in turn, and what the operating system says each process tree spent.

A module of bench/load.py, not a script: it checks no target (bench/load.py judges its runs)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from gaple_bot.bot.pacing.token_window import PACE_FILE_VARIABLE  # noqa: E402
from tests.fakes.telegram_server import FakeTelegram  # noqa: E402
from tests.postgres import free_port  # noqa: E402
from tests.workers.processes import start_worker  # noqa: E402

SECRET = "load-bench-secret"
"""The fixed WEBHOOK_SECRET every worker checks (several workers refuse a random one)."""
PORT_TRIES = 5
"""Ports tried for a worker: one found free may be taken before the worker binds it."""
POSTS_AT_ONCE = 40
"""Telegram's default max_connections: how many webhook posts may be in flight at once."""
POST_SECONDS = 60.0
"""A post not answered in this long is given up and made again (to the next worker)."""
POLL_SECONDS = 0.005
"""How often the poster looks for updates the fake queued (the fake's CPU, not the bot's)."""
TICKS = os.sysconf("SC_CLK_TCK")


# ============================================================================ process CPU


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (None once the process is gone)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return raw[raw.rindex(")") + 2 :].split()


def _children() -> dict[int, list[int]]:
    """Every live process's children, by parent id."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        fields = _stat(int(entry.name))
        if fields is not None:
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def _cpu_of(fields: list[str], *, reaped: bool) -> float:
    """utime + stime (and, with `reaped`, cutime + cstime: children already waited for)."""
    # Fields 14-17 of stat(5), counted from the state (field 3) here.
    user, system, child_user, child_system = (int(v) for v in fields[11:15])
    ticks = user + system + (child_user + child_system if reaped else 0)
    return ticks / TICKS


def tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of `pid` itself, and of everything below it (live descendants, and the
    children they or it have reaped)."""
    own_fields = _stat(pid)
    if own_fields is None:
        return 0.0, 0.0
    children = _children()
    own = _cpu_of(own_fields, reaped=False)
    below = _cpu_of(own_fields, reaped=True) - own
    stack = list(children.get(pid, []))
    while stack:
        child = stack.pop()
        fields = _stat(child)
        if fields is not None:
            below += _cpu_of(fields, reaped=True)
            stack.extend(children.get(child, []))
    return own, below


def memory_kb(pid: int, key: str) -> int:
    """A size from /proc/PID/status in kB (VmRSS now, VmHWM the peak); 0 once gone."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def postmaster_pid(data_dir: Path) -> int | None:
    """The PostgreSQL server's main process (its backends are its children)."""
    try:
        return int((data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


# ============================================================================ the workers


@dataclass
class WorkerBots:
    """N worker processes of the real bot, each on a port of its own, on one database."""

    count: int
    folder: Path
    environ: Mapping[str, str]
    ports: list[int] = field(default_factory=list)
    processes: list[asyncio.subprocess.Process] = field(default_factory=list)

    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}/telegram" for port in self.ports]

    def log(self, index: int) -> Path:
        return self.folder / f"worker{index}.log"

    async def start(self, ready_seconds: float) -> None:
        """Start every worker and wait until each answers /healthz (migrated, connected)."""
        self.ports = [free_port() for _ in range(self.count)]
        for index in range(self.count):
            self.processes.append(await self._spawn(index))
        async with aiohttp.ClientSession() as session:
            for index in range(self.count):
                for attempt in range(1, PORT_TRIES + 1):
                    if await self._healthy(session, index, ready_seconds):
                        break
                    if attempt == PORT_TRIES or "cannot listen" not in self.tail(index):
                        raise RuntimeError(f"worker {index} stopped: {self.tail(index)}")
                    # The free port found a moment ago was taken meanwhile (by another
                    # process on the machine): the worker again, on another one.
                    self.ports[index] = free_port()
                    self.processes[index] = await self._spawn(index)

    async def _spawn(self, index: int) -> asyncio.subprocess.Process:
        environ = {
            **self.environ,
            # Worker 0 registers this address; the fake posts to every worker's own.
            "WEBHOOK_URL": self.urls()[0],
            "WEBHOOK_PORT": str(self.ports[index]),
            "WEBHOOK_LISTEN": "127.0.0.1",
            "WEBHOOK_SECRET": SECRET,
            # As the supervisor gives its workers: one window of the token's pace.
            PACE_FILE_VARIABLE: str(self.folder / "pace"),
        }
        return await start_worker(index, self.count, self.folder, environ, self.log(index))

    async def _healthy(self, session: aiohttp.ClientSession, index: int, seconds: float) -> bool:
        """Whether the worker came up (False: it stopped first)."""
        url = f"http://127.0.0.1:{self.ports[index]}/healthz"
        async with asyncio.timeout(seconds):
            while True:
                if self.processes[index].returncode is not None:
                    return False
                with contextlib.suppress(aiohttp.ClientError):
                    async with session.get(url) as answer:
                        if answer.status == 200:
                            return True
                await asyncio.sleep(0.1)

    def tail(self, index: int) -> str:
        text = self.log(index).read_text(errors="replace") if self.log(index).exists() else ""
        return text[-1500:]

    def cpu(self) -> tuple[float, float]:
        """CPU seconds of the workers themselves, and of their computer players' pools."""
        own = below = 0.0
        for process in self.processes:
            mine, theirs = tree_cpu(process.pid)
            own += mine
            below += theirs
        return own, below

    def rss_kb(self, key: str) -> int:
        return sum(memory_kb(process.pid, key) for process in self.processes)

    def stopped_early(self) -> list[int]:
        return [i for i, process in enumerate(self.processes) if process.returncode is not None]

    def log_levels(self) -> dict[str, int]:
        """How many WARNING and ERROR lines the workers wrote."""
        counts = {"WARNING": 0, "ERROR": 0}
        for index in range(self.count):
            for line in self.log(index).read_text(errors="replace").splitlines():
                for level in counts:
                    if f" {level} " in line or line.startswith(level):
                        counts[level] += 1
        return counts

    def log_samples(self) -> list[str]:
        """The first distinct warnings and errors of the workers' logs."""
        samples: list[str] = []
        for index in range(self.count):
            for line in self.log(index).read_text(errors="replace").splitlines():
                if (" WARNING " in line or " ERROR " in line) and line[:300] not in samples:
                    samples.append(line[:300])
                if len(samples) >= 10:
                    return samples
        return samples

    async def stop(self, seconds: float) -> list[int]:
        """SIGTERM every worker still running; their exit codes (killed past `seconds`)."""
        for process in self.processes:
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
        codes: list[int] = []
        for process in self.processes:
            try:
                codes.append(await asyncio.wait_for(process.wait(), seconds))
            except TimeoutError:
                process.kill()
                codes.append(await process.wait())
        return codes


# ============================================================================ Telegram's posts


class Poster:
    """Telegram's side of the webhook: every update the fake queues is posted to the workers
    in turn, up to POSTS_AT_ONCE at once; one not answered 200 goes to the next worker."""

    def __init__(self, fake: FakeTelegram, urls: Sequence[str]) -> None:
        self.fake = fake
        self.urls = list(urls)
        self.posted = 0
        self.retried = 0
        self._in_flight: set[int] = set()
        self._turn = 0
        self._slots = asyncio.Semaphore(POSTS_AT_ONCE)
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        connector = aiohttp.TCPConnector(limit=POSTS_AT_ONCE)
        timeout = aiohttp.ClientTimeout(total=POST_SECONDS)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            try:
                while True:
                    for update in self.fake.waiting_updates():
                        update_id = int(update["update_id"])
                        if update_id in self._in_flight:
                            continue
                        self._in_flight.add(update_id)
                        task = asyncio.create_task(self._post(session, update))
                        self._tasks.add(task)
                        task.add_done_callback(self._tasks.discard)
                    await asyncio.sleep(POLL_SECONDS)
            finally:
                for task in list(self._tasks):
                    task.cancel()

    async def _post(self, session: aiohttp.ClientSession, update: dict[str, Any]) -> None:
        url = self.urls[self._turn % len(self.urls)]
        self._turn += 1
        status = 0
        try:
            async with self._slots:
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    status = await self.fake.post_update(session, update, url)
        finally:
            self.posted += 1
            if status != 200:
                # Still waiting in the fake: the next look posts it again.
                self.retried += 1
            self._in_flight.discard(int(update["update_id"]))
