"""Dealing a round (G1, G3): the hands, the four cards in the middle, the pile, who moves first."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import CARD_COUNT
from .config import MIDDLE_SIZE, GapConfig
from .errors import DealError


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's start: every hand (card ids, sorted), the middle, the pile and the first seat.

    `pile` is in drawing order, the next card first. Hands are sorted on construction, so deals
    that hold the same cards compare equal.
    """

    hands: tuple[tuple[int, ...], ...]
    middle: tuple[int, ...]
    pile: tuple[int, ...]
    first: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(tuple(sorted(hand)) for hand in self.hands))
        object.__setattr__(self, "middle", tuple(self.middle))
        object.__setattr__(self, "pile", tuple(self.pile))

    def validate(self, config: GapConfig) -> None:
        """Raise DealError unless this deal fits the config: G1's deck, each card once, G3's
        hand size and four cards in the middle, and a first seat at the table."""
        if len(self.hands) != config.seats:
            raise DealError(f"a deal for {config.seats} seats has {len(self.hands)} hands")
        for hand in self.hands:
            if len(hand) != config.hand_size:
                raise DealError(f"G3: every hand holds {config.hand_size} cards")
        if len(self.middle) != MIDDLE_SIZE:
            raise DealError(f"G3: the middle starts with {MIDDLE_SIZE} cards")
        cards = [*(c for hand in self.hands for c in hand), *self.middle, *self.pile]
        if len(set(cards)) != len(cards):
            raise DealError("a card is dealt twice")
        if sorted(cards) != list(config.deck):
            raise DealError(f"G1: the deal must use exactly the {len(config.deck)} cards in play")
        if not 0 <= self.first < config.seats:
            raise DealError(f"no seat {self.first} moves first at {config.seats} seats")

    def to_dict(self) -> dict[str, object]:
        """The deal as plain JSON values (card ids)."""
        return {
            "hands": [list(hand) for hand in self.hands],
            "middle": list(self.middle),
            "pile": list(self.pile),
            "first": self.first,
        }

    @staticmethod
    def from_dict(data: dict[str, object]) -> Deal:
        """The deal stored by `to_dict` (its shape checked; its fit to a config: `validate`)."""
        if not isinstance(data, dict):
            raise DealError("a stored deal is a JSON object")
        try:
            hands, middle, pile, first = data["hands"], data["middle"], data["pile"], data["first"]
        except KeyError as exc:
            raise DealError(f"a stored deal lacks {exc}") from exc
        if not (isinstance(hands, list) and isinstance(middle, list) and isinstance(pile, list)):
            raise DealError("hands, middle and pile must be lists")
        if not all(isinstance(hand, list) for hand in hands):
            raise DealError("every hand must be a list")
        if not isinstance(first, int) or isinstance(first, bool):
            raise DealError("first must be an integer")
        for card in [*middle, *pile, *(c for hand in hands for c in hand)]:
            if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < CARD_COUNT:
                raise DealError(f"not a card id: {card!r}")
        return Deal(
            hands=tuple(tuple(hand) for hand in hands),
            middle=tuple(middle),
            pile=tuple(pile),
            first=first,
        )


def deal_round(config: GapConfig, rng: random.Random, first: int) -> Deal:
    """G1/G3: shuffle the cards in play with `rng`, deal the hands, turn up four, pile the rest."""
    if not 0 <= first < config.seats:
        raise DealError(f"no seat {first} moves first at {config.seats} seats")
    order = list(config.deck)
    rng.shuffle(order)
    size = config.hand_size
    dealt = config.seats * size
    hands = tuple(tuple(sorted(order[i * size : (i + 1) * size])) for i in range(config.seats))
    return Deal(
        hands=hands,
        middle=tuple(order[dealt : dealt + MIDDLE_SIZE]),
        pile=tuple(order[dealt + MIDDLE_SIZE :]),
        first=first,
    )
