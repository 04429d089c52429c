"""Move codes and texts (G4): every code names one move, fits 16 bits and round-trips."""

from __future__ import annotations

import pytest

from gaple_bot.games.gap.rules import (
    ALL_MOVES,
    CARD_COUNT,
    MOVE_CODES,
    NONE,
    Move,
    MoveParseError,
    card_text,
    move,
    parse_card,
)

from .hand_dealt import card


def test_the_code_is_card_plus_60_times_low_plus_7_high() -> None:
    m = Move(card("B7"), low=0, high=1)
    assert m.code == 27 + 60 * (0 + 7 * 1)
    assert Move(card("B7")).code == 27 + 60 * (NONE + 7 * NONE)
    assert MOVE_CODES == 60 * 49 < 32768
    assert max(m.code for m in ALL_MOVES) == MOVE_CODES - 1


def test_every_code_round_trips_and_names_a_distinct_move() -> None:
    assert len(ALL_MOVES) == MOVE_CODES
    assert len(set(ALL_MOVES)) == MOVE_CODES
    for code in range(MOVE_CODES):
        m = Move.from_code(code)
        assert m.code == code
        assert Move(m.card, m.low, m.high) == m
        assert move(m.card, m.low, m.high) is m
        assert Move.parse(m.text()) is m


def test_neighbour_cards_wrap_around_zero_and_nine() -> None:
    zero = Move.parse("R0/G9/B1")
    assert (zero.low_card, zero.high_card) == (card("G9"), card("B1"))
    nine = Move.parse("Y9/O8/P0")
    assert nine.neighbours == (card("O8"), card("P0"))
    assert Move.parse("R5").neighbours == ()
    assert Move.parse("R5/-/G6").neighbours == (card("G6"),)


def test_texts() -> None:
    assert [card_text(c) for c in (0, 17, 59)] == ["R0", "G7", "O9"]
    assert parse_card("y3") == card("Y3")
    assert Move(card("R7"), 1, 2).text() == "R7/G6/B8"
    assert str(Move(card("R7"), NONE, 2)) == "R7/-/B8"
    assert Move(card("R7")).text() == "R7"


@pytest.mark.parametrize("code", [-1, MOVE_CODES, 40_000, "12", 1.0, True, None])
def test_a_code_that_names_no_move_is_refused(code: object) -> None:
    with pytest.raises(MoveParseError):
        Move.from_code(code)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text", ["", "R", "X7", "R10", "R7/G5/B8", "R7/G6/B9", "R7/G6", "R7/-/-/-", "R7/G6/B8/"]
)
def test_a_text_that_names_no_move_is_refused(text: str) -> None:
    with pytest.raises(MoveParseError):
        Move.parse(text)


def test_moves_outside_the_cards_or_colours_are_refused() -> None:
    for fields in ((CARD_COUNT, NONE, NONE), (-1, NONE, NONE), (0, 7, NONE), (0, NONE, -1)):
        with pytest.raises(MoveParseError):
            Move(*fields)
        with pytest.raises(MoveParseError):
            move(*fields)
