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


async def test_the_newest_of_many_moves_made_at_once_is_told_in_the_page(
    server: PageServer,
) -> None:
    """A person who cannot play passes, and the computers move on: more moves than the board's
    recent lines hold reach the page at once, and their newest ones still come with words."""
    opened = await server.open_local("gaple")
    page = await server.page(opened["session"])
    state = await page.next("state")
    for _ in range(MAX_TURNS):
        if state["phase"] != "playing":
            break
        move = first_move(state)
        assert move is not None
        version, code = move
        await page.send({"t": "move", "version": version, "code": code})
        state = await page.next("state", lambda f, v=version: f["revision"] > v)
    # Each batch of played frames comes before the state it led to, whose recent lines are
    # the newest moves of its round: the batch's newest frames say them.
    batches: list[tuple[list[str], list[str]]] = []
    texts: list[str] = []
    for frame in page.frames:
        if frame["t"] == "played":
            texts.append(frame["text"])
        elif frame["t"] == "state" and texts:
            batches.append((texts, frame["board"]["recent"]))
            texts = []
    assert any(len(batch) > len(lines) > 0 for batch, lines in batches), "no long batch"
    for batch, lines in batches:
        told = min(len(batch), len(lines))
        assert batch[len(batch) - told :] == lines[len(lines) - told :], (batch, lines)
        assert not any(batch[: len(batch) - told]), batch
    await page.close()
