"""Cards as players read them: a colour square and the value (🟥7), and collections by colour."""

from __future__ import annotations

from collections.abc import Iterable

from ..rules import COLOUR, VALUE, colour_counts

SQUARES = ("🟥", "🟩", "🟦", "🟨", "🟪", "🟧")
"""Red, green, blue, yellow, purple, orange: the colours in the engine's order."""


def card_text(card: int) -> str:
    """A card as players read it: 🟥7."""
    return f"{SQUARES[COLOUR[card]]}{VALUE[card]}"


def cards_text(cards: Iterable[int]) -> str:
    """Cards by colour then value, separated by spaces (a dash when none)."""
    ordered = sorted(cards, key=lambda card: (COLOUR[card], VALUE[card]))
    return " ".join(card_text(card) for card in ordered) or "—"


def collection_text(cards: Iterable[int]) -> str:
    """A collection as G5 counts it, by colour: 🟥×3 🟩×1 (a dash when empty)."""
    counts = colour_counts(cards)
    shown = [f"{SQUARES[colour]}×{n}" for colour, n in enumerate(counts) if n]
    return " ".join(shown) or "—"


def taken_now(card: int, neighbours: tuple[int, ...], middle: tuple[int, ...]) -> tuple[int, ...]:
    """G4: what a move takes from `middle`: every card of its value, else the neighbours it
    names (empty: the card joins the middle)."""
    exact = tuple(c for c in middle if VALUE[c] == VALUE[card])
    return exact or neighbours
