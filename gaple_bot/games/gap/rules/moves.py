"""Moves as small frozen values: the card played and which neighbours it takes (G4).

A move's code is `card + 60 * (low + 7 * high)`, where `low` and `high` are the colours of the
cards taken of the values just below and just above the card's, or NONE (6) when no card of that
value is taken: an exact match (whose takes are implied), or a neighbour value absent from the
middle. Codes run 0..2939, within a signed 16-bit column.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cards import (
    CARD_COUNT,
    COLOUR_COUNT,
    LETTERS,
    LOWER,
    UPPER,
    VALUE,
    VALUE_COUNT,
    card_text,
    parse_card,
)
from .errors import MoveParseError

NONE = COLOUR_COUNT
"""The `low`/`high` of a move that takes no card of that neighbour value."""
_SIDE = COLOUR_COUNT + 1
MOVE_CODES = CARD_COUNT * _SIDE * _SIDE


@dataclass(frozen=True, slots=True)
class Move:
    """Play `card`, taking the `low` neighbour's card of colour `low` and the `high` one's of
    colour `high` (NONE: none of that value); low = high = NONE for an exact match or a card
    that joins the middle."""

    card: int
    low: int = NONE
    high: int = NONE
    code: int = field(init=False, compare=False, repr=False)
    """Derived from the other fields, so a move's code always names the move itself."""

    def __post_init__(self) -> None:
        if not 0 <= self.card < CARD_COUNT:
            raise MoveParseError(f"no card {self.card}")
        if not (0 <= self.low <= NONE and 0 <= self.high <= NONE):
            raise MoveParseError(f"no colour {self.low} or {self.high}")
        object.__setattr__(self, "code", self.card + CARD_COUNT * (self.low + _SIDE * self.high))

    @property
    def value(self) -> int:
        """The value of the card played."""
        return VALUE[self.card]

    @property
    def low_card(self) -> int | None:
        """G4: the card taken of the value just below (wrapping), or None."""
        if self.low == NONE:
            return None
        return self.low * VALUE_COUNT + LOWER[VALUE[self.card]]

    @property
    def high_card(self) -> int | None:
        """G4: the card taken of the value just above (wrapping), or None."""
        if self.high == NONE:
            return None
        return self.high * VALUE_COUNT + UPPER[VALUE[self.card]]

    @property
    def neighbours(self) -> tuple[int, ...]:
        """The neighbour cards this move names, lower one first (empty: none named)."""
        return tuple(c for c in (self.low_card, self.high_card) if c is not None)

    def text(self) -> str:
        """The move as short text: `R7` plays the red 7 alone (an exact match or no take),
        `R7/G6/B8` takes the green 6 and the blue 8, `R7/-/B8` only the blue 8."""
        if self.low == NONE and self.high == NONE:
            return card_text(self.card)
        low = "-" if self.low_card is None else card_text(self.low_card)
        high = "-" if self.high_card is None else card_text(self.high_card)
        return f"{card_text(self.card)}/{low}/{high}"

    def __str__(self) -> str:
        return self.text()

    @staticmethod
    def from_code(code: int) -> Move:
        """The move with this code."""
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < MOVE_CODES:
            raise MoveParseError(f"no move has code {code!r}")
        return ALL_MOVES[code]

    @staticmethod
    def parse(text: str) -> Move:
        """The move written as `Move.text` writes it."""
        parts = text.split("/")
        try:
            card = parse_card(parts[0])
            if len(parts) == 1:
                return move(card)
            if len(parts) != 3:
                raise ValueError(text)
            value = VALUE[card]
            low = high = NONE
            if parts[1] != "-":
                taken = parse_card(parts[1])
                if VALUE[taken] != LOWER[value]:
                    raise ValueError(text)
                low = LETTERS.index(parts[1][0].upper())
            if parts[2] != "-":
                taken = parse_card(parts[2])
                if VALUE[taken] != UPPER[value]:
                    raise ValueError(text)
                high = LETTERS.index(parts[2][0].upper())
        except ValueError as exc:
            raise MoveParseError(f"not a move: {text!r}") from exc
        return move(card, low, high)


ALL_MOVES: tuple[Move, ...] = tuple(
    Move(card, low, high)
    for high in range(_SIDE)
    for low in range(_SIDE)
    for card in range(CARD_COUNT)
)
"""Code -> move: every combination of card and neighbour colours, legal or not."""


def move(card: int, low: int = NONE, high: int = NONE) -> Move:
    """The shared Move value for these fields (the same object `Move.from_code` gives)."""
    if not (0 <= card < CARD_COUNT and 0 <= low <= NONE and 0 <= high <= NONE):
        raise MoveParseError(f"no move plays card {card} taking colours {low} and {high}")
    return ALL_MOVES[card + CARD_COUNT * (low + _SIDE * high)]
