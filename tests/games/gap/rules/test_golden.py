"""Golden hand-dealt rounds of Gap, one or more per rule id G1-G6."""

from __future__ import annotations

import random

import pytest

from gaple_bot.games.gap.rules import (
    COLOURS,
    DEFAULT_TARGET,
    ConfigError,
    Deal,
    DealError,
    Game,
    GameOverError,
    GapConfig,
    IllegalMoveError,
    Move,
    Played,
    Refilled,
    Round,
    RoundEnded,
    RoundNotOverError,
    deal_round,
    deck,
    game_winners,
    score_collection,
    score_counts,
)

from .hand_dealt import card, cards, hand_deal, move_texts, play_out, texts

TWO = GapConfig(2)

# Two seats, twelve moves: an exact match of two, an exact match of one, a single neighbour, a
# card joining a full middle (five cards), a choice of three for one neighbour value, the wrap
# of 9 to 0 not used as 8-9 instead, and a final single neighbour. Scores 3 and 0.
FULL_ROUND = hand_deal(
    TWO,
    "R3 R8 G8 Y5 B1 R6",
    "Y2 B7 G0 Y4 B9 R5",
    middle="G3 B3 Y7 R9",
    pile="G6 B6 Y6 Y0",
)
FULL_ROUND_MOVES = "R3 B7 R8/-/R9 Y4 Y5/Y4/Y6 G0 G8 B9/G8/- B1 Y2 R6 R5/R4/-"

# Two seats where every move is an exact match of three: the pile (24 cards) is gone after
# eight moves, the ninth leaves one card in the middle, the tenth empties it, the eleventh card
# joins the empty middle and the twelfth takes it. Both collections are five of each colour.
DRAINED = hand_deal(
    TWO,
    "Y0 Y2 Y4 Y6 Y8 G9",
    "Y1 Y3 Y5 Y7 B9 Y9",
    middle="R0 G0 B0 R9",
    pile=" ".join(f"R{v} G{v} B{v}" for v in range(1, 9)),
)
DRAINED_MOVES = "Y0 Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 B9 G9 Y9"


def a_round(middle: str, *hands: str, pile: str = "") -> Round:
    """A two-seat round with these hands (the rest of each hand filled from unused cards)."""
    used = set(cards(middle)) | {c for text in hands for c in cards(text)} | set(cards(pile))
    spare = [c for c in TWO.deck if c not in used]
    full = []
    for text in (*hands, "", "")[:2]:
        mine = cards(text)
        while len(mine) < TWO.hand_size:
            mine.append(spare.pop())
        full.append(" ".join(texts([c]) for c in mine))
    return Round(TWO, hand_deal(TWO, *full, middle=middle, pile=pile))


def card_moves(current: Round, text: str) -> list[str]:
    """The texts of the legal moves that play the card `text`."""
    return move_texts(current.moves_of(card(text)))


# G1


def test_g1_deck_is_six_colours_by_ten_values_one_card_each() -> None:
    assert len(COLOURS) == 6
    assert deck(6) == tuple(range(60))
    assert card("R0") == 0 and card("G7") == 17 and card("O9") == 59
    assert len({c % 10 for c in deck(6)}) == 10


@pytest.mark.parametrize(
    ("seats", "colours"), [(2, 4), (3, 5), (4, 6), (5, 6), (6, 6)], ids=lambda n: str(n)
)
def test_g1_two_players_remove_two_colours_three_remove_one(seats: int, colours: int) -> None:
    config = GapConfig(seats)
    assert config.deck == tuple(range(colours * 10))
    dealt = deal_round(config, random.Random(seats), 0)
    every = [*(c for hand in dealt.hands for c in hand), *dealt.middle, *dealt.pile]
    assert sorted(every) == list(range(colours * 10))


