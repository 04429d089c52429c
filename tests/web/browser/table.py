"""One table page in the browser, as a test drives it: taps its buttons, reads what its root
element says, keeps its screenshots against the golden images, and notes everything that
went wrong in it (console errors, failed requests)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from playwright.async_api import (
    ConsoleMessage,
    Page,
    Request,
    Response,
    ViewportSize,
    WebSocket,
)

from .golden import assert_matches_golden

Scheme = Literal["light", "dark"]
"""A phone's colour scheme (prefers-color-scheme)."""
SCHEMES: tuple[Scheme, ...] = ("light", "dark")
SIZES: dict[str, ViewportSize] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 800},
}
"""The windows each golden screenshot is taken in."""
DEADLINE_MS = 30_000
"""Generous: a wait ends as soon as what it waits for shows."""
PAGE_TIME = datetime(2030, 1, 1, tzinfo=UTC)
"""The page's own clock (Playwright's fake one): the page counts a turn down from the
server's `now`, so its own time shows nowhere."""
PLAYABLE = '#hand button[data-move]:not([data-move=""]):not(:disabled)'
OPTION = "#choice button[data-move]:not(:disabled)"

READY = """() => {
  const root = document.getElementById("table");
  if (!root || root.getAttribute("aria-busy") !== "false") return false;
  if (root.dataset.roundEnd) return "reveal";
  if (root.dataset.phase === "over" || root.dataset.phase === "aborted") return root.dataset.phase;
  if (root.dataset.phase === "lobby") return "lobby";
  if (!document.getElementById("choice").hidden) return "choice";
  if (document.querySelector('#hand button[data-move]:not([data-move=""]):not(:disabled)'))
    return "move";
  return false;
}"""
"""What the page waits for the viewer to do, once it is settled: false while it waits on
someone else (or on the server's answer)."""

LANDMARKS = """() => {
  const problems = [];
  const root = document.getElementById("table");
  for (const name of ["game", "round", "toMove", "revision"]) {
    if (!(name in root.dataset)) problems.push(`the table has no data-${name}`);
  }
  for (const node of document.querySelectorAll("[data-move]")) {
    const what = node.outerHTML.slice(0, 80);
    if (node.tagName !== "BUTTON") problems.push(`not a button: ${what}`);
    if (!(node.getAttribute("aria-label") || "").trim()) problems.push(`no aria-label: ${what}`);
    const codes = node.dataset.move.split(" ").filter(Boolean);
    if (!codes.every((code) => /^\\d+$/.test(code))) problems.push(`bad move codes: ${what}`);
    if (node.closest("#choice") && codes.length !== 1) problems.push(`not one move: ${what}`);
  }
  return problems;
}"""
"""What outside tests and screen readers rely on (docs/PAGE.md), checked on the page as shown."""


