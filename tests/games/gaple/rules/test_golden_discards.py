"""Golden hand-dealt rounds for the rules with discards, one or more per rule id D1-D8."""

from __future__ import annotations

import random

import pytest

from gaple_bot.games.gaple.rules import (
    PASS,
    ConfigError,
    Deal,
    Discarded,
    EndReason,
    Game,
    GameConfig,
    IllegalMoveError,
    Move,
    Passed,
    Played,
    RoundEnded,
    RuleSet,
    Side,
    StuckRule,
    deal_round,
    game_winner,
)

from .hand_dealt import (
    DISCARDS_4,
    DISCARDS_4_PASS,
    DISCARDS_5,
    discards_deal,
    hand,
    move_texts,
    play_out,
    texts_of,
    tile,
)

# Start [6|6]; seat 0 leads with [6|5], seat 1 answers [5|4], and seat 2 holds [6|4], which
# fits both ends (6, 4).
BOTH_ENDS_HANDS = (
    "65 00 01 02 03 11",
    "54 12 13 14 22 23",
    "64 44 24 34 25 33",
    "60 61 62 63 04 15",
)
BOTH_ENDS = discards_deal(*BOTH_ENDS_HANDS, start="66", leader=0)

# Start [6|6]; the leader, seat 0, holds no 6 and is stuck on its first turn.
STUCK_LEADER = discards_deal(
    "00 01 02 03 04 05",
    "65 64 11 12 13 14",
    "63 62 15 22 23 24",
    "61 60 25 33 34 35",
    start="66",
    leader=0,
)

# A full round under the discard rule that ends with counts 0, 10, 15 and 30 (D7's example).
COUNTS_0_10_15_30_HANDS = (
    "00 20 50 60 51 54",
    "30 40 41 44 64 66",
    "11 32 62 43 63 65",
    "21 31 61 22 42 53",
)
COUNTS_0_10_15_30 = discards_deal(*COUNTS_0_10_15_30_HANDS, start="55", leader=3)
COUNTS_0_10_15_30_MOVES = (
    "R53 L50 L40 L43 R31 R51 L30 R65 R61 L00 R41 D62 R42 L20 D64 R32 L22 D60 D66 R63 L21"
)

# Start [3|2]; seven plays put every 2 out of the hands; seats 1 and 2 tie on 27 with four
# tiles each.
TIED_LOWEST = discards_deal(
    "10 31 43 64 55 65",
    "00 20 11 51 54 66",
    "60 21 61 42 33 53",
    "30 40 50 41 63 44",
    start="32",
    leader=0,
)
TIED_LOWEST_MOVES = "R43 L20 R42 L30 L31 L11 L21"

# Start [4|2]; seat 0 is stuck on its last turn and goes out by discarding [6|1].
DISCARDED_OUT = discards_deal(
    "31 61 22 52 62 65",
    "10 40 50 11 44 55",
    "00 60 43 54 64 66",
    "20 30 41 51 53 63",
    start="42",
    leader=0,
)
DISCARDED_OUT_MOVES = (
    "L62 R40 L60 R20 R22 L10 D64 L41 R52 L44 L43 R53 R31 R11 D00 R51 R65 D55 R66 R63 D61"
)


def test_D1_four_seats_get_six_tiles_one_turned_up_three_set_aside() -> None:
    assert DISCARDS_4.hand_size == 6
    for seed in range(20):
        deal = deal_round(DISCARDS_4, random.Random(seed), None)
        assert [h.bit_count() for h in deal.hands] == [6, 6, 6, 6]
        assert deal.set_aside.bit_count() == 3
        assert 0 <= deal.start < 28
        assert not deal.set_aside >> deal.start & 1
        deal.validate(DISCARDS_4)


def test_D1_five_seats_get_five_tiles_one_turned_up_two_set_aside() -> None:
    assert DISCARDS_5.hand_size == 5
    for seed in range(20):
        deal = deal_round(DISCARDS_5, random.Random(seed), None)
        assert [h.bit_count() for h in deal.hands] == [5] * 5
        assert deal.set_aside.bit_count() == 2
        assert 0 <= deal.start < 28
        deal.validate(DISCARDS_5)


def test_D1_the_starting_tile_opens_the_line_face_up() -> None:
    deal = DISCARDED_OUT
    assert texts_of(deal.set_aside) == {"21", "32", "33"}
    game = Game(DISCARDS_4, deal)
    assert game.round.line == [(2, 4)]
    assert game.round.ends == (2, 4)
    view = game.seat_view(1)
    assert view.start == tile("42")
    assert view.line == ((2, 4),)


