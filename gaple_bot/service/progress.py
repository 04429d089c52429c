"""What a use case changed, in order, for the bot to show: moves, round ends, new rounds."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .views import HandView, RoundReveal, TableView


@dataclass(frozen=True, slots=True)
class RoundOver:
    """A round ended: its final table and the reveal of every hand."""

    table: TableView[Any]
    reveal: RoundReveal[Any, Any]


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A new round was dealt: its first table and every person's new hand."""

    table: TableView[Any]
    hands: tuple[HandView[Any, Any], ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game has a winner (its final table) and every seat's total after each round."""

    table: TableView[Any]
    history: tuple[tuple[int, ...], ...] = ()


Step = RoundOver | RoundStarted | GameOver


@dataclass(frozen=True, slots=True)
class Play:
    """One move made, by whoever made it (a person, the computer, or the rules themselves),
    with what the rules say happened (the kind's own typed events)."""

    round_number: int
    seat: int
    code: int
    events: tuple[object, ...]


@dataclass
class Progress:
    """Everything that happened in one use case, oldest first, and where the game stands."""

    game_id: int
    steps: list[Step] = field(default_factory=list)
    moved: list[tuple[int, int, int]] = field(default_factory=list)
    """(round number, seat, move code) of each person's seat that moved (by hand or by computer)."""
    plays: list[Play] = field(default_factory=list)
    """Every move made, in order, with the rules' events."""
    timed_out: list[int] = field(default_factory=list)
    """Seats whose turn ran out; the computer moved for them."""
    autoplay_started: list[int] = field(default_factory=list)
    """Person's seats handed to the computer for the rest of the game."""
    table: TableView[Any] | None = None
    """The table now (the current round's), or None if the game ended or closed."""
    turn: HandView[Any, Any] | None = None
    """The person to move now, with their legal moves, or None."""
    hands: dict[int, HandView[Any, Any]] = field(default_factory=dict)
    """The current private view of every person's seat, by seat."""
    abandoned: TableView[Any] | None = None
    """The game was stopped because nobody is left to play it (its last table)."""
    break_until: datetime | None = None
    """While the break after a round's end runs, when it ends (nobody moves before)."""
    break_ended: int | None = None
    """The round whose break (after the round before it ended) ended in this use case."""
    clock_restarted: bool = False
    """The break ended sooner (everyone said Next): the first turn's time runs from now."""
