"""Repositories: one per table family, each working on the session of one unit of work."""

from .chats import ChatRepository
from .games import GameRepository
from .moves import MoveRepository
from .outbox import OutboxRepository, QueuedSend
from .ratings import RatingRepository
from .results import ResultRepository
from .reviews import ReviewRepository
from .rounds import RoundRepository
from .seats import SeatRepository
from .updates import UpdateRepository
from .users import UserRepository

__all__ = [
    "ChatRepository",
    "GameRepository",
    "MoveRepository",
    "OutboxRepository",
    "QueuedSend",
    "RatingRepository",
    "ResultRepository",
    "ReviewRepository",
    "RoundRepository",
    "SeatRepository",
    "UpdateRepository",
    "UserRepository",
]
