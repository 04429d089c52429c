"""Stored vocabularies: game status, computer levels and their reserved player ids, scopes."""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    """Where a game is in its life, as stored (games.status)."""

    LOBBY = "lobby"
    RUNNING = "running"
    FINISHED = "finished"
    ABORTED = "aborted"


ACTIVE_STATUSES = (GameStatus.LOBBY, GameStatus.RUNNING)
"""A chat (or forum topic) holds at most one game in these statuses."""


class ComputerLevel(StrEnum):
    """How strongly a computer player plays."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


COMPUTER_PLAYER_IDS: dict[ComputerLevel, int] = {
    ComputerLevel.EASY: -1,
    ComputerLevel.NORMAL: -2,
    ComputerLevel.HARD: -3,
}
"""Each computer level is one rated player: a reserved `users` row with this (negative) id.

Telegram user ids are positive, so negative ids can never collide with a person.
"""

FIRST_FORMER_PLAYER_ID = -1000
"""Former players (people who deleted their data) get reserved ids from here downwards: an
anonymous `users` row that keeps their finished games in the boards under a neutral name."""

GLOBAL_SCOPE = 0
"""The rating/totals scope of the global tables; any other scope is a Telegram chat id
(which is never 0)."""


def computer_player_id(level: ComputerLevel) -> int:
    """The reserved player id that carries `level`'s results and rating."""
    return COMPUTER_PLAYER_IDS[level]


def is_former_player(player_id: int | None) -> bool:
    """Whether the id is an anonymous former player's (shown under a neutral name)."""
    return player_id is not None and player_id <= FIRST_FORMER_PLAYER_ID
