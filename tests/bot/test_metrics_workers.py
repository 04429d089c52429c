"""Several workers' counts in one scrape: each worker process writes its values to
prometheus_client's multiprocess directory (PROMETHEUS_MULTIPROC_DIR, as the supervisor sets
it), and /metrics on any of them shows the sum of all, a worker gone included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.multiprocess import mark_process_dead

from gaple_bot.bot.metrics import MULTIPROCESS_DIRECTORY, Metrics, multiprocess_directory
from tests.bot.exposition import Samples, samples, types, value

WAIT = 120.0
"""Seconds a worker process may take to start and count (a slow machine included)."""

WORKER = """
import sys

from gaple_bot.bot.metrics import Metrics

metrics = Metrics.from_environment()
assert metrics.directory is not None, "not in multiprocess mode"
moves, seconds = int(sys.argv[1]), float(sys.argv[2])
for _ in range(moves):
    metrics.moved("gaple")
metrics.decided("gaple", "normal", seconds)
metrics.telegram_failed("flood_wait")
if sys.argv[3] == "gap":
    metrics.moved("gap")
print("counted", flush=True)
sys.stdin.readline()  # the test's word: scrape now
sys.stdout.buffer.write(metrics.exposition(running_games=7, group_queue=(4, 3)))
"""


def _worker(directory: Path, *args: str) -> subprocess.Popen[bytes]:
    """A worker process that counts, says so, and scrapes when told (then ends)."""
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, *args],
        env={**os.environ, MULTIPROCESS_DIRECTORY: str(directory)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )


def _counted(worker: subprocess.Popen[bytes]) -> None:
    assert worker.stdout is not None
    line = worker.stdout.readline()
    assert line == b"counted\n", line


def _scrape(worker: subprocess.Popen[bytes]) -> bytes:
    out, _ = worker.communicate(b"scrape\n", timeout=WAIT)
    assert worker.returncode == 0
    return out


def _assert_both_summed(found: Samples) -> None:
    assert value(found, "gaple_moves_total", kind="gaple") == 3 + 5
    assert value(found, "gaple_moves_total", kind="gap") == 1
    assert value(found, "gaple_telegram_errors_total", kind="flood_wait") == 2
    normal = {"kind": "gaple", "level": "normal"}
    assert value(found, "gaple_computer_decision_seconds_count", **normal) == 2
    assert abs(value(found, "gaple_computer_decision_seconds_sum", **normal) - 0.32) < 1e-9
    bucket = "gaple_computer_decision_seconds_bucket"
    assert value(found, bucket, **normal, le="0.025") == 1
    assert value(found, bucket, **normal, le="0.5") == 2
    assert value(found, bucket, **normal, le="+Inf") == 2
    # The database's figures are the scraped worker's reading, not added up.
    assert value(found, "gaple_games_running") == 7
    assert value(found, "gaple_group_queue_messages") == 4
    assert value(found, "gaple_group_queue_longest") == 3


def test_a_scrape_of_either_worker_shows_what_both_counted(tmp_path: Path) -> None:
    first = _worker(tmp_path, "3", "0.02", "-")
    second = _worker(tmp_path, "5", "0.3", "gap")
    try:
        _counted(first)
        _counted(second)
        pids = (first.pid, second.pid)
        # Both alive, each scraped in turn: the same sums.
        from_second = _scrape(second)
        from_first = _scrape(first)
    finally:
        for worker in (first, second):
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    _assert_both_summed(samples(from_second))
    _assert_both_summed(samples(from_first))
    assert types(from_first)["gaple_computer_decision_seconds"] == "histogram"
    # Both gone (as the supervisor marks a worker that stopped): their counts stay in the sum
    # a new worker serves.
    for pid in pids:
        mark_process_dead(pid, str(tmp_path))
    later = Metrics(str(tmp_path)).exposition(running_games=7, group_queue=(4, 3))
    _assert_both_summed(samples(later))


def test_a_process_alone_counts_in_memory() -> None:
    """Without PROMETHEUS_MULTIPROC_DIR when prometheus_client was imported (this process,
    a bot without --workers), values stay in memory, whatever the variable says later."""
    assert multiprocess_directory({}) is None
    assert multiprocess_directory({MULTIPROCESS_DIRECTORY: "/nowhere"}) is None
    assert Metrics.from_environment().directory is None
