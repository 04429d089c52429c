"""`gaple-bot local` stopped with its page open, as a person stops it (Ctrl+C in its terminal,
or SIGTERM from a service manager): it ends at once with exit code 0, its throwaway folder
gone and nothing on stderr, and the page says the table closed rather than reconnecting."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gaple_bot.i18n import Translators
from gaple_bot.web.texts import shell_texts

from .conftest import OpenTable
from .table import DEADLINE_MS

WAIT = 120.0
"""Generous: a slow machine may take a while to start Python and the page."""
ADDRESS = re.compile(r"Open (http://127\.0\.0\.1:\d+/app\?local=gap) in your browser")


def start_local(folder: Path) -> subprocess.Popen[str]:
    """`gaple-bot local` on any port, its throwaway folder made in `folder`."""
    return subprocess.Popen(
        [sys.executable, "-m", "gaple_bot", "local", "--port", "0", "--game", "gap"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(folder)},
        # A group of its own, signalled whole as a terminal's Ctrl+C signals its foreground.
        start_new_session=True,
    )


def leftovers(folder: Path) -> list[Path]:
    """What local play left of its throwaway folders in `folder`."""
    return [p for p in folder.iterdir() if p.name.startswith("gaple-local-")]


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
async def test_local_play_stops_at_once_with_its_page_open(
    open_table: OpenTable, tmp_path: Path, stop: signal.Signals
) -> None:
    process = start_local(tmp_path)
    try:
        assert process.stdout is not None and process.stderr is not None
        # The line saying the computer players load comes first, then the address.
        first = await asyncio.to_thread(process.stdout.readline)
        assert first.startswith("Getting the computer players ready"), first
        line = await asyncio.to_thread(process.stdout.readline)
        found = ADDRESS.search(line)
        assert found is not None, line
        table = await open_table(found.group(1))
        assert await table.settled() == "move"
        sockets: list[object] = []
        table.page.on("websocket", lambda socket: sockets.append(socket))
        # A move in flight as it stops: the computers reply while the server goes away.
        items = await table.playable()
        await table.tap_item(items[0][0])
        # Pressed twice, as an impatient person does: the second changes nothing.
        os.killpg(process.pid, stop)
        os.killpg(process.pid, stop)
        code = await asyncio.to_thread(process.wait, WAIT)
        errors = await asyncio.to_thread(process.stderr.read)
        assert code == 0, errors
        assert "Traceback" not in errors and "Error" not in errors, errors
        assert await asyncio.to_thread(leftovers, tmp_path) == []
        closed = shell_texts(Translators("en").get("en"))["closed"]
        banner = table.page.locator("#banner")
        await banner.filter(has_text=closed).wait_for(state="visible", timeout=DEADLINE_MS)
        # It stays closed: past every reconnecting delay, the page opened no other socket.
        await table.page.clock.run_for(60_000)
        assert sockets == []
        assert await banner.inner_text() == closed
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
