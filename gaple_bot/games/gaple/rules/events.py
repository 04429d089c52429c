"""Public records of what happened in a round: plays, passes, discards and its end."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .moves import Side

Ends = tuple[int, int]


class EndReason(StrEnum):
    """How a round ended."""

    GAPLE = "gaple"
    """C10/D5: a player played their last tile."""
    BLOCKED = "blocked"
    """C11/D5: no tile in any hand fits either end."""
    DISCARDED_OUT = "discarded_out"
    """D5: a player discarded their last tile."""


class Played(NamedTuple):
    """C7: `seat` put `tile` at `side`; `ends` are the open ends before the play (None: empty)."""

    seat: int
    tile: int
    side: Side
    ends: Ends | None


class Passed(NamedTuple):
    """C9: `seat` had no tile fitting `ends` and passed."""

    seat: int
    ends: Ends


class Discarded(NamedTuple):
    """D4: `seat` had no tile fitting `ends` and discarded one face down (its face is hidden)."""

    seat: int
    ends: Ends


class RoundEnded(NamedTuple):
    """The round is over: who won, how, each seat's count and the points each scored."""

    reason: EndReason
    winner: int
    counts: tuple[int, ...]
    points: tuple[int, ...]


Event = Played | Passed | Discarded | RoundEnded
