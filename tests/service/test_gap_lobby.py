"""Gap's lobby: joining, starting (computers fill the empty seats, or not) and /stop."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gaple_bot.service.errors import AlreadySeated, GameNotRunning, NotAllowed, TableFull
from gaple_bot.service.views import Person
from gaple_bot.store import GameStatus

from .deals import FULL_ROUND
from .kit import ANA, BUDI, Table

Tables = Callable[[str], Table]


async def test_joining_takes_the_next_seat_up_to_six(table: Tables) -> None:
    gap = table("gap")
    await gap.open(ANA)
    lobby = await gap.join(BUDI)
    assert [s.user_id for s in lobby.seats] == [ANA.user_id, BUDI.user_id]
    assert lobby.capacity == 6  # G1: two to six players
    with pytest.raises(AlreadySeated):
        await gap.join(BUDI)


async def test_a_full_table_refuses_a_seventh_player(table: Tables) -> None:
    gap = table("gap")
    await gap.open(ANA)
    for number in range(5):
        await gap.join(Person(200 + number, f"Player {number}"))
    with pytest.raises(TableFull):
        await gap.join(BUDI)


async def test_start_fills_the_empty_seats_with_computers_up_to_four(table: Tables) -> None:
    gap = table("gap")
    await gap.open(ANA)
    await gap.join(BUDI)
    progress = await gap.start(ANA)
    assert [s.user_id for s in await gap.seats()] == [ANA.user_id, BUDI.user_id, None, None]
    assert progress.table is not None and progress.table.config["seats"] == 4
    # G6: the first round starts with the first seat.
    assert progress.turn is not None and progress.turn.seat == 0


async def test_g1_with_computers_off_two_people_play_with_four_colours(table: Tables) -> None:
    gap = table("gap")
    await gap.set_option("computers", "off")
    await gap.open(ANA)
    await gap.join(BUDI)
    progress = await gap.start(ANA, deals=[FULL_ROUND])
    assert [s.user_id for s in await gap.seats()] == [ANA.user_id, BUDI.user_id]
    assert progress.table is not None and progress.table.config["seats"] == 2
    assert progress.turn is not None and progress.turn.seat == 0
    # G4 with the middle G3 B3 Y7 R9: R3 takes the 3s; 8s take Y7 and R9; R6 takes Y7.
    ana = "R8/Y7/R9 G8/Y7/R9 R6/-/Y7 R3 B1 Y5"
    assert set(progress.turn.legal) == {gap.code(text) for text in ana.split()}


async def test_only_the_opener_may_start(table: Tables) -> None:
    gap = table("gap")
    await gap.open(ANA)
    await gap.join(BUDI)
    with pytest.raises(NotAllowed):
        await gap.start(BUDI)


async def test_the_opener_stops_a_running_game_and_no_one_else_may(table: Tables) -> None:
    gap = table("gap")
    await gap.open(ANA)
    await gap.join(BUDI)
    await gap.start(ANA)
    with pytest.raises(NotAllowed):
        await gap.stop(BUDI)
    assert (await gap.record()).status is GameStatus.RUNNING
    assert await gap.stop(ANA) is not None
    assert (await gap.record()).status is GameStatus.ABORTED
    with pytest.raises(GameNotRunning):
        await gap.stop(ANA)
