"""Frozen values the repositories return: public information only, never a deal or a move."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .enums import ComputerLevel, GameStatus, computer_player_id


@dataclass(frozen=True, slots=True)
class UserRecord:
    """A player as stored: a Telegram user or a computer level's reserved row."""

    id: int
    display_name: str
    language: str | None
    can_message: bool
    is_computer: bool
    telegram_language: str | None = None


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A chat and the settings its new games start from."""

    chat_id: int
    title: str | None
    language: str | None = None
    options: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """The options stored for each kind (by kind name, then option name), as stored: only
    those a chat chose; the kind checks them and supplies the rest
    (`gaple_bot.games.options.checked_options`)."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The public summary of a game (safe to render in the group)."""

    id: int
    chat_id: int
    thread_id: int | None
    kind: str
    """The game kind's name."""
    config: dict[str, Any]
    """The kind's config as stored (JSON)."""
    status: GameStatus
    version: int
    opener_id: int
    message_id: int | None
    turn_deadline: datetime | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    join_token: str | None = None
    """The secret part of the lobby's join link (not for the group's eyes beyond the link)."""
    paused: bool = False
    """The bot may not write in the chat, so the game waits (see games.paused)."""
    hand_due: datetime | None = None
    """Since when the person to move is owed their hand (see games.turn_hand_due)."""
    hand_owner: int | None = None
    """The worker that owes that hand (see games.turn_hand_owner)."""
    round_break_until: datetime | None = None
    """Until when nobody moves after a round's end (see games.round_break_until)."""
    round_break_ready: int = 0
    """The seats whose person said Next during the break, as bits (games.round_break_ready)."""
    replay_token: str | None = None
    """The finished game's replay link secret (games.replay_token; None before it ends)."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sits in a seat and the seat's bookkeeping."""

    game_id: int
    seat: int
    user_id: int | None
    computer_level: ComputerLevel | None
    autoplay: bool
    timeouts: int
    hand_message_id: int | None

    @property
    def player_id(self) -> int:
        """The player credited with this seat's results: the person, else the computer level."""
        if self.user_id is not None:
            return self.user_id
        assert self.computer_level is not None
        return computer_player_id(self.computer_level)


@dataclass(frozen=True, slots=True)
class RoundSummary:
    """A round's public facts: who led it and, once over, its result."""

    game_id: int
    number: int
    leader: int
    result: dict[str, Any] | None
    """The kind's public result of the round (JSON), once it is over."""
    started_at: datetime
    ended_at: datetime | None


@dataclass(frozen=True, slots=True)
class GameResult:
    """One seat's line in a finished game's results."""

    game_id: int
    seat: int
    player_id: int
    place: int
    points: int
    rounds_won: int
    extras: dict[str, int]
    """The kind's game-specific numbers (its ExtraSpecs by name)."""


@dataclass(frozen=True, slots=True)
class StoredPlay:
    """What a game is replayed from: its kind, config, and each round's deal and move codes.

    Hidden information (every hand, and whatever else the game keeps hidden): feed it to
    the kind's replay and to per-seat views, never to a group message.
    """

    kind: str
    config: dict[str, Any]
    rounds: tuple[tuple[dict[str, Any], tuple[int, ...]], ...]
    """Each round's deal and its move codes, in order."""
