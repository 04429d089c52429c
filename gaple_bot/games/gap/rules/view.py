"""SeatView: exactly what one seat of Gap may know, for computer players (picklable)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .config import GapConfig
from .events import Event
from .moves import Move

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge: its own hand and the table's public information.

    It never holds another seat's hand nor the pile's order (only how many cards it holds).
    """

    config: GapConfig
    seat: int
    round_number: int
    first: int
    """The seat that moved first this round."""
    hand: tuple[int, ...]
    """The seat's own cards, sorted."""
    middle: tuple[int, ...]
    """The face-up cards, in the order they arrived."""
    collections: tuple[tuple[int, ...], ...]
    """Every seat's collection so far (all face up)."""
    played: tuple[int, ...]
    """Every card played this round, in order."""
    hand_counts: tuple[int, ...]
    pile_count: int
    events: tuple[Event, ...]
    """This round's public events."""
    scores: tuple[int, ...]
    """The running totals of the finished rounds."""
    past_points: tuple[tuple[int, ...], ...]
    """Every finished round's points (for G6's tie-breaks)."""
    to_move: int | None
    legal: tuple[Move, ...]
    """The seat's legal moves when it is to move, else empty."""

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to move."""
        return self.to_move == self.seat

    @property
    def unseen(self) -> tuple[int, ...]:
        """The cards in play this seat cannot see (other hands and the pile), in id order."""
        seen = {*self.hand, *self.middle, *(c for cards in self.collections for c in cards)}
        return tuple(c for c in self.config.deck if c not in seen)


def seat_view(game: Game, seat: int) -> SeatView:
    """Build `seat`'s view of the game's current round."""
    current = game.round
    return SeatView(
        config=game.config,
        seat=seat,
        round_number=game.round_number,
        first=current.deal.first,
        hand=tuple(current.hands[seat]),
        middle=tuple(current.middle),
        collections=tuple(tuple(cards) for cards in current.collections),
        played=tuple(current.played),
        hand_counts=tuple(len(hand) for hand in current.hands),
        pile_count=len(current.pile),
        events=tuple(current.events),
        scores=game.scores,
        past_points=tuple(r.points for r in game.results),
        to_move=current.to_move,
        legal=tuple(current.legal_moves()) if current.to_move == seat else (),
    )
