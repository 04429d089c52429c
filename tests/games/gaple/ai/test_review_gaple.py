"""Gaple's review: hand-dealt positions judged on what the seat knew (a blunder named with the
better move, an unlucky right move left unmarked), the same values for the same view and
seed, and every rule set's moves valued."""

from __future__ import annotations

import pickle
import random
from dataclasses import replace

import pytest

from gaple_bot.games.gaple.ai.levels import BUDGETS, Level
from gaple_bot.games.gaple.ai.montecarlo import _passed_over_factor
from gaple_bot.games.gaple.ai.review import REVIEW_WIN_WORTH, move_values, review_budget
from gaple_bot.games.gaple.kind import GapleKind
from gaple_bot.games.review import Decision, Mark, decisions, review_game
from gaple_bot.games.seam import JSON
from gaple_bot.i18n import Translators

from .ai_positions import SETUPS, positions

KIND = GapleKind()
CLASSIC_4: JSON = {"rule_set": "classic", "seats": 4, "target": 100, "stuck_rule": "discard"}
EN = Translators().get("en")

# A first classic round of four (C4: [6|6] leads). Seat 0 ends on [5|3] and [5|5] with the
# ends 5 (left) and 4; every other 5 is on the line. [5|5] on the 5 keeps that end a 5 for
# [5|3] next turn, and nobody can take it away: seat 0 goes out (gaple). [5|3] on the 5 turns
# that end into a 3 and leaves [5|5] with no 5 to go on: seat 0 is caught with 10 pips while
# the others play out.
DOUBLE_DEAL: JSON = {
    "hands": [
        [4, 6, 12, 16, 20, 21, 25],
        [7, 8, 13, 14, 18, 23, 26],
        [3, 9, 10, 15, 19, 22, 24],
        [0, 1, 2, 5, 11, 17, 27],
    ],
    "set_aside": [],
    "start": -1,
    "leader": 3,
    "lead_tile": 27,
}
DOUBLE_MOVES = [55, 25, 15, 19, 34, 32, 37, 39, 10, 9, 56, 7, 0, 12, 52, 56, 22, 43, 16, 30]
DOUBLE_MOVES += [56, 56, 46, 49, 56]
FIVE_THREE_LEFT, FIVE_FIVE_LEFT = 40, 50

# Another first round: at ply 17 seat 0 holds [1|0], [2|0] and [5|3], the ends are 1 and 0,
# and the other seats hold three tiles each of the nine seat 0 has not seen. [1|0] on the 0
# end makes both ends 1 with every 1 played: the line is blocked and the lowest count wins
# (C11), seat 0's 10 pips against three hidden hands that rarely count less. In LUCKY's
# hidden hands they count 17, 14 and 23; in UNLUCKY's, seats 1 and 2 swapped [0|0] and [4|3]
# (tiles neither played nor could have), and seat 2's [0|0] [3|0] [4|0] count 7: the block
# loses the round there. Seat 0 saw the same table both times.
LUCKY_DEAL: JSON = {
    "hands": [
        [1, 2, 7, 8, 20, 23, 27],
        [0, 9, 10, 11, 18, 24, 26],
        [3, 4, 12, 13, 16, 19, 22],
        [5, 6, 14, 15, 17, 21, 25],
    ],
    "set_aside": [],
    "start": -1,
    "leader": 0,
    "lead_tile": 27,
}
UNLUCKY_DEAL: JSON = {
    **LUCKY_DEAL,
    "hands": [
        [1, 2, 7, 8, 20, 23, 27],
        [9, 10, 11, 18, 19, 24, 26],
        [0, 3, 4, 12, 13, 16, 22],
        [5, 6, 14, 15, 17, 21, 25],
    ],
}
BLOCK_MOVES = [55, 49, 45, 31, 17, 19, 24, 29, 14, 22, 27, 50, 46, 20, 33, 11]
ONE_ZERO_RIGHT = 3


def quick(decision: Decision) -> dict[int, float]:
    """A tenth of the review's work, for tests that compare rather than judge."""
    return move_values(decision.view, decision.seed, review_budget(2))


def test_keeping_the_double_to_be_caught_with_it_is_a_blunder_and_the_double_named() -> None:
    rounds = [(DOUBLE_DEAL, [*DOUBLE_MOVES, FIVE_THREE_LEFT])]
    (last,) = [d for d in decisions(KIND, CLASSIC_4, rounds, {0}) if d.ply == 26]
    assert set(last.legal) == {FIVE_THREE_LEFT, FIVE_FIVE_LEFT}
    # The service's call: the kind's review at its real (default) work.
    values = KIND.review_values(last.view, last.seed)
    review = review_game(
        KIND, CLASSIC_4, rounds, {0}, judge=lambda d: values if d == last else quick(d)
    )
    move = review.moves[-1]
    assert (move.ply, move.code, move.best, move.mark) == (
        26,
        FIVE_THREE_LEFT,
        FIVE_FIVE_LEFT,
        Mark.BLUNDER,
    )
    assert move.loss >= 40.0
    assert KIND.presentation.move_label(EN, move.best) == "[5|5] on the left"
    assert review.seat(0) is not None and review.seat(0).worst == move  # type: ignore[union-attr]


