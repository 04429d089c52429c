"""Fixtures of the page's browser tests: Debian's chromium driven by Playwright, each page a
390×844 phone with Telegram's script stubbed, any console error or failed request failing the
test."""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import (
    Browser,
    BrowserContext,
    ViewportSize,
    WebSocketRoute,
    async_playwright,
)

from gaple_bot.web.local import LOCAL_CHAT
from tests.web.kit import GROUP, PageServer

from .table import Scheme, Table

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's chromium, as `.ci/run` installs it: Playwright never downloads a browser here."""
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these chromium calls Google's services, and this machine's closed network
    # refuses the page's own connections while those hang.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"
STUB = (Path(__file__).parent / "telegram.js").read_text(encoding="utf-8")
PHONE: ViewportSize = {"width": 390, "height": 844}
EASY = 0
"""The computers' level "easy" (the first of the option's choices): a seeded greedy player."""

OpenTable = Callable[..., Awaitable[Table]]
SocketRoute = Callable[[WebSocketRoute], Any]
"""Handles the page's socket instead of the browser's network (Playwright's routing)."""


@pytest.fixture
async def server(server: PageServer) -> PageServer:
    """The page server of tests/web, its frames' clock moving a second at each frame (a
    browser taps as fast as the machine lets it, which the flood limit would refuse), its
    computers easy in local play and in the group: the other levels' thinking stops at a time
    cap when the machine is busy, and a game would then depend on the machine's pace."""
    server.pace = 1.0
    service = server.service
    for chat_id in (LOCAL_CHAT, GROUP):
        await service.players.chat(chat_id, None)
        for kind in service.registry:
            await service.players.change_setting(chat_id, kind, "level", EASY)
    return server


@pytest.fixture
def chromium() -> Path:
    """The browser's binary; missing, the test fails under CI and is skipped elsewhere."""
    if not os.access(CHROMIUM, os.X_OK):
        reason = f"no browser at {CHROMIUM}: install Debian's chromium (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return CHROMIUM


@pytest.fixture
async def browser(chromium: Path) -> AsyncIterator[Browser]:
    # One browser per test: each runs on its own event loop, where Playwright's objects live.
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            await launched.close()


@pytest.fixture
async def open_table(browser: Browser, tmp_path: Path) -> AsyncIterator[OpenTable]:
    """Opens the page at a URL in a phone of its own (a fresh context), Telegram's script
    answering with `init_data` as a client on `platform`; at the end, each page must have
    seen no error."""
    contexts: list[BrowserContext] = []
    tables: list[Table] = []

    async def open_one(
        url: str,
        *,
        init_data: str = "",
        scheme: Scheme = "light",
        sockets: SocketRoute | None = None,
        platform: str = "tdesktop",
    ) -> Table:
        context = await browser.new_context(
            viewport=PHONE,
            device_scale_factor=1,
            # A touch screen, but not chromium's mobile emulation: that zooms the page out
            # when a golden screenshot widens the window to a desktop's and back.
            is_mobile=False,
            has_touch=True,
            color_scheme=scheme,
            locale="en-US",
            timezone_id="UTC",
            # Service workers would hide requests from the routes below.
            service_workers="block",
        )
        contexts.append(context)
        stub = STUB.replace("INIT_DATA", json.dumps(init_data)).replace(
            "TG_PLATFORM", json.dumps(platform)
        )
        await context.route(
            TELEGRAM_SCRIPT,
            lambda route: route.fulfill(
                status=200, content_type="text/javascript; charset=utf-8", body=stub
            ),
        )
        if sockets is not None:
            await context.route_web_socket(re.compile(r".*/app/ws$"), sockets)
        table = Table(await context.new_page(), scheme, tmp_path / f"page-{len(tables)}")
        tables.append(table)
        await table.open(url)
        return table

    try:
        yield open_one
    finally:
        problems = [problem for table in tables for problem in table.problems]
        for context in contexts:
            await context.close()
    assert not problems, "the page went wrong:\n" + "\n".join(problems)
