"""A group's table in the page beside the chat: members join an open lobby from the page with no
private chat, moves made in chat show in the page, and everyone's frames stay their own."""

from __future__ import annotations

from gaple_bot.service.views import Person
from tests.clock import TestClock

from .kit import Page, PageServer, chat_move, first_move, init_data, open_group_table
from .leaks import scan

ANA = Person(21, "Ana", "en")
BEA = Person(22, "Bea", "id")
CID = Person(23, "Cid", "en")
MAX_TURNS = 600


async def page_of(server: PageServer, person: Person, token: str, clock: TestClock) -> Page:
    init = init_data(
        person.user_id, person.name, signed_at=clock(), language=person.telegram_language or "en"
    )
    status, answer = await server.sign_in(init, token)
    assert status == 200, answer
    return await server.page(answer["session"])


async def test_a_member_joins_from_the_page_and_plays_a_whole_game_beside_chat_players(
    server: PageServer, clock: TestClock
) -> None:
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group |= {ANA.user_id, BEA.user_id, CID.user_id}
    bea = await page_of(server, BEA, token, clock)
    lobby = await bea.next("state")
    assert lobby["phase"] == "lobby" and lobby["lobby"]["can_join"]
    # Bea never opened a private chat with the bot: the page is where her hand lives.
    await bea.send({"t": "join"})
    joined = await bea.next("state", lambda f: f["lobby"] is not None and f["lobby"]["can_leave"])
    assert [seat["name"] for seat in joined["seats"]] == ["Ana", "Bea"]
    assert not joined["lobby"]["can_start"], "only the opener starts"
    cid = await page_of(server, CID, token, clock)
    await cid.next("state")
    # Ana, in chat, starts; the computers fill the other seats.
    await server.service.commands.start(game_id, ANA.user_id, False)
    state = await bea.next("state", lambda f: f["phase"] == "playing")
    for _ in range(MAX_TURNS):
        if state["phase"] != "playing":
            break
        await scan(server.service, game_id, state)
        facts = await server.service.commands.facts(game_id)
        table = await server.service.commands.table(game_id)
        mover = facts.seats[table.to_move].user_id if table.to_move is not None else None
        if mover == BEA.user_id:
            move = first_move(state)
            assert move is not None and state["revision"] == table.version
            await bea.send({"t": "move", "version": move[0], "code": move[1]})
        else:
            assert mover == ANA.user_id, "only people are waited for"
            hand = await server.service.commands.hand(game_id, ANA.user_id)
            await chat_move(server.service, game_id, ANA.user_id, hand.version, hand.legal[0])
        version = table.version
        state = await bea.next("state", lambda f, v=version: f["revision"] > v)
    assert state["phase"] == "over" and state["winner"] is not None
    # The spectator saw the same game end, and never a hand.
    watched = await cid.latest_state(state["revision"])
    assert watched["phase"] == "over" and watched["hand"] is None
    for frame in bea.frames + cid.frames:
        await scan(server.service, game_id, frame)
    # Bea reads the page in her own language.
    welcome = next(f for f in bea.frames if f["t"] == "welcome")
    assert welcome["texts"]["join"] != "Join" or BEA.telegram_language == "en"


async def test_play_again_from_the_page_moves_every_page_to_the_new_lobby(
    server: PageServer, clock: TestClock
) -> None:
    opened = await server.open_local("gap")
    page = await server.page(opened["session"])
    state = await page.next("state")
    for _ in range(MAX_TURNS):
        if state["phase"] == "over":
            break
        move = first_move(state)
        assert move is not None
        await page.send({"t": "move", "version": move[0], "code": move[1]})
        state = await page.next("state", lambda f, v=move[0]: f["revision"] > v)
    assert state["phase"] == "over"
    await page.send({"t": "again"})
    moved = await page.next("moved")
    assert moved["game_id"] != opened["game_id"] and moved["table"]
    # The page follows with the session it was given, to the new lobby, seated.
    follow = await server.page(moved["session"])
    lobby = await follow.next("state")
    assert lobby["phase"] == "lobby" and lobby["lobby"]["can_start"]
    await follow.send({"t": "start"})
    assert (await follow.next("state", lambda f: f["phase"] == "playing"))["you"]["seat"] == 0
