"""Golden hand-dealt rounds for the classic rules, one or more per rule id C1-C13."""

from __future__ import annotations

import random

import pytest

from gaple_bot.games.gaple.rules import (
    PASS,
    TILE_COUNT,
    TILES,
    ConfigError,
    Deal,
    EndReason,
    Game,
    GameConfig,
    GameOverError,
    IllegalMoveError,
    Move,
    Passed,
    Played,
    RoundEnded,
    RuleSet,
    Side,
    deal_round,
    first_lead,
    pips,
    tile_id,
    tile_text,
)
from gaple_bot.games.gaple.rules.tiles import FULL_SET

from .hand_dealt import (
    CLASSIC_2,
    CLASSIC_3,
    CLASSIC_4,
    classic_deal,
    hand,
    move_texts,
    play_out,
    texts_of,
    the_rest,
    tile,
)

# Two seats: [6|6] leads, [6|5] answers, and the line (6, 5) is blocked although the set-aside
# tiles hold every other 6 and 5: they are not in a hand (C2, C11a).
TWO_SEATS_BLOCKED_BY_SET_ASIDE = classic_deal(
    "66 00 01 02 03 04 11",
    "65 12 13 14 22 23 24",
    leader=0,
    lead="66",
)

# Three seats: every other 6 is set aside, so leading [6|6] blocks the line at once.
THREE_SEATS_BLOCKED_AT_THE_LEAD = classic_deal(
    "66 00 01 02 03 04 05",
    "11 12 13 14 15 22 23",
    "24 25 33 34 35 44 45",
    leader=0,
    lead="66",
)

# Four seats, every tile dealt: ten plays put all seven 6s on the line with both ends 6.
FOUR_SEAT_HANDS = (
    "66 61 32 00 01 02 11",
    "64 05 26 03 04 12 13",
    "60 56 15 22 24 25 33",
    "41 63 34 35 44 45 55",
)
FOUR_SEATS_ALL_SIXES_OUT = classic_deal(*FOUR_SEAT_HANDS, leader=0, lead="66")
ALL_SIXES_OUT_MOVES = "R66 R64 L60 R41 R16 L05 L56 R63 R32 R26"

# Two seats: seat 0 holds the seven doubles and goes out on [0|0]; seat 1 keeps [6|2].
DOUBLES_MOVES = "R66 R65 R55 R54 R44 R43 R33 R32 R22 R21 R11 R10 R00"


def doubles_deal(last_tile_of_seat_1: str) -> Deal:
    """Seat 0 holds every double; seat 1 the chain 65 54 43 32 21 10 and one more tile."""
    return classic_deal(
        "66 55 44 33 22 11 00",
        f"65 54 43 32 21 10 {last_tile_of_seat_1}",
        leader=0,
        lead="66",
    )


def c7_position() -> Game:
    """Two seats after [6|6], [6|4], [4|3]: ends (6, 3), seat 1 to move holding [6|3] and [3|1]."""
    game = Game(
        CLASSIC_2,
        classic_deal("66 43 62 02 04 14 24", "64 63 00 01 11 13 22", leader=0, lead="66"),
    )
    play_out(game, "R66 R64 R43")
    return game


def test_C1_the_set_is_every_pair_from_blank_to_six_once() -> None:
    assert TILE_COUNT == 28
    assert sorted(TILES) == [(a, b) for a in range(7) for b in range(a, 7)]
    assert len(set(TILES)) == 28
    assert tile_id(3, 6) == tile_id(6, 3)
    assert tile_text(tile_id(3, 6)) == "[6|3]"
    with pytest.raises(ValueError):
        tile_id(7, 0)


def test_C1_a_tiles_weight_is_the_sum_of_its_numbers() -> None:
    assert pips(hand("65")) == 11
    assert pips(hand("00")) == 0
    assert pips(hand("66 31")) == 16
    # Each number 0..6 appears eight times among the 56 halves: 8 * 21 = 168.
    assert pips(FULL_SET) == 168


def test_C1_a_deal_must_use_every_tile_exactly_once() -> None:
    twice = Deal((hand("66 00 01 02 03 04 05"), hand("66 11 12 13 14 15 16")), 0, -1, 0, -1)
    with pytest.raises(ConfigError):
        Game(CLASSIC_2, twice)
    full = TWO_SEATS_BLOCKED_BY_SET_ASIDE
    missing = Deal(full.hands, full.set_aside & ~hand("55"), -1, 0, tile("66"))
    with pytest.raises(ConfigError):
        Game(CLASSIC_2, missing)