def test_g1_a_deal_holding_a_removed_colour_is_refused() -> None:
    good = FULL_ROUND
    # The purple 0 (card 40) is out of a two-player game.
    bad = Deal(good.hands, good.middle, (*good.pile[:-1], card("P0")), 0)
    with pytest.raises(DealError):
        Round(TWO, bad)


# G2


def test_g2_the_target_is_30_by_default_and_chosen_before_the_game() -> None:
    assert DEFAULT_TARGET == 30
    assert GapConfig(4).target == 30
    assert GapConfig.from_dict({"seats": 4}).target == 30
    assert GapConfig.from_dict({"seats": 3, "target": 50}) == GapConfig(3, 50)
    for bad in (0, -5):
        with pytest.raises(ConfigError):
            GapConfig(4, bad)
    for seats in (1, 7):
        with pytest.raises(ConfigError):
            GapConfig(seats)


# G3


@pytest.mark.parametrize(("seats", "size"), [(2, 6), (3, 6), (4, 6), (5, 5), (6, 5)])
def test_g3_six_cards_each_up_to_four_players_five_beyond(seats: int, size: int) -> None:
    config = GapConfig(seats)
    assert config.hand_size == size
    dealt = deal_round(config, random.Random(7), 0)
    assert [len(hand) for hand in dealt.hands] == [size] * seats
    assert all(list(hand) == sorted(hand) for hand in dealt.hands)
    assert len(dealt.middle) == 4
    assert len(dealt.pile) == len(config.deck) - seats * size - 4


def test_g3_four_face_up_in_the_middle_the_rest_is_the_pile_and_hands_never_refill() -> None:
    current = Round(TWO, FULL_ROUND)
    assert texts(current.middle) == "G3 B3 Y7 R9"
    assert texts(current.pile[:4]) == "G6 B6 Y6 Y0"
    assert len(current.pile) == 24
    play_out(current, "R3")
    # The middle is refilled from the pile; the hand is not.
    assert texts(current.hands[0]) == "R6 R8 G8 B1 Y5"
    assert texts(current.middle) == "Y7 R9 G6 B6"
    assert len(current.pile) == 22


def test_g3_a_deal_with_a_wrong_hand_size_or_middle_is_refused() -> None:
    short_hand = Deal((FULL_ROUND.hands[0][:5], FULL_ROUND.hands[1]), (), (), 0)
    with pytest.raises(DealError):
        short_hand.validate(TWO)
    three = Deal(
        FULL_ROUND.hands, FULL_ROUND.middle[:3], (FULL_ROUND.middle[3], *FULL_ROUND.pile), 0
    )
    with pytest.raises(DealError):
        three.validate(TWO)


# G4


def test_g4_exact_match_takes_every_card_of_the_value() -> None:
    current = a_round("R3 G3 B5 Y7", "B3")
    assert card_moves(current, "B3") == ["B3"]
    events = play_out(current, "B3")
    assert events[0] == Played(0, card("B3"), tuple(cards("R3 G3")))
    # G4: the played card joins the collection with what it took.
    assert texts(current.collections[0]) == "R3 G3 B3"
    assert texts(current.middle[:2]) == "B5 Y7"


def test_g4_an_exact_match_is_compulsory_over_the_neighbours() -> None:
    current = a_round("R2 G3 B4 Y9", "Y3")
    assert card_moves(current, "Y3") == ["Y3"]
    for text in ("Y3/R2/B4", "Y3/R2/-", "Y3/-/B4"):
        assert not current.is_legal(Move.parse(text))
        with pytest.raises(IllegalMoveError):
            current.apply(0, Move.parse(text))
    play_out(current, "Y3")
    assert texts(current.collections[0]) == "G3 Y3"
    assert set(cards("R2 B4")) <= set(current.middle)