def test_D1_only_four_or_five_seats_and_a_starting_tile_make_a_deal() -> None:
    for seats in (2, 3, 6):
        with pytest.raises(ConfigError):
            GameConfig(RuleSet.DISCARDS, seats)
    no_start = Deal(BOTH_ENDS.hands, BOTH_ENDS.set_aside | 1 << BOTH_ENDS.start, -1, 0, -1)
    with pytest.raises(ConfigError):
        Game(DISCARDS_4, no_start)
    with pytest.raises(ConfigError):
        Game(DISCARDS_5, BOTH_ENDS)


def test_D1_five_seats_blocked_round_with_the_start_and_two_set_aside() -> None:
    deal = discards_deal(
        "10 31 51 22 65",
        "50 60 52 33 66",
        "00 40 11 63 54",
        "20 43 53 44 55",
        "30 41 61 42 64",
        start="62",
        leader=4,
    )
    assert texts_of(deal.set_aside) == {"21", "32"}
    game = Game(DISCARDS_5, deal)
    assert move_texts(game.legal_moves()) == {"L42", "R64", "R61"}
    events = play_out(game, "L42 R65 R52 L40 L20 D61 R22")
    assert events[5] == Discarded(4, (2, 2))
    # Every 2 is on the line or set aside ([2|1], [3|2]); seat 4's count includes [6|1].
    assert game.round.ends == (2, 2)
    assert events[-1] == RoundEnded(EndReason.BLOCKED, 0, (11, 29, 20, 33, 25), (63, 4, 27, 0, 12))


def test_D2_the_first_leader_is_drawn_at_random() -> None:
    for config in (DISCARDS_4, DISCARDS_5):
        leaders = {deal_round(config, random.Random(seed), None).leader for seed in range(60)}
        assert leaders == set(range(config.seats))
        deal = deal_round(config, random.Random(1), None)
        assert deal.lead_tile == -1


def test_D2_the_leader_plays_onto_the_starting_tile() -> None:
    game = Game(DISCARDS_4, BOTH_ENDS)
    assert game.to_move == 0
    # Only [6|5] fits the start [6|6], and equal ends make it one move (C7 via D3).
    assert game.legal_moves() == [Move.parse("R65")]
    events = play_out(game, "R65")
    assert events == [Played(0, tile("65"), Side.RIGHT, (6, 6))]
    assert game.round.line == [(6, 6), (6, 5)]


def test_D2_a_leader_who_cannot_play_onto_the_start_is_stuck() -> None:
    game = Game(DISCARDS_4, STUCK_LEADER)
    assert move_texts(game.legal_moves()) == {"D00", "D10", "D20", "D30", "D40", "D50"}
    passing = Game(DISCARDS_4_PASS, STUCK_LEADER)
    assert passing.legal_moves() == [PASS]


def test_D2_later_rounds_are_led_by_the_previous_winner() -> None:
    game = Game(DISCARDS_4, TIED_LOWEST)
    play_out(game, TIED_LOWEST_MOVES)
    assert game.round.result is not None and game.round.result.winner == 1
    for seed in range(5):
        deal = game.next_deal(random.Random(seed))
        assert (deal.leader, deal.lead_tile) == (1, -1)
        assert deal.start >= 0


def test_D3_a_tile_fitting_both_different_ends_is_two_moves() -> None:
    game = Game(DISCARDS_4, BOTH_ENDS)
    play_out(game, "R65 R54")
    assert game.round.ends == (6, 4)
    assert move_texts(game.legal_moves()) == {"L64", "R64", "R44", "R42", "R43"}
    at_left = Game(DISCARDS_4, BOTH_ENDS)
    play_out(at_left, "R65 R54 L64")
    assert at_left.round.line == [(4, 6), (6, 6), (6, 5), (5, 4)]
    assert at_left.round.ends == (4, 4)
    # Equal ends: seat 3's [4|0] is one move, on the right.
    assert at_left.legal_moves() == [Move.parse("R40")]
    with pytest.raises(IllegalMoveError):
        at_left.apply(3, Move.parse("L40"))


def test_D3_a_double_goes_in_line_and_keeps_its_end() -> None:
    game = Game(DISCARDS_4, BOTH_ENDS)
    events = play_out(game, "R65 R54 R44")
    assert events[-1] == Played(2, tile("44"), Side.RIGHT, (6, 4))
    assert game.round.line == [(6, 6), (6, 5), (5, 4), (4, 4)]
    assert game.round.ends == (6, 4)


