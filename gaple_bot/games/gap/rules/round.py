"""One round of Gap in play: legal moves, taking from the middle, refilling it, scoring (G3-G5)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import COLOUR, LOWER, UPPER, VALUE, VALUE_COUNT
from .config import MIDDLE_SIZE, GapConfig
from .deal import Deal
from .errors import IllegalMoveError, NotYourTurnError, RoundOverError, SerialError
from .events import Event, Played, Refilled, RoundEnded
from .moves import ALL_MOVES, NONE, Move
from .scoring import score_collection

_CARDS = 60
_SIDE = NONE + 1


@dataclass(frozen=True, slots=True)
class RoundResult:
    """G5: a finished round: every seat's collection (in the order taken) and its points."""

    points: tuple[int, ...]
    collections: tuple[tuple[int, ...], ...]

    def to_dict(self) -> dict[str, object]:
        """The result as JSON: {"points": [...], "collections": [[...], ...]}."""
        return {
            "points": list(self.points),
            "collections": [list(cards) for cards in self.collections],
        }

    @staticmethod
    def from_dict(data: dict[str, object]) -> RoundResult:
        """The result stored by `to_dict`."""
        if not isinstance(data, dict):
            raise SerialError("a stored result is a JSON object")
        points, collections = data.get("points"), data.get("collections")
        if not isinstance(points, list) or not isinstance(collections, list):
            raise SerialError("a stored result needs points and collections")
        if not all(isinstance(p, int) for p in points):
            raise SerialError("points must be integers")
        if not all(
            isinstance(cards, list) and all(isinstance(c, int) for c in cards)
            for cards in collections
        ):
            raise SerialError("collections must be lists of card ids")
        return RoundResult(tuple(points), tuple(tuple(cards) for cards in collections))


def _by_value(middle: list[int]) -> list[list[int]]:
    """The middle's cards grouped by value (value -> cards in the middle's order)."""
    groups: list[list[int]] = [[] for _ in range(VALUE_COUNT)]
    for card in middle:
        groups[VALUE[card]].append(card)
    return groups


