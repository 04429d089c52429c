"""What the bot layer renders: public table state and a seat's private state, as plain values."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..games.gaple.rules import Ends, Event, Game, GameConfig, Move, RoundEnded
from ..store import GameStatus

__all__ = [
    "GameStatus",
    "HandView",
    "LobbyView",
    "Person",
    "RoundReveal",
    "SeatInfo",
    "TableView",
]


@dataclass(frozen=True, slots=True)
class Person:
    """Someone the bot heard from: Telegram id, display name, their app's language."""

    user_id: int
    name: str
    telegram_language: str | None = None


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Who sits in a seat: a person (user_id) or a computer player (computer_level)."""

    number: int
    user_id: int | None
    name: str
    computer_level: str | None = None
    autoplay: bool = False
    """A person's seat being played by the computer (timeouts, or the bot was blocked)."""
    language: str | None = None
    """The person's chosen language for private messages (None: follow the chat)."""
    former: bool = False
    """The seat of someone who deleted their data: the computer plays it, under a neutral
    name, and nobody is messaged for it."""

    @property
    def is_computer(self) -> bool:
        """A computer player's own seat (not a person's seat on autoplay)."""
        return self.user_id is None

    @property
    def computer_moves(self) -> bool:
        """Whether the computer chooses this seat's moves."""
        return self.user_id is None or self.autoplay


@dataclass(frozen=True, slots=True)
class LobbyView:
    """A game waiting for players."""

    game_id: int
    chat_id: int
    thread_id: int | None
    opener_id: int
    config: GameConfig
    seats: tuple[SeatInfo, ...]
    capacity: int
    status: GameStatus
    language: str | None = None
    """The chat's language (None: the bot's default)."""
    join_token: str | None = None
    """The secret of the lobby's join link (None: no link joins it)."""


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything anyone at the table may see: no hand, no set-aside tile, no discard face."""

    game_id: int
    version: int
    chat_id: int
    thread_id: int | None
    config: GameConfig
    status: GameStatus
    round_number: int
    line: tuple[tuple[int, int], ...]
    ends: Ends | None
    seats: tuple[SeatInfo, ...]
    hand_counts: tuple[int, ...]
    discard_counts: tuple[int, ...]
    scores: tuple[int, ...]
    to_move: int | None
    deadline: datetime | None
    events: tuple[Event, ...]
    result: RoundEnded | None
    winner: int | None
    language: str | None = None
    """The chat's language (None: the bot's default)."""
    chat_title: str = ""


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat's private state: its hand, its discards and, on its turn, its legal moves."""

    game_id: int
    version: int
    seat: int
    hand: int
    discards: int
    legal: tuple[Move, ...]
    table: TableView


@dataclass(frozen=True, slots=True)
class RoundReveal:
    """A finished round shown to everyone: every hand and discard is public now."""

    table: TableView
    hands: tuple[int, ...]
    discards: tuple[int, ...]
    result: RoundEnded


def table_view(
    game: Game,
    *,
    game_id: int,
    version: int,
    chat_id: int,
    thread_id: int | None,
    seats: tuple[SeatInfo, ...],
    status: GameStatus,
    deadline: datetime | None,
    language: str | None,
    chat_title: str,
) -> TableView:
    """The public part of an engine game; reads nothing hidden."""
    current = game.round
    return TableView(
        game_id=game_id,
        version=version,
        chat_id=chat_id,
        thread_id=thread_id,
        config=game.config,
        status=status,
        round_number=game.round_number,
        line=tuple(current.line),
        ends=current.ends,
        seats=seats,
        hand_counts=tuple(hand.bit_count() for hand in current.hands),
        discard_counts=tuple(d.bit_count() for d in current.discards),
        scores=tuple(game.scores),
        to_move=current.to_move,
        deadline=deadline,
        events=tuple(current.events),
        result=current.result,
        winner=game.winner,
        language=language,
        chat_title=chat_title,
    )