def test_C2_two_three_and_four_seats_hold_seven_tiles_and_other_counts_are_refused() -> None:
    for seats in (2, 3, 4):
        assert GameConfig(RuleSet.CLASSIC, seats).hand_size == 7
    assert GameConfig().seats == 4
    assert GameConfig().rule_set is RuleSet.CLASSIC
    for seats in (0, 1, 5, 6):
        with pytest.raises(ConfigError):
            GameConfig(RuleSet.CLASSIC, seats)


def test_C2_two_seats_set_aside_tiles_neither_unblock_the_line_nor_score() -> None:
    game = Game(CLASSIC_2, TWO_SEATS_BLOCKED_BY_SET_ASIDE)
    set_aside = TWO_SEATS_BLOCKED_BY_SET_ASIDE.set_aside
    assert set_aside.bit_count() == 14
    # Every other 6 and 5 lies face down, so both ends are still matched by set-aside tiles.
    assert texts_of(set_aside) >= {"60", "61", "62", "63", "64", "50", "51", "52", "53", "54"}
    events = play_out(game, "R66 R65")
    # Seat 0 keeps 0+1+2+3+4+2 = 12, seat 1 keeps 3+4+5+4+5+6 = 27.
    assert events == [
        Played(0, tile("66"), Side.RIGHT, None),
        Played(1, tile("65"), Side.RIGHT, (6, 6)),
        RoundEnded(EndReason.BLOCKED, 0, (12, 27), (27, 0)),
    ]
    assert game.round.ends == (6, 5)
    assert game.scores == [27, 0]


def test_C2_three_seats_set_aside_tiles_neither_unblock_the_line_nor_score() -> None:
    game = Game(CLASSIC_3, THREE_SEATS_BLOCKED_AT_THE_LEAD)
    set_aside = THREE_SEATS_BLOCKED_AT_THE_LEAD.set_aside
    assert texts_of(set_aside) == {"60", "61", "62", "63", "64", "65", "55"}
    events = play_out(game, "R66")
    # Counts 15, 29 and 51; the 61 pips set aside are nobody's.
    assert events[-1] == RoundEnded(EndReason.BLOCKED, 0, (15, 29, 51), (80, 0, 0))
    assert game.round.line == [(6, 6)]
    assert game.to_move is None


def test_C3_every_seat_is_dealt_seven_tiles_from_a_shuffled_set() -> None:
    for seats in (2, 3, 4):
        config = GameConfig(RuleSet.CLASSIC, seats)
        deals = [deal_round(config, random.Random(seed), None) for seed in range(20)]
        for deal in deals:
            assert [h.bit_count() for h in deal.hands] == [7] * seats
            assert deal.set_aside.bit_count() == 28 - 7 * seats
            assert deal.start == -1
            deal.validate(config)
        # The shuffle comes from the random source: different seeds give different hands.
        assert len({deal.hands for deal in deals}) == 20
        again = deal_round(config, random.Random(3), None)
        assert again == deals[3]


def test_C3_a_hand_of_another_size_is_refused() -> None:
    six_and_eight = (hand("66 00 01 02 03 04"), hand("11 12 13 14 15 16 22 23"))
    deal = Deal(six_and_eight, the_rest(*six_and_eight), -1, 0, tile("66"))
    with pytest.raises(ConfigError):
        Game(CLASSIC_2, deal)


def test_C4_the_holder_of_double_six_leads_it_and_no_other_tile() -> None:
    assert first_lead(FOUR_SEATS_ALL_SIXES_OUT.hands) == (0, tile("66"))
    rotated = FOUR_SEATS_ALL_SIXES_OUT.hands[2:] + FOUR_SEATS_ALL_SIXES_OUT.hands[:2]
    assert first_lead(rotated) == (2, tile("66"))
    game = Game(CLASSIC_4, FOUR_SEATS_ALL_SIXES_OUT)
    assert game.to_move == 0
    assert move_texts(game.legal_moves()) == {"R66"}
    before = game.replay_key()
    for other in ("R61", "R32", "R00", "L66"):
        with pytest.raises(IllegalMoveError):
            game.apply(0, Move.parse(other))
    assert game.replay_key() == before


def test_C4_a_fresh_game_is_led_by_the_double_six_holder() -> None:
    for seed in range(30):
        deal = Game.new(CLASSIC_4, random.Random(seed)).round.deal
        assert deal.lead_tile == tile("66")
        assert deal.hands[deal.leader] >> tile("66") & 1


