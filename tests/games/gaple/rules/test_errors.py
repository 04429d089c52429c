"""Refused requests raise their own error and leave the game exactly as it was."""

from __future__ import annotations

import random

import pytest

from gaple_bot.games.gaple.rules import (
    PASS,
    ConfigError,
    Deal,
    Game,
    GameConfig,
    GameOverError,
    GapleError,
    IllegalMoveError,
    Move,
    MoveKind,
    MoveParseError,
    NotYourTurnError,
    RoundNotOverError,
    RoundOverError,
    RuleSet,
    SerialError,
    StuckRule,
    discard,
    game_from_json,
    game_to_json,
)
from gaple_bot.games.gaple.rules.moves import ALL_MOVES

from .hand_dealt import (
    CLASSIC_2,
    CLASSIC_4,
    DISCARDS_4,
    DISCARDS_4_PASS,
    classic_deal,
    discards_deal,
    hand,
    play_out,
    tile,
)

# Two seats: seat 0 leads [6|6]; after [6|4] seat 0 may play [6|2] left or a 4 right.
TWO_SEATS = classic_deal("66 43 62 02 04 14 24", "64 63 00 01 11 13 22", leader=0, lead="66")

# Start [6|6]; seat 0 holds no 6 and must discard, seat 1 may play [6|5] or [6|4].
STUCK_LEADER = discards_deal(
    "00 01 02 03 04 05",
    "65 64 11 12 13 14",
    "63 62 15 22 23 24",
    "61 60 25 33 34 35",
    start="66",
    leader=0,
)


def finished_two_seat_game(target: int = 100) -> Game:
    """A two-seat game whose round was blocked at the lead: seat 0 scores 27."""
    game = Game(
        GameConfig(RuleSet.CLASSIC, 2, target=target),
        classic_deal("66 00 01 02 03 04 11", "65 12 13 14 22 23 24", leader=0, lead="66"),
    )
    play_out(game, "R66 R65")
    return game


def assert_refused(game: Game, seat: int, move: Move, error: type[GapleError]) -> None:
    """`apply` raises exactly `error` and the game's state is unchanged."""
    before = game.replay_key()
    legal_before = game.legal_moves()
    with pytest.raises(error):
        game.apply(seat, move)
    assert game.replay_key() == before
    assert game.legal_moves() == legal_before


def test_every_error_is_a_gaple_error_and_a_value_error() -> None:
    for error in (
        ConfigError,
        NotYourTurnError,
        IllegalMoveError,
        RoundOverError,
        RoundNotOverError,
        GameOverError,
        MoveParseError,
        SerialError,
    ):
        assert issubclass(error, GapleError)
        assert issubclass(error, ValueError)


def test_moving_out_of_turn_is_refused_even_with_a_move_that_would_be_legal() -> None:
    game = Game(CLASSIC_2, TWO_SEATS)
    assert_refused(game, 1, Move.parse("R66"), NotYourTurnError)
    assert_refused(game, 1, Move.parse("R64"), NotYourTurnError)
    play_out(game, "R66")
    assert_refused(game, 0, Move.parse("R62"), NotYourTurnError)
    for seat in (-1, 2, 99):
        assert_refused(game, seat, Move.parse("R64"), NotYourTurnError)


def test_a_tile_not_in_hand_is_refused() -> None:
    game = Game(CLASSIC_2, TWO_SEATS)
    play_out(game, "R66")
    # [6|5] fits but is set aside; [6|2] fits but belongs to seat 0.
    assert_refused(game, 1, Move.parse("R65"), IllegalMoveError)
    assert_refused(game, 1, Move.parse("R62"), IllegalMoveError)


