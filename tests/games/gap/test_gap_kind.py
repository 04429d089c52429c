"""Gap's results through the seam: places with G6's tie-breaks, rounds won, best round."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from gaple_bot.games.gap.kind import GapKind, seat_outcomes
from gaple_bot.games.gap.rules import game_winners


def _finished(*rounds: tuple[int, ...]) -> Any:
    """A stand-in for a finished game whose rounds scored `rounds` (what seat_outcomes reads)."""
    seats = len(rounds[0])
    scores = tuple(sum(points[seat] for points in rounds) for seat in range(seats))
    results = tuple(SimpleNamespace(points=points) for points in rounds)
    return SimpleNamespace(config=SimpleNamespace(seats=seats), results=results, scores=scores)


@pytest.mark.parametrize(
    ("rounds", "places"),
    [
        # The best total wins.
        (((9, 2, 4), (6, 1, 3)), [1, 3, 2]),
        # G6: equal totals go to the best single round.
        (((4, 6), (4, 2)), [2, 1]),
        # G6: then to whoever scored that best round first.
        (((5, 3), (3, 5)), [1, 2]),
        # G6: still equal after both tie-breaks: a shared place.
        (((5, 5, 1), (3, 3, 0)), [1, 1, 3]),
        # Negative rounds count like any other.
        (((-1, 2), (4, 1)), [1, 2]),
    ],
)
def test_g6_places_follow_the_tie_breaks(
    rounds: tuple[tuple[int, ...], ...], places: list[int]
) -> None:
    """Places rank totals, then best round, then the earlier best round; the seats in first
    place are exactly G6's winners."""
    outcomes = seat_outcomes(_finished(*rounds))
    assert [o.place for o in outcomes] == places
    winners = game_winners([list(points) for points in rounds], 1)
    assert tuple(o.seat for o in outcomes if o.place == 1) == winners


def test_rounds_won_count_each_seat_tied_for_a_round_s_best_score() -> None:
    """A round's best score wins it; a tie counts for each tied seat; best_round is the extra."""
    outcomes = seat_outcomes(_finished((5, 5, 1), (3, 0, 3), (-2, -1, -1)))
    assert [o.rounds_won for o in outcomes] == [2, 2, 2]
    assert [o.extras for o in outcomes] == [{"best_round": 5}, {"best_round": 5}, {"best_round": 3}]
    assert [o.points for o in outcomes] == [6, 4, 3]


def test_gap_offers_two_to_six_seats_and_its_target() -> None:
    """G1/G3: two to six seats; G2: the target is an option, 30 by default."""
    kind = GapKind()
    limits = kind.seat_limits({})
    assert (limits.least, limits.filled, limits.most) == (2, 4, 6)
    assert kind.make_config({}, 9) == {"seats": 6, "target": 30}
    assert kind.make_config({"target": "50"}, 1) == {"seats": 2, "target": 50}
