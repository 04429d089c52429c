"""A reload of local play's page returns to the same game: the page keeps its session in the
tab's storage, and the server answers it with the same table while its game is live."""

from __future__ import annotations

import pytest

from tests.web.kit import PageServer

from .conftest import OpenTable
from .table import DEADLINE_MS, Table

HAND = "#hand button[data-id]"


async def seen(table: Table) -> tuple[int, str, list[str]]:
    """The game the page was last welcomed to, its round and the hand it shows."""
    welcome = next(f for f in reversed(table.received) if f.get("t") == "welcome")
    labels = await table.page.eval_on_selector_all(
        HAND, "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    return welcome["game_id"], (await table.data())["round"], labels


@pytest.mark.parametrize("kind", ["gaple", "gap"])
async def test_a_reload_returns_to_the_same_game(
    server: PageServer, open_table: OpenTable, kind: str
) -> None:
    table = await open_table(server.url(f"/app?local={kind}"))
    assert await table.settled() == "move"
    # A move first, so that the game is not as a new one would begin.
    before = await table.revision()
    await table.tap_item((await table.playable())[0][0])
    await table.wait_for_revision(before + 1)
    assert await table.settled() == "move"
    game, round_number, hand = await seen(table)
    revision = await table.revision()
    welcomes = sum(f.get("t") == "welcome" for f in table.received)

    await table.page.reload()
    await table.page.locator('#table[aria-busy="false"]').wait_for(timeout=DEADLINE_MS)
    # Settled on a state, which came on the new socket after its welcome (the browser reports
    # a socket's frames in order, before what the page then draws).
    assert await table.settled() == "move"
    assert sum(f.get("t") == "welcome" for f in table.received) == welcomes + 1
    assert await seen(table) == (game, round_number, hand)
    assert await table.revision() == revision


async def test_a_reload_after_play_again_returns_to_the_new_game(
    server: PageServer, open_table: OpenTable
) -> None:
    table = await open_table(server.url("/app?local=gap"))
    assert await table.settled() == "move"
    first, _, _ = await seen(table)
    await server.service.page_commands.stop(first, 1, True)
    await table.wait_for_phase("aborted")
    assert await table.settled() == "aborted"
    await table.tap_act("again")
    await table.wait_for_phase("playing")
    assert await table.settled() == "move"
    game, round_number, hand = await seen(table)
    assert game != first

    await table.page.reload()
    await table.page.locator('#table[aria-busy="false"]').wait_for(timeout=DEADLINE_MS)
    assert await table.settled() == "move"
    assert await seen(table) == (game, round_number, hand)
