"""Take my seat back in a real browser: once the computer plays Bea's seat, her page offers the
button above her hand, in her language, and one tap gives her the seat again."""

from __future__ import annotations

from tests.clock import TestClock
from tests.web.kit import PageServer

from .conftest import OpenTable
from .group import BEA, open_as, open_group, start_in_chat
from .table import DEADLINE_MS


async def test_a_page_player_takes_their_seat_back_with_one_tap(
    server: PageServer, open_table: OpenTable, clock: TestClock
) -> None:
    game_id, token = await open_group(server)
    bea = await open_as(open_table, server, BEA, token, clock)
    assert await bea.settled() == "lobby"
    await bea.tap_act("join")
    await bea.page.locator('button[data-act="leave"]').wait_for(timeout=DEADLINE_MS)
    await start_in_chat(server, game_id)
    await bea.wait_for_phase("playing")
    back = bea.page.locator('button[data-act="seat_back"]')
    assert await back.count() == 0, "offered while she plays her seat"
    await server.service.commands.hand_over(game_id, BEA.user_id)
    await back.wait_for(timeout=DEADLINE_MS)
    # Bea reads Indonesian.
    assert await back.inner_text() == "🙋 Ambil alih kursiku"
    await back.tap(timeout=DEADLINE_MS)
    await back.wait_for(state="detached", timeout=DEADLINE_MS)
    seat = (await server.service.commands.facts(game_id)).seat_of(BEA.user_id)
    assert seat is not None and not seat.autoplay
    bea.assert_clean()
