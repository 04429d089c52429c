"""The last move is shown once: Gaple's in the move's line under the felt (the felt shows
the tile, not words), Gap's in the felt's list of the last three moves, its move's line then only
read out to screen readers."""

from __future__ import annotations

import pytest

from tests.web.kit import PageServer

from .conftest import OpenTable
from .table import DEADLINE_MS

SHOWN = """(line) => {
  // Every element of the table whose text is the line (a coloured square's joiner aside)
  // and which takes room on the screen (a screen reader's 1 px text does not).
  const plain = (text) => text.replace(/\\u2060/g, "").trim();
  return Array.from(document.querySelectorAll("#table *"))
    .filter((node) => plain(node.textContent) === line)
    .filter((node) => !Array.from(node.children).some((child) => plain(child.textContent) === line))
    .filter((node) => {
      const box = node.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && getComputedStyle(node).display !== "none";
    })
    .map((node) => node.id || node.closest("[id]").id);
}"""
"""Where the page shows `line`: the id of each element showing it, or of its nearest
ancestor with one."""


@pytest.mark.parametrize(("kind", "where"), [("gaple", "ticker"), ("gap", "felt")])
async def test_the_last_move_is_shown_once(
    server: PageServer, open_table: OpenTable, kind: str, where: str
) -> None:
    table = await open_table(server.url(f"/app?local={kind}"))
    assert await table.settled() == "move"
    # The viewer's move, then the computers' until the viewer's turn comes back.
    before = await table.revision()
    moves = (await table.playable())[0][0]
    await table.tap_item(moves)
    if " " in moves:  # a card that may take one of several: its first take
        assert await table.settled() == "choice"
        await table.tap_option((await table.options())[0][0])
    await table.wait_for_revision(before + 1)
    assert await table.settled() == "move"
    played = [f for f in table.received if f.get("t") == "played"]
    assert played, "a move was told"
    line = played[-1]["text"].replace("\u2060", "")
    assert line
    # The move's line holds it (for screen readers at least) once the page drew that state.
    await table.page.wait_for_function(
        "(line) => document.getElementById('ticker').textContent.replace(/\\u2060/g, '') === line",
        arg=line,
        timeout=DEADLINE_MS,
    )
    assert await table.page.get_attribute("#ticker", "aria-live") == "polite"
    assert await table.page.evaluate(SHOWN, line) == [where]
    table.assert_clean()


async def test_gap_s_felt_lists_each_other_seat_s_move_since_the_viewer_s(
    server: PageServer, open_table: OpenTable
) -> None:
    """At four seats the three computers move at once after the viewer: the felt lists all
    three of their moves, so none passes unseen."""
    table = await open_table(server.url("/app?local=gap"))
    assert await table.settled() == "move"
    before = await table.revision()
    moves = (await table.playable())[0][0]
    await table.tap_item(moves)
    if " " in moves:
        assert await table.settled() == "choice"
        await table.tap_option((await table.options())[0][0])
    await table.wait_for_revision(before + 1)
    assert await table.settled() == "move"
    told = [f["text"].replace("\u2060", "") for f in table.received if f.get("t") == "played"]
    assert len(told) >= 4, told
    listed = await table.page.evaluate(
        "() => Array.from(document.querySelectorAll('#felt .recent li'))"
        ".map((item) => item.textContent.replace(/\\u2060/g, ''))"
    )
    assert listed == told[-3:]
    table.assert_clean()