class Round:
    """The state of one round, changed only by `apply`, which validates before it changes."""

    __slots__ = (
        "_in_hands",
        "_seats",
        "collections",
        "config",
        "deal",
        "events",
        "hands",
        "middle",
        "moves",
        "pile",
        "played",
        "result",
        "to_move",
    )

    def __init__(self, config: GapConfig, deal: Deal, *, _trusted: bool = False) -> None:
        """A round from its deal; `_trusted` skips validating a deal that deal_round built."""
        if not _trusted:
            deal.validate(config)
        self.config = config
        self.deal = deal
        self._seats = config.seats
        self.hands: list[list[int]] = [list(hand) for hand in deal.hands]
        """Every seat's hand, sorted."""
        self.middle: list[int] = list(deal.middle)
        """The face-up cards, in the order they arrived."""
        self.pile: list[int] = list(deal.pile)
        """The face-down pile, the next card first."""
        self.collections: list[list[int]] = [[] for _ in range(config.seats)]
        """Every seat's collection, in the order taken (each take: the cards taken, then the
        card played)."""
        self._in_hands = sum(len(hand) for hand in deal.hands)
        self.played: list[int] = []
        """The cards played so far, in order."""
        self.events: list[Event] = []
        self.moves: list[int] = []
        """The codes of the moves made, in order."""
        self.result: RoundResult | None = None
        self.to_move: int | None = deal.first

    @property
    def is_over(self) -> bool:
        """Whether the round has ended (G5: every hand is empty)."""
        return self.result is not None

    @property
    def ply(self) -> int:
        """Moves made so far in this round."""
        return len(self.moves)

    def legal_moves(self) -> list[Move]:
        """G4: the moves the seat to move may make, sorted by code; empty once the round is over.

        Every card in hand can be played. An exact match takes every card of its value, so its
        move names no neighbour; otherwise the move names one card of each neighbour value in
        the middle (one move per choice of colours); with neither, the card joins the middle.
        """
        seat = self.to_move
        if seat is None:
            return []
        groups = _by_value(self.middle)
        codes: list[int] = []
        for card in self.hands[seat]:
            value = VALUE[card]
            if groups[value]:
                codes.append(card + _CARDS * (NONE + _SIDE * NONE))
                continue
            lows = [COLOUR[c] for c in groups[LOWER[value]]] or [NONE]
            highs = [COLOUR[c] for c in groups[UPPER[value]]] or [NONE]
            for high in highs:
                for low in lows:
                    codes.append(card + _CARDS * (low + _SIDE * high))
        codes.sort()
        return [ALL_MOVES[code] for code in codes]

    def moves_of(self, card: int) -> list[Move]:
        """The legal moves that play `card` (several when a neighbour value offers a choice)."""
        return [m for m in self.legal_moves() if m.card == card]

    def is_legal(self, move: Move) -> bool:
        """Whether `move` is among `legal_moves()`, without building the list."""
        return self._takes(move) is not None

    def taken_by(self, move: Move) -> tuple[int, ...]:
        """G4: the cards a legal `move` takes from the middle now (an exact match's in id order,
        neighbours the lower value's first; empty: the card joins the middle); raises
        IllegalMoveError for a move that is not legal."""
        taken = self._takes(move)
        if taken is None:
            raise IllegalMoveError(f"{move} is not a legal move now")
        return taken

    def _takes(self, move: Move) -> tuple[int, ...] | None:
        """What a move of the seat to move takes, or None when the move is not legal."""
        seat = self.to_move
        card = move.card
        if seat is None or card not in self.hands[seat]:
            return None
        value = VALUE[card]
        low = high = -1
        exact: list[int] = []
        for c in self.middle:
            v = VALUE[c]
            if v == value:
                exact.append(c)
            elif v == LOWER[value]:
                if COLOUR[c] == move.low:
                    low = c
                elif low == -1:
                    low = -2
            elif v == UPPER[value]:
                if COLOUR[c] == move.high:
                    high = c
                elif high == -1:
                    high = -2
        if exact:
            # G4: an exact match is compulsory; its takes are implied, so it names no neighbour.
            if move.low != NONE or move.high != NONE:
                return None
            exact.sort()
            return tuple(exact)
        # G4 (decision): one card of every neighbour value present must be taken (-2: present
        # but not the colour named); an absent value must not be named (-1: absent).
        if low == -2 or high == -2 or (low == -1) != (move.low == NONE):
            return None
        if (high == -1) != (move.high == NONE):
            return None
        if low < 0:
            return () if high < 0 else (high,)
        return (low,) if high < 0 else (low, high)

    def apply(self, seat: int, move: Move) -> list[Event]:
        """Make `move` for `seat` and return the events it caused; raise and change nothing if
        the round is over, it is not `seat`'s turn, or the move is not legal."""
        if self.to_move is None:
            raise RoundOverError("the round is over")
        if seat != self.to_move:
            raise NotYourTurnError(f"seat {self.to_move} is to move, not seat {seat}")
        card = move.card
        taken = self._takes(move)
        if taken is None:
            raise IllegalMoveError(f"{move} is not a legal move now")
        self.hands[seat].remove(card)
        self._in_hands -= 1
        self.played.append(card)
        self.moves.append(move.code)
        middle = self.middle
        if taken:
            # G4: the played card joins the collection with what it takes.
            for c in taken:
                middle.remove(c)
            self.collections[seat].extend(taken)
            self.collections[seat].append(card)
        else:
            middle.append(card)
        played = Played(seat, card, taken)
        self.events.append(played)
        events: list[Event] = [played]
        # G4: refill to four while the pile lasts; a middle beyond four is never cut back.
        missing = MIDDLE_SIZE - len(middle)
        if missing > 0 and self.pile:
            drawn = tuple(self.pile[:missing])
            del self.pile[:missing]
            middle.extend(drawn)
            refilled = Refilled(drawn)
            self.events.append(refilled)
            events.append(refilled)
        if self._in_hands == 0:
            events.append(self._finish())
        else:
            # G3: hands are equal and never refilled, so the next seat always holds a card.
            self.to_move = seat + 1 if seat + 1 < self._seats else 0
        return events

    def _finish(self) -> RoundEnded:
        """G5: every hand is empty; score every collection."""
        collections = tuple(tuple(cards) for cards in self.collections)
        points = tuple(score_collection(cards) for cards in collections)
        self.result = RoundResult(points, collections)
        ended = RoundEnded(points)
        self.events.append(ended)
        self.to_move = None
        return ended

    def replay_key(self) -> tuple[object, ...]:
        """Everything that makes this round's state; equal keys mean equal states."""
        return (
            self.deal,
            tuple(tuple(hand) for hand in self.hands),
            tuple(self.middle),
            tuple(self.pile),
            tuple(tuple(cards) for cards in self.collections),
            tuple(self.played),
            tuple(self.events),
            tuple(self.moves),
            self.result,
            self.to_move,
        )
