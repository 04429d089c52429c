"""Bad input gets a clear refusal and changes nothing: sign-ins Telegram did not vouch for,
foreign pages, sockets without a session, malformed or oversized frames, moves that are not
legal or not current, seat actions by spectators, and floods."""

from __future__ import annotations

import json

import aiohttp
import pytest

from gaple_bot.service.views import Person
from tests.clock import TestClock

from .kit import PageServer, first_move, init_data, open_group_table

ANA = Person(11, "Ana", "en")
BEA = Person(12, "Bea", "en")
CID = Person(13, "Cid", "en")


async def signed_in(server: PageServer, person: Person, token: str, clock: TestClock) -> str:
    status, answer = await server.sign_in(
        init_data(person.user_id, person.name, signed_at=clock()), token
    )
    assert status == 200, answer
    return str(answer["session"])


async def test_a_sign_in_with_a_wrong_hash_is_refused(server: PageServer, clock: TestClock) -> None:
    _game, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group.add(ANA.user_id)
    forged = init_data(ANA.user_id, "Ana", token="1:another-bot", signed_at=clock())
    status, answer = await server.sign_in(forged, token)
    assert (status, answer["reason"]) == (403, "init_data")
    assert "Telegram" in answer["text"]


async def test_a_sign_in_by_someone_outside_the_group_is_refused(
    server: PageServer, clock: TestClock
) -> None:
    _game, token = await open_group_table(server.service, "gaple", ANA)
    status, answer = await server.sign_in(init_data(CID.user_id, "Cid", signed_at=clock()), token)
    assert (status, answer["reason"]) == (403, "not_member")
    assert server.members.asked == 1


async def test_a_sign_in_to_no_table_or_a_finished_one_is_refused(
    server: PageServer, clock: TestClock
) -> None:
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group.add(ANA.user_id)
    status, answer = await server.sign_in(init_data(ANA.user_id, "Ana", signed_at=clock()), "nope")
    assert (status, answer["reason"]) == (404, "no_table")
    await server.service.commands.cancel(game_id, ANA.user_id, False)
    status, answer = await server.sign_in(init_data(ANA.user_id, "Ana", signed_at=clock()), token)
    assert (status, answer["reason"]) == (404, "no_table")


async def test_the_table_comes_from_the_start_parameter_when_the_page_names_none(
    server: PageServer, clock: TestClock
) -> None:
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group.add(ANA.user_id)
    status, answer = await server.sign_in(
        init_data(ANA.user_id, "Ana", start=token, signed_at=clock())
    )
    assert (status, answer["game_id"]) == (200, game_id)


@pytest.mark.parametrize("origin", ["https://evil.example", ""])
async def test_a_socket_from_a_foreign_origin_is_refused(server: PageServer, origin: str) -> None:
    assert server.http is not None
    headers = {"Origin": origin} if origin else {}
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await server.http.ws_connect(server.url("/app/ws"), headers=headers, origin=None)
    assert refused.value.status == 403


async def test_a_socket_without_a_session_this_server_signed_is_closed(server: PageServer) -> None:
    ws = await server.socket()
    await ws.send_str(json.dumps({"t": "hello", "session": "eyJ1IjoxfQ==.00"}))
    frame = json.loads((await ws.receive()).data)
    assert frame["reason"] == "session"
    closing = await ws.receive()
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    assert ws.close_code == 4401


async def test_a_socket_that_does_not_say_hello_first_is_closed(server: PageServer) -> None:
    ws = await server.socket()
    await ws.send_str(json.dumps({"t": "move", "version": 1, "code": 1}))
    frame = json.loads((await ws.receive()).data)
    assert frame["reason"] == "frame"
    await ws.receive()
    assert ws.close_code == 4400


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        "[1, 2]",
        json.dumps({"t": "dance"}),
        json.dumps({"t": "move", "version": "4", "code": 1}),
        json.dumps({"t": "move", "version": 4, "code": -1}),
        json.dumps({"t": "sync", "pad": "x" * 5000}),
    ],
)
async def test_a_malformed_or_oversized_frame_is_refused_and_changes_nothing(
    server: PageServer, raw: str
) -> None:
    opened = await server.open_local("gaple")
    page = await server.page(opened["session"])
    before = await page.next("state")
    await page.ws.send_str(raw)
    refused = await page.next("refused")
    assert refused["reason"] == "frame"
    await page.send({"t": "sync"})
    after = await page.next("state")
    assert after["revision"] == before["revision"]
    assert after["hand"] == before["hand"]


async def test_a_move_that_is_not_legal_is_refused_with_the_current_state(
    server: PageServer,
) -> None:
    opened = await server.open_local("gaple")
    page = await server.page(opened["session"])
    state = await page.next("state")
    legal = {m["code"] for item in state["hand"]["items"] for m in item["moves"]}
    illegal = next(code for code in range(56) if code not in legal)
    await page.send({"t": "move", "version": state["revision"], "code": illegal})
    refused = await page.next("refused")
    assert refused["reason"] == "StaleButton"
    again = await page.next("state")
    assert again["revision"] == state["revision"] and again["hand"] == state["hand"]


async def test_a_move_at_a_stale_version_is_refused_with_the_current_state(
    server: PageServer,
) -> None:
    opened = await server.open_local("gap")
    page = await server.page(opened["session"])
    state = await page.next("state")
    move = first_move(state)
    assert move is not None
    version, code = move
    await page.send({"t": "move", "version": version - 1, "code": code})
    assert (await page.next("refused"))["reason"] == "StaleButton"
    current = await page.next("state")
    assert current["revision"] == version
    # The same move at the current version is played.
    await page.send({"t": "move", "version": version, "code": code})
    assert (await page.next("state", lambda f: f["revision"] > version))["revision"] > version


async def test_a_spectators_seat_actions_are_refused(server: PageServer, clock: TestClock) -> None:
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group |= {ANA.user_id, CID.user_id}
    await server.service.commands.start(game_id, ANA.user_id, False)
    cid = await server.page(await signed_in(server, CID, token, clock))
    state = await cid.next("state")
    assert state["you"] == {"user": CID.user_id, "seat": None, "spectator": True}
    assert state["hand"] is None
    await cid.send({"t": "move", "version": state["revision"], "code": 0})
    assert (await cid.next("refused"))["reason"] == "NotSeated"
    await cid.send({"t": "start"})
    assert (await cid.next("refused"))["reason"] in ("NotInLobby", "NotAllowed")


async def test_a_flood_of_frames_is_refused_until_it_calms(server: PageServer) -> None:
    opened = await server.open_local("gaple")
    page = await server.page(opened["session"])
    await page.next("state")
    # The frames' clock stands still: only the burst is allowed.
    for _ in range(30):
        await page.ws.send_str(json.dumps({"t": "sync"}))
    flood = await page.next("refused")
    assert flood["reason"] == "flood"
    server.now += 60
    await page.ws.send_str(json.dumps({"t": "sync"}))
    await page.next("state")