def test_a_right_move_unlucky_on_the_hidden_hands_is_not_marked() -> None:
    lucky = [(LUCKY_DEAL, [*BLOCK_MOVES, ONE_ZERO_RIGHT])]
    unlucky = [(UNLUCKY_DEAL, [*BLOCK_MOVES, ONE_ZERO_RIGHT])]
    # The block won the round on one deal and lost it on the other...
    assert KIND.replay(CLASSIC_4, lucky).round_result()["winner"] == 0  # type: ignore[index]
    assert KIND.replay(CLASSIC_4, unlucky).round_result()["winner"] == 2  # type: ignore[index]
    # ...but seat 0 saw the same thing both times, so it is judged the same: the best move.
    (a,) = [d for d in decisions(KIND, CLASSIC_4, lucky, {0}) if d.ply == 17]
    (b,) = [d for d in decisions(KIND, CLASSIC_4, unlucky, {0}) if d.ply == 17]
    assert a.view == b.view and a.seed == b.seed
    values = KIND.review_values(a.view, a.seed)
    assert KIND.review_values(b.view, b.seed) == values
    assert max(values, key=values.__getitem__) == ONE_ZERO_RIGHT
    for rounds in (lucky, unlucky):
        review = review_game(
            KIND, CLASSIC_4, rounds, {0}, judge=lambda d: values if d.ply == 17 else quick(d)
        )
        move = review.moves[-1]
        assert (move.ply, move.mark, move.loss, move.best) == (17, Mark.BEST, 0.0, ONE_ZERO_RIGHT)


def test_the_same_view_and_seed_give_the_same_values_and_another_seed_close_ones() -> None:
    rounds = [(DOUBLE_DEAL, DOUBLE_MOVES)]
    found = decisions(KIND, CLASSIC_4, rounds, {0, 1, 2, 3})
    decision = found[-1]
    budget = review_budget(2)
    first = move_values(decision.view, decision.seed, budget)
    # The same after a trip through pickle, as a worker process receives and returns it.
    view = pickle.loads(pickle.dumps(decision.view))
    assert pickle.loads(pickle.dumps(move_values(view, decision.seed, budget))) == first
    other = move_values(decision.view, decision.seed + 1, budget)
    assert first.keys() == other.keys() == set(decision.legal)
    assert max(abs(first[code] - other[code]) for code in first) < 5.0


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_every_legal_move_of_every_rule_set_gets_a_value(config: object) -> None:
    for position in positions(config, random.Random(3), 2):  # type: ignore[arg-type]
        view = position.view
        values = move_values(view, 1, review_budget(0.05))
        assert set(values) == {move.code for move in view.legal}
        assert all(-1000.0 < value < 1000.0 for value in values.values())


def test_a_seat_not_to_move_has_no_values() -> None:
    match = KIND.replay(CLASSIC_4, [(DOUBLE_DEAL, DOUBLE_MOVES)])
    with pytest.raises(ValueError, match="not to move"):
        move_values(match.computer_view(1), 1)


def test_a_review_values_the_round_in_points_not_as_hard_plays_for_its_win() -> None:
    # Hard plays mostly for the round's win; a review's marks are thresholds in points of a
    # round, so it keeps the win at 40 points and its blunder's loss reads as points.
    hard = BUDGETS[Level.HARD]
    budget = review_budget(2)
    assert hard.win_worth > budget.win_worth == REVIEW_WIN_WORTH
    rounds = [(DOUBLE_DEAL, [*DOUBLE_MOVES, FIVE_THREE_LEFT])]
    (last,) = [d for d in decisions(KIND, CLASSIC_4, rounds, {0}) if d.ply == 26]
    review = move_values(last.view, last.seed, budget)
    as_hard = move_values(
        last.view, last.seed, replace(budget, win_worth=hard.win_worth, scale=hard.scale)
    )
    loss = review[FIVE_FIVE_LEFT] - review[FIVE_THREE_LEFT]
    hard_loss = as_hard[FIVE_FIVE_LEFT] - as_hard[FIVE_THREE_LEFT]
    assert Mark.of(loss, 1.0) is Mark.BLUNDER
    # The blunder gives away most of a round's win, which hard values 160 points higher.
    assert hard_loss - loss > (hard.win_worth - REVIEW_WIN_WORTH) / 2


def test_a_review_weighs_its_deals_by_the_passed_over_tiles_at_every_table() -> None:
    # A review does not apply the learned model of play that hard weighs its deals by at four
    # classic seats instead of the passed-over tiles, so it keeps those tiles' weighing there.
    hard = BUDGETS[Level.HARD]
    budget = review_budget(0.02)
    for config in SETUPS:
        for view, *_ in positions(config, random.Random(71), 5):
            assert _passed_over_factor(view, budget) == hard.passed_over < 1.0
    view = next(positions(SETUPS[0], random.Random(71), 1)).view
    assert _passed_over_factor(view, hard) == hard.modelled_passed_over == 1.0
