"""The gaple-bot command: a missing token or a bad setting stops it with one clear line and
exit code 2; an unreachable Bot API with one clear line and exit code 1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gaple_bot.__main__ import main


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
    # A wheel has no .env.example to copy: the line says where the token goes instead.
    assert "environment" in lines[0] and ".env file" in lines[0]
    assert "copy" not in lines[0].lower()
    assert done.stdout == ""


def test_unreachable_bot_api_is_one_line_and_exit_code_1(tmp_path: Path) -> None:
    # At the default LOG_LEVEL nothing but the clear line: no library traceback before it.
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
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("gaple-bot: cannot reach the Bot API at http://127.0.0.1:9")


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("DEFAULT_LANGUAGE", "pt", "id, en, fr or de"),
        ("WEBHOOK_SECRET", "not a secret!", "letters, digits, _ and -"),
        ("LOG_LEVEL", "CRITICAL", "DEBUG, INFO, WARNING or ERROR"),
        ("DATABASE_URL", "nosuchdb://x", "database URL"),
    ],
)
def test_a_bad_setting_is_one_line_and_exit_code_2_before_anything_connects(
    tmp_path: Path, name: str, value: str, allowed: str
) -> None:
    environ = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": "123456:TEST-token",
        # Were it reached, this would end in exit code 1 and another line.
        "TELEGRAM_API_BASE_URL": "http://127.0.0.1:9",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}",
        name: value,
    }
    done = subprocess.run(
        [sys.executable, "-m", "gaple_bot"],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"gaple-bot: {name} ") and allowed in lines[0]
    assert not (tmp_path / "db.sqlite3").exists()


def test_help_says_what_the_command_does_and_starts_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: gaple-bot")
    assert "arena" in out and ".env.example" in out
