"""Gap's review: a dealt position where one card throws points away is marked a blunder with
the better card named; the same view and seed give the same values."""

from __future__ import annotations

import pickle
import random

import pytest

from gaple_bot.games.gap.ai.review import move_values, review_budget
from gaple_bot.games.gap.kind import GapKind
from gaple_bot.games.gap.rules import GapConfig, Move
from gaple_bot.games.review import Mark, decisions, review_game
from gaple_bot.games.seam import JSON
from gaple_bot.i18n import Translators

from .gap_ai_positions import SEAT_COUNTS, positions

KIND = GapKind()
EN = Translators().get("en")
TWO_SEATS: JSON = {"seats": 2, "target": 30}

# Two seats (G1: red, green, blue and yellow in play). At ply 9 seat 0 holds 🟥9 and 🟩0, the
# middle is 🟥5 🟩5 🟦2 🟦8 and seat 0 has collected one red, two green, one blue and two
# yellow (G5: 2 + 2 - 1 - 1 = 2 points). 🟥9 takes 🟦8 (its lower neighbour, G4) and evens
# every colour at two: 8 points. 🟩0 has no neighbour in the middle and joins it, changing
# nothing of seat 0's but giving the other seat a card to take.
DEAL: JSON = {
    "hands": [[7, 9, 10, 22, 24, 27], [2, 11, 18, 23, 29, 37]],
    "middle": [0, 38, 3, 16],
    "pile": [
        *(34, 15, 14, 5, 39, 28, 8, 32, 19, 12, 1, 6),
        *(35, 20, 30, 36, 4, 31, 25, 21, 17, 13, 33, 26),
    ],
    "first": 0,
}
MOVES = [1327, 2531, 2907, 2903, 2904, 2917, 2902, 2909]
GREEN_0 = Move.parse("G0").code
RED_9_TAKING_BLUE_8 = Move.parse("R9/B8/-").code


def test_playing_a_card_into_the_middle_instead_of_evening_the_colours_is_a_blunder() -> None:
    rounds = [(DEAL, [*MOVES, GREEN_0])]
    (last,) = [d for d in decisions(KIND, TWO_SEATS, rounds, {0}) if d.ply == 9]
    assert set(last.legal) == {GREEN_0, RED_9_TAKING_BLUE_8}
    # The service's call: the kind's review at its real (default) work.
    values = KIND.review_values(last.view, last.seed)
    review = review_game(
        KIND,
        TWO_SEATS,
        rounds,
        {0},
        judge=lambda d: values if d == last else move_values(d.view, d.seed, review_budget(1)),
    )
    move = review.moves[-1]
    assert (move.ply, move.code, move.best) == (9, GREEN_0, RED_9_TAKING_BLUE_8)
    assert move.mark is Mark.BLUNDER
    assert move.loss >= 4.0
    assert KIND.presentation.move_label(EN, move.best) == "🟥9 taking 🟦8"
    summary = review.seat(0)
    assert summary is not None and summary.worst == move


def test_the_same_view_and_seed_give_the_same_values() -> None:
    (first, *_) = decisions(KIND, TWO_SEATS, [(DEAL, MOVES)], {0, 1})
    budget = review_budget(0.5)
    values = move_values(first.view, first.seed, budget)
    view = pickle.loads(pickle.dumps(first.view))
    assert pickle.loads(pickle.dumps(move_values(view, first.seed, budget))) == values
    assert set(values) == set(first.legal)


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_every_legal_move_at_every_table_size_gets_a_value(seats: int) -> None:
    for position in positions(GapConfig(seats), random.Random(2), 2):
        view = position.view
        if not view.legal:
            continue
        values = move_values(view, 1, review_budget(0.02))
        assert set(values) == {move.code for move in view.legal}
        assert all(-100.0 < value < 100.0 for value in values.values())


def test_a_seat_not_to_move_has_no_values() -> None:
    match = KIND.replay(TWO_SEATS, [(DEAL, MOVES)])
    with pytest.raises(ValueError, match="not to move"):
        move_values(match.computer_view(1), 1)