def test_C4_without_double_six_the_highest_double_leads() -> None:
    # [6|6] is set aside; seat 0 holds [4|4] and [0|0], seat 1 holds [5|5] and lower doubles.
    deal = classic_deal("44 00 01 02 03 12 13", "55 11 14 22 23 24 33", leader=1, lead="55")
    assert deal.set_aside >> tile("66") & 1
    assert first_lead(deal.hands) == (1, tile("55"))
    game = Game(CLASSIC_2, deal)
    assert move_texts(game.legal_moves()) == {"R55"}
    with pytest.raises(IllegalMoveError):
        game.apply(1, Move.parse("R33"))


def test_C4_without_a_double_the_heaviest_tile_leads_weight_then_higher_end() -> None:
    # All doubles, [6|5] and [6|4] are set aside; [5|4] and [6|3] both weigh 9: the 6 decides.
    deal = classic_deal("54 01 02 03 12 13 14", "63 04 05 15 23 24 25", leader=1, lead="63")
    assert first_lead(deal.hands) == (1, tile("63"))
    swapped = (deal.hands[1], deal.hands[0])
    assert first_lead(swapped) == (0, tile("63"))
    game = Game(CLASSIC_2, deal)
    assert move_texts(game.legal_moves()) == {"R63"}


def test_C5_the_previous_winner_leads_any_tile_of_the_next_round() -> None:
    game = Game(CLASSIC_2, TWO_SEATS_BLOCKED_BY_SET_ASIDE)
    play_out(game, "R66 R65")
    assert game.round.result is not None and game.round.result.winner == 0
    next_deal = game.next_deal(random.Random(11))
    assert (next_deal.leader, next_deal.lead_tile) == (0, -1)
    game.start_round(next_deal)
    assert game.round_number == 2
    assert game.to_move == 0
    # Any tile of the leader's hand may open the line.
    leader_hand = next_deal.hands[0]
    assert move_texts(game.legal_moves()) == {"R" + text for text in texts_of(leader_hand)}


def test_C5_a_hand_dealt_later_round_lets_the_leader_choose_its_lead() -> None:
    game = Game(CLASSIC_2, TWO_SEATS_BLOCKED_BY_SET_ASIDE)
    play_out(game, "R66 R65")
    game.start_round(
        classic_deal("65 12 13 14 22 23 24", "66 00 01 02 03 04 11", leader=0, lead=None)
    )
    assert move_texts(game.legal_moves()) == {"R65", "R21", "R31", "R41", "R22", "R32", "R42"}
    events = play_out(game, "R22")
    assert events == [Played(0, tile("22"), Side.RIGHT, None)]
    assert game.round.ends == (2, 2)


def test_C6_turns_go_round_in_seat_order_after_the_leader_wrapping() -> None:
    hands = FOUR_SEAT_HANDS[2:] + FOUR_SEAT_HANDS[:2]
    game = Game(CLASSIC_4, classic_deal(*hands, leader=2, lead="66"))
    seats_to_move = []
    for text in ALL_SIXES_OUT_MOVES.split():
        assert game.to_move is not None
        seats_to_move.append(game.to_move)
        game.apply(game.to_move, Move.parse(text))
    assert seats_to_move == [2, 3, 0, 1, 2, 3, 0, 1, 2, 3]
    assert game.round.result == RoundEnded(EndReason.BLOCKED, 2, (29, 42, 5, 14), (0, 0, 85, 0))


def test_C7_a_play_matches_an_end_and_its_other_number_becomes_that_end() -> None:
    game = Game(
        CLASSIC_2, classic_deal("66 43 62 02 04 14 24", "64 63 00 01 11 13 22", leader=0, lead="66")
    )
    events = play_out(game, "R66 R64")
    assert events[-1] == Played(1, tile("64"), Side.RIGHT, (6, 6))
    assert game.round.ends == (6, 4)
    # Seat 0 may play [6|2] on the 6 or any tile with a 4 on the 4.
    assert move_texts(game.legal_moves()) == {"L62", "R43", "R40", "R41", "R42"}
    play_out(game, "L62")
    assert game.round.line == [(2, 6), (6, 6), (6, 4)]
    assert game.round.ends == (2, 4)


def test_C7_a_tile_fitting_both_different_ends_is_two_moves() -> None:
    game = c7_position()
    assert game.round.ends == (6, 3)
    assert move_texts(game.legal_moves()) == {"L63", "R63", "R31"}
    at_left = c7_position()
    play_out(at_left, "L63")
    assert at_left.round.line == [(3, 6), (6, 6), (6, 4), (4, 3)]
    assert at_left.round.ends == (3, 3)
    at_right = c7_position()
    events = play_out(at_right, "R63")
    assert events == [Played(1, tile("63"), Side.RIGHT, (6, 3))]
    assert at_right.round.line == [(6, 6), (6, 4), (4, 3), (3, 6)]
    assert at_right.round.ends == (6, 6)


