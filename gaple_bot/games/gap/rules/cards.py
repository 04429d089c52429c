"""The cards of Gap (G1): six colours by ten values, one card each, and the deck by seat count."""

from __future__ import annotations

from collections.abc import Iterable

COLOURS = ("red", "green", "blue", "yellow", "purple", "orange")
"""Colour index -> name (names for docs and tests only; the presentation picks its own)."""
COLOUR_COUNT = len(COLOURS)
VALUE_COUNT = 10
CARD_COUNT = COLOUR_COUNT * VALUE_COUNT
LETTERS = "RGBYPO"
"""Colour index -> the letter of a card's short text (R7 is the red 7)."""

COLOUR: tuple[int, ...] = tuple(card // VALUE_COUNT for card in range(CARD_COUNT))
VALUE: tuple[int, ...] = tuple(card % VALUE_COUNT for card in range(CARD_COUNT))
LOWER: tuple[int, ...] = tuple((v - 1) % VALUE_COUNT for v in range(VALUE_COUNT))
"""G4: value -> the value just below it; the neighbours wrap, so 0's lower neighbour is 9."""
UPPER: tuple[int, ...] = tuple((v + 1) % VALUE_COUNT for v in range(VALUE_COUNT))
"""G4: value -> the value just above it; 9's upper neighbour is 0."""


def card_id(colour: int, value: int) -> int:
    """The id of the card of this colour (0..5) and value (0..9): colour * 10 + value."""
    if not (0 <= colour < COLOUR_COUNT and 0 <= value < VALUE_COUNT):
        raise ValueError(f"no card of colour {colour} and value {value}")
    return colour * VALUE_COUNT + value


def colours_in_play(seats: int) -> int:
    """G1 (decision): two players remove two colours, three remove one, four to six use all.

    The colours kept are always the first ones: 0..3 for two players, 0..4 for three.
    """
    if seats == 2:
        return 4
    if seats == 3:
        return 5
    return COLOUR_COUNT


def deck(seats: int) -> tuple[int, ...]:
    """G1: the card ids in play for this many seats, in id order."""
    return tuple(range(colours_in_play(seats) * VALUE_COUNT))


def card_text(card: int) -> str:
    """A card as short text: colour letter and value, as in R7 or O0."""
    return f"{LETTERS[COLOUR[card]]}{VALUE[card]}"


def parse_card(text: str) -> int:
    """The card written as `card_text` writes it (the letter in either case)."""
    if len(text) != 2 or text[0].upper() not in LETTERS or not text[1].isdigit():
        raise ValueError(f"not a card: {text!r}")
    return card_id(LETTERS.index(text[0].upper()), int(text[1]))


def colour_counts(cards: Iterable[int]) -> tuple[int, ...]:
    """How many of the cards are of each colour, indexed by colour."""
    counts = [0] * COLOUR_COUNT
    for card in cards:
        counts[COLOUR[card]] += 1
    return tuple(counts)