def test_a_tile_that_does_not_match_the_end_is_refused() -> None:
    game = Game(CLASSIC_2, TWO_SEATS)
    play_out(game, "R66 R64")
    # Ends (6, 4): [4|3] does not fit the left 6, [6|2] does not fit the right 4.
    assert_refused(game, 0, Move.parse("L43"), IllegalMoveError)
    assert_refused(game, 0, Move.parse("R62"), IllegalMoveError)
    assert_refused(game, 0, Move.parse("R20"), IllegalMoveError)


def test_the_first_classic_lead_is_the_double_six_only_on_the_right() -> None:
    game = Game(CLASSIC_2, TWO_SEATS)
    assert_refused(game, 0, Move.parse("L66"), IllegalMoveError)
    assert_refused(game, 0, Move.parse("R43"), IllegalMoveError)
    assert_refused(game, 0, PASS, IllegalMoveError)


def test_passing_or_discarding_while_able_to_play_is_refused() -> None:
    game = Game(CLASSIC_2, TWO_SEATS)
    play_out(game, "R66")
    assert_refused(game, 1, PASS, IllegalMoveError)
    assert_refused(game, 1, discard(tile("00")), IllegalMoveError)
    stuck_later = Game(DISCARDS_4, STUCK_LEADER)
    play_out(stuck_later, "D00")
    assert_refused(stuck_later, 1, discard(tile("11")), IllegalMoveError)
    assert_refused(stuck_later, 1, PASS, IllegalMoveError)


def test_classic_rules_never_allow_a_discard() -> None:
    game = Game(CLASSIC_2, TWO_SEATS)
    play_out(game, "R66 R64 R43 L63")
    # Seat 0 cannot play on (3, 3): it passes (C9) and may not discard.
    assert game.legal_moves() == [PASS]
    assert_refused(game, 0, discard(tile("62")), IllegalMoveError)


def test_a_stuck_player_under_the_discard_rule_may_not_pass_or_discard_others_tiles() -> None:
    game = Game(DISCARDS_4, STUCK_LEADER)
    assert_refused(game, 0, PASS, IllegalMoveError)
    assert_refused(game, 0, discard(tile("65")), IllegalMoveError)
    assert_refused(game, 0, discard(tile("66")), IllegalMoveError)


def test_a_stuck_player_under_pass_instead_may_not_discard() -> None:
    game = Game(DISCARDS_4_PASS, STUCK_LEADER)
    assert_refused(game, 0, discard(tile("00")), IllegalMoveError)


def test_no_move_is_accepted_once_the_round_is_over() -> None:
    game = finished_two_seat_game()
    assert game.to_move is None
    assert game.legal_moves() == []
    for seat in (0, 1):
        for move in (Move.parse("R11"), Move.parse("R12"), PASS, discard(tile("00"))):
            assert_refused(game, seat, move, RoundOverError)
    assert not any(game.round.is_legal(move) for move in ALL_MOVES)


def test_a_new_round_is_refused_while_the_round_is_played() -> None:
    game = Game(CLASSIC_2, TWO_SEATS)
    play_out(game, "R66")
    before = game.replay_key()
    with pytest.raises(RoundNotOverError):
        game.next_round(random.Random(0))
    with pytest.raises(RoundNotOverError):
        game.next_deal(random.Random(0))
    with pytest.raises(RoundNotOverError):
        game.start_round(TWO_SEATS)
    assert game.replay_key() == before


def test_nothing_more_is_dealt_or_played_once_the_game_is_won() -> None:
    game = finished_two_seat_game(target=27)
    assert game.winner == 0
    before = game.replay_key()
    with pytest.raises(GameOverError):
        game.next_round(random.Random(0))
    with pytest.raises(GameOverError):
        game.next_deal(random.Random(0))
    with pytest.raises(GameOverError):
        game.start_round(TWO_SEATS)
    assert_refused(game, 0, Move.parse("R11"), RoundOverError)
    assert game.replay_key() == before


