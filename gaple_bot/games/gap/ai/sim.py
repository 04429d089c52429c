"""A fast model of a Gap round for the computer players: plain lists, colour counts packed.

A seat's collection is kept only as its colour counts (all G5 needs), packed four bits a colour
into one int (a colour has ten cards, so a count never overflows): taking a card adds
`ADD[card]`, and `score` reads G5's score from a cache of packed counts.
"""

from __future__ import annotations

import random

from ..rules.cards import COLOUR, LOWER, UPPER, VALUE
from ..rules.config import MIDDLE_SIZE
from ..rules.scoring import score_counts

ADD: tuple[int, ...] = tuple(1 << (4 * colour) for colour in COLOUR)
"""Card -> what taking it adds to packed colour counts."""
_COLOURS = 6
_SCORES: dict[int, int] = {}


def pack(cards: list[int] | tuple[int, ...]) -> int:
    """The packed colour counts of these cards."""
    return sum(ADD[card] for card in cards)


def score(key: int) -> int:
    """G5: the score of a collection with these packed colour counts."""
    points = _SCORES.get(key)
    if points is None:
        points = score_counts((key >> (4 * colour)) & 15 for colour in range(_COLOURS))
        _SCORES[key] = points
    return points


def takes(card: int, middle: list[int] | tuple[int, ...]) -> tuple[bool, list[int], list[int]]:
    """G4 for `card` on `middle`: (exact, the cards taken if exact, else []), or the two lists
    of neighbour cards (lower value, upper value) to choose one of each from."""
    value = VALUE[card]
    low_value, high_value = LOWER[value], UPPER[value]
    exact: list[int] = []
    lows: list[int] = []
    highs: list[int] = []
    for c in middle:
        v = VALUE[c]
        if v == value:
            exact.append(c)
        elif v == low_value:
            lows.append(c)
        elif v == high_value:
            highs.append(c)
    if exact:
        return True, exact, []
    return False, lows, highs


def greedy(hand: list[int], middle: list[int], key: int) -> tuple[int, list[int], int]:
    """The play with the best score for a collection `key` after it: (card, taken, score).

    Ties go to the earlier card in `hand`, then to the earlier neighbour in `middle`; a card
    that takes nothing scores the collection as it is.
    """
    groups: dict[int, list[int]] = {}
    for c in middle:
        v = VALUE[c]
        group = groups.get(v)
        if group is None:
            groups[v] = [c]
        else:
            group.append(c)
    base = score(key)
    best_card = hand[0]
    best_taken: list[int] = []
    best = -1000
    get = groups.get
    scores = _SCORES
    for card in hand:
        value = VALUE[card]
        exact = get(value)
        if exact is not None:
            k = key + ADD[card]
            for c in exact:
                k += ADD[c]
            s = scores.get(k)
            if s is None:
                s = score(k)
            if s > best:
                best, best_card, best_taken = s, card, exact
            continue
        lows = get(LOWER[value])
        highs = get(UPPER[value])
        if lows is None and highs is None:
            if base > best:
                best, best_card, best_taken = base, card, []
            continue
        k0 = key + ADD[card]
        for low in lows or (-1,):
            k1 = k0 if low < 0 else k0 + ADD[low]
            for high in highs or (-1,):
                k = k1 if high < 0 else k1 + ADD[high]
                s = scores.get(k)
                if s is None:
                    s = score(k)
                if s > best:
                    best, best_card = s, card
                    if low < 0:
                        best_taken = [high]
                    elif high < 0:
                        best_taken = [low]
                    else:
                        best_taken = [low, high]
    return best_card, best_taken, best


