"""Refusals: bad configs, deals and stored games raise GapError subclasses and change nothing."""

from __future__ import annotations

import random

import pytest

from gaple_bot.games.gap.rules import (
    ConfigError,
    Deal,
    DealError,
    Game,
    GapConfig,
    GapError,
    IllegalMoveError,
    Move,
    NotYourTurnError,
    RoundOverError,
    RoundResult,
    SerialError,
    deal_round,
    game_from_dict,
    game_from_json,
    game_to_dict,
    replay,
)

from .test_golden import DRAINED, DRAINED_MOVES, FULL_ROUND, FULL_ROUND_MOVES, TWO


def test_every_error_is_a_value_error() -> None:
    for error in (ConfigError, DealError, IllegalMoveError, SerialError, RoundOverError):
        assert issubclass(error, GapError)
    assert issubclass(GapError, ValueError)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"seats": "4"},
        {"seats": 4, "target": "30"},
        {"seats": 1},
        {"seats": 7},
        {"seats": 4, "target": 0},
        {"seats": True},
        [],
    ],
)
def test_bad_configs_are_refused(data: object) -> None:
    with pytest.raises(ConfigError):
        GapConfig.from_dict(data)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "change",
    [
        {"hands": None},
        {"hands": [1, 2]},
        {"middle": "1 2 3 4"},
        {"pile": [60]},
        {"pile": [-1]},
        {"pile": [True]},
        {"first": "0"},
        {"first": None},
    ],
)
def test_badly_shaped_stored_deals_are_refused(change: dict[str, object]) -> None:
    data = {**FULL_ROUND.to_dict(), **change}
    with pytest.raises(DealError):
        Deal.from_dict(data)


def test_a_stored_deal_missing_a_field_is_refused() -> None:
    data = FULL_ROUND.to_dict()
    del data["pile"]
    with pytest.raises(DealError):
        Deal.from_dict(data)


def test_deals_that_do_not_fit_the_config_are_refused() -> None:
    d = FULL_ROUND
    bad = [
        Deal(d.hands[:1], d.middle, d.pile, 0),
        Deal(d.hands, d.middle, d.pile[:-1], 0),
        Deal(d.hands, d.middle, (*d.pile[:-1], d.pile[0]), 0),
        Deal(d.hands, d.middle, d.pile, 2),
        Deal(d.hands, d.middle, d.pile, -1),
    ]
    for deal in bad:
        with pytest.raises(DealError):
            deal.validate(TWO)
    with pytest.raises(DealError):
        deal_round(TWO, random.Random(0), 2)


def test_refused_moves_raise_and_change_nothing() -> None:
    game = Game(TWO, FULL_ROUND)
    before = game.replay_key()
    with pytest.raises(NotYourTurnError):
        game.apply(1, Move.parse("Y2"))
    with pytest.raises(IllegalMoveError):
        game.apply(0, Move.parse("Y2"))  # not in seat 0's hand
    with pytest.raises(IllegalMoveError):
        game.apply(0, Move.parse("R8"))  # R9 must be taken
    assert game.replay_key() == before
    for text in FULL_ROUND_MOVES.split():
        game.apply(game.to_move or 0, Move.parse(text))
    after = game.replay_key()
    with pytest.raises(RoundOverError):
        game.apply(0, Move.parse("R3"))
    assert game.replay_key() == after


def test_replay_rebuilds_a_game_and_refuses_bad_data() -> None:
    codes = [Move.parse(t).code for t in DRAINED_MOVES.split()]
    config = GapConfig(2, target=100)
    game = replay(config, [(DRAINED, codes)])
    assert game.scores == (20, 20)
    second = deal_round(config, random.Random(3), 1)
    two_rounds = replay(config, [(DRAINED, codes), (second, [])])
    assert two_rounds.round_number == 2 and two_rounds.to_move == 1
    bad_runs: list[list[tuple[Deal, list[int]]]] = [
        [],
        [(DRAINED, [*codes, codes[0]])],  # a move after the round ended
        [(DRAINED, [codes[1]])],  # not the first seat's card
        [(DRAINED, [99_999])],  # no such code
        [(DRAINED, codes[:3]), (second, [])],  # a new round before this one ended
        [(DRAINED, codes), (deal_round(config, random.Random(3), 0), [])],  # wrong first seat
        [(Deal(DRAINED.hands, DRAINED.middle, DRAINED.pile, 1), [])],  # G6: seat 0 starts
        [(Deal(DRAINED.hands, DRAINED.middle, DRAINED.pile[1:], 0), [])],  # a card missing
    ]
    for rounds in bad_runs:
        with pytest.raises(SerialError):
            replay(config, rounds)


def test_stored_games_that_are_not_games_are_refused() -> None:
    good = game_to_dict(Game(TWO, FULL_ROUND))
    bad: list[object] = [
        {},
        {**good, "format": 2},
        {**good, "config": {"seats": 9}},
        {**good, "rounds": "none"},
        {**good, "rounds": [{"deal": {}, "moves": []}]},
        {**good, "rounds": [{"moves": []}]},
        {**good, "rounds": [{"deal": FULL_ROUND.to_dict(), "moves": ["R3"]}]},
    ]
    for data in bad:
        with pytest.raises(SerialError):
            game_from_dict(data)  # type: ignore[arg-type]
    for text in ("not json", "[1, 2]"):
        with pytest.raises(SerialError):
            game_from_json(text)


@pytest.mark.parametrize(
    "data",
    [[], {}, {"points": [1], "collections": [[1], "2"]}, {"points": ["1"], "collections": []}],
)
def test_bad_stored_results_are_refused(data: object) -> None:
    with pytest.raises(SerialError):
        RoundResult.from_dict(data)  # type: ignore[arg-type]
