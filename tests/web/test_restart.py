"""The bot restarts with pages open: they reconnect with the session they were given, see the
game where it stands and go on playing it."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.clock import TestClock

from .conftest import sqlite_url
from .kit import first_move, page_server


async def test_pages_reconnect_after_a_restart_and_go_on(
    page_template: Path, tmp_path: Path, clock: TestClock
) -> None:
    path = tmp_path / "gaple.sqlite3"
    shutil.copyfile(page_template, path)
    async with page_server(sqlite_url(path), clock) as before:
        opened = await before.open_local("gaple")
        page = await before.page(opened["session"])
        state = await page.next("state")
        move = first_move(state)
        assert move is not None
        await page.send({"t": "move", "version": move[0], "code": move[1]})
        state = await page.next("state", lambda f, v=move[0]: f["revision"] > v)
        kept = page.session
    # The server went away under the page; it comes back on the same database.
    async with page_server(sqlite_url(path), clock) as after:
        again = await after.page(kept)
        resumed = await again.next("state")
        assert resumed["revision"] == state["revision"]
        assert resumed["hand"] == state["hand"]
        move = first_move(resumed)
        assert move is not None
        await again.send({"t": "move", "version": move[0], "code": move[1]})
        went_on = await again.next("state", lambda f, v=move[0]: f["revision"] > v)
        assert went_on["phase"] in ("playing", "over")