@pytest.mark.parametrize(
    ("rule_set", "seats"),
    [
        (RuleSet.CLASSIC, 1),
        (RuleSet.CLASSIC, 5),
        (RuleSet.DISCARDS, 3),
        (RuleSet.DISCARDS, 6),
        (RuleSet.DISCARDS, 2),
    ],
)
def test_a_seat_count_outside_the_rule_set_is_a_config_error(rule_set: RuleSet, seats: int) -> None:
    with pytest.raises(ConfigError):
        GameConfig(rule_set, seats)


@pytest.mark.parametrize("target", [0, -1, 10_001])
def test_a_target_outside_1_to_10000_is_a_config_error(target: int) -> None:
    with pytest.raises(ConfigError):
        GameConfig(RuleSet.CLASSIC, 4, target=target)


def test_config_from_dict_refuses_unknown_values() -> None:
    good = GameConfig(RuleSet.DISCARDS, 5, target=50, stuck_rule=StuckRule.PASS)
    assert GameConfig.from_dict(good.to_dict()) == good
    for broken in (
        {"rule_set": "poker", "seats": 4, "target": 100},
        {"rule_set": "classic", "seats": "4", "target": 100},
        {"rule_set": "classic", "seats": 4, "target": None},
        {"rule_set": "discards", "seats": 4, "target": 100, "stuck_rule": "draw"},
        {"rule_set": "classic", "seats": 7, "target": 100},
    ):
        with pytest.raises(ConfigError):
            GameConfig.from_dict(broken)


def test_a_deal_that_does_not_fit_the_config_is_a_config_error() -> None:
    hands, rest = TWO_SEATS.hands, TWO_SEATS.set_aside
    broken_deals = [
        # Three hands for two seats.
        Deal((*hands, 0), rest, -1, 0, tile("66")),
        # A tile both in a hand and set aside.
        Deal(hands, rest | hand("66"), -1, 0, tile("66")),
        # A tile missing.
        Deal(hands, rest & ~hand("55"), -1, 0, tile("66")),
        # A starting tile in the classic rules.
        Deal(hands, rest & ~hand("55"), tile("55"), 0, tile("66")),
        # The leader out of range, or not holding the lead tile.
        Deal(hands, rest, -1, 2, tile("66")),
        Deal(hands, rest, -1, 1, tile("66")),
    ]
    for deal in broken_deals:
        with pytest.raises(ConfigError):
            Game(CLASSIC_2, deal)
    with pytest.raises(ConfigError):
        Game(CLASSIC_4, TWO_SEATS)


def test_starting_a_round_from_a_broken_deal_changes_nothing() -> None:
    game = finished_two_seat_game()
    before = game.replay_key()
    broken = Deal(TWO_SEATS.hands, TWO_SEATS.set_aside | hand("66"), -1, 0, -1)
    with pytest.raises(ConfigError):
        game.start_round(broken)
    assert game.replay_key() == before
    assert game.round_number == 1


def test_a_deal_naming_a_tile_beyond_the_set_is_a_config_error() -> None:
    # Tile ids run 0..27. Today Deal.validate indexes BIT[28] and raises IndexError.
    for lead_tile in (28, 99):
        deal = Deal(TWO_SEATS.hands, TWO_SEATS.set_aside, -1, 0, lead_tile)
        with pytest.raises(ConfigError):
            Game(CLASSIC_2, deal)
    discards = STUCK_LEADER
    beyond = Deal(discards.hands, discards.set_aside, 28, 0, -1)
    with pytest.raises(ConfigError):
        Game(DISCARDS_4, beyond)


def test_a_hand_built_move_is_recorded_so_that_the_game_replays() -> None:
    # The engine stores `move.code`; a move built field by field must store its own code.
    game = Game(CLASSIC_2, TWO_SEATS)
    play_out(game, "R66")
    game.apply(1, Move(MoveKind.PLAY, tile("64")))
    assert game.round.moves[-1] == Move.parse("R64").code
    restored = game_from_json(game_to_json(game))
    assert restored.replay_key() == game.replay_key()
