"""Moves: every code and text round trips, and malformed codes and texts are refused."""

from __future__ import annotations

import pytest

from gaple_bot.games.gaple.rules import (
    PASS,
    TILES,
    GapleError,
    Move,
    MoveKind,
    MoveParseError,
    Side,
    discard,
    play,
)
from gaple_bot.games.gaple.rules.moves import ALL_MOVES, MOVE_CODES

from .hand_dealt import tile

BAD_TEXTS = (
    "",
    "p",
    "pass",
    "PP",
    "P ",
    "r66",
    "l66",
    "d66",
    "X66",
    "R6",
    "R666",
    "R77",
    "R70",
    "D07",
    "R6a",
    "R 6",
    " R66",
    "R66 ",
    "R-1",
    "L",
    "D",
    "66",
)


def test_there_are_85_moves_56_plays_one_pass_and_28_discards() -> None:
    assert MOVE_CODES == 85
    kinds = [move.kind for move in ALL_MOVES]
    assert kinds.count(MoveKind.PLAY) == 56
    assert kinds.count(MoveKind.PASS) == 1
    assert kinds.count(MoveKind.DISCARD) == 28


def test_every_code_round_trips() -> None:
    for code in range(MOVE_CODES):
        move = Move.from_code(code)
        assert move.code == code


def test_every_text_round_trips_and_names_one_move() -> None:
    texts = [move.text() for move in ALL_MOVES]
    assert len(set(texts)) == MOVE_CODES
    for move in ALL_MOVES:
        assert Move.parse(move.text()) == move
        assert Move.from_code(Move.parse(move.text()).code) == move


def test_texts_name_the_side_and_the_tile_high_number_first() -> None:
    assert Move.parse("L63") == play(tile("63"), Side.LEFT)
    assert Move.parse("R63") == play(tile("63"), Side.RIGHT)
    assert Move.parse("D63") == discard(tile("63"))
    assert Move.parse("P") == PASS
    assert play(tile("36")).text() == "R63"
    assert play(tile("00"), Side.LEFT).text() == "L00"
    assert discard(tile("51")).text() == "D51"
    assert PASS.text() == "P"


def test_either_order_of_the_digits_names_the_same_tile() -> None:
    assert Move.parse("R36") == Move.parse("R63")
    assert Move.parse("D05") == Move.parse("D50")


def test_moves_read_as_words() -> None:
    assert str(Move.parse("L63")) == "[6|3] left"
    assert str(Move.parse("R00")) == "[0|0] right"
    assert str(Move.parse("D52")) == "discard [5|2]"
    assert str(PASS) == "pass"


def test_plays_carry_their_tile_and_side() -> None:
    for move in ALL_MOVES:
        if move.kind is MoveKind.PLAY:
            low, high = TILES[move.tile]
            letter = "L" if move.side is Side.LEFT else "R"
            assert move.text() == f"{letter}{high}{low}"


@pytest.mark.parametrize("text", BAD_TEXTS)
def test_malformed_text_is_refused(text: str) -> None:
    with pytest.raises(MoveParseError):
        Move.parse(text)


@pytest.mark.parametrize("code", [-1, MOVE_CODES, MOVE_CODES + 1, 10_000])
def test_codes_out_of_range_are_refused(code: int) -> None:
    with pytest.raises(MoveParseError):
        Move.from_code(code)


def test_parse_errors_are_domain_errors_and_value_errors() -> None:
    with pytest.raises(GapleError):
        Move.parse("R77")
    with pytest.raises(ValueError):
        Move.from_code(-1)


def test_a_move_built_from_its_fields_has_the_code_of_that_move() -> None:
    for move in ALL_MOVES:
        built = Move(move.kind, move.tile, move.side)
        assert built == move
        assert built.code == move.code


@pytest.mark.parametrize("tile_number", [-1, 28, 99])
def test_a_move_naming_no_tile_is_refused(tile_number: int) -> None:
    with pytest.raises(MoveParseError):
        Move(MoveKind.PLAY, tile_number)
    with pytest.raises(MoveParseError):
        Move(MoveKind.DISCARD, tile_number)
