"""What a use case changed, as a frozen record of typed effects, for any front end to show."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

from .facts import GameFacts
from .progress import GameOver, Progress, RoundOver, RoundStarted
from .snapshot import GameSnapshot
from .views import HandView, LobbyView, RoundReveal, SeatInfo, TableView


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """The lobby as it stands now (a seat taken or freed, started, closed)."""

    lobby: LobbyView


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """A new round was dealt: its first table (each person's hand comes as HandChanged)."""

    table: TableView[Any]


@dataclass(frozen=True, slots=True)
class Played:
    """A move was made in `seat` (by its person, the computer, or the rules: a forced pass),
    with what the rules say happened (the kind's own typed events: a tile and its end, a
    pass, a card and what it took, a round's end)."""

    round_number: int
    seat: int
    code: int
    events: tuple[object, ...]


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A person's turn ran out: the computer moved for them."""

    seat: int


@dataclass(frozen=True, slots=True)
class SeatHandedOver:
    """The computer plays this person's seat from now on (until they take it back)."""

    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round ended: every hand is revealed."""

    reveal: RoundReveal[Any, Any]


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game has a winner: its final table and every seat's total after each round."""

    table: TableView[Any]
    history: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Abandoned:
    """Nobody was left to play: the game stopped (no results, no rating changes)."""

    table: TableView[Any]


@dataclass(frozen=True, slots=True)
class TableChanged:
    """The public table as it stands now."""

    table: TableView[Any]


@dataclass(frozen=True, slots=True)
class HandChanged:
    """A person's own view now: private to that seat."""

    hand: HandView[Any, Any]


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """A person is to move, with their legal moves, until `deadline`: private to that seat."""

    hand: HandView[Any, Any]
    deadline: datetime | None


@dataclass(frozen=True, slots=True)
class NextGame:
    """The players of this finished game play again, in the lobby of game `game_id`."""

    game_id: int
    token: str | None
    """The new lobby's page token (its join token)."""


@dataclass(frozen=True, slots=True)
class LobbyExpired:
    """Nobody started the lobby in time: it closed (as it stands now)."""

    lobby: LobbyView


@dataclass(frozen=True, slots=True)
class Stopped:
    """The game was stopped with /stop before its end (no results): its last table, or None
    if it was still a lobby (its closed lobby comes as LobbyChanged)."""

    table: TableView[Any] | None


@dataclass(frozen=True, slots=True)
class Paused:
    """The bot may not write in the chat: the game waits, with no turn running."""

    facts: GameFacts


@dataclass(frozen=True, slots=True)
class ClosedWithChat:
    """The bot left the chat: the lobby or game ended as aborted."""

    facts: GameFacts


@dataclass(frozen=True, slots=True)
class Reminded:
    """Half the turn is gone: the person in `seat` is to be reminded (this worker took the
    reminder, so no other sends it)."""

    table: TableView[Any]
    seat: SeatInfo
    deadline: datetime


@dataclass(frozen=True, slots=True)
class BreakReady:
    """Someone said Next during the break after a round's end: the seats whose person has
    (the break goes on, waiting for the others or its end)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BreakEnded:
    """The break after a round's end is over: round `round_number` is played from now."""

    round_number: int


@dataclass(frozen=True, slots=True)
class TurnSeen:
    """The person to move at `version` sees their turn in the page: their hand is not owed
    to their private chat."""

    version: int


Effect = (
    LobbyChanged
    | RoundDealt
    | Played
    | TimedOut
    | SeatHandedOver
    | RoundEnded
    | GameEnded
    | Abandoned
    | TableChanged
    | HandChanged
    | TurnStarted
    | NextGame
    | LobbyExpired
    | Stopped
    | Paused
    | ClosedWithChat
    | Reminded
    | TurnSeen
    | BreakReady
    | BreakEnded
)
E = TypeVar("E")
PRIVATE_EFFECTS = (HandChanged, TurnStarted)
"""Effects only their own seat may see."""

CHAT = "chat"
"""The front end of chat buttons and commands (and its timers)."""
PAGE = "page"
"""The front end of the Mini App page."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Everything one use case changed in one game, oldest first."""

    game_id: int
    effects: tuple[Effect, ...]
    by: str = CHAT
    """The front end whose use case made it (CHAT or PAGE): the other one shows it."""
    progress: Progress | None = field(default=None, compare=False, repr=False)
    """The use case's own result, for a front end in the same process that shows progress
    as the one that made it would (never sent elsewhere: it holds every seat's hand)."""
    snapshot: GameSnapshot | None = field(default=None, compare=False, repr=False)
    """The game as the command left it, while a page of it is open on this worker (each
    viewer is given their part only; never sent elsewhere: it holds every seat's hand)."""

    def first(self, kind: type[E]) -> E | None:
        """The outcome's first effect of this type, if it has one."""
        return next((e for e in self.effects if isinstance(e, kind)), None)

    @property
    def version(self) -> int | None:
        """The game's version after the use case (None if it shows no table)."""
        tables = [e.table for e in self.effects if isinstance(e, TableChanged | RoundDealt)]
        return tables[-1].version if tables else None

    def public(self) -> Outcome:
        """What everyone may see: the outcome without any seat's private view."""
        return Outcome(
            self.game_id,
            tuple(e for e in self.effects if not isinstance(e, PRIVATE_EFFECTS)),
            self.by,
        )

    def for_seat(self, seat: int) -> Outcome:
        """What the person in `seat` may see: the public effects and their own views."""
        return Outcome(
            self.game_id,
            tuple(
                e for e in self.effects if not isinstance(e, PRIVATE_EFFECTS) or e.hand.seat == seat
            ),
            self.by,
        )

    @classmethod
    def of_lobby(cls, lobby: LobbyView, by: str = CHAT) -> Outcome:
        """A lobby's change."""
        return cls(lobby.game_id, (LobbyChanged(lobby),), by)

    @classmethod
    def of_progress(cls, progress: Progress, by: str = CHAT) -> Outcome:
        """The effects of a use case that played a running game."""
        effects: list[Effect] = []
        if progress.break_ended is not None:
            effects.append(BreakEnded(progress.break_ended))
        effects.extend(
            Played(play.round_number, play.seat, play.code, play.events) for play in progress.plays
        )
        for step in progress.steps:
            if isinstance(step, RoundOver):
                effects.append(RoundEnded(step.reveal))
            elif isinstance(step, RoundStarted):
                effects.append(RoundDealt(step.table))
                effects.extend(HandChanged(hand) for hand in step.hands)
            elif isinstance(step, GameOver):
                effects.append(GameEnded(step.table, step.history))
        effects.extend(TimedOut(seat) for seat in progress.timed_out)
        effects.extend(SeatHandedOver(seat) for seat in progress.autoplay_started)
        if progress.abandoned is not None:
            effects.append(Abandoned(progress.abandoned))
        if progress.table is not None:
            effects.append(TableChanged(progress.table))
        turn = progress.turn
        effects.extend(
            HandChanged(hand)
            for hand in progress.hands.values()
            if turn is None or hand.seat != turn.seat
        )
        if turn is not None:
            deadline = progress.table.deadline if progress.table is not None else None
            effects.append(TurnStarted(turn, deadline))
        return cls(progress.game_id, tuple(effects), by, progress)
