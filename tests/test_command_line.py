"""The gaple-bot command: a missing token or a bad setting stops it with one clear line and
exit code 2; an unreachable Bot API with one clear line and exit code 1."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import warnings
from datetime import timedelta
from pathlib import Path

import pytest
from telegram.error import NetworkError, RetryAfter
from telegram.warnings import PTBDeprecationWarning

from gaple_bot import app
from gaple_bot.__main__ import main
from tests.fakes.telegram_server import running_fake


def _gaple_bot(
    folder: Path, environ: dict[str, str], *args: str, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """The gaple-bot command run in `folder` with `environ` and `args`, its output kept."""
    return subprocess.run(
        [sys.executable, "-m", "gaple_bot", *args],
        cwd=folder,
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


async def _gaple_bot_beside(folder: Path, environ: dict[str, str]) -> tuple[int | None, str]:
    """The gaple-bot command run in `folder` while the test's event loop keeps serving (the
    fake Bot API runs in it); its exit code and what it printed on stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gaple_bot",
        cwd=folder,
        env=environ,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _, stderr = await asyncio.wait_for(process.communicate(), 120)
    return process.returncode, stderr.decode()


def test_missing_token_is_one_line_naming_env_example_and_exit_code_2(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    # An empty working directory: no .env to fall back on.
    done = _gaple_bot(tmp_path, environ)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "TELEGRAM_BOT_TOKEN" in lines[0] and ".env.example" in lines[0]
    # A wheel has no .env.example to copy: the line says where the token goes instead.
    assert "environment" in lines[0] and ".env file" in lines[0]
    assert "copy" not in lines[0].lower()
    # The way to play at once, with no token and no Telegram.
    assert lines[0].endswith("or play at once without Telegram: gaple-bot local")
    assert done.stdout == ""


def test_missing_token_names_the_local_command_as_it_was_typed(tmp_path: Path) -> None:
    # From a clone's folder the README runs .venv/bin/gaple-bot: a bare gaple-bot is not on
    # the PATH there, so the line names the command the way it was run.
    script = Path(sys.executable).parent / "gaple-bot"
    assert script.exists()
    environ = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    done = subprocess.run(
        [str(script)], cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.endswith(f"or play at once without Telegram: {script} local")


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
    done = _gaple_bot(tmp_path, environ, timeout=120)
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
        ("DATABASE_URL", "sqlite+pysqlite:///x.sqlite3", "aiosqlite"),
        ("TELEGRAM_API_BASE_URL", "notaurl", "http:// or https://"),
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
    done = _gaple_bot(tmp_path, environ)
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


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["locl"], "unknown command 'locl'; did you mean local?"),
        (["help"], "unknown command 'help'; did you mean --help?"),
        (["--bogus"], "unknown option '--bogus'"),
        (["--workers", "abc"], "--workers takes a number of workers from 1 up, not 'abc'"),
        (["--workers", "0"], "--workers takes a number of workers from 1 up, not '0'"),
        (["--workers"], "--workers takes a number of workers from 1 up"),
        (["--workers", "2", "now"], "unknown argument 'now' after --workers 2"),
    ],
)
def test_an_unknown_command_option_or_value_is_one_line_and_exit_code_2_before_settings(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    named: str,
) -> None:
    """No token anywhere: were the settings read first, the line would be about it."""
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here
    assert main(args) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert lines == [f"gaple-bot: {named} (gaple-bot --help)"]
    assert captured.out == ""


def test_a_mistyped_command_never_starts_the_bot(tmp_path: Path) -> None:
    """The console script itself, with a token: nothing is started, nothing connects."""
    environ = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": "123456:TEST-token",
        # Were it reached, this would end in exit code 1 and another line.
        "TELEGRAM_API_BASE_URL": "http://127.0.0.1:9",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}",
    }
    done = _gaple_bot(tmp_path, environ, "locl")
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().splitlines() == [
        "gaple-bot: unknown command 'locl'; did you mean local? (gaple-bot --help)"
    ]
    assert not (tmp_path / "db.sqlite3").exists()


@pytest.mark.parametrize("args", [[], ["--workers", "1"], ["--workers", "3"]])
def test_a_known_command_line_goes_on_to_the_settings(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
) -> None:
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    assert capsys.readouterr().err.startswith("gaple-bot: TELEGRAM_BOT_TOKEN is not set")


