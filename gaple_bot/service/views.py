"""What the bot layer renders: people, lobbies, and the games' public and private views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games.views import HandView, RoundReveal, SeatInfo, TableView
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
class LobbyView:
    """A game waiting for players."""

    game_id: int
    kind: str
    chat_id: int
    thread_id: int | None
    opener_id: int
    config: dict[str, Any]
    """The game's stored config (its seat count is provisional until it starts)."""
    seats: tuple[SeatInfo, ...]
    capacity: int
    computers_fill: bool
    """Whether computer players fill the empty seats at the start."""
    status: GameStatus
    language: str | None = None
    """The chat's language (None: the bot's default)."""
    join_token: str | None = None
    """The secret of the lobby's join link (None: no link joins it)."""
    message_id: int | None = None
    """The lobby's group message, as stored (a worker that has not shown the lobby yet edits
    that message rather than posting another)."""
