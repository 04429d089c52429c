"""`gaple-bot local` as a person runs it: it prints the address of the game asked for, serves
the page there without Telegram's script (local play has no Telegram), stops on Ctrl+C, and a
port in use is one line on stderr naming --port."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from urllib.request import urlopen

import aiohttp

ADDRESS = re.compile(r"Open (http://127\.0\.0\.1:\d+/app\?local=gap) in your browser to play Gap")
WAIT = 120.0
"""Generous: a slow machine may take a while to start Python and the page."""


def address_line(process: subprocess.Popen[str]) -> str:
    """The line giving the page's address, after the one saying the computer players load
    (first, so a fresh copy compiling them for seconds does not look stuck)."""
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first.startswith("Getting the computer players ready"), first
    return process.stdout.readline()


def local(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "gaple_bot", "local", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )


def test_local_play_serves_the_game_asked_for_and_stops_on_ctrl_c() -> None:
    process = local("--port", "0", "--game", "gap")
    try:
        line = address_line(process)
        found = ADDRESS.search(line)
        assert found is not None, line
        with urlopen(found.group(1), timeout=WAIT) as answer:
            page = answer.read().decode()
        assert '<script type="module" src="/app/static/page.js">' in page
        assert "telegram.org" not in page, "local play loads nothing from the internet"
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=WAIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_local_play_stops_on_sigterm_and_leaves_no_files(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "gaple_bot", "local", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(tmp_path)},
    )
    try:
        line = address_line(process)
        assert "Open http://127.0.0.1:" in line, line
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("gaple-local-")]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=WAIT) == 0
        # The throwaway database went with it, as it does on Ctrl+C.
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith("gaple-local-")] == []
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_port_in_use_is_one_line_on_stderr() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = local("--port", str(port))
        out, err = process.communicate(timeout=WAIT)
    assert process.returncode == 1
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"127.0.0.1:{port}" in lines[0] and "--port" in lines[0], err


async def test_ctrl_c_closes_an_open_page_at_once_and_stops() -> None:
    """A page left open does not hold the stop up: its socket is closed as going away (the
    page then says the table closed), and the process ends."""
    process = local("--port", "0")
    try:
        line = address_line(process)
        found = re.search(r"Open (http://127\.0\.0\.1:(\d+))/app", line)
        assert found is not None, line
        origin = found.group(1)
        async with aiohttp.ClientSession() as client:
            answer = await client.post(f"{origin}/app/api/local", json={"kind": "gaple"})
            session = (await answer.json())["session"]
            ws = await client.ws_connect(f"{origin}/app/ws", headers={"Origin": origin})
            await ws.send_json({"t": "hello", "session": session})
            # The page is at its table: its first state came.
            first = await ws.receive(timeout=WAIT)
            assert first.type is aiohttp.WSMsgType.TEXT, first
            process.send_signal(signal.SIGINT)
            message = await ws.receive(timeout=WAIT)
            while message.type is aiohttp.WSMsgType.TEXT:  # the game's frames until then
                message = await ws.receive(timeout=WAIT)
            assert message.type is aiohttp.WSMsgType.CLOSE, message
            assert message.data == aiohttp.WSCloseCode.GOING_AWAY, message
        assert await asyncio.to_thread(process.wait, WAIT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
