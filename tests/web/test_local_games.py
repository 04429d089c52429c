"""Whole games in the page, as local play opens them: one person against computer players,
every move a frame on the socket, every frame free of any other seat's hand."""

from __future__ import annotations

import pytest

from .kit import PageServer, first_move
from .leaks import scan

MAX_TURNS = 400


@pytest.mark.parametrize("kind", ["gaple", "gap"])
async def test_a_whole_local_game_is_played_in_the_page(server: PageServer, kind: str) -> None:
    opened = await server.open_local(kind)
    page = await server.page(opened["session"])
    state = await page.next("state")
    assert state["kind"] == kind and state["you"]["seat"] == 0
    game_id = opened["game_id"]
    for _ in range(MAX_TURNS):
        if state["phase"] == "over":
            break
        assert state["phase"] == "playing", state
        move = first_move(state)
        assert move is not None, "the page's own turn offers a move"
        version, code = move
        await page.send({"t": "move", "version": version, "code": code})
        state = await page.next("state", lambda f, v=version: f["revision"] > v)
        await scan(server.service, game_id, state)
    assert state["phase"] == "over"
    assert state["winner"] is not None
    # Every frame the page got, including those the test did not wait for.
    for frame in page.frames:
        await scan(server.service, game_id, frame)
    assert any(f["t"] == "played" for f in page.frames)
    assert any(f["t"] == "reveal" for f in page.frames)
    await page.close()


async def test_a_kept_session_returns_to_its_live_table_and_only_to_it(
    server: PageServer,
) -> None:
    """A reload sends the session the page kept: the same table while its game is live, a new
    one for another kind, a session this server did not sign, or a game that is over."""
    opened = await server.open_local("gaple")
    game_id = opened["game_id"]
    again = await server.open_local("gaple", opened["session"])
    assert again["game_id"] == game_id
    # The answer's fresh session returns to it too, and the table is still where it was.
    page = await server.page((await server.open_local("gaple", again["session"]))["session"])
    state = await page.next("state")
    assert state["phase"] == "playing" and state["you"]["seat"] == 0
    await page.close()

    other = await server.open_local("gap", opened["session"])
    assert other["game_id"] != game_id and other["kind"] == "gap"
    forged = opened["session"][:-4] + "0000"
    assert (await server.open_local("gaple", forged))["game_id"] not in (game_id, None)

    await server.service.page_commands.stop(game_id, 1, True)
    after = await server.open_local("gaple", opened["session"])
    assert after["game_id"] not in (game_id, other["game_id"])
