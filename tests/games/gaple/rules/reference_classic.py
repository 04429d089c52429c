"""A deliberately plain model of the classic rules C1-C13, written from RULES.md for the tests."""

from __future__ import annotations

Tile = tuple[int, int]
"""A tile as (low, high)."""
Play = tuple[Tile, str]
"""A tile and the side it goes to: "left" or "right"."""
RefMove = Play | None
"""A play, or None for a pass."""

LEFT = "left"
RIGHT = "right"

# C1: every pair (a, b) with 0 <= a <= b <= 6.
ALL_TILES: list[Tile] = [(a, b) for a in range(7) for b in range(a, 7)]


def weight(tile: Tile) -> int:
    """C1: a tile's weight is a + b."""
    return tile[0] + tile[1]


def pip_total(hand: list[Tile]) -> int:
    """The pips left in a hand."""
    return sum(weight(tile) for tile in hand)


def first_lead(hands: list[list[Tile]]) -> tuple[int, Tile]:
    """C4: who leads the first round and with which tile."""
    for number in (6, 5, 4, 3, 2, 1, 0):
        double = (number, number)
        for seat, hand in enumerate(hands):
            if double in hand:
                return seat, double
    best_seat = -1
    best_tile = (-1, -1)
    for seat, hand in enumerate(hands):
        for tile in hand:
            # The heaviest tile: weight first, then the higher end.
            if (weight(tile), tile[1]) > (weight(best_tile), best_tile[1]):
                best_seat, best_tile = seat, tile
    return best_seat, best_tile


def blocked_round_winner(hands: list[list[Tile]]) -> int:
    """C11: the lowest pip total; then fewer tiles; then the lighter lightest tile."""

    def standing(seat: int) -> tuple[int, int, tuple[int, int]]:
        hand = hands[seat]
        lightest = min((weight(tile), tile[0]) for tile in hand)
        return (pip_total(hand), len(hand), lightest)

    best = 0
    for seat in range(1, len(hands)):
        if standing(seat) < standing(best):
            best = seat
    return best


class RefRound:
    """One classic round, kept as plain lists: hands, and the line from left to right."""

    def __init__(self, hands: list[list[Tile]], leader: int, lead_tile: Tile | None) -> None:
        self.hands = [list(hand) for hand in hands]
        self.seats = len(hands)
        self.lead_tile = lead_tile
        self.line: list[Tile] = []
        self.to_move: int | None = leader
        self.reason: str | None = None
        self.winner: int | None = None
        self.counts: list[int] = []
        self.points: list[int] = []

    def ends(self) -> tuple[int, int] | None:
        """The numbers at the left and right of the line, or None while it is empty."""
        if not self.line:
            return None
        return self.line[0][0], self.line[-1][1]

    def legal_moves(self) -> set[RefMove]:
        """C4/C5 for the lead, C7 for plays, C9 for the pass."""
        if self.to_move is None:
            return set()
        hand = self.hands[self.to_move]
        ends = self.ends()
        if ends is None:
            # The first tile has no side; like the engine we call it "right".
            if self.lead_tile is not None:
                return {(self.lead_tile, RIGHT)}
            return {(tile, RIGHT) for tile in hand}
        left, right = ends
        moves: set[RefMove] = set()
        for tile in hand:
            if left == right:
                # C7 decision: equal ends are one move, placed on the right.
                if left in tile:
                    moves.add((tile, RIGHT))
            else:
                if left in tile:
                    moves.add((tile, LEFT))
                if right in tile:
                    moves.add((tile, RIGHT))
        if not moves:
            moves.add(None)
        return moves

    def play(self, move: RefMove) -> None:
        """Make a legal move for the seat to move, then end the round or pass the turn (C6)."""
        seat = self.to_move
        assert seat is not None, "the round is over"
        assert move in self.legal_moves(), f"{move} is not legal"
        if move is not None:
            tile, side = move
            self.hands[seat].remove(tile)
            ends = self.ends()
            if ends is None:
                self.line.append(tile)
            elif side == LEFT:
                # C7: the tile's other number becomes the new left end.
                matched = ends[0]
                other = tile[1] if tile[0] == matched else tile[0]
                self.line.insert(0, (other, matched))
            else:
                matched = ends[1]
                other = tile[1] if tile[0] == matched else tile[0]
                self.line.append((matched, other))
            if not self.hands[seat]:
                # C10 and C11a: the last tile wins even when it also blocks the line.
                self.finish("gaple", seat)
                return
            if self.is_blocked():
                self.finish("blocked", blocked_round_winner(self.hands))
                return
        self.to_move = (seat + 1) % self.seats

    def is_blocked(self) -> bool:
        """C11: no tile in any hand fits either end."""
        ends = self.ends()
        assert ends is not None
        for hand in self.hands:
            for tile in hand:
                if ends[0] in tile or ends[1] in tile:
                    return False
        return True

    def finish(self, reason: str, winner: int) -> None:
        """C12: the winner scores the pips left in every other hand, the others nothing."""
        self.reason = reason
        self.winner = winner
        self.counts = [pip_total(hand) for hand in self.hands]
        self.points = [0] * self.seats
        for seat in range(self.seats):
            if seat != winner:
                self.points[winner] += self.counts[seat]
        self.to_move = None


class RefGame:
    """Classic rounds one after another with running scores (C5, C13)."""

    def __init__(self, seats: int, target: int) -> None:
        self.seats = seats
        self.target = target
        self.scores = [0] * seats
        self.last_winner: int | None = None
        self.winner: int | None = None

    def start_round(self, hands: list[list[Tile]]) -> RefRound:
        """C4 for the first round, C5 afterwards."""
        if self.last_winner is None:
            leader, lead_tile = first_lead(hands)
            return RefRound(hands, leader, lead_tile)
        return RefRound(hands, self.last_winner, None)

    def end_round(self, finished: RefRound) -> None:
        """C13: add the round's points; the first total to reach the target wins the game."""
        assert finished.winner is not None
        for seat in range(self.seats):
            self.scores[seat] += finished.points[seat]
        self.last_winner = finished.winner
        if self.scores[finished.winner] >= self.target:
            self.winner = finished.winner
