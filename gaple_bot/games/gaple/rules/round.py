"""One round of Gaple in play: legal moves, applying them, and the round's end (C6-C12, D2-D6)."""

from __future__ import annotations

from .deal import Deal
from .errors import IllegalMoveError, NotYourTurnError, RoundOverError
from .events import Discarded, EndReason, Ends, Event, Passed, Played, RoundEnded
from .moves import DISCARDS, PASS, PLAYS_LEFT, PLAYS_RIGHT, Move, MoveKind, Side
from .rules import GameConfig
from .scoring import score_round
from .tiles import BIT, HIGH, LOW, NUMBER_MASK

_Chunks = tuple[tuple[tuple[Move, ...], ...], ...]


def _chunked(moves: tuple[Move, ...]) -> _Chunks:
    """Tables [k][bits] -> the moves of the tiles 7k..7k+6 whose bits are set, so a mask's
    moves are four lookups instead of a loop over its bits."""
    return tuple(
        tuple(tuple(moves[7 * k + i] for i in range(7) if bits >> i & 1) for bits in range(128))
        for k in range(4)
    )


def _moves_in(chunks: _Chunks, mask: int) -> list[Move]:
    """The moves of `chunks` for the tiles in `mask`, lowest tile id first."""
    return [
        *chunks[0][mask & 127],
        *chunks[1][mask >> 7 & 127],
        *chunks[2][mask >> 14 & 127],
        *chunks[3][mask >> 21],
    ]


_LEFT_CHUNKS = _chunked(PLAYS_LEFT)
_RIGHT_CHUNKS = _chunked(PLAYS_RIGHT)
_DISCARD_CHUNKS = _chunked(DISCARDS)
_OTHER_END: tuple[int, ...] = tuple(
    (HIGH[t] if LOW[t] == n else LOW[t]) if n in (LOW[t], HIGH[t]) else -1
    for t in range(len(LOW))
    for n in range(7)
)
"""[tile * 7 + number] -> the tile's other number when `number` is matched, or -1."""
_PLAY = MoveKind.PLAY
_PASS = MoveKind.PASS
_LEFT = Side.LEFT


