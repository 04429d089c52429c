"""The gaple-bot command: a missing token stops it with one clear line and exit code 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_missing_token_is_one_line_naming_env_example_and_exit_code_2(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    # An empty working directory: no .env to fall back on.
    done = subprocess.run(
        [sys.executable, "-m", "gaple_bot"],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "TELEGRAM_BOT_TOKEN" in lines[0] and ".env.example" in lines[0]
    assert done.stdout == ""


def test_unreachable_bot_api_is_one_line_and_exit_code_1(tmp_path: Path) -> None:
    environ = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": "123456:TEST-token",
        # Nothing listens on port 9 of the loopback address.
        "TELEGRAM_API_BASE_URL": "http://127.0.0.1:9",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}",
        "COMPUTER_PROCESSES": "0",
    }
    done = subprocess.run(
        [sys.executable, "-m", "gaple_bot"],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("gaple-bot: cannot reach the Bot API at http://127.0.0.1:9")
