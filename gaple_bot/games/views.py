"""What a game shows: the public table, a seat's private view and messages, as plain values."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Generic, Literal, TypeVar

Board = TypeVar("Board")
"""A kind's public board (Gaple: the line of play, its ends, counts and events)."""
Private = TypeVar("Private")
"""A kind's private view of one seat (Gaple: its hand and discards)."""


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
class TableView(Generic[Board]):
    """Everything anyone at the table may see: the kind's public board, never a hand."""

    game_id: int
    version: int
    chat_id: int
    thread_id: int | None
    kind: str
    config: dict[str, Any]
    round_number: int
    seats: tuple[SeatInfo, ...]
    scores: tuple[int, ...]
    to_move: int | None
    deadline: datetime | None
    winner: int | None
    board: Board
    language: str | None = None
    """The chat's language (None: the bot's default)."""
    chat_title: str = ""
    round_over: bool = False
    """The round on the table has ended (its result is on the board)."""
    aborted: bool = False
    """The game was stopped before it was decided (no more moves come)."""
    pictures: bool = True
    """The chat wants round ends and standings drawn (its "pictures" option)."""
    message_id: int | None = None
    """The group message that shows the game, as stored (a worker that has not shown the
    game yet edits that message rather than posting another)."""
    page_token: str | None = None
    """The secret that opens the game's table page (its lobby's join token): shown only to
    the group and the game's players, as a link."""


@dataclass(frozen=True, slots=True)
class HandView(Generic[Board, Private]):
    """One seat's private state and, on its turn, the codes of its legal moves."""

    game_id: int
    version: int
    seat: int
    legal: tuple[int, ...]
    private: Private
    table: TableView[Board]


@dataclass(frozen=True, slots=True)
class RoundReveal(Generic[Board, Private]):
    """A finished round shown to everyone: every seat's hidden items are public now."""

    table: TableView[Board]
    seats: tuple[Private, ...]
    """Every seat's private view at the round's end."""


class PrivateNote(StrEnum):
    """The short private notes that name what a person's hand is (tiles, cards)."""

    JOINED = "joined"
    """After Join: the hand comes in the private chat."""
    JOINED_BY_LINK = "joined_by_link"
    """After joining through the link, in the private chat: the hand comes here ({chat})."""
    PROBE = "probe"
    """Trying to reach a person before seating them: the hand comes here ({chat})."""
    SEAT_BACK = "seat_back"
    """After taking one's seat back from the computer."""


@dataclass(frozen=True, slots=True)
class Button:
    """A button of a game's message: make a move, take a first pick, go back, or nothing."""

    label: str
    press: Literal["move", "pick", "back", "none"]
    value: int = 0
    """The move code ("move") or the first pick ("pick")."""
    style: Literal["success", "danger"] | None = None
    """A colour hint for clients that show one."""


@dataclass(frozen=True, slots=True)
class GameMessage:
    """A game's message: its HTML text and its rows of buttons."""

    text: str
    rows: tuple[tuple[Button, ...], ...] = field(default=())
