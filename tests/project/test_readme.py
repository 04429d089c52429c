"""The README and the pages under docs/ it leads to: their commands work as written from the
Quick start's venv, every benchmark is named, every setting and webhook setting is named where
it is explained, and their links lead to files that exist."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
README = (ROOT / "README.md").read_text()
RUNNING = (ROOT / "docs/RUNNING.md").read_text()
DEVELOPING = (ROOT / "docs/DEVELOPING.md").read_text()
COMPUTER_PLAYERS = (ROOT / "docs/COMPUTER_PLAYERS.md").read_text()
PAGES = {"README.md": README} | {
    f"docs/{page.name}": page.read_text() for page in sorted((ROOT / "docs").glob("*.md"))
}
"""Every page a reader meets: the README and every page under docs/."""

TEST_COMMAND = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/pytest"
"""The line `.ci/run` looks for in README.md, exactly, and runs."""


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def test_the_quick_start_holds_the_test_command_ci_runs() -> None:
    assert TEST_COMMAND in _section(README, "Quick start").splitlines()


def test_every_python_and_gaple_bot_command_runs_from_the_venv() -> None:
    # A bare `python` or `gaple-bot` is not on the PATH of someone who followed the Quick start.
    for name, text in PAGES.items():
        spans = re.findall(r"`([^`\n]+)`", text)
        assert [span for span in spans if span.startswith(("python ", "gaple-bot "))] == [], name
    # The benchmarks are listed in DEVELOPING.md; the pages they lead to name some of them again.
    scripts = re.findall(r"\.venv/bin/python (bench/\w+\.py)", DEVELOPING)
    assert set(scripts) == {
        "bench/engine.py",
        "bench/store.py",
        "bench/render.py",
        "bench/load.py",
        "bench/client.py",
        "bench/ai.py",
        "bench/ai_gap.py",
        "bench/ai_variants.py",
        "bench/ai_gap_variants.py",
        "bench/review.py",
    }
    for name, text in PAGES.items():
        for script in re.findall(r"\.venv/bin/python (bench/\w+\.py)", text):
            assert (ROOT / script).is_file(), (name, script)
    assert (
        "`.venv/bin/gaple-bot arena --lineup hard,reference,reference,reference`"
        in COMPUTER_PLAYERS
    )


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
    assert command in COMPUTER_PLAYERS
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
        line
        for line in _section(RUNNING, "Polling or webhook").split("\n- ")
        if "WEBHOOK_URL" in line
    )
    for setting in ("WEBHOOK_URL", "WEBHOOK_PORT", "WEBHOOK_SECRET"):
        assert f"`{setting}`" in webhook


def test_every_setting_of_env_example_is_explained_in_running() -> None:
    example = (ROOT / ".env.example").read_text()
    listed = [
        line.split("=", 1)[0]
        for line in example.splitlines()
        if "=" in line and not line.startswith("#")
    ]
    assert listed, "no setting found in .env.example"
    settings = _section(RUNNING, "Settings")
    for setting in listed:
        assert f"| `{setting}` |" in settings, setting
    # The README says where the settings are: .env.example, and the page that explains them.
    quick_start = _section(README, "Quick start")
    assert "`.env.example`" in quick_start and "(docs/RUNNING.md" in quick_start


def test_every_relative_link_leads_to_a_file() -> None:
    for name, text in PAGES.items():
        links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
        for link in links:
            if link.startswith(("http://", "https://")):
                continue
            assert ((ROOT / name).parent / link).is_file(), (name, link)
    for page in ("RUNNING", "CAPACITY", "COMPUTER_PLAYERS", "DEVELOPING", "ADDING_A_GAME", "RULES"):
        assert f"](docs/{page}.md)" in _section(README, "Where to read on"), page


def test_the_privacy_section_says_what_forgetting_and_the_outbox_do() -> None:
    privacy = " ".join(_section(README, "Privacy").split())
    for claim in (
        "deletes their name, languages, ratings and rating history",
        "a game they are playing goes on with the computer in their seat",
        'one new neutral entry ("a former player"',
        "waits in the database until sent (usually seconds or minutes) and is deleted once "
        "delivered",
        "name people by Telegram id only",
    ):
        assert claim in privacy, claim
