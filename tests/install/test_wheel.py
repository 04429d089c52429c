"""The package as users get it: the wheel built from the sdist, installed into a clean venv and
started from an empty folder, migrates its database and answers /gaple."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from gaple_bot.i18n.catalogs import domains as catalog_domains
from tests.fakes.telegram_server import FakeTelegram, running_fake

REPO = Path(__file__).resolve().parents[2]
GROUP = -1009876543210
ANA = 901
# Building, creating a venv and installing the dependencies is slow on a busy machine.
INSTALL_SECONDS = 600
BOT_SECONDS = 120.0

pytestmark = [pytest.mark.slow, pytest.mark.timeout(2 * INSTALL_SECONDS)]


@dataclass(frozen=True)
class Installed:
    """A clean venv with the built wheel installed, and the artifacts it came from."""

    sdist: Path
    wheel: Path
    venv: Path


def _run(*args: str | Path, cwd: Path) -> None:
    done = subprocess.run(
        [str(arg) for arg in args],
        cwd=cwd,
        env=_clean_environment(),
        capture_output=True,
        text=True,
        timeout=INSTALL_SECONDS,
        check=False,
    )
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"


def _clean_environment(**settings: str) -> dict[str, str]:
    """This process's environment without anything that points Python at the repository."""
    hidden = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"}
    environ = {k: v for k, v in os.environ.items() if k not in hidden}
    environ.update(settings)
    return environ


@pytest.fixture
def installed(tmp_path: Path) -> Installed:
    """Build the sdist, the wheel from that sdist, and install the wheel into a new venv."""
    dist = tmp_path / "dist"
    # `build` makes the sdist, then the wheel from the unpacked sdist, as pip would.
    _run(sys.executable, "-m", "build", "--outdir", dist, REPO, cwd=tmp_path)
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    _run(venv / "bin" / "python", "-m", "pip", "install", "-q", wheel, cwd=tmp_path)
    return Installed(sdist, wheel, venv)


def _files_that_ship(root: Path, folder: str) -> set[str]:
    """The files of a source folder that belong in a package (no bytecode)."""
    return {
        path.relative_to(root).as_posix()
        for path in (root / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }


def _check_artifacts(installed: Installed) -> None:
    """The wheel and the sdist hold the migrations, the catalogs and py.typed."""
    migrations = _files_that_ship(REPO, "migrations")
    catalogs = _files_that_ship(REPO, "gaple_bot/i18n/locales")
    # Every domain (the common one and one per game) is a template and three catalogs.
    domains = len(catalog_domains())
    assert "migrations/env.py" in migrations and domains >= 3 and len(catalogs) == 4 * domains
    with zipfile.ZipFile(installed.wheel) as wheel:
        in_wheel = set(wheel.namelist())
    assert {f"gaple_bot/{name}" for name in migrations} <= in_wheel
    assert catalogs | {"gaple_bot/py.typed"} <= in_wheel
    assert not any("__pycache__" in name or name.endswith(".pyc") for name in in_wheel)
    with tarfile.open(installed.sdist) as sdist:
        top = sdist.getnames()[0].split("/")[0]
        in_sdist = {name.removeprefix(top + "/") for name in sdist.getnames()}
    assert migrations | catalogs | {"gaple_bot/py.typed", "alembic.ini"} <= in_sdist


async def _wait(
    condition: Callable[[], bool], bot: asyncio.subprocess.Process, log: Path, what: str
) -> None:
    """Wait for `condition`, failing at once with the bot's output if the bot exits."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BOT_SECONDS
    while not condition():
        if bot.returncode is not None:
            raise AssertionError(f"the bot exited ({bot.returncode}) before {what}:\n{_text(log)}")
        if loop.time() >= deadline:
            raise AssertionError(f"no {what} after {BOT_SECONDS}s:\n{_text(log)}")
        await asyncio.sleep(0.05)


def _text(log: Path) -> str:
    return log.read_text(errors="replace") if log.exists() else ""


def _lobby_shown(fake: FakeTelegram) -> bool:
    return any("✋ Join" in message.button_texts() for message in fake.bot_messages(GROUP))


def _schema_revision(database: Path) -> str | None:
    if not database.exists():
        return None
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    return str(rows[0][0]) if len(rows) == 1 else None


async def test_the_installed_bot_migrates_and_answers_gaple_from_an_empty_folder(
    installed: Installed, tmp_path: Path
) -> None:
    _check_artifacts(installed)
    head = ScriptDirectory(str(REPO / "migrations")).get_current_head()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    database = elsewhere / "gaple.sqlite3"
    log = tmp_path / "bot.log"
    async with running_fake() as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, "Installed table", admins=(ANA,))
        environ = _clean_environment(
            TELEGRAM_BOT_TOKEN=fake.token,
            TELEGRAM_API_BASE_URL=fake.base_url,
            DATABASE_URL=f"sqlite+aiosqlite:///{database}",
            COMPUTER_PROCESSES="0",
        )
        with log.open("wb") as output:
            bot = await asyncio.create_subprocess_exec(
                installed.venv / "bin" / "gaple-bot",
                cwd=elsewhere,
                env=environ,
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT,
            )
        try:
            # The bot migrates in post_init, before it starts polling.
            await _wait(lambda: bool(fake.requests_for("getUpdates")), bot, log, "polling")
            assert _schema_revision(database) == head
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            await _wait(lambda: _lobby_shown(fake), bot, log, "lobby message in the group")
            bot.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(bot.wait(), BOT_SECONDS)
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
    output_text = _text(log)
    assert code == 0, output_text
    assert "Traceback" not in output_text, output_text
