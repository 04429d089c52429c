"""Dealing the cards a seat cannot see into the other hands and the pile, as far as it knows.

In Gap nothing is hidden but the other hands and the pile, and nothing narrows where an unseen
card lies (every card of a hand may be played at any time), so every way of dealing the unseen
cards into hands of the known sizes and a pile of the known size is equally likely.
"""

from __future__ import annotations

import random

from ..rules import SeatView


class SamplerError(ValueError):
    """The view's counts do not add up to its unseen cards (it cannot come from a real game)."""


class Sampler:
    """Draws deals of `view.unseen` consistent with the view: each other seat gets as many
    cards as it holds, the pile as many as it has, in a uniformly random order."""

    __slots__ = ("_counts", "_pile", "_swaps", "_unseen")

    def __init__(self, view: SeatView) -> None:
        self._unseen = list(view.unseen)
        self._counts = [0 if s == view.seat else n for s, n in enumerate(view.hand_counts)]
        self._pile = view.pile_count
        if len(view.hand) != view.hand_counts[view.seat]:
            raise SamplerError("the seat's hand does not match its count")
        if sum(self._counts) + self._pile != len(self._unseen) or self._pile < 0:
            raise SamplerError("the hand and pile counts do not add up to the unseen cards")
        last = len(self._unseen) - 1
        self._swaps = [(i, i + 1, (i + 1).bit_length()) for i in range(last, 0, -1)]
        """Fisher-Yates's steps: (position, the bound of its partner, the bits drawn for it)."""

    def sample(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """(hands, pile): every other seat's hand (the sampling seat's is empty) and the pile
        in drawing order."""
        cards = list(self._unseen)
        # Python 3.11's random.shuffle, draw for draw (so the same seed deals the same cards),
        # without its two method calls per card: the sampling is a tenth of a decision.
        bits = rng.getrandbits
        for i, bound, k in self._swaps:
            j = bits(k)
            while j >= bound:
                j = bits(k)
            cards[i], cards[j] = cards[j], cards[i]
        hands: list[list[int]] = []
        at = 0
        for count in self._counts:
            hands.append(cards[at : at + count])
            at += count
        return hands, cards[at:]
