"""What a front end may know of a game: its facts, nothing hidden, taken from the cached copy."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..store import GameStatus
from .live import LiveGame
from .views import SeatInfo


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What a front end may know of a game: where it is shown, who sits where, where
    it stands (nothing hidden: no hand, no deal)."""

    game_id: int
    kind: str
    chat_id: int
    thread_id: int | None
    message_id: int | None
    """The group message that shows the lobby or the table, if one was stored."""
    status: GameStatus
    opener_id: int
    paused: bool
    created_at: datetime
    deadline: datetime | None
    chat_title: str
    chat_language: str | None
    seats: tuple[SeatInfo, ...]
    hand_messages: tuple[int | None, ...]
    """Each seat's stored private hand message, by seat."""
    playing: bool
    """Whether its match has begun (a running game, or one that ended after it began)."""

    def seat_of(self, user_id: int) -> SeatInfo | None:
        """The seat the person sits in, if any."""
        return next((seat for seat in self.seats if seat.user_id == user_id), None)

    @property
    def languages(self) -> dict[int, str | None]:
        """Each seated person's own language, by user id."""
        return {seat.user_id: seat.language for seat in self.seats if seat.user_id is not None}


def facts_of(live: LiveGame) -> GameFacts:
    """The facts of a cached game."""
    return GameFacts(
        game_id=live.game_id,
        kind=live.kind.name,
        chat_id=live.chat_id,
        thread_id=live.thread_id,
        message_id=live.message_id,
        status=live.status,
        opener_id=live.opener_id,
        paused=live.paused,
        created_at=live.created_at,
        deadline=live.deadline,
        chat_title=live.chat.title or "",
        chat_language=live.chat.language,
        seats=live.seat_infos(),
        hand_messages=tuple(seat.hand_message_id for seat in live.seats),
        playing=live.match is not None,
    )