def test_g4_takes_one_card_of_each_neighbour_value_both_at_once() -> None:
    current = a_round("R6 G8 B1 Y1", "B7")
    assert card_moves(current, "B7") == ["B7/R6/G8"]
    events = play_out(current, "B7/R6/G8")
    assert events[0] == Played(0, card("B7"), tuple(cards("R6 G8")))
    assert texts(current.collections[0]) == "R6 G8 B7"
    assert texts(current.middle[:2]) == "B1 Y1"


def test_g4_one_neighbour_present_takes_that_one_only() -> None:
    current = a_round("R6 G0 B1 Y2", "B7")
    assert card_moves(current, "B7") == ["B7/R6/-"]
    assert not current.is_legal(Move.parse("B7"))
    play_out(current, "B7/R6/-")
    assert texts(current.collections[0]) == "R6 B7"


def test_g4_neighbours_wrap_zero_with_nine_and_one() -> None:
    current = a_round("G9 B1 Y5 R5", "R0", "Y8")
    assert card_moves(current, "R0") == ["R0/G9/B1"]
    play_out(current, "R0/G9/B1")
    assert texts(current.collections[0]) == "G9 B1 R0"
    # And 9's neighbours are 8 and 0.
    nine = a_round("R8 G0 B4 Y4", "B9")
    assert card_moves(nine, "B9") == ["B9/R8/G0"]


def test_g4_a_choice_between_two_cards_of_one_neighbour_value() -> None:
    current = a_round("R6 G6 B9 Y3", "Y7")
    # One card per value, the player's choice: never both sixes, never none.
    assert card_moves(current, "Y7") == ["Y7/R6/-", "Y7/G6/-"]
    assert not current.is_legal(Move.parse("Y7"))
    play_out(current, "Y7/G6/-")
    assert texts(current.collections[0]) == "G6 Y7"
    assert card("R6") in current.middle


def test_g4_choices_on_both_sides_multiply() -> None:
    current = a_round("R6 G6 B8 Y8", "R7")
    assert sorted(card_moves(current, "R7")) == [
        "R7/G6/B8",
        "R7/G6/Y8",
        "R7/R6/B8",
        "R7/R6/Y8",
    ]


def test_g4_taking_is_compulsory_and_an_absent_card_cannot_be_named() -> None:
    current = a_round("R6 G0 B1 Y2", "B7")
    for text in ("B7", "B7/R6/G8", "B7/G6/-", "B7/-/G8"):
        assert not current.is_legal(Move.parse(text)), text
    # A card not in the mover's hand is refused, even one the middle could take.
    assert not current.is_legal(Move.parse("R1/G0/Y2"))


def test_g4_with_no_match_the_card_joins_the_middle_which_grows_beyond_four() -> None:
    current = a_round("R0 R2 R4 R6", "G8", pile="Y9")
    assert card_moves(current, "G8") == ["G8"]
    events = play_out(current, "G8")
    assert events == [Played(0, card("G8"), ())]
    assert texts(current.middle) == "R0 R2 R4 R6 G8"
    assert current.collections[0] == []
    # Nothing drawn: the middle already holds more than four.
    assert texts(current.pile[:1]) == "Y9"
    # The next card that takes leaves four, so no refill either.
    current.apply(1, current.legal_moves()[0])


def test_g4_the_middle_is_refilled_to_four_from_the_pile_in_order() -> None:
    current = a_round("R3 G3 B3 Y7", "Y3", pile="G1 B2 Y4 R8")
    events = play_out(current, "Y3")
    assert events[1] == Refilled(tuple(cards("G1 B2 Y4")))
    assert texts(current.middle) == "Y7 G1 B2 Y4"
    assert texts(current.pile[:1]) == "R8"


