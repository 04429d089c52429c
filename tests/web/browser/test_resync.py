"""The page goes to the background and comes back (the browser's visibilitychange, Telegram's
`activated`): it shows the state as it is now, whether its socket went deaf meanwhile or the
server closed it."""

from __future__ import annotations

import asyncio
import json

import pytest
from playwright.async_api import WebSocketRoute

from tests.clock import TestClock
from tests.web.kit import WAIT, PageServer

from .conftest import OpenTable
from .group import BEA, Turn, ana_moves_in_chat, open_as, open_group, start_in_chat, turn
from .group import until_ana_is_to_move as ana_to_move
from .table import Table

COMING_BACK = ["visibilitychange", "activated"]


class Asleep:
    """The page's socket through Playwright, passing the server's frames on unless asleep
    (as a phone holds back a backgrounded web view's traffic): those are dropped, counted."""

    def __init__(self) -> None:
        self.asleep = False
        self.dropped: list[str | bytes] = []
        self.missed_a_state = asyncio.Event()
        self.sent: list[str | bytes] = []
        """What the page sent, in order."""

    def route(self, page: WebSocketRoute) -> None:
        server = page.connect_to_server()
        server.on_message(lambda message: self._from_server(page, message))
        page.on_message(lambda message: self._from_page(server, message))

    def _from_page(self, server: WebSocketRoute, message: str | bytes) -> None:
        self.sent.append(message)
        server.send(message)

    def _from_server(self, page: WebSocketRoute, message: str | bytes) -> None:
        if self.asleep:
            self.dropped.append(message)
            if '"t":"state"' in str(message):
                self.missed_a_state.set()
        else:
            page.send(message)


async def waiting_on_ana(
    server: PageServer, open_table: OpenTable, clock: TestClock, *, asleep: Asleep | None = None
) -> tuple[int, Table]:
    """A started group game shown in Bea's page, which waits on Ana (in the chat)."""
    game_id, token = await open_group(server)
    await server.service.commands.join(game_id, BEA, private_chat=False)
    bea = await open_as(
        open_table, server, BEA, token, clock, sockets=asleep.route if asleep else None
    )
    await start_in_chat(server, game_id)
    await ana_to_move(server, game_id, bea)
    return game_id, bea


async def assert_current(bea: Table, now: Turn) -> None:
    """Bea's page shows the game as it stands: its revision, and her turn if it is hers."""
    assert await bea.revision() == now.version
    if now.mover == BEA.user_id:
        assert await bea.settled() in ("move", "reveal")
    else:
        status = await bea.page.locator("#status .status-text").inner_text()
        assert status == "Menunggu Ana", "Waiting for Ana, in Indonesian"


@pytest.mark.parametrize("event", COMING_BACK)
async def test_coming_back_shows_what_the_page_missed_in_the_background(
    server: PageServer, open_table: OpenTable, clock: TestClock, event: str
) -> None:
    asleep = Asleep()
    game_id, bea = await waiting_on_ana(server, open_table, clock, asleep=asleep)
    shown = await bea.revision()
    asleep.asleep = True
    await ana_moves_in_chat(server, game_id)
    now = await turn(server, game_id)
    assert now.version > shown
    # The server pushed the move; the asleep page got none of it.
    async with asyncio.timeout(WAIT):
        await asleep.missed_a_state.wait()
    assert await bea.revision() == shown
    assert await bea.page.locator("#hand .item.playable:not(:disabled)").count() == 0
    asleep.asleep = False
    asked = len(asleep.sent)
    await bea.to_background_and_back(event)
    await bea.wait_for_revision(now.version)
    # The socket was open all along: coming back asked it for the state.
    assert [json.loads(frame)["t"] for frame in asleep.sent[asked:]] == ["sync"]
    assert await bea.revision() == now.version
    await assert_current(bea, now)


@pytest.mark.parametrize("back", ["by itself", *COMING_BACK])
async def test_a_socket_the_server_closed_is_opened_again_with_the_state_of_now(
    server: PageServer, open_table: OpenTable, clock: TestClock, back: str
) -> None:
    game_id, bea = await waiting_on_ana(server, open_table, clock)
    shown = await bea.revision()
    hellos = [frame for frame in bea.sent if frame["t"] == "hello"]
    assert server.drop_sockets() == 1
    banner = bea.page.locator("#banner")
    await banner.wait_for(state="visible")
    assert await banner.inner_text() == "Menyambung ulang…", "Reconnecting… in Indonesian"
    # The page's clock stands still: its reconnecting waits until the test moves it on, so
    # Ana's move comes while it has no socket.
    await ana_moves_in_chat(server, game_id)
    now = await turn(server, game_id)
    assert await bea.revision() == shown
    if back == "by itself":
        await bea.page.clock.run_for(2_000)  # past the first retry's wait (at most 625 ms)
    else:
        # Coming back does not wait for the retry: it opens a socket at once.
        await bea.to_background_and_back(back)
    await bea.wait_for_revision(now.version)
    await banner.wait_for(state="hidden")
    await assert_current(bea, now)
    again = [frame for frame in bea.sent if frame["t"] == "hello"][len(hellos) :]
    welcomes = [frame for frame in bea.received if frame["t"] == "welcome"]
    # The new socket signed in with the fresh session the last welcome gave.
    assert len(again) == 1 and again[0]["session"] == welcomes[-2]["session"]
