"""What a front end may import of the service: the service itself and the records it returns.

The front ends (the chat bot, and later the page) import this module and the service's views,
errors and progress, never the store: the records of the store they render come through here.
"""

from __future__ import annotations

from ..store import (
    COMPUTER_PLAYER_IDS,
    Board,
    BoardEntry,
    ChatSettings,
    DatabaseTaken,
    GameStatus,
    Period,
    PlayerStats,
    QueuedSend,
    StoreError,
    is_former_player,
)
from ..store.types import utc_now
from .runtime import GameService

__all__ = [
    "COMPUTER_PLAYER_IDS",
    "Board",
    "BoardEntry",
    "ChatSettings",
    "DatabaseTaken",
    "GameService",
    "GameStatus",
    "Period",
    "PlayerStats",
    "QueuedSend",
    "StoreError",
    "is_former_player",
    "utc_now",
]