def test_D4_a_stuck_player_discards_one_tile_face_down() -> None:
    game = Game(DISCARDS_4, STUCK_LEADER)
    with pytest.raises(IllegalMoveError):
        game.apply(0, PASS)
    events = play_out(game, "D50")
    # The public event names the seat and the ends, never the tile.
    assert events == [Discarded(0, (6, 6))]
    assert game.round.hands[0] == hand("00 01 02 03 04")
    assert game.round.discards[0] == hand("50")
    assert game.round.line == [(6, 6)]
    assert game.to_move == 1
    own = game.seat_view(0)
    other = game.seat_view(1)
    assert own.own_discards == hand("50")
    assert other.own_discards == 0
    assert other.discard_counts == (1, 0, 0, 0)
    assert other.hand_counts == (5, 6, 6, 6)


def test_D4_a_discarded_tile_still_counts_against_its_player() -> None:
    game = Game(DISCARDS_4, COUNTS_0_10_15_30)
    play_out(game, COUNTS_0_10_15_30_MOVES)
    # Seat 1 keeps [4|4] (8) and discarded [6|4] and [6|6] (22): its count is 30.
    assert game.round.hands[1] == hand("44")
    assert game.round.discards[1] == hand("64 66")
    assert game.round.result is not None
    assert game.round.result.counts[1] == 30


def test_D4_pass_instead_a_stuck_player_passes_and_keeps_the_tiles() -> None:
    game = Game(DISCARDS_4_PASS, STUCK_LEADER)
    with pytest.raises(IllegalMoveError):
        game.apply(0, Move.parse("D50"))
    events = play_out(game, "P")
    assert events == [Passed(0, (6, 6))]
    assert game.round.hands[0] == hand("00 01 02 03 04 05")
    assert game.round.discards == [0, 0, 0, 0]
    assert move_texts(game.legal_moves()) == {"R65", "R64"}


def test_D4_pass_instead_is_the_chats_choice_only_under_the_discard_rules() -> None:
    assert DISCARDS_4.discards_when_stuck
    assert not DISCARDS_4_PASS.discards_when_stuck
    assert not GameConfig(RuleSet.CLASSIC, 4, stuck_rule=StuckRule.DISCARD).discards_when_stuck


def test_D5_the_round_ends_when_a_player_plays_the_last_tile() -> None:
    game = Game(DISCARDS_4, COUNTS_0_10_15_30)
    events = play_out(game, COUNTS_0_10_15_30_MOVES)
    assert events[-2] == Played(3, tile("21"), Side.LEFT, (2, 6))
    assert isinstance(events[-1], RoundEnded)
    assert events[-1].reason is EndReason.GAPLE
    assert game.round.hands[3] == 0


def test_D5_the_round_ends_when_a_player_discards_the_last_tile() -> None:
    game = Game(DISCARDS_4, DISCARDED_OUT)
    events = play_out(game, DISCARDED_OUT_MOVES)
    assert events[-2] == Discarded(0, (3, 3))
    assert game.round.hands[0] == 0
    # Seat 0 went out by discarding [6|1], its only tile left (count 7).
    assert events[-1] == RoundEnded(EndReason.DISCARDED_OUT, 3, (7, 15, 19, 3), (20, 4, 0, 32))


def test_D5_the_round_ends_when_no_tile_in_any_hand_fits() -> None:
    game = Game(DISCARDS_4, TIED_LOWEST)
    events = play_out(game, TIED_LOWEST_MOVES)
    assert game.round.ends == (2, 2)
    # Every 2 is on the line or set aside ([2|2], [5|2], [6|2]).
    assert texts_of(TIED_LOWEST.set_aside) == {"22", "52", "62"}
    assert isinstance(events[-1], RoundEnded)
    assert events[-1].reason is EndReason.BLOCKED
    assert game.legal_moves() == []


def test_D6_a_player_who_went_out_can_lose_on_count() -> None:
    deal = discards_deal(
        "00 30 40 11 43 53",
        "31 51 32 62 54 65",
        "20 21 52 33 44 64",
        "10 50 41 42 55 66",
        start="22",
        leader=3,
    )
    game = Game(DISCARDS_4, deal)
    moves = "R42 R40 L62 R20 L66 D00 L65 L52 D50 D11 R32 L21 L10 R53 R54 R64 D55 L30 L31 D44 L41"
    events = play_out(game, moves)
    assert events[-2] == Played(3, tile("41"), Side.LEFT, (1, 6))
    # Seat 3 went out but discarded [5|0] and [5|5] (15); seat 1 keeps only [5|1] (6).
    assert game.round.discards[3] == hand("50 55")
    assert events[-1] == RoundEnded(EndReason.GAPLE, 1, (9, 6, 14, 15), (11, 20, 1, 0))


