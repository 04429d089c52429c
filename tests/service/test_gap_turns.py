"""Gap's turns: a move checked and stored, refusals, timeouts and taking a seat back."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gaple_bot.service.errors import NotSeated, NotYourTurn, StaleButton
from gaple_bot.store import GameStatus

from .deals import FULL_ROUND
from .kit import ANA, BUDI, EKO, Table

Tables = Callable[[str], Table]

BUDI_AFTER_R3 = "R5/-/G6 R5/-/B6 G0/R9/- B7 B9 Y2 Y4"
"""Budi's moves once Ana's R3 took the 3s and G6 B6 refilled the middle (G4)."""


async def two_people(table: Tables) -> Table:
    """Ana and Budi at a two-seat table dealt FULL_ROUND; Ana moves first (G6)."""
    gap = table("gap")
    await gap.set_option("computers", "off")
    await gap.open(ANA)
    await gap.join(BUDI)
    await gap.start(ANA, deals=[FULL_ROUND])
    return gap


async def test_a_legal_move_moves_the_version_on_and_hands_the_turn_over(table: Tables) -> None:
    gap = await two_people(table)
    before = gap.version
    progress = await gap.play(ANA, "R3")
    assert progress.table is not None and progress.table.version > before
    assert progress.moved == [(1, 0, gap.code("R3"))]
    assert progress.turn is not None and progress.turn.seat == 1
    assert set(progress.turn.legal) == {gap.code(text) for text in BUDI_AFTER_R3.split()}
    assert progress.hands[0].legal == ()
    assert (await gap.record()).version == gap.version


async def test_g4_a_card_played_without_the_take_it_must_make_is_refused(table: Tables) -> None:
    gap = await two_people(table)
    # R8 must take Y7 and R9: playing it into the middle is not a move.
    with pytest.raises(StaleButton):
        await gap.play(ANA, "R8")


async def test_a_card_the_person_does_not_hold_is_refused(table: Tables) -> None:
    gap = await two_people(table)
    with pytest.raises(StaleButton):
        await gap.play(ANA, "Y2")


async def test_a_button_of_an_earlier_version_is_refused(table: Tables) -> None:
    gap = await two_people(table)
    stale = gap.version
    await gap.play(ANA, "R3")
    await gap.play(BUDI, "B7")
    with pytest.raises(StaleButton):
        await gap.play(ANA, "B1", version=stale)


async def test_moves_out_of_turn_or_from_outside_the_table_are_refused(table: Tables) -> None:
    gap = await two_people(table)
    with pytest.raises(NotYourTurn):
        await gap.play(BUDI, "B7")
    with pytest.raises(NotSeated):
        await gap.play(EKO, "R3")


async def test_on_a_timeout_the_computer_makes_one_of_the_persons_moves(table: Tables) -> None:
    gap = await two_people(table)
    legal = (await gap.progress()).hands[0].legal
    progress = await gap.timeout()
    assert progress is not None and progress.timed_out == [0]
    assert len(progress.moved) == 1
    round_number, seat, code = progress.moved[0]
    assert (round_number, seat) == (1, 0) and code in legal
    assert progress.turn is not None and progress.turn.seat == 1
    ana = (await gap.seats())[0]
    assert (ana.timeouts, ana.autoplay) == (1, False)


async def test_two_timeouts_in_a_row_hand_the_seat_to_the_computer(table: Tables) -> None:
    gap = await two_people(table)
    first = await gap.timeout()
    assert first is not None and first.turn is not None
    await gap.play_code(BUDI, first.turn.legal[0])
    progress = await gap.timeout()
    assert progress is not None
    assert progress.timed_out == [0] and progress.autoplay_started == [0]
    assert progress.turn is not None and progress.turn.seat == 1
    ana = (await gap.seats())[0]
    assert (ana.timeouts, ana.autoplay) == (2, True)
    # Budi moves, and the computer answers for Ana at once: it is Budi's turn again.
    after = await gap.play_code(BUDI, progress.turn.legal[0])
    assert [seat for _round, seat, _code in after.moved] == [1, 0]
    assert after.turn is not None and after.turn.seat == 1


async def test_taking_the_seat_back_gives_the_person_their_turns_again(table: Tables) -> None:
    gap = await two_people(table)
    first = await gap.timeout()
    assert first is not None and first.turn is not None
    await gap.play_code(BUDI, first.turn.legal[0])
    handed = await gap.timeout()
    assert handed is not None and handed.turn is not None
    back = await gap.take_back(ANA)
    assert back.turn is not None and back.turn.seat == 1
    ana = (await gap.seats())[0]
    assert (ana.autoplay, ana.timeouts) == (False, 0)
    progress = await gap.play_code(BUDI, handed.turn.legal[0])
    assert [seat for _round, seat, _code in progress.moved] == [1]
    assert progress.turn is not None and progress.turn.seat == 0 and progress.turn.legal


async def test_a_second_timeout_with_no_other_person_left_abandons_the_game(
    table: Tables,
) -> None:
    gap = table("gap")
    await gap.set_option("computers", "off")
    await gap.open(ANA)
    await gap.add_computer(ANA)
    await gap.start(ANA, deals=[FULL_ROUND])
    assert await gap.timeout() is not None
    progress = await gap.timeout()
    assert progress is not None and progress.abandoned is not None
    assert (await gap.record()).status is GameStatus.ABORTED