def test_a_mistyped_setting_in_env_is_one_line_on_stderr_and_the_bot_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[object] = []
    monkeypatch.setattr(app, "run", lambda settings, worker=None: ran.append(settings))
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    monkeypatch.delenv("DEFAULT_TURN_SECONDS", raising=False)
    monkeypatch.chdir(tmp_path)
    Path(".env").write_text("TELEGRAM_BOT_TOKEN=123456:TEST-token\nDEFAULT_TURN_SECOND=30\n")
    assert main([]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "gaple-bot: DEFAULT_TURN_SECOND in .env is not a setting and is ignored; "
        "did you mean DEFAULT_TURN_SECONDS?"
    ]
    assert len(ran) == 1


def test_the_bot_runs_with_the_library_s_time_periods_as_timedeltas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without it each 429 warns, as python-telegram-bot builds its RetryAfter, that
    `retry_after` will become a timedelta (PTBDeprecationWarning)."""
    monkeypatch.setattr(app, "run", lambda settings, worker=None: None)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:TEST-token")
    monkeypatch.delenv("PTB_TIMEDELTA", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main([]) == 0
    assert os.environ["PTB_TIMEDELTA"] == "true"
    with warnings.catch_warnings():
        warnings.simplefilter("error", PTBDeprecationWarning)
        assert RetryAfter(7).retry_after == timedelta(seconds=7)


def test_the_internal_worker_flag_mistyped_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    environ = {**os.environ, "TELEGRAM_BOT_TOKEN": "123456:TEST-token"}
    done = _gaple_bot(tmp_path, environ, "--worker", "2")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "--workers N" in lines[0]


def test_an_unreachable_bot_api_s_line_leaves_the_token_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A failed request's error may quote its URL, which carries the token."""
    token = "123456:TEST-token-secret"

    def unreachable(settings: object, worker: object = None, pages: object = None) -> None:
        raise NetworkError(f"InvalidUrlClientError: http://bad/bot{token}/getMe")

    monkeypatch.setattr(app, "run", unreachable)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", token)
    monkeypatch.chdir(Path(__file__).parent)  # no .env here
    assert main([]) == 1
    err = capsys.readouterr().err
    assert "TEST-token-secret" not in err and "123456" not in err
    assert err.startswith("gaple-bot: cannot reach the Bot API at") and "[redacted]" in err


async def test_a_database_that_cannot_be_opened_is_one_line_and_exit_code_1(
    tmp_path: Path,
) -> None:
    """The Bot API answers, the database does not: one line naming it (its password left
    out) and why, no traceback."""
    async with running_fake() as fake:
        environ = {
            **os.environ,
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_BASE_URL": fake.base_url,
            # Nothing listens on port 9 of the loopback address.
            "DATABASE_URL": "postgresql+asyncpg://gaple:hunter2@127.0.0.1:9/gaple",
            "COMPUTER_PROCESSES": "0",
        }
        returncode, err = await _gaple_bot_beside(tmp_path, environ)
    assert returncode == 1, err
    assert "Traceback" not in err and "hunter2" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(
        "gaple-bot: cannot open the database at postgresql+asyncpg://gaple:***@127.0.0.1:9/gaple"
    )
    assert lines[0].endswith("(DATABASE_URL)")


async def test_a_port_already_taken_is_one_line_and_exit_code_1(tmp_path: Path) -> None:
    """/healthz and /metrics cannot listen where METRICS_PORT says: one line naming the
    address and the settings, no traceback."""
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        async with running_fake() as fake:
            environ = {
                **os.environ,
                "TELEGRAM_BOT_TOKEN": fake.token,
                "TELEGRAM_API_BASE_URL": fake.base_url,
                "COMPUTER_PROCESSES": "0",
                "WEBHOOK_LISTEN": "127.0.0.1",
                "METRICS_PORT": str(port),
                # The migrations' own lines are INFO: only what stops the bot is left.
                "LOG_LEVEL": "WARNING",
            }
            returncode, err = await _gaple_bot_beside(tmp_path, environ)
    finally:
        taken.close()
    assert returncode == 1, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"gaple-bot: cannot listen on 127.0.0.1:{port}: ")
    assert lines[0].endswith("(WEBHOOK_LISTEN, WEBHOOK_PORT or METRICS_PORT)")
