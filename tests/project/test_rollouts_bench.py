"""bench/rollouts.py runs: it times both games' play-outs, Python and compiled, from the same
seeded positions and judges the ratio and floors it is given (a tiny run's figures say nothing
of the speeds, so these runs ask for no ratio unless they test its verdict)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
SCRIPT = ROOT / "bench" / "rollouts.py"
SMALL = ["--positions", "30", "--repeats", "2", "--min-ratio", "0"]
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
    figures = [line.split(":")[0] for line in lines if "play-outs per CPU second" in line]
    assert figures == ["gaple, Python", "gaple, compiled", "gap, Python", "gap, compiled"], (
        done.stdout
    )
    assert "gaple: the compiled core is" in done.stdout
    assert "gap: the compiled core is" in done.stdout


def test_a_ratio_no_core_reaches_fails_the_run() -> None:
    done = run("--min-ratio", "1e9")
    assert done.returncode == 1, done.stdout
    assert "missed: gaple" in done.stdout


def test_a_floor_no_core_reaches_fails_the_run() -> None:
    done = run("--min-gaple", "1e12", "--min-gap", "1")
    assert done.returncode == 1, done.stdout
    assert "missed: gaple" in done.stdout and "gap " not in done.stdout.split("missed:")[1]