def test_g4_g5_a_whole_round_of_two_seats() -> None:
    game = Game(GapConfig(2, target=1), FULL_ROUND)
    current = game.round
    moves = FULL_ROUND_MOVES.split()
    play_out(game, " ".join(moves[:4]))
    # Y4 found no match and made the middle five cards; no refill.
    assert texts(current.middle) == "G6 B6 Y6 Y0 Y4"
    assert len(current.pile) == 20
    assert card_moves(current, "Y5") == ["Y5/Y4/G6", "Y5/Y4/B6", "Y5/Y4/Y6"]
    play_out(game, " ".join(moves[4:11]))
    assert game.to_move == 1
    assert game.round.result is None
    events = play_out(game, moves[11])
    assert events == [
        Played(1, card("R5"), (card("R4"),)),
        Refilled((card("G4"),)),
        RoundEnded((3, 0)),
    ]
    assert texts(current.collections[0]) == "G3 B3 R3 R9 R8 Y4 Y6 Y5 R1 B1 G6 B6 R6"
    assert texts(current.collections[1]) == "Y7 B7 R0 Y0 G0 G8 B9 R2 Y2 R4 R5"
    assert texts(current.middle) == "R7 G1 G2 G4"
    assert texts(current.pile) == "G5 G7 G9 B0 B2 B4 B5 B8 Y1 Y3 Y8 Y9"
    assert current.result is not None
    assert current.result.points == (3, 0)
    assert current.result.to_dict()["points"] == [3, 0]
    assert game.to_move is None
    # G6: seat 0 has reached the target of 1.
    assert game.scores == (3, 0)
    assert game.winners == (0,) and game.winner == 0 and game.is_over


def test_g4_the_pile_running_out_leaves_the_middle_short_and_it_can_empty() -> None:
    current = Round(TWO, DRAINED)
    moves = DRAINED_MOVES.split()
    play_out(current, " ".join(moves[:8]))
    assert current.pile == []
    assert texts(current.middle) == "R9 R8 G8 B8"
    events = play_out(current, moves[8])
    assert events == [Played(0, card("Y8"), tuple(cards("R8 G8 B8")))]
    assert texts(current.middle) == "R9"
    play_out(current, moves[9])
    assert current.middle == []
    # G4: with an empty middle the card can only join it.
    assert card_moves(current, "G9") == ["G9"]
    assert play_out(current, moves[10]) == [Played(0, card("G9"), ())]
    assert texts(current.middle) == "G9"
    events = play_out(current, moves[11])
    assert events == [Played(1, card("Y9"), (card("G9"),)), RoundEnded((20, 20))]


# G5


@pytest.mark.parametrize(
    ("collection", "points"),
    [
        ("R1 R2 R3 R4 G1 G2 G3 G4", 8),
        ("R1 R2 R3 R4 R5 G1 G2 G3 B1", 4),
        ("R1 R2 R3 G1 G2 B1 B2", -1),
    ],
    ids=["4 red 4 green = 8", "5 red 3 green 1 blue = 4", "3 red 2 green 2 blue = -1"],
)
def test_g5_the_seeds_own_answers(collection: str, points: int) -> None:
    assert score_collection(cards(collection)) == points


def test_g5_counts_colours_not_values_and_ignores_absent_colours() -> None:
    # The printed values count nothing: nines score as much as zeros.
    assert score_collection(cards("R9 R8 G9")) == score_collection(cards("R0 R1 G0")) == 1
    # Absent colours are not the smallest column.
    assert score_counts((3, 0, 0, 1, 0, 0)) == 2
    assert score_counts((0, 0, 0, 0, 0, 0)) == 0
    assert score_collection([]) == 0
    assert score_counts((2, 0, 0, 0, 0, 0)) == 2
    # Ties at the top all add; ties at the bottom all subtract.
    assert score_counts((3, 3, 1, 1, 2, 0)) == 4
    assert score_counts((1, 1, 1, 1, 1, 1)) == 6


