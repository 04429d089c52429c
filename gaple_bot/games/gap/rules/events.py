"""Public records of what happened in a round of Gap: plays, refills and its end."""

from __future__ import annotations

from typing import NamedTuple


class Played(NamedTuple):
    """G4: `seat` played `card` and took `taken` from the middle (empty: the card joined it).

    When cards are taken the played card joins the seat's collection with them.
    """

    seat: int
    card: int
    taken: tuple[int, ...]


class Refilled(NamedTuple):
    """G4: `cards` were turned up from the pile, in order, to bring the middle back to four."""

    cards: tuple[int, ...]


class RoundEnded(NamedTuple):
    """G5: every hand is empty; `points` is what each seat's collection scores."""

    points: tuple[int, ...]


Event = Played | Refilled | RoundEnded
