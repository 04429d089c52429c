"""`gaple-bot --workers N`: N webhook workers on one port, started, watched and stopped together."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from types import FrameType

from prometheus_client.multiprocess import mark_process_dead

from ..settings import Settings
from .metrics import MULTIPROCESS_DIRECTORY
from .pacing.token_window import PACE_FILE_VARIABLE

log = logging.getLogger(__name__)

WORKER_FLAG = "--worker"
"""How the supervisor starts each worker: `python -m gaple_bot --worker I/N` (internal)."""
CONFIG_EXIT = 2
"""A worker that exits with this found its settings wrong: restarting it would not help."""
FIRST_RESTART_SECONDS = 1.0
LONGEST_RESTART_SECONDS = 30.0
"""A worker that stops by itself is started again after this long, doubling while it keeps
stopping within a minute of its start."""
STEADY_SECONDS = 60.0
STOP_SECONDS = 30.0
"""How long the workers get to stop after SIGTERM before they are killed."""
WATCH_SECONDS = 0.2


@dataclass(frozen=True, slots=True)
class Worker:
    """Which of the workers this process is: worker 0 registers the webhook."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Worker:
        """`I/N` as the supervisor writes it."""
        index, _, count = text.partition("/")
        worker = cls(int(index), int(count))
        if not 0 <= worker.index < worker.count:
            raise ValueError(f"no worker {text}")
        return worker

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def refusal(settings: Settings, count: int) -> str | None:
    """Why the bot may not run as `count` workers with these settings (None: it may)."""
    if count < 1:
        return "--workers takes a number of workers from 1 up"
    if count == 1:
        return None
    if not settings.webhook_url:
        return (
            f"{count} workers need WEBHOOK_URL: in polling mode Telegram serves one process "
            "(see docs/RUNNING.md)"
        )
    if not settings.webhook_secret:
        return f"{count} workers need a fixed WEBHOOK_SECRET: each must check the same one"
    if not settings.database_url.startswith("postgresql"):
        return (
            f"{count} workers need PostgreSQL (DATABASE_URL=postgresql+asyncpg://...): "
            "an SQLite file serves one process"
        )
    return None


def worker_share(settings: Settings, worker: Worker) -> Settings:
    """The settings of a worker with no window shared with the others (its supervisor gave
    none): the whole bot's pace divided among the workers (each one keeps its share, so
    together they keep Telegram's limit for the token)."""
    return replace(
        settings, messages_per_second=max(1, settings.messages_per_second // worker.count)
    )


class Supervisor:
    """Starts the workers, starts again one that stops by itself, and stops them all on
    SIGTERM, SIGINT or SIGHUP (a worker whose supervisor is gone stops by itself).

    The workers write their metrics' values to files in a directory of the supervisor's own
    (prometheus_client's multiprocess mode: PROMETHEUS_MULTIPROC_DIR in their environment), so
    /metrics on any of them shows the sum of all; a new one at every start, removed once the
    workers are stopped. Likewise the token's window of messages (GAPLE_PACE_FILE): one file
    they all take their places in, so one worker may use what the others leave."""

    def __init__(self, count: int) -> None:
        self._count = count
        self._metrics_directory = ""
        self._pace_file = ""
        self._children: dict[int, subprocess.Popen[bytes]] = {}
        self._started: dict[int, float] = {}
        self._waits: dict[int, float] = {}
        self._stopping = False

    def run(self) -> int:
        """Run until told to stop (0), or until a worker finds its settings wrong (2)."""
        for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(signum, self._stop)
        self._metrics_directory = tempfile.mkdtemp(prefix="gaple-metrics-")
        descriptor, self._pace_file = tempfile.mkstemp(prefix="gaple-pace-")
        os.close(descriptor)
        try:
            return self._watch()
        finally:
            shutil.rmtree(self._metrics_directory, ignore_errors=True)
            with contextlib.suppress(OSError):
                os.remove(self._pace_file)

    def _watch(self) -> int:
        """Start the workers, watch them until told to stop, and stop them."""
        for index in range(self._count):
            self._start(index)
        code = 0
        restart_at: dict[int, float] = {}
        while not self._stopping:
            time.sleep(WATCH_SECONDS)
            now = time.monotonic()
            for index, child in list(self._children.items()):
                status = child.poll()
                if status is None or index in restart_at:
                    continue
                if status == CONFIG_EXIT:
                    log.error("worker %d: its settings are wrong; stopping", index)
                    self._stopping, code = True, CONFIG_EXIT
                    break
                # Its counts stay in the sum; what only a live process shows goes.
                mark_process_dead(child.pid, self._metrics_directory)  # type: ignore[no-untyped-call]
                wait = self._next_wait(index, now)
                log.warning(
                    "worker %d stopped (%s); starting it again in %.0fs", index, status, wait
                )
                restart_at[index] = now + wait
            for index, at in list(restart_at.items()):
                if not self._stopping and at <= now:
                    del restart_at[index]
                    self._start(index)
        self._stop_all()
        return code

    def _next_wait(self, index: int, now: float) -> float:
        """How long to wait before starting the worker again."""
        steady = now - self._started[index] >= STEADY_SECONDS
        last = self._waits.get(index)
        wait = (
            FIRST_RESTART_SECONDS
            if steady or last is None
            else min(2 * last, LONGEST_RESTART_SECONDS)
        )
        self._waits[index] = wait
        return wait

    def _start(self, index: int) -> None:
        worker = Worker(index, self._count)
        command = [sys.executable, "-m", "gaple_bot", WORKER_FLAG, str(worker)]
        environ = {
            **os.environ,
            MULTIPROCESS_DIRECTORY: self._metrics_directory,
            PACE_FILE_VARIABLE: self._pace_file,
        }
        self._children[index] = subprocess.Popen(command, stdin=subprocess.DEVNULL, env=environ)
        self._started[index] = time.monotonic()
        log.info("worker %s started (pid %d)", worker, self._children[index].pid)

    def _stop(self, signum: int, frame: FrameType | None) -> None:
        self._stopping = True

    def _stop_all(self) -> None:
        """SIGTERM to every worker still running; SIGKILL to one that outlasts STOP_SECONDS."""
        running = [child for child in self._children.values() if child.poll() is None]
        for child in running:
            child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_SECONDS
        for child in running:
            try:
                child.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("worker pid %d did not stop in %.0fs: killed", child.pid, STOP_SECONDS)
                child.kill()
                child.wait()
