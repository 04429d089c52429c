"""A plain reference model of Gap (G1-G6), written apart from the engine: lists, no cleverness.

Cards are (colour, value) pairs. A move is the card played and the list of cards it takes.
"""

from __future__ import annotations

Card = tuple[int, int]
RefMove = tuple[Card, tuple[Card, ...]]


def ref_deck(seats: int) -> list[Card]:
    """G1: four colours for two players, five for three, six for four to six."""
    colours = {2: 4, 3: 5}.get(seats, 6)
    return [(colour, value) for colour in range(colours) for value in range(10)]


def ref_hand_size(seats: int) -> int:
    """G3: six cards each up to four players, five for more."""
    if seats <= 4:
        return 6
    return 5


def ref_score(collection: list[Card]) -> int:
    """G5, counted the slow way."""
    columns = []
    for colour in range(6):
        n = len([c for c in collection if c[0] == colour])
        if n > 0:
            columns.append(n)
    if not columns:
        return 0
    top = max(columns)
    bottom = min(columns)
    score = 0
    for n in columns:
        if n == top:
            score += n
    if bottom != top:
        for n in columns:
            if n == bottom:
                score -= n
    return score


def ref_winners(history: list[list[int]], target: int) -> list[int]:
    """G6: best total, then best single round, then who scored it first; the rest share."""
    seats = len(history[0])
    totals = [0] * seats
    for points in history:
        for seat in range(seats):
            totals[seat] += points[seat]
    if max(totals) < target:
        return []

    def rank(seat: int) -> tuple[int, int, int]:
        best = max(points[seat] for points in history)
        first = 0
        while history[first][seat] != best:
            first += 1
        return (-totals[seat], -best, first)

    ranks = [rank(seat) for seat in range(seats)]
    return [seat for seat in range(seats) if ranks[seat] == min(ranks)]


class RefRound:
    """One round: hands, middle, pile (next card first), collections, whose turn."""

    def __init__(
        self, hands: list[list[Card]], middle: list[Card], pile: list[Card], first: int
    ) -> None:
        self.hands = [list(h) for h in hands]
        self.middle = list(middle)
        self.pile = list(pile)
        self.collections: list[list[Card]] = [[] for _ in hands]
        self.to_move: int | None = first
        self.points: list[int] | None = None

    def legal_moves(self) -> set[RefMove]:
        """G4: every card in hand, with each way it may take."""
        moves: set[RefMove] = set()
        if self.to_move is None:
            return moves
        for card in self.hands[self.to_move]:
            value = card[1]
            same = [m for m in self.middle if m[1] == value]
            if same:
                moves.add((card, tuple(sorted(same))))
                continue
            below: list[Card | None] = [m for m in self.middle if m[1] == (value + 9) % 10]
            above: list[Card | None] = [m for m in self.middle if m[1] == (value + 1) % 10]
            for low in below or [None]:
                for high in above or [None]:
                    taken = tuple(x for x in (low, high) if x is not None)
                    moves.add((card, taken))
        return moves

    def play(self, move: RefMove) -> None:
        """Make a legal move, refill the middle, pass the turn, score when hands are empty."""
        card, taken = move
        allowed = [(c, sorted(t)) for c, t in self.legal_moves()]
        assert (card, sorted(taken)) in allowed
        assert self.to_move is not None
        seat = self.to_move
        self.hands[seat].remove(card)
        if taken:
            for c in taken:
                self.middle.remove(c)
                self.collections[seat].append(c)
            self.collections[seat].append(card)
        else:
            self.middle.append(card)
        while len(self.middle) < 4 and self.pile:
            self.middle.append(self.pile.pop(0))
        if all(len(h) == 0 for h in self.hands):
            self.to_move = None
            self.points = [ref_score(c) for c in self.collections]
        else:
            self.to_move = (seat + 1) % len(self.hands)