class Table:
    """A page of the table in a browser tab."""

    def __init__(self, page: Page, scheme: Scheme, failures: Path) -> None:
        self.page = page
        self.scheme = scheme
        self.failures = failures
        self.problems: list[str] = []
        self.sent: list[dict[str, Any]] = []
        """Every frame the page sent on its sockets, in order."""
        self.received: list[dict[str, Any]] = []
        """Every frame the page was sent, in order."""
        self._leaving_from: str | None = None
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)
        page.on("websocket", self._socket)

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.append(f"console error: {message.text} ({message.location})")

    def _request_failed(self, request: Request) -> None:
        if (
            self._leaving_from is not None
            and self._leaving_from in request.url
            and request.failure == "net::ERR_ABORTED"
        ):
            return
        self.problems.append(f"request failed: {request.method} {request.url}: {request.failure}")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self.problems.append(
                f"HTTP {response.status}: {response.request.method} {response.url}"
            )

    def _socket(self, socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: self.sent.append(_frame(payload)))
        socket.on("framereceived", lambda payload: self.received.append(_frame(payload)))
        socket.on("socketerror", lambda error: self.problems.append(f"socket error: {error}"))

    async def open(self, url: str) -> None:
        """Load the page, its clock standing still (no countdown runs, no timer fires) until
        the test moves it: what it shows does not depend on the machine's pace."""
        # The installed clock runs with the machine's until paused, and pausing cannot go back:
        # installed an hour early, a loaded machine's slow second call still pauses it ahead of
        # where it stands (no page, no timer yet), at the same moment as ever.
        await self.page.clock.install(time=PAGE_TIME - timedelta(hours=1))
        await self.page.clock.pause_at(PAGE_TIME + timedelta(seconds=1))
        await self.page.goto(url)
        await self.page.locator('#table[aria-busy="false"]').wait_for(timeout=DEADLINE_MS)

    @contextlib.contextmanager
    def leaving(self, cancelled: str) -> Iterator[None]:
        """While the test's taps make the page leave its document: a request to an address
        holding `cancelled` still in flight then (a round fetched ahead, a review polled) is
        cancelled by the browser (net::ERR_ABORTED) because the page goes, which is no
        failure; any other problem still is."""
        self._leaving_from = cancelled
        try:
            yield
        finally:
            self._leaving_from = None

    # Reading -----------------------------------------------------------------------------

    async def data(self) -> dict[str, str]:
        """The table's root element's data-* attributes."""
        found: dict[str, str] = await self.page.evaluate(
            "() => ({...document.getElementById('table').dataset})"
        )
        return found

    async def revision(self) -> int:
        return int((await self.data())["revision"])

    async def settled(self) -> str:
        """What the page waits for the viewer to do: move, choice, reveal, lobby, over."""
        self.assert_clean()
        handle = await self.page.wait_for_function(READY, timeout=DEADLINE_MS)
        what = await handle.json_value()
        assert isinstance(what, str)
        await self.assert_landmarks()
        return what

    async def revealed(self) -> int:
        """The round whose end the table shows in the break before the next one: its final
        line on the felt, every seat's hand face up beside it, the result on the status line."""
        handle = await self.page.wait_for_function(
            "() => Number(document.getElementById('table').dataset.roundEnd) || false",
            timeout=DEADLINE_MS,
        )
        round_number = await handle.json_value()
        assert isinstance(round_number, int)
        status = await self.page.locator("#status").inner_text()
        assert f"{round_number}" in status, status
        seats = await self.page.locator(".seat").count()
        assert seats and await self.page.locator(".seat .seat-reveal").count() == seats
        # Gaple: each hand's pips in the page's language, with its plural ("1 pip", "0 pips").
        counts = await self.page.eval_on_selector_all(
            ".gaple-seat-reveal .seat-reveal-count",
            "(nodes) => nodes.map("
            "(n) => [n.dataset.pips, n.textContent, document.documentElement.lang])",
        )
        for pips, text, language in counts:
            assert text.startswith(f"{pips} "), text
            if language == "en":
                assert text.split(" · ")[0] == (f"{pips} pip" if pips == "1" else f"{pips} pips")
        # Nothing of the live table shows over it: no hand to tap, no turn's clock.
        assert await self.page.locator(PLAYABLE).count() == 0
        assert await self.page.locator(".seat-clock").count() == 0
        return round_number

    async def wait_for_revision(self, revision: int) -> None:
        """Until the page shows `revision` or a later one."""
        await self.page.wait_for_function(
            "(revision) => Number(document.getElementById('table').dataset.revision) >= revision",
            arg=revision,
            timeout=DEADLINE_MS,
        )

    async def wait_for_phase(self, phase: str) -> None:
        """Until the page shows the game in `phase` (lobby, playing, over)."""
        await self.page.locator(f'#table[data-phase="{phase}"]').wait_for(timeout=DEADLINE_MS)

    async def assert_landmarks(self) -> None:
        problems = await self.page.evaluate(LANDMARKS)
        assert not problems, problems

    def assert_clean(self) -> None:
        assert not self.problems, "the page went wrong:\n" + "\n".join(self.problems)

    def last_state(self) -> dict[str, Any]:
        """The last state frame the page was sent."""
        return next(f for f in reversed(self.received) if f.get("t") == "state")

    # Tapping -----------------------------------------------------------------------------

    async def playable(self) -> list[tuple[str, str]]:
        """The hand's playable items as (data-move, aria-label), in the hand's order."""
        found: list[list[str]] = await self.page.eval_on_selector_all(
            PLAYABLE, "nodes => nodes.map(n => [n.dataset.move, n.getAttribute('aria-label')])"
        )
        return [(move, label) for move, label in found]

    async def tap_item(self, moves: str) -> None:
        await self.page.locator(f'#hand button[data-move="{moves}"]').tap(timeout=DEADLINE_MS)

    async def options(self) -> list[tuple[str, str]]:
        """The open choice's moves as (data-move, aria-label)."""
        found: list[list[str]] = await self.page.eval_on_selector_all(
            OPTION, "nodes => nodes.map(n => [n.dataset.move, n.getAttribute('aria-label')])"
        )
        return [(move, label) for move, label in found]

    async def tap_option(self, move: str) -> None:
        await self.page.locator(f'#choice button[data-move="{move}"]').tap(timeout=DEADLINE_MS)

    async def tap_act(self, act: str) -> None:
        """One of the lobby's or the standings' buttons (join, leave, start, again)."""
        await self.page.locator(f'button[data-act="{act}"]').tap(timeout=DEADLINE_MS)

    async def next_round(self) -> None:
        """Tap Next in the break after a round, and wait for the live table to come back
        (everyone seated at a local table is the viewer: their Next deals at once)."""
        await self.page.locator('button[data-act="next"]').tap(timeout=DEADLINE_MS)
        await self.page.wait_for_function(
            "() => !document.getElementById('table').dataset.roundEnd", timeout=DEADLINE_MS
        )

    # Events of the phone -----------------------------------------------------------------

    async def to_background_and_back(self, event: str) -> None:
        """The page went to the background and came back: the browser's visibilitychange
        (hidden, then visible) or Telegram's `activated`."""
        if event == "activated":
            await self.page.evaluate("window.telegramTest.fire('activated')")
            return
        await self.page.evaluate(
            """() => {
              for (const state of ["hidden", "visible"]) {
                const own = (value) => ({value, configurable: true});
                Object.defineProperty(document, "visibilityState", own(state));
                Object.defineProperty(document, "hidden", own(state === "hidden"));
                document.dispatchEvent(new Event("visibilitychange"));
              }
            }"""
        )

    # Pictures ----------------------------------------------------------------------------

    async def matches_golden(self, name: str) -> None:
        """The page as it stands on a phone (390 × 844) and a desktop (1280 × 800), in each
        colour scheme, against golden/<name>-<size>-<scheme>.png."""
        for size, viewport in SIZES.items():
            await self.page.set_viewport_size(viewport)
            layout = "narrow" if size == "phone" else "wide"
            await self.page.locator(f'#table[data-layout="{layout}"]').wait_for(timeout=DEADLINE_MS)
            for scheme in SCHEMES:
                await self.page.emulate_media(color_scheme=scheme)
                png = await self.page.screenshot(animations="disabled", caret="hide")
                assert_matches_golden(f"{name}-{size}-{scheme}", png, self.failures)
        await self.page.set_viewport_size(SIZES["phone"])
        await self.page.locator('#table[data-layout="narrow"]').wait_for(timeout=DEADLINE_MS)
        await self.page.emulate_media(color_scheme=self.scheme)


def _frame(payload: str | bytes) -> dict[str, Any]:
    try:
        frame = json.loads(payload)
    except ValueError:
        return {"t": "?", "raw": str(payload)}
    return frame if isinstance(frame, dict) else {"t": "?", "raw": frame}
