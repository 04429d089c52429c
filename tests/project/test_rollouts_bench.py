"""bench/rollouts.py runs: it times both games' play-outs from the same seeded positions and
judges a floor only when given one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
SCRIPT = ROOT / "bench" / "rollouts.py"
SMALL = ["--positions", "30", "--repeats", "2"]
RUN_SECONDS = 120
"""Generous for sixty play-outs and Python's start on a loaded machine."""


def run(*extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *SMALL, *extra],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=RUN_SECONDS,
        check=False,
    )


def test_the_rollout_bench_prints_both_games_figures() -> None:
    done = run()
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["gaple", "gap"], done.stdout
    assert all("play-outs per CPU second" in line for line in lines)


def test_a_floor_no_core_reaches_fails_the_run() -> None:
    done = run("--min-gaple", "1e12", "--min-gap", "1")
    assert done.returncode == 1, done.stdout
    assert "missed: gaple" in done.stdout and "gap " not in done.stdout.split("missed:")[1]
