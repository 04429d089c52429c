"""How much a round's points are worth to a seat, judged by the match (C13, D8), not the round."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import game_winner

GAME_WEIGHT = 2
"""A won (lost) game is worth this many targets of lead (deficit)."""


class MatchValue:
    """Values round points for every seat from the totals they lead to.

    A round that ends the game is worth a fixed win or loss of `GAME_WEIGHT` targets. Any other
    outcome is worth the seat's lead over its best opponent afterwards, so both the points won
    and the points others win count, and an opponent close to the target is the one to stop;
    the round's winner gets `win_worth` points on top, for the next lead (C5) and for winning
    at all. The winner is the seat that scored the most (C12, D7); where seats tie for the most
    (D6's tie-break on the lowest count, or a classic win worth no pips) the points do not say
    which of them won, so they share the worth.
    """

    __slots__ = ("_cache", "_game", "_scores", "_seats", "_target", "_win_worth")

    def __init__(self, scores: Sequence[int], target: int, win_worth: float = 0.0) -> None:
        self._scores = tuple(scores)
        self._target = target
        self._seats = len(scores)
        self._game = GAME_WEIGHT * target
        self._win_worth = win_worth
        self._cache: dict[tuple[int, ...], tuple[float, ...]] = {}

    def of(self, points: tuple[int, ...]) -> tuple[float, ...]:
        """Every seat's value of a round that scored `points`."""
        cached = self._cache.get(points)
        if cached is not None:
            return cached
        totals = [s + p for s, p in zip(self._scores, points, strict=True)]
        winner = game_winner(totals, self._target)
        values: tuple[float, ...]
        if winner is not None:
            values = tuple(
                float(self._game if s == winner else -self._game) for s in range(self._seats)
            )
        else:
            best = max(points)
            share = self._win_worth / points.count(best)
            values = tuple(
                float(totals[s] - max(t for o, t in enumerate(totals) if o != s))
                + (share if points[s] == best else 0.0)
                for s in range(self._seats)
            )
        self._cache[points] = values
        return values