class State:
    """A round in play: every hand, the middle, the pile from `drawn` on, packed collections."""

    __slots__ = ("drawn", "hands", "keys", "left", "middle", "pile", "seat")

    def __init__(
        self,
        hands: list[list[int]],
        middle: list[int],
        pile: list[int],
        keys: list[int],
        seat: int,
        drawn: int = 0,
    ) -> None:
        self.hands = hands
        self.middle = middle
        self.pile = pile
        self.keys = keys
        self.seat = seat
        self.drawn = drawn
        self.left = sum(len(hand) for hand in hands)

    def copy(self) -> State:
        """An independent copy (the pile is shared: it is only read)."""
        other = State.__new__(State)
        other.hands = [hand[:] for hand in self.hands]
        other.middle = self.middle[:]
        other.pile = self.pile
        other.keys = self.keys[:]
        other.seat = self.seat
        other.drawn = self.drawn
        other.left = self.left
        return other

    def play(self, card: int, taken: list[int] | tuple[int, ...]) -> None:
        """The seat to move plays `card` taking `taken` (a legal take), then G4's refill."""
        seat = self.seat
        self.hands[seat].remove(card)
        middle = self.middle
        if taken:
            key = self.keys[seat] + ADD[card]
            for c in taken:
                middle.remove(c)
                key += ADD[c]
            self.keys[seat] = key
        else:
            middle.append(card)
        if len(middle) < MIDDLE_SIZE:
            pile, drawn = self.pile, self.drawn
            while len(middle) < MIDDLE_SIZE and drawn < len(pile):
                middle.append(pile[drawn])
                drawn += 1
            self.drawn = drawn
        self.left -= 1
        self.seat = seat + 1 if seat + 1 < len(self.hands) else 0

    def rollout(self) -> None:
        """Every seat plays `greedy` until the hands are empty (G3: equal hands, so the seat
        to move always holds a card)."""
        hands, middle, pile, keys = self.hands, self.middle, self.pile, self.keys
        seats = len(hands)
        seat, drawn, left = self.seat, self.drawn, self.left
        while left:
            hand = hands[seat]
            key = keys[seat]
            card, taken, _ = greedy(hand, middle, key)
            hand.remove(card)
            if taken:
                key += ADD[card]
                for c in taken:
                    middle.remove(c)
                    key += ADD[c]
                keys[seat] = key
            else:
                middle.append(card)
            while len(middle) < MIDDLE_SIZE and drawn < len(pile):
                middle.append(pile[drawn])
                drawn += 1
            left -= 1
            seat = seat + 1 if seat + 1 < seats else 0
        self.seat, self.drawn, self.left = seat, drawn, left

    def mixed_rollout(self, rng: random.Random, epsilon: float) -> None:
        """Like `rollout`, but each play is, with probability `epsilon`, a uniformly random
        card of the hand (taking the first card of each neighbour value) instead of greedy's."""
        hands, middle, pile, keys = self.hands, self.middle, self.pile, self.keys
        seats = len(hands)
        seat, drawn, left = self.seat, self.drawn, self.left
        draw = rng.random
        while left:
            hand = hands[seat]
            key = keys[seat]
            if draw() < epsilon:
                card = hand[int(draw() * len(hand))]
                is_exact, first, second = takes(card, middle)
                taken = first if is_exact else [*first[:1], *second[:1]]
            else:
                card, taken, _ = greedy(hand, middle, key)
            hand.remove(card)
            if taken:
                key += ADD[card]
                for c in taken:
                    middle.remove(c)
                    key += ADD[c]
                keys[seat] = key
            else:
                middle.append(card)
            while len(middle) < MIDDLE_SIZE and drawn < len(pile):
                middle.append(pile[drawn])
                drawn += 1
            left -= 1
            seat = seat + 1 if seat + 1 < seats else 0
        self.seat, self.drawn, self.left = seat, drawn, left

    def random_rollout(self, rng: random.Random) -> None:
        """Every seat plays a uniformly random card of its hand until the hands are empty,
        taking (G4) a uniformly random card of each neighbour value when it has a choice."""
        hands, middle, pile, keys = self.hands, self.middle, self.pile, self.keys
        seats = len(hands)
        seat, drawn, left = self.seat, self.drawn, self.left
        draw = rng.random
        while left:
            hand = hands[seat]
            card = hand.pop(int(draw() * len(hand)))
            value = VALUE[card]
            low_value, high_value = LOWER[value], UPPER[value]
            exact: list[int] = []
            lows: list[int] = []
            highs: list[int] = []
            for c in middle:
                v = VALUE[c]
                if v == value:
                    exact.append(c)
                elif v == low_value:
                    lows.append(c)
                elif v == high_value:
                    highs.append(c)
            if not exact:
                if lows:
                    exact.append(lows[int(draw() * len(lows))] if len(lows) > 1 else lows[0])
                if highs:
                    exact.append(highs[int(draw() * len(highs))] if len(highs) > 1 else highs[0])
            if exact:
                key = keys[seat] + ADD[card]
                for c in exact:
                    middle.remove(c)
                    key += ADD[c]
                keys[seat] = key
            else:
                middle.append(card)
            while len(middle) < MIDDLE_SIZE and drawn < len(pile):
                middle.append(pile[drawn])
                drawn += 1
            left -= 1
            seat = seat + 1 if seat + 1 < seats else 0
        self.seat, self.drawn, self.left = seat, drawn, left

    def points(self) -> list[int]:
        """G5: every seat's score now."""
        scores = _SCORES
        return [scores[key] if key in scores else score(key) for key in self.keys]
