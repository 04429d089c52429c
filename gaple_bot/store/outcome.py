"""What each seat achieved in a game: place, points, rounds won, gaple finishes, best round."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..games.gaple.rules import EndReason, Game, Played


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat's line in a game's results."""

    seat: int
    place: int
    points: int
    rounds_won: int
    gaples: int
    best_round: int


def places(totals: Sequence[int]) -> list[int]:
    """Places by total, higher is better; equal totals share a place (1, 2, 2, 4)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def seat_outcomes(game: Game) -> list[SeatOutcome]:
    """Every seat's outcome from the game's finished rounds and final totals."""
    seats = game.config.seats
    rounds_won = [0] * seats
    gaples = [0] * seats
    best_round = [0] * seats
    for played_round in game.rounds:
        result = played_round.result
        if result is None:
            continue
        rounds_won[result.winner] += 1
        for seat, points in enumerate(result.points):
            best_round[seat] = max(best_round[seat], points)
        if result.reason is EndReason.GAPLE:
            # The play that emptied a hand comes just before the round's end.
            last = played_round.events[-2]
            assert isinstance(last, Played)
            gaples[last.seat] += 1
    return [
        SeatOutcome(
            seat, place, game.scores[seat], rounds_won[seat], gaples[seat], best_round[seat]
        )
        for seat, place in enumerate(places(game.scores))
    ]