def test_C7_equal_ends_make_one_move_placed_on_the_right() -> None:
    game = c7_position()
    play_out(game, "R63")
    assert game.round.ends == (6, 6)
    assert game.legal_moves() == [Move.parse("R62")]
    before = game.replay_key()
    with pytest.raises(IllegalMoveError):
        game.apply(0, Move.parse("L62"))
    assert game.replay_key() == before
    play_out(game, "R62")
    assert game.round.line == [(6, 6), (6, 4), (4, 3), (3, 6), (6, 2)]
    assert game.round.ends == (6, 2)


def test_C8_a_double_goes_in_line_and_its_end_keeps_its_number() -> None:
    game = Game(
        CLASSIC_2, classic_deal("66 44 00 01 02 03 05", "64 41 11 12 13 22 23", leader=0, lead="66")
    )
    play_out(game, "R66 R64")
    assert game.legal_moves() == [Move.parse("R44")]
    events = play_out(game, "R44")
    assert events == [Played(0, tile("44"), Side.RIGHT, (6, 4))]
    assert game.round.line == [(6, 6), (6, 4), (4, 4)]
    # No spinner: the line still has exactly two open ends.
    assert game.round.ends == (6, 4)
    assert move_texts(game.legal_moves()) == {"R41"}
    play_out(game, "R41")
    assert game.round.ends == (6, 1)


def test_C9_a_player_with_a_playable_tile_may_not_pass() -> None:
    game = c7_position()
    before = game.replay_key()
    with pytest.raises(IllegalMoveError):
        game.apply(1, PASS)
    assert game.replay_key() == before


def test_C9_a_player_with_no_playable_tile_passes_and_draws_nothing() -> None:
    game = c7_position()
    play_out(game, "L63")
    # Ends (3, 3): seat 0 holds [6|2] [2|0] [4|0] [4|1] [4|2], none with a 3.
    assert game.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError):
        game.apply(0, Move.parse("R62"))
    events = play_out(game, "P")
    assert events == [Passed(0, (3, 3))]
    assert [h.bit_count() for h in game.round.hands] == [5, 5]
    assert game.to_move == 1
    assert move_texts(game.legal_moves()) == {"R31"}


def test_C10_playing_the_last_tile_wins_the_round() -> None:
    game = Game(CLASSIC_2, doubles_deal("62"))
    events = play_out(game, DOUBLES_MOVES)
    # Seat 1 still holds [6|2], which fits the 6 end: the round ends by gaple, not by a block.
    assert events[-2:] == [
        Played(0, tile("00"), Side.RIGHT, (6, 0)),
        RoundEnded(EndReason.GAPLE, 0, (0, 8), (8, 0)),
    ]
    assert game.round.hands == [0, hand("62")]
    assert game.legal_moves() == []


def test_C11_a_blocked_round_goes_to_the_lowest_pip_total() -> None:
    # Every other 6 is set aside: the lead blocks the line. Seat 1 (17) beats the leader (48).
    deal = classic_deal("66 55 45 44 35 34 33", "00 01 02 03 04 05 11", leader=0, lead="66")
    game = Game(CLASSIC_2, deal)
    events = play_out(game, "R66")
    assert events[-1] == RoundEnded(EndReason.BLOCKED, 1, (48, 17), (0, 48))


def test_C11_four_seats_blocked_when_every_six_is_on_the_line() -> None:
    game = Game(CLASSIC_4, FOUR_SEATS_ALL_SIXES_OUT)
    events = play_out(game, ALL_SIXES_OUT_MOVES)
    assert game.round.line == [
        (6, 5),
        (5, 0),
        (0, 6),
        (6, 6),
        (6, 4),
        (4, 1),
        (1, 6),
        (6, 3),
        (3, 2),
        (2, 6),
    ]
    assert game.round.ends == (6, 6)
    # Left in hand: 00 01 02 11 = 5; 03 04 12 13 = 14; 15 22 24 25 33 = 29; 34 35 44 45 55 = 42.
    assert events[-1] == RoundEnded(EndReason.BLOCKED, 0, (5, 14, 29, 42), (85, 0, 0, 0))


def test_C11_equal_totals_go_to_the_player_with_fewer_tiles() -> None:
    # After the blocking lead seat 0 holds six tiles worth 25, seat 1 seven tiles worth 25,
    # although seat 1 holds the lighter lightest tile [0|0].
    deal = classic_deal("66 11 12 13 15 22 24", "00 01 02 03 04 05 55", leader=0, lead="66")
    game = Game(CLASSIC_2, deal)
    events = play_out(game, "R66")
    assert events[-1] == RoundEnded(EndReason.BLOCKED, 0, (25, 25), (25, 0))


