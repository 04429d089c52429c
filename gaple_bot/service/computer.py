"""Computer players for the service: each kind's decisions, run off the event loop."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TypeVar

from ..games.seam import AnyGameKind
from .lifeline import end_with_parent
from .tally import Tally, Uncounted

T = TypeVar("T")


class ComputerPlayers:
    """Chooses computer moves in an executor (a process pool in production, else threads)."""

    def __init__(
        self, executor: Executor | None = None, tally: Tally | None = None, spare: bool = False
    ) -> None:
        self._executor = executor
        self._spare = spare
        """The executor has a process more than live decisions need, for background work."""
        self._tally: Tally = tally if tally is not None else Uncounted()
        self._deciding = 0
        """Live decisions asked for and not answered yet."""
        self._idle = asyncio.Event()
        self._idle.set()
        self._background = asyncio.Lock()

    async def choose(self, kind: AnyGameKind, level: str, view: object, rng: random.Random) -> int:
        """The code of the move the computer player of `level` makes in `view`."""
        # One seed whatever the level: the same `rng` state gives the same decision. Without
        # an executor the loop's thread pool thinks (under the GIL: fine for short decisions).
        seed = rng.getrandbits(64)
        loop = asyncio.get_running_loop()
        began = time.perf_counter()
        self._deciding += 1
        self._idle.clear()
        try:
            code = await loop.run_in_executor(self._executor, kind.computer_move, level, view, seed)
        finally:
            self._deciding -= 1
            if not self._deciding:
                self._idle.set()
        # Measured from here, so the figure includes waiting for a free executor worker.
        self._tally.decided(kind.name, level, time.perf_counter() - began)
        return code

    async def in_background(self, work: Callable[[], T]) -> T:
        """Run `work` in the executor at low priority: one background task at a time. With a
        spare process (`spare`), background work takes that one: a live decision waits only
        when every other process is deciding, as it would without it. Without one, each
        piece starts only while no live decision is being made, so a live decision waits at
        most for one piece (keep each piece short: a review's decision)."""
        async with self._background:
            while self._deciding and not self._spare:
                await self._idle.wait()
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor, work)

    def close(self) -> None:
        """Stop the executor's workers (if it has any)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


def process_pool(
    workers: int = 1, warm_ups: Sequence[Callable[[], None]] = ()
) -> ProcessPoolExecutor:
    """A process pool for the computer players; the caller shuts it down.

    It starts workers with "spawn": forking a process that runs an event loop and threads can
    copy a held lock into the child. Each worker ends as soon as this process does, however it
    ends (SIGKILL included), so none is left waiting for work that cannot come. With
    `warm_ups` (each kind's `warm_up_computers`), every worker is started now and runs them
    before its first task, so the first decision after start does not wait for a process to
    start nor for compiled code to load.
    """
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(os.getpid(), tuple(warm_ups)),
    )
    if warm_ups:
        # A pool starts a process per task submitted while none is idle, up to `workers`.
        for _ in range(workers):
            pool.submit(int)
    return pool


def start_worker(parent: int, warm_ups: tuple[Callable[[], None], ...]) -> None:
    """A computer process's start: it ends with `parent`, then warms every kind up."""
    end_with_parent(parent)
    for warm_up in warm_ups:
        warm_up()
