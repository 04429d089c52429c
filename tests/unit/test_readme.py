"""The README's commands work as written from the Quick start's venv, and it names every
webhook setting."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else len(README)]


def test_every_python_and_gaple_bot_command_runs_from_the_venv() -> None:
    # A bare `python` or `gaple-bot` is not on the PATH of someone who followed the Quick start.
    spans = re.findall(r"`([^`\n]+)`", README)
    assert [span for span in spans if span.startswith(("python ", "gaple-bot "))] == []
    scripts = re.findall(r"\.venv/bin/python (bench/\w+\.py)", README)
    assert set(scripts) == {
        "bench/engine.py",
        "bench/store.py",
        "bench/render.py",
        "bench/load.py",
        "bench/client.py",
        "bench/ai.py",
        "bench/ai_gap.py",
    }
    for script in scripts:
        assert (ROOT / script).is_file(), script
    assert "`.venv/bin/gaple-bot arena --lineup hard,reference,reference,reference`" in README


def test_the_benchmark_runs_as_the_readme_writes_it() -> None:
    # sys.executable is the venv's python when the tests run as the README says.
    done = subprocess.run(
        [sys.executable, "bench/engine.py", "--rounds", "20", "--batches", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "rounds/s" in done.stdout


def test_the_picture_benchmark_runs_as_the_readme_writes_it() -> None:
    done = subprocess.run(
        [sys.executable, "bench/render.py", "--draws", "2", "--deals", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("ms") >= 8 and "KB" in done.stdout


def test_the_client_benchmark_runs_as_the_readme_writes_it() -> None:
    done = subprocess.run(
        [sys.executable, "bench/client.py", "--calls", "50", "--rounds", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("ms CPU per sendMessage") == 2 and "httpx / aiohttp" in done.stdout


def test_the_readme_shows_a_picture() -> None:
    pictures = re.findall(r"!\[[^\]]+\]\(([^)]+\.png)\)", README)
    assert pictures, "the README shows no picture"
    for picture in pictures:
        assert (ROOT / picture).is_file(), picture


def test_the_arena_runs_as_the_readme_writes_it() -> None:
    gaple_bot = Path(sys.executable).parent / "gaple-bot"
    done = subprocess.run(
        [
            str(gaple_bot),
            "arena",
            "--lineup",
            "hard,reference,reference,reference",
            "--rounds",
            "1",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"hard"' in done.stdout


def test_the_gap_arena_runs_as_the_readme_writes_it() -> None:
    command = (
        "`.venv/bin/python -m gaple_bot.games.gap.ai.arena --lineup hard,normal,normal,normal`"
    )
    assert command in README
    arena = [sys.executable, "-m", "gaple_bot.games.gap.ai.arena"]
    done = subprocess.run(
        [*arena, "--lineup", "easy,easy", "--rounds", "1", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"easy"' in done.stdout


def test_the_webhook_bullet_names_the_secret() -> None:
    webhook = next(
        line for line in _section("Running it for real").split("\n- ") if "WEBHOOK_URL" in line
    )
    for setting in ("WEBHOOK_URL", "WEBHOOK_PORT", "WEBHOOK_SECRET"):
        assert f"`{setting}`" in webhook


def test_the_privacy_section_says_what_forgetting_and_the_outbox_do() -> None:
    privacy = " ".join(_section("Privacy").split())
    for claim in (
        "deletes their name, languages, ratings and rating history",
        "a game they are playing goes on with the computer in their seat",
        'one new neutral entry ("a former player"',
        "waits in the database until sent (usually seconds or minutes) and is deleted once "
        "delivered",
        "name people by Telegram id only",
    ):
        assert claim in privacy, claim
