"""The public board of a change is drawn once per language the pages read, not once per page,
and every page still gets the board in its own language."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gaple_bot.games.gaple.present import GaplePresentation
from gaple_bot.i18n import Translator, Translators
from gaple_bot.service.views import Person, TableView
from tests.clock import TestClock

from .kit import JSON, PageServer, chat_move, open_group_table
from .test_group_tables import page_of

ANA = Person(21, "Ana", "en")
BEA = Person(22, "Bea", "id")
CID = Person(23, "Cid", "en")


def at_least(version: int) -> Callable[[JSON], bool]:
    """A state frame's test: it shows the game at `version` or later."""
    return lambda frame: bool(frame["revision"] >= version)


async def test_one_board_per_language_for_every_page_of_a_change(
    server: PageServer, clock: TestClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group |= {ANA.user_id, BEA.user_id, CID.user_id}
    bea = await page_of(server, BEA, token, clock)
    await bea.next("state")
    await bea.send({"t": "join"})
    await bea.next("state", lambda f: f["lobby"] is not None and f["lobby"]["can_leave"])
    ana = await page_of(server, ANA, token, clock)
    cid = await page_of(server, CID, token, clock)
    await server.service.commands.start(game_id, ANA.user_id, False)
    for page in (ana, bea, cid):
        await page.next("state", lambda f: f["phase"] == "playing")
    table = await server.service.commands.table(game_id)
    while table.to_move is None or table.seats[table.to_move].user_id != ANA.user_id:
        # Bea's turn first, from her page: then Ana moves in chat.
        hand = await server.service.commands.hand(game_id, BEA.user_id)
        await server.service.page_commands.move(game_id, BEA.user_id, hand.version, hand.legal[0])
        table = await server.service.commands.table(game_id)
        # Every page shows it before the count starts.
        for page in (ana, bea, cid):
            await page.next("state", at_least(table.version))

    drawn: list[str] = []
    draw = GaplePresentation.page_board

    def counted(self: GaplePresentation, t: Translator, shown: TableView[Any]) -> Any:
        drawn.append(t.language)
        return draw(self, t, shown)

    monkeypatch.setattr(GaplePresentation, "page_board", counted)
    hand = await server.service.commands.hand(game_id, ANA.user_id)
    await chat_move(server.service, game_id, ANA.user_id, hand.version, hand.legal[0])
    after = await server.service.commands.table(game_id)
    states = {
        person.user_id: await page.next("state", lambda f: f["revision"] >= after.version)
        for person, page in ((ANA, ana), (BEA, bea), (CID, cid))
    }
    # Three pages in two languages: two boards (the move's one change).
    assert sorted(drawn) == ["en", "id"]
    translators = Translators("en")
    presentation = server.service.registry.get("gaple").presentation
    assert isinstance(presentation, GaplePresentation)
    for person in (ANA, BEA, CID):
        t = translators.get(person.telegram_language)
        assert states[person.user_id]["board"] == draw(presentation, t, after)
