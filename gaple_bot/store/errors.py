"""Domain errors raised by the store; the service layer turns them into messages."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error the store raises on purpose."""


class DatabaseUnavailable(StoreError):
    """The database could not be reached or opened at start (the message names it without its
    password, and says why)."""


class DatabaseTaken(StoreError):
    """This process lost its hold on the database (its connection went) and could not take it
    back: another kind of process works on it now (a process alone beside workers would break
    their locks), so this one stops."""


class VersionConflict(StoreError):
    """The game changed since the caller read it: its version is no longer the expected one."""

    def __init__(self, game_id: int, expected: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected}")
        self.game_id = game_id
        self.expected = expected


class NotFound(StoreError, LookupError):
    """A row the caller named does not exist."""


class GameNotFound(NotFound):
    """No game has this id."""


class ChatNotFound(NotFound):
    """No chat has this id."""


class UserNotFound(NotFound):
    """No user has this id."""


class SeatNotFound(NotFound):
    """The game has no such seat."""


class RoundNotFound(NotFound):
    """The game has no such round."""


class GameAlreadyActive(StoreError):
    """The chat (or forum topic) already has a game in its lobby or running."""


class SeatTaken(StoreError):
    """The seat is occupied, or the user already sits at this game."""


class GameStateError(StoreError):
    """The game is not in a status that allows this change (e.g. finishing an aborted game)."""


class GameNotStarted(StoreError):
    """The game has no dealt round yet, so there is no engine state to load."""


class CorruptGame(StoreError):
    """The stored deals and moves do not replay (a gap in the move log or an illegal move)."""
