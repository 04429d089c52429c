"""What Gap shows through the seam: the public round and one seat's hand."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Event, GapConfig, RoundResult


@dataclass(frozen=True, slots=True)
class GapBoard:
    """The public state of a round: the middle, how many cards the pile and each hand hold,
    every collection, the public events and, once over, the result (no hand, no pile)."""

    config: GapConfig
    middle: tuple[int, ...]
    pile_count: int
    hand_counts: tuple[int, ...]
    collections: tuple[tuple[int, ...], ...]
    events: tuple[Event, ...]
    result: RoundResult | None


@dataclass(frozen=True, slots=True)
class GapHand:
    """One seat's cards in hand (G3: never refilled)."""

    cards: tuple[int, ...]
