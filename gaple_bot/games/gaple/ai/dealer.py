"""Deals of the hidden tiles that fit what one seat knows, in the simulation's bit order."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..rules import SeatView
from .knowledge import Knowledge, PlaceKind, knowledge_of
from .playout import to_bits
from .sampler import Sampler, SamplerError


def _sampler(knowledge: Knowledge) -> Sampler:
    """A sampler of the hidden tiles in the simulation's bit order."""
    return Sampler(
        to_bits(knowledge.unseen), [(p.count, to_bits(p.allowed)) for p in knowledge.places]
    )


def knowledge_and_sampler(view: SeatView) -> tuple[Knowledge, Sampler]:
    """What the seat knows and a sampler for it, dropping the C4 inference if it misleads."""
    knowledge = knowledge_of(view)
    try:
        sampler = _sampler(knowledge)
        sampler.sample(random.Random(0))
    except SamplerError:
        # Only the C4 inference is an assumption: a hand-made first deal may break it.
        knowledge = knowledge_of(view, assume_c4=False)
        sampler = _sampler(knowledge)
    return knowledge, sampler


@dataclass(frozen=True, slots=True)
class Dealer:
    """Deals of the hidden tiles consistent with what one seat knows, around its own hand and
    discards."""

    knowledge: Knowledge
    sampler: Sampler
    hands: list[int]
    """Each seat's hand in simulation bits, the seat's own filled in, the others empty."""
    discs: list[int]
    """Likewise the discards."""

    @classmethod
    def of(cls, view: SeatView, seats: int) -> Dealer:
        """The dealer for the seat to move in `view`."""
        knowledge, sampler = knowledge_and_sampler(view)
        hands, discs = [0] * seats, [0] * seats
        hands[view.seat] = to_bits(view.hand)
        discs[view.seat] = to_bits(view.own_discards)
        return cls(knowledge, sampler, hands, discs)

    def deal(self, rng: random.Random) -> tuple[list[int], list[int], float]:
        """One deal: every seat's hand and discards (fresh lists), and its weight."""
        masks, weight = self.sampler.sample(rng)
        hands, discs = list(self.hands), list(self.discs)
        for place, mask in zip(self.knowledge.places, masks, strict=True):
            if place.kind is PlaceKind.HAND:
                hands[place.seat] = mask
            elif place.kind is PlaceKind.DISCARDS:
                discs[place.seat] |= mask
        return hands, discs, weight
