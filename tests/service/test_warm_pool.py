"""A computer pool with warm-ups starts its processes at once and warms each before its first
task; the kinds' warm-ups load their compiled cores."""

from __future__ import annotations

import os

from gaple_bot.games.registry import default_registry
from gaple_bot.service.computer import process_pool

WAIT_SECONDS = 300.0
"""Generous for spawning a process, importing and compiling on a loaded machine."""


def mark_warm() -> None:
    """A warm-up leaving a mark the worker's tasks can see."""
    os.environ["GAPLE_TEST_WARMED"] = str(os.getpid())


def warmed() -> tuple[int, str | None]:
    """The worker's pid and its warm-up's mark."""
    return os.getpid(), os.environ.get("GAPLE_TEST_WARMED")


def test_every_worker_warms_up_before_its_first_task() -> None:
    pool = process_pool(2, [mark_warm])
    try:
        results = [pool.submit(warmed).result(timeout=WAIT_SECONDS) for _ in range(6)]
    finally:
        pool.shutdown()
    assert all(mark == str(pid) for pid, mark in results)


def test_the_pool_starts_its_workers_before_any_decision() -> None:
    pool = process_pool(2, [mark_warm])
    try:
        # The priming tasks were submitted at creation: both workers exist already.
        assert len(pool._processes) == 2  # the pool's own record of its workers
    finally:
        pool.shutdown()


def test_each_kinds_warm_up_runs_in_this_process() -> None:
    for kind in default_registry():
        kind.warm_up_computers()
