"""Gaple's turns: a move checked and stored, refusals, timeouts and taking a seat back."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gaple_bot.service.errors import NotSeated, NotYourTurn, StaleButton
from gaple_bot.store import GameStatus

from .deals import TWO_TURNS
from .kit import ANA, BUDI, EKO, Table

Tables = Callable[[str], Table]


async def two_people(table: Tables) -> Table:
    """Ana and Budi at a classic two-seat table dealt TWO_TURNS; Ana is to lead."""
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.open(ANA)
    await gaple.join(BUDI)
    await gaple.start(ANA, deals=[TWO_TURNS])
    return gaple


async def test_a_legal_move_moves_the_version_on_and_hands_the_turn_over(table: Tables) -> None:
    gaple = await two_people(table)
    before = gaple.version
    progress = await gaple.play(ANA, "R66")
    assert progress.table is not None and progress.table.version > before
    assert progress.moved == [(1, 0, gaple.code("R66"))]
    # C6: Budi is next; C9: [6|5] is the one tile he holds that fits.
    assert progress.turn is not None and progress.turn.seat == 1
    assert progress.turn.legal == (gaple.code("R65"),)
    assert progress.hands[0].legal == ()
    assert (await gaple.record()).version == gaple.version


async def test_c4_a_tile_other_than_the_lead_is_refused(table: Tables) -> None:
    gaple = await two_people(table)
    before = gaple.version
    with pytest.raises(StaleButton):
        await gaple.play(ANA, "R60")
    assert (await gaple.record()).version == before


async def test_a_button_of_an_earlier_version_is_refused(table: Tables) -> None:
    gaple = await two_people(table)
    stale = gaple.version
    await gaple.play(ANA, "R66")
    await gaple.play(BUDI, "R65")
    with pytest.raises(StaleButton):
        await gaple.play(ANA, "L60", version=stale)


async def test_a_move_out_of_turn_is_refused(table: Tables) -> None:
    gaple = await two_people(table)
    with pytest.raises(NotYourTurn):
        await gaple.play(BUDI, "R65")


async def test_a_move_from_someone_not_seated_is_refused(table: Tables) -> None:
    gaple = await two_people(table)
    with pytest.raises(NotSeated):
        await gaple.play(EKO, "R66")


async def test_on_a_timeout_the_computer_moves_for_the_person(table: Tables) -> None:
    gaple = await two_people(table)
    progress = await gaple.timeout()
    assert progress is not None
    assert progress.timed_out == [0]
    assert progress.moved == [(1, 0, gaple.code("R66"))]  # her only legal move
    assert progress.autoplay_started == []
    assert progress.turn is not None and progress.turn.seat == 1
    ana = (await gaple.seats())[0]
    assert (ana.timeouts, ana.autoplay) == (1, False)


async def test_a_turn_whose_hand_never_reached_the_person_is_not_counted(table: Tables) -> None:
    gaple = await two_people(table)
    gaple.hands_reach = False
    await gaple.play(ANA, "R66")
    progress = await gaple.timeout()
    assert progress is not None and progress.timed_out == [1]
    assert progress.moved == [(1, 1, gaple.code("R65"))]
    budi = (await gaple.seats())[1]
    assert (budi.timeouts, budi.autoplay) == (0, False)


async def test_a_timer_of_an_earlier_version_does_nothing(table: Tables) -> None:
    gaple = await two_people(table)
    stale = gaple.version
    await gaple.play(ANA, "R66")
    assert await gaple.timeout(version=stale) is None
    assert (await gaple.seats())[1].timeouts == 0


async def test_two_timeouts_in_a_row_hand_the_seat_to_the_computer(table: Tables) -> None:
    gaple = await two_people(table)
    await gaple.timeout()
    await gaple.play(BUDI, "R65")
    progress = await gaple.timeout()
    assert progress is not None
    assert progress.timed_out == [0] and progress.autoplay_started == [0]
    assert progress.moved == [(1, 0, gaple.code("L60"))]
    # Budi, a person still playing, is to move: the computer waits for him.
    assert progress.turn is not None and progress.turn.seat == 1
    ana = (await gaple.seats())[0]
    assert (ana.timeouts, ana.autoplay) == (2, True)


async def test_a_move_made_by_hand_starts_the_count_of_timeouts_again(table: Tables) -> None:
    gaple = await two_people(table)
    await gaple.timeout()
    await gaple.play(BUDI, "R65")
    await gaple.play(ANA, "L60")
    assert (await gaple.seats())[0].timeouts == 0
    await gaple.play(BUDI, "R54")
    progress = await gaple.timeout()
    assert progress is not None and progress.autoplay_started == []
    assert (await gaple.seats())[0].autoplay is False


async def test_a_second_timeout_with_no_other_person_left_abandons_the_game(
    table: Tables,
) -> None:
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.open(ANA)
    await gaple.add_computer(ANA)
    await gaple.start(ANA, deals=[TWO_TURNS])
    first = await gaple.timeout()  # the computer leads [6|6] for Ana, then answers [6|5]
    assert first is not None and first.turn is not None and first.turn.seat == 0
    progress = await gaple.timeout()
    # Nobody would be left to play: the game stops rather than play on in her name.
    assert progress is not None and progress.abandoned is not None
    assert progress.timed_out == []
    assert (await gaple.record()).status is GameStatus.ABORTED
    assert await gaple.results() == []


async def test_taking_the_seat_back_gives_the_person_their_turns_again(table: Tables) -> None:
    gaple = await two_people(table)
    await gaple.timeout()
    await gaple.play(BUDI, "R65")
    await gaple.timeout()  # Ana's seat goes to the computer, which plays [6|0] for her
    progress = await gaple.take_back(ANA)
    ana = (await gaple.seats())[0]
    assert (ana.autoplay, ana.timeouts) == (False, 0)
    assert progress.turn is not None and progress.turn.seat == 1
    progress = await gaple.play(BUDI, "R54")
    # Ends [0] and [4]: her turn is hers to play, with her three 0s.
    assert progress.turn is not None and progress.turn.seat == 0
    assert set(progress.turn.legal) == {gaple.code(t) for t in ("L01", "L02", "L03")}


async def test_only_a_seat_the_computer_plays_is_taken_back(table: Tables) -> None:
    gaple = await two_people(table)
    assert not await gaple.can_take_back(ANA)
    # Ana plays her seat herself: a take-back button (a second tap, or forged) is stale.
    with pytest.raises(StaleButton):
        await gaple.take_back(ANA)
    with pytest.raises(NotSeated):
        await gaple.take_back(EKO)
    assert not await gaple.can_take_back(EKO)
    await gaple.timeout()
    await gaple.play(BUDI, "R65")
    await gaple.timeout()
    assert await gaple.can_take_back(ANA)
    await gaple.take_back(ANA)
    assert not await gaple.can_take_back(ANA)
    with pytest.raises(StaleButton):
        await gaple.take_back(ANA)
