"""Whole local games in a real browser, every move a tap: Gaple and Gap from the first deal to
the standings, each kind of state kept as golden screenshots in light and dark."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

import pytest

from tests.web.kit import PageServer

from .conftest import OpenTable
from .table import DEADLINE_MS, Table

MAX_TAPS = 400


@pytest.fixture
def round_break() -> timedelta:
    """Long enough that only the viewer's Next ends it (the page's clock stands still)."""
    return timedelta(seconds=8)


@dataclass
class Played:
    """What a whole game showed the test."""

    choices: int = 0
    reveals: list[int] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    """Each kind of state seen (move, choice, reveal, over)."""


async def play_to_the_end(table: Table, kind: str) -> Played:
    """Tap the first playable item (or, the first time one offers several moves, that one and
    its first option) until the standings show; each kind of state is compared with its golden
    screenshot the first time it shows."""
    played = Played()
    for _ in range(MAX_TAPS):
        what = await table.settled()
        first = what not in played.kinds
        played.kinds.add(what)
        if what == "over":
            break
        if what == "reveal":
            played.reveals.append(await table.revealed())
            if first:
                await table.matches_golden(f"{kind}-round-end")
            await table.next_round()
            continue
        if what == "choice":
            options = await table.options()
            assert len(options) >= 2, options
            if first:
                await table.matches_golden(f"{kind}-choice")
            before = await table.revision()
            await table.tap_option(options[0][0])
            played.choices += 1
            await table.wait_for_revision(before + 1)
            continue
        assert what == "move", what
        items = await table.playable()
        assert items, "the viewer's turn offers a tile or a card"
        await assert_labels_are_the_servers(table, items)
        if first:
            await table.matches_golden(f"{kind}-your-turn")
        several = [moves for moves, _ in items if " " in moves]
        moves = several[0] if several and "choice" not in played.kinds else items[0][0]
        before = await table.revision()
        await table.tap_item(moves)
        if " " not in moves:
            await table.wait_for_revision(before + 1)
    else:
        raise AssertionError(f"no end after {MAX_TAPS} taps")
    return played


async def assert_labels_are_the_servers(table: Table, items: list[tuple[str, str]]) -> None:
    """Each playable button names its item as the server's state does."""
    state = table.last_state()
    labels = {
        " ".join(str(move["code"]) for move in item["moves"]): item["label"]
        for item in state["hand"]["items"]
        if item["moves"]
    }
    assert dict(items) == labels


@pytest.mark.parametrize("kind", ["gaple", "gap"])
async def test_a_whole_local_game_is_played_by_tapping(
    server: PageServer, open_table: OpenTable, kind: str
) -> None:
    table = await open_table(server.url(f"/app?local={kind}"))
    data = await table.data()
    assert data["game"] == kind and data["round"] == "1"
    played = await play_to_the_end(table, kind)
    assert played.kinds >= {"move", "choice", "reveal", "over"}, played.kinds
    assert played.choices >= 1, "a choice was opened and one of its options played"
    assert played.reveals[0] == 1
    # The standings say the review is coming (nothing analyses it here).
    await table.page.locator(".over-preparing").wait_for(timeout=DEADLINE_MS)
    await table.matches_golden(f"{kind}-game-end")
    data = await table.data()
    assert data["phase"] == "over" and data["toMove"] == ""
    state = table.last_state()
    winner = state["winner"]
    assert winner is not None
    standings = table.page.locator(".standing")
    assert await standings.count() == len(state["seats"])
    assert "🏆" in (await standings.first.inner_text())
    # Telegram's client was asked to buzz when the viewer's turn came.
    assert "success" in await table.page.evaluate("window.telegramTest.haptics")
    # The page asked for nothing the server refused.
    assert not [f for f in table.received if f["t"] == "refused"]

    # Play again: alone against the computers, the page follows to the new table, seated,
    # and it starts at once (nobody to wait for).
    game = data["revision"]
    await table.tap_act("again")
    await table.wait_for_phase("playing")
    assert await table.settled() == "move"
    data = await table.data()
    assert data["game"] == kind and data["round"] == "1" and int(data["revision"]) < int(game)
