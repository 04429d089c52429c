"""The break after a round's end over the page's socket: the state says until when it runs and
shows the round that ended (its final line, every hand revealed, the points, who said Next);
Next from every person seated ends it sooner; it survives a restart and ends on time."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from gaple_bot.service.runtime import GameService
from gaple_bot.service.views import Person
from gaple_bot.web.state import epoch_ms
from tests.clock import TestClock
from tests.service.deals import BLOCKED_AT_ONCE
from tests.service.kit import ScriptedDeals

from .conftest import sqlite_url
from .kit import GROUP, JSON, Page, PageServer, first_move, init_data, open_group_table, page_server
from .leaks import scan

ANA = Person(21, "Ana", "en")
BEA = Person(22, "Bea", "en")
CID = Person(23, "Cid", "en")
BREAK = timedelta(seconds=8)
MAX_TURNS = 600


@pytest.fixture
async def breaking(
    page_template: Path, tmp_path: Path, clock: TestClock
) -> AsyncIterator[PageServer]:
    """The page's server with a break after each round's end, the first round dealt
    BLOCKED_AT_ONCE."""
    path = tmp_path / "gaple.sqlite3"
    shutil.copyfile(page_template, path)
    dealer = ScriptedDeals()
    dealer.script(BLOCKED_AT_ONCE)
    async with page_server(sqlite_url(path), clock, round_break=BREAK, dealer=dealer) as server:
        yield server


async def page_of(server: PageServer, person: Person, token: str, clock: TestClock) -> Page:
    status, answer = await server.sign_in(
        init_data(person.user_id, person.name, signed_at=clock()), token
    )
    assert status == 200, answer
    return await server.page(answer["session"])


async def blocked_table(service: GameService) -> tuple[int, str]:
    """Ana (seat 0), a computer (seat 1) and Bea (seat 2) at a classic group table to 100:
    Ana's [6|6] blocks the first round at once, and the computer wins it and leads the next."""
    kind = service.registry.get("gaple")
    await service.players.chat(GROUP, "The group")
    for option, value in (("computers", "off"), ("target", "100")):
        spec = next(s for s in kind.options if s.name == option)
        await service.players.change_setting(GROUP, kind, option, spec.choices.index(value))
    game_id, token = await open_group_table(service, "gaple", ANA)
    await service.commands.add_computer(game_id, ANA.user_id, False)
    await service.commands.join(game_id, BEA, private_chat=False)
    await service.commands.start(game_id, ANA.user_id, False)
    return game_id, token


def in_break(state: JSON) -> bool:
    return state["round_end"] is not None


async def test_the_state_shows_the_round_that_ended_until_everyone_says_next(
    breaking: PageServer, clock: TestClock
) -> None:
    service = breaking.service
    game_id, token = await blocked_table(service)
    breaking.members.of_group |= {ANA.user_id, BEA.user_id, CID.user_id}
    ana = await page_of(breaking, ANA, token, clock)
    bea = await page_of(breaking, BEA, token, clock)
    cid = await page_of(breaking, CID, token, clock)
    first = await ana.next("state", lambda f: f["phase"] == "playing")
    assert first["break_until"] is None and first["round_end"] is None
    move = first_move(first)
    assert move is not None
    await ana.send({"t": "move", "version": move[0], "code": move[1]})
    reveal = await ana.next("reveal")
    state = await ana.next("state", in_break)
    # The second round is dealt (its table, Ana's new hand), the first one shown beside it.
    until = epoch_ms(clock() + BREAK)
    assert state["round"] == 2 and state["to_move"] == 1
    assert state["break_until"] == until and state["now"] == epoch_ms(clock())
    ended = state["round_end"]
    assert ended["round"] == 1 and ended["points"] == [0, 84, 0] and ended["ready"] == []
    assert ended["reveal"] == reveal["reveal"] and reveal["round"] == 1
    assert ended["board"] != state["board"]
    # The computer that leads waits, and the turn is nobody's yet.
    assert not [f for f in ana.frames if f["t"] == "played" and f["seat"] == 1]
    watched = await cid.next("state", in_break)
    assert watched["round_end"] == ended and watched["hand"] is None
    for frame in (state, watched, await bea.next("state", in_break)):
        await scan(service, game_id, frame)
    # Who is not seated cannot say Next.
    await cid.send({"t": "next"})
    refused = await cid.next("refused")
    assert refused["reason"] == "NotSeated" and refused["text"]
    await bea.send({"t": "next"})
    ready = await ana.next("state", lambda f: in_break(f) and f["round_end"]["ready"] == [2])
    assert ready["break_until"] == until
    # A page opened during the break (a reload) draws the round that ended as it stands.
    again = await page_of(breaking, BEA, token, clock)
    reloaded = await again.next("state")
    assert reloaded["round_end"] == ready["round_end"] and reloaded["break_until"] == until
    # Ana is the last person seated: the round is played at once, the clock never moved.
    await ana.send({"t": "next"})
    played = await ana.next("played", lambda f: f["seat"] == 1)
    assert played["text"]
    after = await ana.next("state", lambda f: not in_break(f))
    assert after["break_until"] is None and after["round"] == 2
    assert after["revision"] > state["revision"]
    # A late Next is refused with a short text.
    await bea.send({"t": "next"})
    late = await bea.next("refused")
    assert late["reason"] == "NoRoundBreak" and late["text"]


async def test_a_break_survives_a_restart_and_ends_on_time(
    page_template: Path, tmp_path: Path, clock: TestClock
) -> None:
    path = tmp_path / "gaple.sqlite3"
    shutil.copyfile(page_template, path)
    async with page_server(sqlite_url(path), clock, round_break=BREAK) as before:
        opened = await before.open_local("gaple")
        page = await before.page(opened["session"])
        state = await page.next("state")
        for _ in range(MAX_TURNS):
            if in_break(state) or state["phase"] != "playing":
                break
            move = first_move(state)
            assert move is not None
            await page.send({"t": "move", "version": move[0], "code": move[1]})
            state = await page.next("state", lambda f, v=move[0]: f["revision"] > v)
        assert in_break(state), "the first round ended and the game goes on"
        kept = page.session
    clock.advance(BREAK.total_seconds() / 2)
    async with page_server(sqlite_url(path), clock, round_break=BREAK) as after:
        again = await after.page(kept)
        resumed = await again.next("state")
        # The break goes on, as it was: its end, the round that ended, the new round's hand.
        assert resumed["break_until"] == state["break_until"]
        assert resumed["round_end"] == state["round_end"]
        assert resumed["hand"] == state["hand"] and resumed["revision"] == state["revision"]
        await after.local.tick()
        assert (await after.service.page_commands.snapshot(opened["game_id"])).round_break
        clock.advance(BREAK.total_seconds() / 2)
        # Local play's timer ends it once it is due (the chat's timers and sweep do the same).
        await after.local.tick()
        ended = await again.next("state", lambda f: not in_break(f))
        assert ended["break_until"] is None and ended["round"] == state["round"]
