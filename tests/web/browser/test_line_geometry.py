"""Gaple's line in a real browser over whole rounds of each rule set: from one state to the
next every tile keeps its place relative to the first tile (the whole line may only scale and
shift), and tiles next to each other in the line touch at their matching halves."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest

from gaple_bot.web.local import LOCAL_CHAT
from tests.web.kit import PageServer

from .conftest import OpenTable
from .table import DEADLINE_MS, Table

MAX_TAPS = 60
SLACK_PX = 1.5
"""Rounding of a scaled SVG to the screen's pixels."""
RECORD = """() => {
  window.lineStates = [];
  const felt = document.getElementById("felt");
  new MutationObserver(() => {
    const group = felt.querySelector(".gaple-tiles");
    if (!group) return;
    // The tiles' own group: a tile sliding in is drawn where it will lie, not where it is.
    const m = group.getScreenCTM();
    const tiles = [...group.querySelectorAll("[data-tile]")].map((g) => {
      const rim = g.querySelectorAll("rect")[1];
      const [x, y, w, h] = ["x", "y", "width", "height"].map((k) => Number(rim.getAttribute(k)));
      return {key: g.dataset.tile, end: g.dataset.end, a: Number(g.dataset.a),
              b: Number(g.dataset.b), x: m.a * x + m.e, y: m.d * y + m.f, w: m.a * w, h: m.d * h};
    });
    const root = document.getElementById("table");
    window.lineStates.push({round: root.dataset.roundEnd || root.dataset.round, tiles});
  }).observe(felt, {childList: true});
}"""

Tile = dict[str, Any]
Rect = tuple[float, float, float, float]


@pytest.fixture
def round_break() -> timedelta:
    return timedelta(seconds=8)


def box(tile: Tile) -> Rect:
    return tile["x"], tile["y"], tile["x"] + tile["w"], tile["y"] + tile["h"]


def half(tile: Tile, number: int) -> Rect:
    """The part of the tile that shows `number` (all of a double)."""
    x0, y0, x1, y1 = box(tile)
    if tile["a"] == tile["b"]:
        return x0, y0, x1, y1
    first = tile["a"] == number
    if tile["h"] > tile["w"]:
        middle = (y0 + y1) / 2
        return (x0, y0, x1, middle) if first else (x0, middle, x1, y1)
    middle = (x0 + x1) / 2
    return (x0, y0, middle, y1) if first else (middle, y0, x1, y1)


def touch(one: Rect, other: Rect) -> bool:
    """Whether two boxes share a stretch of edge (not just a corner)."""
    for a, b in ((one, other), (other, one)):
        across = min(a[3], b[3]) - max(a[1], b[1])
        if abs(a[2] - b[0]) <= SLACK_PX and across > SLACK_PX:
            return True
        along = min(a[2], b[2]) - max(a[0], b[0])
        if abs(a[3] - b[1]) <= SLACK_PX and along > SLACK_PX:
            return True
    return False


def in_line_order(tiles: list[Tile]) -> list[Tile]:
    """Left end to right end: the left branch read back, the first tile, the right branch."""
    lefts = [t for t in tiles if t["end"] == "left"]
    firsts = [t for t in tiles if t["end"] == "first"]
    rights = [t for t in tiles if t["end"] == "right"]
    assert len(firsts) == 1, tiles
    return list(reversed(lefts)) + firsts + rights


def centre(tile: Tile) -> tuple[float, float]:
    return tile["x"] + tile["w"] / 2, tile["y"] + tile["h"] / 2


def assert_joins(tiles: list[Tile]) -> None:
    line = in_line_order(tiles)
    for left, right in itertools.pairwise(line):
        shared = {left["a"], left["b"]} & {right["a"], right["b"]}
        assert len(shared) == 1, (left, right)
        (number,) = shared
        assert touch(half(left, number), half(right, number)), (left, right)


def assert_kept(before: list[Tile], after: list[Tile]) -> None:
    """Every tile of `before` is where it was relative to the first tile, up to one scale."""
    first_before = next(t for t in before if t["end"] == "first")
    first_after = next(t for t in after if t["end"] == "first")
    assert first_before["key"] == first_after["key"]
    scale = max(first_after["w"], first_after["h"]) / max(first_before["w"], first_before["h"])
    fx, fy = centre(first_before)
    gx, gy = centre(first_after)
    now = {t["key"]: t for t in after}
    for tile in before:
        moved = now[tile["key"]]
        x, y = centre(tile)
        mx, my = centre(moved)
        assert abs((mx - gx) - scale * (x - fx)) <= SLACK_PX, (tile, moved, scale)
        assert abs((my - gy) - scale * (y - fy)) <= SLACK_PX, (tile, moved, scale)
        assert (moved["w"] > moved["h"]) == (tile["w"] > tile["h"]), "a tile turned"
        assert (moved["a"], moved["b"]) == (tile["a"], tile["b"]), "a tile flipped"


async def play_a_round(table: Table) -> None:
    """Tap the first playable tile (and the first end offered) until the round's end shows."""
    for _ in range(MAX_TAPS):
        what = await table.settled()
        if what in ("reveal", "over"):
            return
        if what == "choice":
            before = await table.revision()
            await table.tap_option((await table.options())[0][0])
            await table.wait_for_revision(before + 1)
            continue
        moves = (await table.playable())[0][0]
        before = await table.revision()
        await table.tap_item(moves)
        if " " not in moves:
            await table.wait_for_revision(before + 1)
    raise AssertionError(f"no round's end after {MAX_TAPS} taps")


@pytest.mark.parametrize(("rules", "index"), [("classic", 0), ("discards", 1)])
async def test_no_tile_moves_under_the_eyes(
    server: PageServer, open_table: OpenTable, rules: str, index: int
) -> None:
    await server.service.players.change_setting(
        LOCAL_CHAT, server.service.registry.get("gaple"), "rules", index
    )
    table = await open_table(server.url("/app?local=gaple"))
    await table.page.evaluate(RECORD)
    await play_a_round(table)
    await table.page.wait_for_function(
        "() => window.lineStates.some((s) => s.round === '1' && s.tiles.length)",
        timeout=DEADLINE_MS,
    )
    states = [s for s in await table.page.evaluate("window.lineStates") if s["round"] == "1"]
    drawn = [s["tiles"] for s in states if s["tiles"]]
    assert len(drawn) >= 4, f"{rules}: too few states of the line to compare"
    for before, after in itertools.pairwise(drawn):
        assert_joins(after)
        assert_kept(before, after)
    # The round's last line is the longest: it holds every tile placed before it.
    assert len(drawn[-1]) == max(len(tiles) for tiles in drawn)
