"""What Gaple shows through the seam: the public board and one seat's private view."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Ends, Event, GameConfig, RoundEnded


@dataclass(frozen=True, slots=True)
class GapleBoard:
    """The public state of a round: the line, its ends, how many tiles each seat holds and
    has discarded, the public events and, once over, the result (no hand, no discard face)."""

    config: GameConfig
    line: tuple[tuple[int, int], ...]
    ends: Ends | None
    hand_counts: tuple[int, ...]
    discard_counts: tuple[int, ...]
    events: tuple[Event, ...]
    result: RoundEnded | None


@dataclass(frozen=True, slots=True)
class GapleHand:
    """One seat's own tiles and the tiles it discarded face down (D4)."""

    hand: int
    discards: int
