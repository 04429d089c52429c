"""A group's table in a real browser: a member joins the open lobby from the page (signed in by
Telegram's initData alone) and plays a whole game by tapping beside a chat player, in her own
language; a member who did not join watches the public table with no hand."""

from __future__ import annotations

from tests.clock import TestClock
from tests.web.kit import PageServer

from .conftest import OpenTable
from .group import (
    ANA,
    BEA,
    CID,
    ana_moves_in_chat,
    open_as,
    open_group,
    start_in_chat,
    tap_a_move,
    turn,
)
from .table import Table

MAX_TURNS = 600


async def test_a_member_joins_from_the_page_plays_and_a_spectator_watches(
    server: PageServer, open_table: OpenTable, clock: TestClock
) -> None:
    game_id, token = await open_group(server)
    bea = await open_as(open_table, server, BEA, token, clock)
    assert await bea.settled() == "lobby"
    join = bea.page.locator('button[data-act="join"]')
    # Bea reads Indonesian: the lobby's button says so.
    assert await join.inner_text() == "Ikut"
    await bea.matches_golden("gaple-lobby")
    await join.tap()
    await bea.page.locator('button[data-act="leave"]').wait_for()
    assert await bea.page.locator('button[data-act="start"]').count() == 0, "only the opener"
    assert await bea.page.locator(".lobby-count").inner_text() == "2 / 4"

    cid = await open_as(open_table, server, CID, token, clock, scheme="dark")
    assert await cid.settled() == "lobby"
    assert await cid.page.locator('button[data-act="join"]').count() == 1

    await start_in_chat(server, game_id)
    first = await turn(server, game_id)
    await cid.wait_for_revision(first.version)
    await assert_watching(cid)
    await cid.matches_golden("gaple-spectator")

    labels: set[str] = set()
    choices: list[str] = []
    waited = False
    for _ in range(MAX_TURNS):
        now = await turn(server, game_id)
        if now.over:
            break
        await bea.wait_for_revision(now.version)
        if now.mover == BEA.user_id:
            label, options = await tap_a_move(bea)
            labels.add(label)
            choices += [name for _, name in options]
        else:
            assert now.mover == ANA.user_id, "only people are waited for"
            if not waited:
                # Another person's turn, as Bea sees it while Ana thinks in the chat.
                await bea.matches_golden("gaple-others-turn")
                waited = True
            await ana_moves_in_chat(server, game_id)
    else:
        raise AssertionError(f"no end after {MAX_TURNS} turns")

    last = await turn(server, game_id)
    for page in (bea, cid):
        await page.wait_for_revision(last.version)
        assert await page.settled() == "over"
        assert await page.page.locator(".standing").count() == 4
    # Her tiles and her choices of end were named for Bea in Indonesian.
    assert labels and all(label.startswith("Kartu ") for label in labels), labels
    assert all("Ujung" in choice for choice in choices), choices
    await assert_watching(cid)


async def assert_watching(cid: Table) -> None:
    """Cid's page shows the public table and no hand: nothing to tap, his status says so."""
    data = await cid.data()
    assert data["game"] == "gaple"
    states = [f for f in cid.received if f["t"] == "state"]
    assert states and all(state["hand"] is None for state in states)
    assert all(state["you"]["spectator"] for state in states)
    assert await cid.page.locator("#hand button").count() == 0
    assert await cid.page.locator("[data-move]").count() == 0
    if data["phase"] == "playing":
        status = await cid.page.locator("#status").inner_text()
        assert "You are watching this table." in status
        assert await cid.page.locator("#felt .gaple-board").count() == 1
        assert await cid.page.locator(".seat").count() == 4
    else:
        # The game's end: the standings name all four, with nothing around them.
        assert await cid.page.locator(".standing").count() == 4