def test_C11_equal_totals_and_tile_counts_go_to_the_lighter_lightest_tile() -> None:
    # Both keep six tiles worth 27; seat 0's lightest is [1|0] (weight 1), seat 1's is [1|1] (2).
    deal = classic_deal("66 01 13 14 23 24 33", "65 11 44 34 03 12 04", leader=0, lead="66")
    game = Game(CLASSIC_2, deal)
    events = play_out(game, "R66 R65")
    assert events[-1] == RoundEnded(EndReason.BLOCKED, 0, (27, 27), (27, 0))


def test_C11_lightest_tiles_of_equal_weight_go_to_the_lower_end() -> None:
    # Both keep six tiles worth 27; the lightest are [1|1] and [2|0], both weight 2: 0 < 1.
    deal = classic_deal("66 11 44 34 03 12 04", "65 02 13 14 22 24 33", leader=0, lead="66")
    game = Game(CLASSIC_2, deal)
    events = play_out(game, "R66 R65")
    assert events[-1] == RoundEnded(EndReason.BLOCKED, 1, (27, 27), (0, 27))


def test_C11a_a_play_that_empties_the_hand_and_blocks_is_a_gaple() -> None:
    # Seat 1 keeps only [5|3]; after [0|0] the ends are (6, 0) and nothing in hand fits.
    game = Game(CLASSIC_2, doubles_deal("53"))
    events = play_out(game, DOUBLES_MOVES)
    assert game.round.ends == (6, 0)
    assert events[-1] == RoundEnded(EndReason.GAPLE, 0, (0, 8), (8, 0))


def test_C12_the_gaple_winner_scores_the_pips_left_in_every_other_hand() -> None:
    deal = classic_deal(
        "00 20 30 40 31 62 63",
        "10 50 51 61 43 54 66",
        "41 22 32 42 33 53 64",
        leader=1,
        lead="66",
    )
    game = Game(CLASSIC_3, deal)
    moves = "R66 R64 R40 L61 L41 R00 R10 L42 L20 L50 L53 L31 R51 P P R54 P P R43"
    events = play_out(game, moves)
    # Seat 0 keeps 30 62 63 = 20, seat 2 keeps 22 32 33 = 15: seat 1 scores 35.
    assert events[-1] == RoundEnded(EndReason.GAPLE, 1, (20, 0, 15), (0, 35, 0))
    assert game.scores == [0, 35, 0]


def test_C12_the_blocked_winner_scores_the_others_pips_not_the_difference() -> None:
    game = Game(CLASSIC_4, FOUR_SEATS_ALL_SIXES_OUT)
    play_out(game, ALL_SIXES_OUT_MOVES)
    # 14 + 29 + 42, the winner's own 5 pips are not subtracted; the others score nothing.
    assert game.scores == [85, 0, 0, 0]


def test_C13_scores_add_up_and_reaching_the_target_exactly_wins() -> None:
    game = Game(GameConfig(RuleSet.CLASSIC, 2, target=35), doubles_deal("62"))
    play_out(game, DOUBLES_MOVES)
    assert game.scores == [8, 0]
    assert game.winner is None and not game.is_over
    assert game.next_deal(random.Random(0)).leader == 0
    later = TWO_SEATS_BLOCKED_BY_SET_ASIDE
    game.start_round(Deal(later.hands, later.set_aside, -1, 0, -1))
    play_out(game, "R66 R65")
    assert game.scores == [35, 0]
    assert game.winner == 0 and game.is_over
    before = game.replay_key()
    with pytest.raises(GameOverError):
        game.next_round(random.Random(0))
    with pytest.raises(GameOverError):
        game.start_round(later)
    assert game.replay_key() == before


def test_C13_below_the_target_the_game_goes_on() -> None:
    game = Game(GameConfig(RuleSet.CLASSIC, 2, target=36), doubles_deal("62"))
    play_out(game, DOUBLES_MOVES)
    later = TWO_SEATS_BLOCKED_BY_SET_ASIDE
    game.start_round(Deal(later.hands, later.set_aside, -1, 0, -1))
    play_out(game, "R66 R65")
    assert game.scores == [35, 0]
    assert game.winner is None
    game.next_round(random.Random(5))
    assert game.round_number == 3
    assert game.to_move == 0


def test_C13_the_default_target_is_one_hundred() -> None:
    assert GameConfig().target == 100
    assert GameConfig(RuleSet.CLASSIC, 4, target=250).target == 250
