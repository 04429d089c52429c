"""Storage: typed SQLAlchemy models, repositories in units of work, Alembic-managed schema.

Public game information comes from the repositories (`tx.games`, `tx.seats`, `tx.rounds`,
`tx.boards`); hidden information (deals, moves) only from `load_play`. The store knows no
particular game: configs, deals and round results are the kinds' JSON, and totals, ratings
and boards are kept per kind.
"""

from .boards import Board, BoardEntry, Boards, Period, PlayerStats
from .database import DEFAULT_DATABASE_URL, database_url, make_engine
from .enums import (
    ACTIVE_STATUSES,
    COMPUTER_PLAYER_IDS,
    FIRST_FORMER_PLAYER_ID,
    GLOBAL_SCOPE,
    ComputerLevel,
    GameStatus,
    computer_player_id,
    is_former_player,
)
from .errors import (
    ChatNotFound,
    CorruptGame,
    DatabaseTaken,
    DatabaseUnavailable,
    GameAlreadyActive,
    GameNotFound,
    GameNotStarted,
    GameStateError,
    NotFound,
    RoundNotFound,
    SeatNotFound,
    SeatTaken,
    StoreError,
    UserNotFound,
    VersionConflict,
)
from .game_locks import Hold, LockLost, Revision
from .migrate import alembic_config, migrations_dir, upgrade_to_head
from .play_state import load_play
from .rating import Skill
from .records import (
    ChatSettings,
    GameRecord,
    GameResult,
    RoundSummary,
    SeatRecord,
    StoredPlay,
    UserRecord,
)
from .repos.games import KEEP
from .repos.outbox import QueuedSend
from .store import Store
from .unit import Transaction

__all__ = [
    "ACTIVE_STATUSES",
    "COMPUTER_PLAYER_IDS",
    "DEFAULT_DATABASE_URL",
    "FIRST_FORMER_PLAYER_ID",
    "GLOBAL_SCOPE",
    "KEEP",
    "Board",
    "BoardEntry",
    "Boards",
    "ChatNotFound",
    "ChatSettings",
    "ComputerLevel",
    "CorruptGame",
    "DatabaseTaken",
    "DatabaseUnavailable",
    "GameAlreadyActive",
    "GameNotFound",
    "GameNotStarted",
    "GameRecord",
    "GameResult",
    "GameStateError",
    "GameStatus",
    "Hold",
    "LockLost",
    "NotFound",
    "Period",
    "PlayerStats",
    "QueuedSend",
    "Revision",
    "RoundNotFound",
    "RoundSummary",
    "SeatNotFound",
    "SeatRecord",
    "SeatTaken",
    "Skill",
    "Store",
    "StoreError",
    "StoredPlay",
    "Transaction",
    "UserNotFound",
    "UserRecord",
    "VersionConflict",
    "alembic_config",
    "computer_player_id",
    "database_url",
    "is_former_player",
    "load_play",
    "make_engine",
    "migrations_dir",
    "upgrade_to_head",
]
