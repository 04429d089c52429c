"""games.review: the decisions of a stored game, the marks, the summaries and the review's
JSON, for any kind (the searches themselves: tests/games/*/ai/test_review_*.py)."""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Mapping, Sequence

import pytest

from gaple_bot.games.gap.kind import GapKind
from gaple_bot.games.gaple.kind import GapleKind
from gaple_bot.games.registry import default_registry
from gaple_bot.games.review import (
    REVIEW_VERSION,
    Decision,
    GameReview,
    Mark,
    ReviewDataError,
    assemble,
    decisions,
    move_accuracy,
    review_game,
    seed_of,
)
from gaple_bot.games.seam import JSON, AnyGameKind, GameDataError

Rounds = list[tuple[JSON, list[int]]]


def played_game(kind: AnyGameKind, seed: int, stop_in_round: int) -> tuple[JSON, Rounds]:
    """A game of four easy computer players from `seed`, stored as deals and codes, its last
    round cut short after `stop_in_round` moves (a game stopped mid-round)."""
    rng = random.Random(seed)
    config = kind.make_config({}, 4)
    match, deal = kind.new_match(config, rng)
    rounds: Rounds = [(deal, [])]
    while True:
        while match.to_move is not None:
            if len(rounds) == 3 and len(rounds[-1][1]) >= stop_in_round:
                break
            seat = match.to_move
            code = kind.computer_move("easy", match.computer_view(seat), rng.getrandbits(32))
            match.apply(seat, code)
            rounds[-1][1].append(code)
        if match.is_over or len(rounds) == 3:
            break
        deal = match.next_deal(rng)
        match.start_round(deal)
        rounds.append((deal, []))
    return config, rounds


def expected_places(
    kind: AnyGameKind, config: JSON, rounds: Rounds, seats: set[int]
) -> list[tuple[int, int, int, int]]:
    """(round, ply, seat, code) of every decision with a choice, found by replaying every
    prefix of the stored game through `kind.replay` (slow, but plainly right)."""
    found = []
    for index, (_, codes) in enumerate(rounds):
        for ply in range(len(codes)):
            prefix = [*rounds[:index], (rounds[index][0], codes[:ply])]
            match = kind.replay(config, prefix)
            seat = match.to_move
            if seat in seats and len(match.legal_codes()) >= 2:
                found.append((index + 1, ply + 1, seat, codes[ply]))
    return found


def fake_values(decision: Decision) -> dict[int, float]:
    """Values that make the first legal move best and each later one 3.5 points worse."""
    return {code: -3.5 * k for k, code in enumerate(decision.legal)}


KINDS = [GapleKind(), GapKind()]


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_decisions_are_every_choice_of_the_seats_asked(kind: AnyGameKind) -> None:
    config, rounds = played_game(kind, 5, stop_in_round=6)
    assert len(rounds) == 3, "three rounds, the last cut short"
    seats = {0, 2}
    found = decisions(kind, config, rounds, seats)
    places = [(d.round, d.ply, d.seat, d.code) for d in found]
    assert places == expected_places(kind, config, rounds, seats)
    assert {d.seat for d in found} == seats
    assert all(len(d.legal) >= 2 and d.code in d.legal for d in found)
    assert any(d.round == 3 for d in found), "the partial last round replays too"
    # One-move decisions (a forced pass, a last card) and other seats are left out.
    all_moves = sum(len(codes) for _, codes in rounds)
    assert len(found) < all_moves
    for decision in found:
        assert decision.view.seat == decision.seat
        assert decision.seed == seed_of(decision.round, decision.ply, decision.seat)
        assert decision.unit == kind.review_unit


def test_decisions_of_a_game_that_does_not_replay_raise_game_data_error() -> None:
    kind = GapleKind()
    config, rounds = played_game(kind, 5, stop_in_round=6)
    deal, codes = rounds[0]
    broken = [(deal, [*codes[:3], 999, *codes[4:]])]
    with pytest.raises(GameDataError):
        decisions(kind, config, broken, {0, 1, 2, 3})


def test_decisions_pickle_for_the_pool_with_their_seats() -> None:
    kind = GapleKind()
    config, rounds = played_game(kind, 8, stop_in_round=4)
    found = decisions(kind, config, rounds, {1, 3})
    again = pickle.loads(pickle.dumps(found))
    assert list(again) == list(found)
    assert again.seats == (1, 3)
    assert (
        assemble(again, [fake_values(d) for d in again]).to_json()
        == assemble(found, [fake_values(d) for d in found]).to_json()
    )


