"""The page sends commands and shows the outcomes it gets back: each command of a whole game
played in the page publishes exactly one outcome, the one it returned."""

from __future__ import annotations

from typing import Any

import pytest

from gaple_bot.service.outcome import PAGE, GameEnded, LobbyChanged, NextGame, Played
from tests.outcome_spy import OutcomeSpy

from .kit import PageServer, first_move

MAX_TURNS = 600


@pytest.mark.parametrize("kind", ["gaple", "gap"])
async def test_each_page_command_publishes_the_one_outcome_it_returns(
    server: PageServer, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    spy = OutcomeSpy(server.service, monkeypatch)
    opened = await server.open_local(kind)
    page = await server.page(opened["session"])
    state = await page.next("state")
    moves = 0
    for _ in range(MAX_TURNS):
        if state["phase"] == "over":
            break
        move = first_move(state)
        assert move is not None
        await page.send({"t": "move", "version": move[0], "code": move[1]})
        moves += 1
        version = move[0]

        def newer(frame: dict[str, Any], version: int = version) -> bool:
            return bool(frame["revision"] > version)

        state = await page.next("state", newer)
    assert state["phase"] == "over"
    await page.send({"t": "again"})
    await page.next("moved")
    published = spy.check_one_each()
    # The start, every move made in the page, Play again: one outcome each, and no other.
    assert len(published) == 1 + moves + 1
    assert all(outcome.by == PAGE for outcome in published)
    assert LobbyChanged in {type(e) for e in published[0].effects}
    assert all(any(isinstance(e, Played) for e in o.effects) for o in published[1:-1])
    assert any(isinstance(e, GameEnded) for e in published[-2].effects)
    assert {type(e) for e in published[-1].effects} == {NextGame, LobbyChanged}