class Round:
    """The state of one round, changed only by `apply`, which validates before it changes."""

    __slots__ = (
        "_seats",
        "config",
        "deal",
        "discards",
        "events",
        "hands",
        "in_hands",
        "left",
        "line",
        "moves",
        "result",
        "right",
        "to_move",
    )

    def __init__(self, config: GameConfig, deal: Deal, *, _trusted: bool = False) -> None:
        """A round from its deal; `_trusted` skips validating a deal that deal_round built."""
        if not _trusted:
            deal.validate(config)
        self.config = config
        self._seats = config.seats
        self.deal = deal
        self.hands: list[int] = list(deal.hands)
        self.discards: list[int] = [0] * config.seats
        self.in_hands = 0
        for hand in deal.hands:
            self.in_hands |= hand
        self.line: list[tuple[int, int]] = []
        self.left = -1
        self.right = -1
        if deal.start >= 0:
            # D1: the starting tile lies face up, low end on the left.
            self.line.append((LOW[deal.start], HIGH[deal.start]))
            self.left, self.right = LOW[deal.start], HIGH[deal.start]
        self.to_move: int | None = deal.leader
        self.events: list[Event] = []
        self.moves: list[int] = []
        self.result: RoundEnded | None = None
        if self.left >= 0 and self._blocked():
            self._finish(EndReason.BLOCKED, deal.leader)

    @property
    def ends(self) -> Ends | None:
        """The open ends (left, right), or None before the first tile is down."""
        return None if self.left < 0 else (self.left, self.right)

    @property
    def is_over(self) -> bool:
        """Whether the round has ended."""
        return self.result is not None

    def _blocked(self) -> bool:
        """C11: no tile in any hand fits either end (tiles set aside do not count)."""
        return not self.in_hands & (NUMBER_MASK[self.left] | NUMBER_MASK[self.right])

    def legal_moves(self) -> list[Move]:
        """The moves the seat to move may make; empty once the round is over."""
        seat = self.to_move
        if seat is None:
            return []
        hand = self.hands[seat]
        left, right = self.left, self.right
        if left < 0:
            # C4: the first classic lead is one set tile; C5: later leaders choose any.
            if self.deal.lead_tile >= 0:
                return [PLAYS_RIGHT[self.deal.lead_tile]]
            return _moves_in(_RIGHT_CHUNKS, hand)
        at_right = hand & NUMBER_MASK[right]
        if left == right:
            # C7 (decision): equal ends make one move, placed on the right.
            if at_right:
                return _moves_in(_RIGHT_CHUNKS, at_right)
        else:
            at_left = hand & NUMBER_MASK[left]
            # C7: a tile fitting both (different) ends is offered at each.
            if at_left and at_right:
                return _moves_in(_LEFT_CHUNKS, at_left) + _moves_in(_RIGHT_CHUNKS, at_right)
            if at_left:
                return _moves_in(_LEFT_CHUNKS, at_left)
            if at_right:
                return _moves_in(_RIGHT_CHUNKS, at_right)
        # C9: no drawing; D4: discard unless the chat chose to pass instead.
        if self.config.discards_when_stuck:
            return _moves_in(_DISCARD_CHUNKS, hand)
        return [PASS]

    def is_legal(self, move: Move) -> bool:
        """Whether `move` is among `legal_moves()`, without building the list."""
        seat = self.to_move
        if seat is None:
            return False
        hand = self.hands[seat]
        left, right = self.left, self.right
        if move.kind is _PLAY:
            tile = move.tile
            if not hand & BIT[tile]:
                return False
            if left < 0:
                lead = self.deal.lead_tile
                return move.side is Side.RIGHT and (lead < 0 or lead == tile)
            if move.side is _LEFT:
                return left != right and left in (LOW[tile], HIGH[tile])
            return right in (LOW[tile], HIGH[tile])
        stuck = left >= 0 and not hand & (NUMBER_MASK[left] | NUMBER_MASK[right])
        if move.kind is _PASS:
            return stuck and not self.config.discards_when_stuck
        return stuck and self.config.discards_when_stuck and bool(hand & BIT[move.tile])

    def apply(self, seat: int, move: Move) -> list[Event]:
        """Make `move` for `seat` and return the events it caused; raise and change nothing if
        the round is over, it is not `seat`'s turn, or the move is not legal."""
        if self.to_move is None:
            raise RoundOverError("the round is over")
        if seat != self.to_move:
            raise NotYourTurnError(f"seat {self.to_move} is to move, not seat {seat}")
        left, right = self.left, self.right
        tile = move.tile
        kind = move.kind
        if kind is _PLAY:
            bit = BIT[tile]
            hand = self.hands[seat]
            # C7/C8: the tile's other number becomes the end it is put on (-1: it does not fit).
            if left < 0:
                if not self.is_legal(move):
                    raise IllegalMoveError(f"{move} is not a legal move now")
                left, right = LOW[tile], HIGH[tile]
                self.line.append((left, right))
                ends = None
            elif move.side is _LEFT:
                new_end = _OTHER_END[tile * 7 + left]
                # C7 (decision): with equal ends only the right side is offered.
                if new_end < 0 or left == right or not hand & bit:
                    raise IllegalMoveError(f"{move} is not a legal move now")
                self.line.insert(0, (new_end, left))
                ends = (left, right)
                left = new_end
            else:
                new_end = _OTHER_END[tile * 7 + right]
                if new_end < 0 or not hand & bit:
                    raise IllegalMoveError(f"{move} is not a legal move now")
                self.line.append((right, new_end))
                ends = (left, right)
                right = new_end
            self.moves.append(move.code)
            hand ^= bit
            self.hands[seat] = hand
            self.in_hands ^= bit
            self.left, self.right = left, right
            played = Played(seat, tile, move.side, ends)
            self.events.append(played)
            if not hand:
                return [played, self._finish(EndReason.GAPLE, seat)]
            if not self.in_hands & (NUMBER_MASK[left] | NUMBER_MASK[right]):
                return [played, self._finish(EndReason.BLOCKED, seat)]
            self.to_move = seat + 1 if seat + 1 < self._seats else 0  # C6
            return [played]
        if not self.is_legal(move):
            raise IllegalMoveError(f"{move} is not a legal move now")
        self.moves.append(move.code)
        ends = (left, right)
        event: Event
        if kind is _PASS:
            event = Passed(seat, ends)
            self.events.append(event)
        else:
            bit = BIT[tile]
            self.hands[seat] ^= bit
            self.discards[seat] |= bit
            self.in_hands ^= bit
            event = Discarded(seat, ends)
            self.events.append(event)
            if not self.hands[seat]:
                return [event, self._finish(EndReason.DISCARDED_OUT, seat)]
        self.to_move = seat + 1 if seat + 1 < self._seats else 0  # C6
        return [event]

    def _finish(self, reason: EndReason, mover: int) -> RoundEnded:
        winner, counts, points = score_round(self.config, reason, mover, self.hands, self.discards)
        self.result = RoundEnded(reason, winner, counts, points)
        self.events.append(self.result)
        self.to_move = None
        return self.result

    def replay_key(self) -> tuple[object, ...]:
        """Everything that makes this round's state; equal keys mean equal states."""
        return (
            self.deal,
            tuple(self.hands),
            tuple(self.discards),
            tuple(self.line),
            self.left,
            self.right,
            self.to_move,
            tuple(self.events),
            tuple(self.moves),
        )