def test_g5_a_round_is_scored_when_every_hand_is_empty_cards_left_belong_to_nobody() -> None:
    current = Round(TWO, FULL_ROUND)
    moves = FULL_ROUND_MOVES.split()
    for text in moves[:-1]:
        play_out(current, text)
        assert current.result is None and current.to_move is not None
    play_out(current, moves[-1])
    assert current.result is not None
    # Four cards in the middle and twelve in the pile score for nobody.
    assert sum(len(cards) for cards in current.result.collections) == 24
    assert current.result.points == tuple(score_collection(c) for c in current.collections)


# G6


def test_g6_totals_add_up_and_a_round_is_dealt_again_below_the_target() -> None:
    game = Game(GapConfig(2, target=30), DRAINED)
    play_out(game, DRAINED_MOVES)
    assert game.scores == (20, 20)
    assert not game.is_over and game.winner is None and game.winners == ()
    assert game.to_move is None
    deal = game.next_deal(random.Random(1))
    assert deal.first == 1
    new_round = game.start_round(deal)
    # Collections, middle and pile start afresh.
    assert new_round.collections == [[], []]
    assert new_round.middle == list(deal.middle)
    assert game.round_number == 2 and game.to_move == 1
    assert game.scores == (20, 20)


def test_g6_a_shared_win_when_both_tie_breaks_leave_seats_equal() -> None:
    game = Game(GapConfig(2, target=20), DRAINED)
    play_out(game, DRAINED_MOVES)
    # Equal totals, the same best round, scored in the same round: the win is shared.
    assert game.winners == (0, 1)
    assert game.winner == 0
    with pytest.raises(GameOverError):
        game.next_deal(random.Random(1))
    with pytest.raises(GameOverError):
        game.start_round(deal_round(game.config, random.Random(1), 1))


def test_g6_the_best_total_wins_once_one_reaches_the_target() -> None:
    assert game_winners([(10, 12, 3), (10, 12, 25)], 25) == (2,)
    assert game_winners([(10, 12, 3), (10, 12, 5)], 30) == ()
    # Reaching the target is not enough: the best total wins.
    assert game_winners([(30, 40)], 30) == (1,)


def test_g6_a_tie_goes_to_the_best_single_round() -> None:
    assert game_winners([(15, 10), (15, 20)], 30) == (1,)
    assert game_winners([(18, 10), (12, 20), (0, 0)], 30) == (1,)


def test_g6_then_to_whoever_scored_that_round_first() -> None:
    assert game_winners([(20, 10), (10, 20)], 30) == (0,)
    assert game_winners([(5, 20), (20, 5), (5, 5)], 30) == (1,)
    # Seat 2 is out (a lower total); seats 0 and 1 tie on 20 and their best round 12.
    assert game_winners([(8, 12, 0), (12, 8, 19)], 20) == (1,)


def test_g6_players_still_tied_share_the_win() -> None:
    assert game_winners([(20, 20, 20), (10, 10, 5)], 30) == (0, 1)
    assert game_winners([(-2, -2), (1, 1)], 1) == ()


def test_g6_the_first_player_moves_one_seat_each_round() -> None:
    config = GapConfig(3, target=10_000)
    rng = random.Random(4)
    game = Game.new(config, rng)
    firsts = []
    for _ in range(5):
        firsts.append(game.round.deal.first)
        assert game.to_move == game.round.deal.first
        while game.to_move is not None:
            game.apply(game.to_move, rng.choice(game.legal_moves()))
        game.next_round(rng)
    assert firsts == [0, 1, 2, 0, 1]


def test_g6_the_first_round_starts_with_the_first_seat_and_deals_must_follow_the_turn() -> None:
    with pytest.raises(DealError):
        Game(TWO, Deal(FULL_ROUND.hands, FULL_ROUND.middle, FULL_ROUND.pile, 1))
    game = Game(TWO, DRAINED)
    with pytest.raises(RoundNotOverError):
        game.next_deal(random.Random(0))
    play_out(game, DRAINED_MOVES)
    with pytest.raises(DealError):
        game.start_round(deal_round(TWO, random.Random(0), 0))
    assert game.round_number == 1
