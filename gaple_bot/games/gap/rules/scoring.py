"""Scoring a collection (G5) and deciding a game from its rounds' points (G6)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import colour_counts


def score_counts(counts: Iterable[int]) -> int:
    """G5: from the number of cards of each colour (absent colours, 0, are ignored): the sum
    of the colours tied for the largest count, minus the sum of those tied for the smallest
    count when they are not also the largest."""
    present = [n for n in counts if n > 0]
    if not present:
        return 0
    largest, smallest = max(present), min(present)
    top = largest * present.count(largest)
    if smallest == largest:
        return top
    return top - smallest * present.count(smallest)


def score_collection(cards: Iterable[int]) -> int:
    """G5: a collection's score, counted by colour, not by value."""
    return score_counts(colour_counts(cards))


def game_winners(round_points: Sequence[Sequence[int]], target: int) -> tuple[int, ...]:
    """G6: the seats that win a game whose finished rounds scored `round_points`, or () while
    no total has reached the target.

    The best total wins; ties go to the best single-round score, then to whoever scored that
    best round first (in an earlier round); seats still tied share the win.
    """
    if not round_points:
        return ()
    seats = range(len(round_points[0]))
    totals = [sum(points[seat] for points in round_points) for seat in seats]
    if max(totals) < target:
        return ()
    leaders = [seat for seat in seats if totals[seat] == max(totals)]
    best = {seat: max(points[seat] for points in round_points) for seat in leaders}
    top = max(best.values())
    leaders = [seat for seat in leaders if best[seat] == top]
    when = {
        seat: next(i for i, points in enumerate(round_points) if points[seat] == top)
        for seat in leaders
    }
    earliest = min(when.values())
    return tuple(seat for seat in leaders if when[seat] == earliest)
