"""SeatView: exactly what one seat may know, for players and computer players alike."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .events import Ends, Event, Played
from .moves import Move
from .rules import GameConfig
from .tiles import BIT, TILE_COUNT

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge: its own hand and discards, and the table's public information.

    It never holds another seat's tiles, the tiles set aside, or other seats' discards.
    """

    config: GameConfig
    seat: int
    round_number: int
    hand: int
    """Mask of the seat's own tiles."""
    own_discards: int
    """Mask of the tiles this seat discarded face down (D4); others' faces are hidden."""
    line: tuple[tuple[int, int], ...]
    ends: Ends | None
    start: int
    """The face-up starting tile (D1), or -1."""
    leader: int
    hand_counts: tuple[int, ...]
    discard_counts: tuple[int, ...]
    events: tuple[Event, ...]
    scores: tuple[int, ...]
    to_move: int | None
    legal: tuple[Move, ...]
    """The seat's legal moves when it is to move, else empty."""

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to move."""
        return self.to_move == self.seat

    @property
    def played(self) -> int:
        """Mask of the tiles on the line (the starting tile included)."""
        mask = 0
        for event in self.events:
            if isinstance(event, Played):
                mask |= BIT[event.tile]
        if self.start >= 0:
            mask |= BIT[self.start]
        return mask

    @property
    def unseen(self) -> int:
        """Mask of the tiles this seat cannot see: other hands, other discards, set aside."""
        return ((1 << TILE_COUNT) - 1) & ~(self.hand | self.own_discards | self.played)


def seat_view(game: Game, seat: int) -> SeatView:
    """Build `seat`'s view of the game's current round."""
    current = game.round
    return SeatView(
        config=game.config,
        seat=seat,
        round_number=game.round_number,
        hand=current.hands[seat],
        own_discards=current.discards[seat],
        line=tuple(current.line),
        ends=current.ends,
        start=current.deal.start,
        leader=current.deal.leader,
        hand_counts=tuple(h.bit_count() for h in current.hands),
        discard_counts=tuple(d.bit_count() for d in current.discards),
        events=tuple(current.events),
        scores=tuple(game.scores),
        to_move=current.to_move,
        legal=tuple(current.legal_moves()) if current.to_move == seat else (),
    )
