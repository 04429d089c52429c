"""Every use case's outcome is published as typed effects, so a front end that did not make
the move (a page showing the table) can show it, each seat seeing only its own hand."""

from __future__ import annotations

from collections.abc import Callable

from gaple_bot.games.gaple.rules import Move as GapleMove
from gaple_bot.games.gaple.rules import Played as GapleEvent
from gaple_bot.service.outcome import (
    HandChanged,
    LobbyChanged,
    Outcome,
    Played,
    TableChanged,
    TurnStarted,
)
from gaple_bot.service.runtime import GameService

from .kit import ANA, BUDI, Table
from .test_gaple_turns import two_people

Tables = Callable[[str], Table]


def _kinds(outcome: Outcome) -> list[type]:
    return [type(effect) for effect in outcome.effects]


async def test_a_move_is_published_with_the_table_and_the_next_turn(
    table: Tables, service: GameService
) -> None:
    gaple = await two_people(table)
    feed = service.feed.subscribe()
    returned = await service.commands.move(
        gaple.game_id, ANA.user_id, gaple.version, gaple.code("R66")
    )
    [outcome] = feed.waiting()
    assert outcome is returned
    assert outcome.game_id == gaple.game_id
    # Budi must choose his move himself: only Ana's is played, with the rules' own event.
    [played] = [e for e in outcome.effects if isinstance(e, Played)]
    assert (played.round_number, played.seat, played.code) == (1, 0, gaple.code("R66"))
    [event] = played.events
    move = GapleMove.from_code(gaple.code("R66"))
    assert isinstance(event, GapleEvent)
    assert (event.seat, event.tile, event.side) == (0, move.tile, move.side)
    [changed] = [e for e in outcome.effects if isinstance(e, TableChanged)]
    assert outcome.version == changed.table.version > gaple.version
    [turn] = [e for e in outcome.effects if isinstance(e, TurnStarted)]
    assert turn.hand.seat == 1 and turn.hand.legal == (gaple.code("R65"),)
    assert turn.deadline == changed.table.deadline is not None
    feed.close()


async def test_each_seat_sees_only_its_own_hand_and_everyone_the_table(
    table: Tables, service: GameService
) -> None:
    gaple = await two_people(table)
    feed = service.feed.subscribe()
    await service.commands.move(gaple.game_id, ANA.user_id, gaple.version, gaple.code("R66"))
    [outcome] = feed.waiting()
    assert HandChanged not in _kinds(outcome.public())
    assert TurnStarted not in _kinds(outcome.public())
    assert TableChanged in _kinds(outcome.public())
    ana = outcome.for_seat(0)
    assert {e.hand.seat for e in ana.effects if isinstance(e, HandChanged | TurnStarted)} == {0}
    budi = outcome.for_seat(1)
    assert [e.hand.seat for e in budi.effects if isinstance(e, TurnStarted)] == [1]
    assert not [e for e in budi.effects if isinstance(e, HandChanged) and e.hand.seat == 0]


async def test_a_join_is_published_as_the_lobby_now(table: Tables, service: GameService) -> None:
    gaple = table("gaple")
    lobby = await gaple.open(ANA)
    feed = service.feed.subscribe()
    await service.players.private_chat_opened(BUDI)
    returned = await service.commands.join(lobby.game_id, BUDI)
    [outcome] = feed.waiting()
    assert outcome is returned
    joined = (await service.commands.snapshot(lobby.game_id)).lobby
    assert outcome.effects == (LobbyChanged(joined),)
    assert [seat.user_id for seat in joined.seats] == [ANA.user_id, BUDI.user_id]


async def test_a_subscriber_that_fell_behind_is_told_how_much_it_missed(
    table: Tables, service: GameService
) -> None:
    gaple = table("gaple")
    lobby = await gaple.open(ANA)
    feed = service.feed.subscribe(length=1)
    for person in (BUDI, ANA):
        await service.players.private_chat_opened(person)
    await service.commands.join(lobby.game_id, BUDI)
    await service.commands.leave(lobby.game_id, BUDI.user_id)
    assert feed.missed == 1
    [last] = feed.waiting()
    assert isinstance(last.effects[0], LobbyChanged)
    assert [seat.user_id for seat in last.effects[0].lobby.seats] == [ANA.user_id]
    feed.close()
    await service.commands.join(lobby.game_id, BUDI)
    assert feed.waiting() == []
