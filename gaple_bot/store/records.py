"""Frozen values the repositories return: public information only, never a deal or a move."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..games.gaple.rules import GameConfig, RoundEnded, RuleSet, StuckRule
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
    rule_set: RuleSet = RuleSet.CLASSIC
    target: int = 100
    stuck_rule: StuckRule = StuckRule.DISCARD
    turn_seconds: int = 60
    computer_level: ComputerLevel = ComputerLevel.NORMAL
    language: str | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The public summary of a game (safe to render in the group)."""

    id: int
    chat_id: int
    thread_id: int | None
    config: GameConfig
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
    result: RoundEnded | None
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
    gaples: int
    best_round: int
