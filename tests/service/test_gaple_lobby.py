"""Gaple's lobby: joining, starting (computers fill the empty seats, or not) and /stop."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gaple_bot.service.errors import (
    AlreadySeated,
    GameNotRunning,
    NeedsMorePlayers,
    NotAllowed,
    PrivateChatNeeded,
    TableFull,
)
from gaple_bot.store import ComputerLevel, GameStatus

from .deals import TWO_TURNS
from .kit import ANA, BUDI, CITRA, DEWI, EKO, Table

Tables = Callable[[str], Table]


async def test_joining_takes_the_next_seat(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.open(ANA)
    lobby = await gaple.join(BUDI)
    assert [(s.number, s.user_id) for s in lobby.seats] == [(0, ANA.user_id), (1, BUDI.user_id)]
    assert lobby.capacity == 4  # C2: classic seats at most four


async def test_joining_twice_is_refused(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.open(ANA)
    with pytest.raises(AlreadySeated):
        await gaple.join(ANA)


async def test_joining_needs_a_private_chat_for_the_hand(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.open(ANA)
    with pytest.raises(PrivateChatNeeded):
        await gaple.join(BUDI, private_chat=False)
    assert len(await gaple.seats()) == 1


async def test_a_full_classic_table_refuses_a_fifth_player(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.open(ANA)
    for person in (BUDI, CITRA, DEWI):
        await gaple.join(person)
    with pytest.raises(TableFull):
        await gaple.join(EKO)


async def test_c2_start_fills_the_empty_seats_with_computers_up_to_four(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.open(ANA)
    await gaple.join(BUDI)
    progress = await gaple.start(ANA)
    seats = await gaple.seats()
    assert [s.user_id for s in seats] == [ANA.user_id, BUDI.user_id, None, None]
    assert [s.computer_level for s in seats[2:]] == [ComputerLevel.NORMAL] * 2
    assert (await gaple.record()).status is GameStatus.RUNNING
    assert progress.table is not None and progress.table.config["seats"] == 4


async def test_c2_with_computers_off_two_people_play_a_two_seat_game(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.open(ANA)
    await gaple.join(BUDI)
    progress = await gaple.start(ANA, deals=[TWO_TURNS])
    assert [s.user_id for s in await gaple.seats()] == [ANA.user_id, BUDI.user_id]
    # C4: Ana holds [6|6], so she leads, and it is the one tile she may lead.
    assert progress.turn is not None and progress.turn.seat == 0
    assert progress.turn.legal == (gaple.code("R66"),)
    assert set(progress.hands) == {0, 1}


async def test_d1_with_computers_off_the_discard_rules_need_four_seats(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.set_option("rules", "discards")
    await gaple.open(ANA)
    await gaple.join(BUDI)
    with pytest.raises(NeedsMorePlayers) as refused:
        await gaple.start(ANA)
    assert refused.value.least == 4
    assert (await gaple.record()).status is GameStatus.LOBBY


async def test_d1_start_fills_a_discards_table_to_four(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.set_option("rules", "discards")
    await gaple.open(ANA)
    progress = await gaple.start(ANA)
    assert [s.user_id for s in await gaple.seats()] == [ANA.user_id, None, None, None]
    assert progress.table is not None
    assert progress.table.config["rule_set"] == "discards"


async def test_only_the_opener_may_start(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.open(ANA)
    await gaple.join(BUDI)
    with pytest.raises(NotAllowed):
        await gaple.start(BUDI)
    assert (await gaple.record()).status is GameStatus.LOBBY


async def test_the_opener_stops_a_running_game(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.open(ANA)
    await gaple.start(ANA)
    last = await gaple.stop(ANA)
    assert last is not None and last.game_id == gaple.game_id
    assert (await gaple.record()).status is GameStatus.ABORTED
    assert await gaple.results() == []  # no results, no rating changes
    with pytest.raises(GameNotRunning):
        await gaple.stop(ANA)


async def test_someone_else_may_not_stop_the_game(table: Tables) -> None:
    gaple = table("gaple")
    await gaple.open(ANA)
    await gaple.join(BUDI)
    await gaple.start(ANA)
    with pytest.raises(NotAllowed):
        await gaple.stop(BUDI)
    assert (await gaple.record()).status is GameStatus.RUNNING