def test_seeds_depend_on_the_place_alone() -> None:
    # A fixed hash (blake2b), not Python's salted one: every process gets the same seeds.
    assert seed_of(1, 4, 0) == seed_of(1, 4, 0)
    assert seed_of(1, 4, 0) == 3841929069012279261
    assert len({seed_of(r, p, s) for r in (1, 2) for p in (1, 2, 3) for s in (0, 1)}) == 12


@pytest.mark.parametrize(
    ("loss", "unit", "mark"),
    [
        (0.0, 1.0, Mark.BEST),
        (0.9, 1.0, Mark.BEST),
        (1.0, 1.0, Mark.GOOD),
        (3.9, 1.0, Mark.GOOD),
        (4.0, 1.0, Mark.INACCURACY),
        (9.9, 1.0, Mark.INACCURACY),
        (10.0, 1.0, Mark.MISTAKE),
        (19.9, 1.0, Mark.MISTAKE),
        (20.0, 1.0, Mark.BLUNDER),
        (72.1, 1.0, Mark.BLUNDER),
        # A game whose point counts less (Gap: a fifth) has its thresholds scaled.
        (0.1, 0.2, Mark.BEST),
        (0.5, 0.2, Mark.GOOD),
        (1.0, 0.2, Mark.INACCURACY),
        (2.0, 0.2, Mark.MISTAKE),
        (4.0, 0.2, Mark.BLUNDER),
    ],
)
def test_marks_follow_the_loss_in_review_units(loss: float, unit: float, mark: Mark) -> None:
    assert Mark.of(loss, unit) is mark


def test_accuracy_falls_with_the_loss() -> None:
    assert move_accuracy(0.0) == 100.0
    assert move_accuracy(10.0) == pytest.approx(36.79, abs=0.01)
    assert move_accuracy(2.0, unit=0.2) == pytest.approx(move_accuracy(10.0))
    assert move_accuracy(4.0) > move_accuracy(5.0) > move_accuracy(50.0) > 0.0


def decision(ply: int, seat: int, code: int, legal: Sequence[int], unit: float = 1.0) -> Decision:
    return Decision(1, ply, seat, code, tuple(legal), None, seed_of(1, ply, seat), unit)


def test_assemble_judges_each_move_and_sums_up_each_seat() -> None:
    found = [
        decision(1, 0, 17, (17, 21)),
        decision(2, 1, 5, (5, 9, 11)),
        decision(5, 0, 21, (17, 21)),
        decision(6, 1, 11, (5, 9, 11)),
    ]
    values: list[Mapping[int, float]] = [
        {17: 12.14, 21: 15.5},
        {5: 0.0, 9: 0.4, 11: -30.0},
        {17: 12.0, 21: 12.0},
        {5: -2.0, 9: -1.0, 11: -25.35},
    ]
    review = assemble(found, values, seats=(0, 1, 3))
    first, second, third, fourth = review.moves
    assert (first.best, first.loss, first.mark) == (21, 3.4, Mark.GOOD)
    assert first.values == ((17, 12.1), (21, 15.5))
    assert (second.best, second.loss, second.mark) == (9, 0.4, Mark.BEST)
    # A tie with the best: the played move is the best one, and nothing was lost.
    assert (third.best, third.loss, third.mark) == (21, 0.0, Mark.BEST)
    assert (fourth.best, fourth.loss, fourth.mark) == (9, 24.4, Mark.BLUNDER)
    zero, one, three = review.seats
    assert (zero.seat, zero.decisions, zero.worst) == (0, 2, first)
    assert zero.accuracy == round((move_accuracy(3.4) + 100.0) / 2, 1)
    assert zero.average_loss == 1.7
    assert (one.decisions, one.average_loss, one.worst) == (2, 12.4, fourth)
    # A seat without a decision still gets its line.
    assert (three.seat, three.decisions, three.accuracy, three.worst) == (3, 0, 100.0, None)


def test_a_difference_below_a_tenth_of_a_point_loses_nothing() -> None:
    review = assemble([decision(1, 2, 4, (8, 4))], [{4: 3.0, 8: 3.04}])
    (move,) = review.moves
    assert (move.best, move.loss, move.mark) == (4, 0.0, Mark.BEST)


def test_a_seat_whose_every_move_was_best_has_no_worst() -> None:
    review = assemble([decision(1, 2, 4, (4, 8))], [{4: 3.0, 8: 2.6}])
    assert review.seats[0].worst is None
    assert review.seats[0].accuracy == 100.0


def test_assemble_needs_a_value_for_every_legal_move() -> None:
    with pytest.raises(ValueError, match="no value"):
        assemble([decision(1, 0, 4, (4, 8))], [{4: 1.0}])
    with pytest.raises(ValueError, match="values"):
        assemble([decision(1, 0, 4, (4, 8))], [])


