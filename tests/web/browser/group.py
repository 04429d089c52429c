"""A group's table for the browser tests: Ana opens it and plays in the chat, the others open
its page signed in as themselves (initData with the table's token as its start parameter)."""

from __future__ import annotations

from dataclasses import dataclass

from gaple_bot.service.views import Person
from tests.clock import TestClock
from tests.web.kit import PageServer, chat_move, init_data, open_group_table

from .conftest import OpenTable, SocketRoute
from .table import Scheme, Table

ANA = Person(21, "Ana", "en")
BEA = Person(22, "Bea", "id")
"""Reads the page in Indonesian: its buttons' names must be in her language."""
CID = Person(23, "Cid", "en")


@dataclass(frozen=True)
class Turn:
    """Where the game stands, as the service tells it."""

    version: int
    mover: int | None
    """The user to move (None: nobody, the game is over)."""
    over: bool


async def open_group(server: PageServer, kind: str = "gaple") -> tuple[int, str]:
    """Ana opens a table in the group (all three belong to it): its game and page token."""
    game_id, token = await open_group_table(server.service, kind, ANA)
    server.members.of_group |= {ANA.user_id, BEA.user_id, CID.user_id}
    return game_id, token


async def open_as(
    open_table: OpenTable,
    server: PageServer,
    person: Person,
    token: str,
    clock: TestClock,
    *,
    scheme: Scheme = "light",
    sockets: SocketRoute | None = None,
    platform: str = "tdesktop",
) -> Table:
    """The group's page as Telegram opens it for `person`: no ?table= in its address, the
    token only in the signed initData's start_param."""
    signed = init_data(
        person.user_id,
        person.name,
        start=token,
        signed_at=clock(),
        language=person.telegram_language or "en",
    )
    return await open_table(
        server.url("/app"), init_data=signed, scheme=scheme, sockets=sockets, platform=platform
    )


async def start_in_chat(server: PageServer, game_id: int) -> None:
    """Ana, the opener, taps Start in the chat; computers fill the empty seats."""
    await server.service.commands.start(game_id, ANA.user_id, False)


async def turn(server: PageServer, game_id: int) -> Turn:
    facts = await server.service.commands.facts(game_id)
    table = await server.service.commands.table(game_id)
    over = table.winner is not None or table.aborted
    mover = None if over or table.to_move is None else facts.seats[table.to_move].user_id
    return Turn(table.version, mover, over)


async def ana_moves_in_chat(server: PageServer, game_id: int) -> None:
    hand = await server.service.commands.hand(game_id, ANA.user_id)
    await chat_move(server.service, game_id, ANA.user_id, hand.version, hand.legal[0])


async def tap_a_move(table: Table) -> tuple[str, list[tuple[str, str]]]:
    """The viewer's turn, by tapping: the first playable item (and, when it offers several,
    the first of its choice). Returns the item's aria-label and the choice's (data-move,
    aria-label) options, if one opened."""
    what = await table.settled()
    assert what == "move", what
    before = await table.revision()
    moves, label = (await table.playable())[0]
    await table.tap_item(moves)
    options: list[tuple[str, str]] = []
    if " " in moves:
        assert await table.settled() == "choice"
        options = await table.options()
        await table.tap_option(options[0][0])
    await table.wait_for_revision(before + 1)
    return label, options


async def until_ana_is_to_move(server: PageServer, game_id: int, bea: Table) -> Turn:
    """Bea taps her turns until the game waits on Ana (in the chat), shown in Bea's page."""
    for _ in range(8):
        now = await turn(server, game_id)
        assert not now.over
        await bea.wait_for_revision(now.version)
        if now.mover == ANA.user_id:
            return now
        assert now.mover == BEA.user_id, "only people are waited for"
        await tap_a_move(bea)
    raise AssertionError("Ana never came to move")