def test_D6_a_player_who_discarded_out_can_lose_on_count() -> None:
    game = Game(DISCARDS_4, DISCARDED_OUT)
    play_out(game, DISCARDED_OUT_MOVES)
    # Seat 0 discarded [6|1] (7) to go out; seat 3 keeps [3|0] (3) and wins.
    assert game.round.hands[3] == hand("30")
    assert game.round.result is not None
    assert (game.round.result.winner, game.round.result.counts[0]) == (3, 7)


def test_D6_ties_count_discarded_tiles_as_held() -> None:
    deal = discards_deal(
        "40 60 51 62 55 66",
        "10 11 41 22 52 63",
        "20 30 32 33 44 64",
        "00 50 21 61 54 65",
        start="42",
        leader=2,
    )
    game = Game(DISCARDS_4, deal)
    events = play_out(game, "R44 L21 L51 R41 D30 L54 L40 L10 D32 R61 R66 L11 R64")
    # Seats 2 and 3 both count 16. Seat 2 holds two tiles but discarded two more (four held);
    # seat 3 holds three and discarded none, so seat 3 has fewer tiles and wins.
    assert game.round.hands[2] == hand("20 33")
    assert game.round.discards[2] == hand("30 32")
    assert game.round.hands[3] == hand("00 50 65")
    assert game.round.discards[3] == 0
    assert events[-1] == RoundEnded(EndReason.BLOCKED, 3, (24, 20, 16, 16), (0, 4, 12, 12))


def test_D6_equal_counts_and_tile_counts_go_to_the_lighter_lightest_tile() -> None:
    game = Game(DISCARDS_4, TIED_LOWEST)
    play_out(game, TIED_LOWEST_MOVES)
    # Seats 1 and 2 both hold four tiles worth 27; seat 1's [0|0] beats seat 2's [6|0].
    assert game.round.hands[1] == hand("00 51 54 66")
    assert game.round.hands[2] == hand("60 61 33 53")
    assert game.round.result is not None
    assert game.round.result.winner == 1


def test_D7_counts_0_10_15_30_score_55_25_15_0() -> None:
    game = Game(DISCARDS_4, COUNTS_0_10_15_30)
    events = play_out(game, COUNTS_0_10_15_30_MOVES)
    # Seat 0: [5|4] + discarded [6|0] = 15; seat 1: 30; seat 2: [1|1] + [6|2] = 10; seat 3: 0.
    assert events[-1] == RoundEnded(EndReason.GAPLE, 3, (15, 30, 10, 0), (15, 0, 25, 55))
    assert game.scores == [15, 0, 25, 55]


def test_D7_equal_counts_score_the_same_and_nothing_from_each_other() -> None:
    game = Game(DISCARDS_4, TIED_LOWEST)
    play_out(game, TIED_LOWEST_MOVES)
    # Counts 32, 27, 27, 31: 27 scores (32-27) + (31-27) = 9 twice, 31 scores 1.
    assert game.scores == [0, 9, 9, 1]


def test_D8_a_tie_on_the_highest_totals_plays_on() -> None:
    game = Game(GameConfig(RuleSet.DISCARDS, 4, target=1), TIED_LOWEST)
    play_out(game, TIED_LOWEST_MOVES)
    # Three seats reached the target, but the highest totals (9 and 9) are equal.
    assert game.scores == [0, 9, 9, 1]
    assert game.winner is None and not game.is_over
    deal = game.next_deal(random.Random(0))
    assert deal.leader == 1
    # D6: the round's winner, seat 1, leads the next one: D7's round with every hand moved
    # two seats on, so that its leader is seat 1.
    hands = COUNTS_0_10_15_30_HANDS[2:] + COUNTS_0_10_15_30_HANDS[:2]
    game.start_round(discards_deal(*hands, start="55", leader=1))
    play_out(game, COUNTS_0_10_15_30_MOVES)
    assert game.scores == [25, 64, 24, 1]
    assert game.winner == 1 and game.is_over


def test_D8_when_several_reach_the_target_the_highest_total_wins() -> None:
    game = Game(GameConfig(RuleSet.DISCARDS, 4, target=20), COUNTS_0_10_15_30)
    play_out(game, COUNTS_0_10_15_30_MOVES)
    # Seats 2 (25) and 3 (55) both reached 20.
    assert game.scores == [15, 0, 25, 55]
    assert game.winner == 3


def test_D8_game_winner_needs_a_single_highest_total_at_or_over_the_target() -> None:
    assert game_winner([99, 0, 0, 0], 100) is None
    assert game_winner([100, 0, 0, 0], 100) == 0
    assert game_winner([120, 130, 0, 0], 100) == 1
    assert game_winner([130, 130, 0, 0], 100) is None
    assert game_winner([130, 130, 140, 0], 100) == 2
    assert game_winner([101, 130, 130, 120, 0], 100) is None