def test_the_review_json_has_the_stored_shape_and_round_trips() -> None:
    found = [decision(4, 0, 17, (17, 21)), decision(7, 0, 5, (5, 9))]
    review = assemble(found, [{17: 12.1, 21: 15.5}, {5: 1.0, 9: 15.4}], seats=(0, 2))
    data = review.to_json()
    assert data == {
        "version": REVIEW_VERSION,
        "moves": [
            {
                "round": 1,
                "ply": 4,
                "seat": 0,
                "code": 17,
                "best": 21,
                "loss": 3.4,
                "mark": "good",
                "values": [[17, 12.1], [21, 15.5]],
            },
            {
                "round": 1,
                "ply": 7,
                "seat": 0,
                "code": 5,
                "best": 9,
                "loss": 14.4,
                "mark": "mistake",
                "values": [[5, 1.0], [9, 15.4]],
            },
        ],
        "seats": [
            {
                "seat": 0,
                "decisions": 2,
                "accuracy": round((move_accuracy(3.4) + move_accuracy(14.4)) / 2, 1),
                "average_loss": 8.9,
                "worst": {
                    "round": 1,
                    "ply": 7,
                    "code": 5,
                    "best": 9,
                    "loss": 14.4,
                    "mark": "mistake",
                },
            },
            {"seat": 2, "decisions": 0, "accuracy": 100.0, "average_loss": 0.0, "worst": None},
        ],
    }
    stored = json.loads(json.dumps(data))
    assert GameReview.from_json(stored) == review
    assert GameReview.from_json(stored).to_json() == data


@pytest.mark.parametrize(
    "broken",
    [
        {"version": 99, "moves": [], "seats": []},
        {"moves": [], "seats": []},
        {"version": REVIEW_VERSION, "moves": [{"round": 1}], "seats": []},
        {"version": REVIEW_VERSION, "moves": [], "seats": [{"seat": "x"}]},
        {
            "version": REVIEW_VERSION,
            "moves": [
                {
                    "round": 1,
                    "ply": 1,
                    "seat": 0,
                    "code": 1,
                    "best": 1,
                    "loss": 0.0,
                    "mark": "brilliant",
                    "values": [],
                }
            ],
            "seats": [],
        },
    ],
)
def test_a_review_json_that_is_not_one_is_refused(broken: JSON) -> None:
    with pytest.raises(ReviewDataError):
        GameReview.from_json(broken)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_review_game_covers_the_seats_asked_and_is_the_same_twice(kind: AnyGameKind) -> None:
    config, rounds = played_game(kind, 9, stop_in_round=5)
    first = review_game(kind, config, rounds, {0, 1}, judge=fake_values)
    second = review_game(kind, config, rounds, {0, 1}, judge=fake_values)
    assert first == second
    assert [summary.seat for summary in first.seats] == [0, 1]
    assert {move.seat for move in first.moves} == {0, 1}
    # Without any move, every seat asked still has its line.
    empty = review_game(kind, config, [(rounds[0][0], [])], {1, 2}, judge=fake_values)
    assert empty.moves == ()
    assert [(s.seat, s.decisions, s.accuracy, s.worst) for s in empty.seats] == [
        (1, 0, 100.0, None),
        (2, 0, 100.0, None),
    ]


def test_assemble_of_decisions_alone_still_lines_up_every_seat_asked() -> None:
    kind = GapleKind()
    config, rounds = played_game(kind, 5, stop_in_round=6)
    found = decisions(kind, config, [(rounds[0][0], [])], {1, 2})
    assert [s.seat for s in assemble(found, []).seats] == [1, 2]


@pytest.mark.parametrize("kind", list(default_registry()), ids=lambda kind: kind.name)
def test_every_registered_kind_values_every_legal_move_in_a_worker_s_terms(
    kind: AnyGameKind,
) -> None:
    # The service's call at the real work, its arguments and result through pickle as a
    # worker process receives and returns them.
    config, rounds = played_game(kind, 6, stop_in_round=6)
    last = decisions(kind, config, rounds, {0, 1, 2, 3})[-1]
    view, seed = pickle.loads(pickle.dumps((last.view, last.seed)))
    values = pickle.loads(pickle.dumps(kind.review_values(view, seed)))
    assert set(values) == set(last.legal)
    assert all(isinstance(value, float) for value in values.values())
    assert kind.review_values(last.view, last.seed) == values


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.name)
def test_the_same_game_gets_the_same_review_twice_at_the_real_work(kind: AnyGameKind) -> None:
    config, rounds = played_game(kind, 7, stop_in_round=6)
    opening = [(rounds[0][0], rounds[0][1][:10])]
    first = review_game(kind, config, opening, {0, 1})
    assert first.moves, "a few decisions to judge"
    assert review_game(kind, config, opening, {0, 1}).to_json() == first.to_json()
