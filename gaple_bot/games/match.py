"""One adapter from a kind's pure rules to the seam's Match: what every kind's match shares."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence, Sized
from typing import Any, Generic, Protocol, Self, TypeVar

from .seam import JSON, GameDataError, SeatOutcome, running_totals


class Coded(Protocol):
    """A move of the rules, with its stored code."""

    @property
    def code(self) -> int: ...


class Stored(Protocol):
    """A config or deal of the rules, storable as plain JSON."""

    def to_dict(self) -> dict[str, object]: ...


class Result(Protocol):
    """A finished round's result: every seat's points."""

    @property
    def points(self) -> Sequence[int]: ...


class RulesRound(Protocol):
    """A round of the rules: its deal, the codes of its moves and, once over, its result."""

    @property
    def deal(self) -> Stored: ...

    @property
    def moves(self) -> Sized: ...

    @property
    def result(self) -> Result | None: ...


View_co = TypeVar("View_co", covariant=True)


class RulesGame(Protocol[View_co]):
    """What RulesMatch needs of a kind's pure game object (both kinds' rules have it as is)."""

    @property
    def config(self) -> Stored: ...

    @property
    def rounds(self) -> Sequence[RulesRound]: ...

    @property
    def round(self) -> RulesRound: ...

    @property
    def round_number(self) -> int: ...

    @property
    def to_move(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def winner(self) -> int | None: ...

    def legal_moves(self) -> Sequence[Coded]: ...

    # The move and the deal are the kind's own types: RulesMatch only passes on what the
    # kind's move_of and deal_of made.
    def apply(self, seat: int, move: Any) -> Iterable[object]: ...

    def next_deal(self, rng: random.Random) -> Stored: ...

    def start_round(self, deal: Any) -> object: ...

    def seat_view(self, seat: int) -> View_co: ...


Board = TypeVar("Board")
Private = TypeVar("Private")
View = TypeVar("View")


class RulesMatch(ABC, Generic[Board, Private, View]):
    """A kind's rules behind the seam's Match protocol: the kind says how to read its moves
    and deals, what its board and a seat's view are, and its round results and outcomes;
    everything else is the same for every kind. A subclass narrows `game` to its rules'
    game class."""

    __slots__ = ("game",)

    game: RulesGame[View]

    def __init__(self, game: RulesGame[View]) -> None:
        self.game = game

    # What each kind says ----------------------------------------------------------------------

    @staticmethod
    @abstractmethod
    def move_of(code: int) -> object:
        """The rules' move of a stored code (raises the rules' error if there is none)."""

    @staticmethod
    @abstractmethod
    def deal_of(data: JSON) -> object:
        """The rules' deal stored as JSON (raises the rules' error if it is not one)."""

    @abstractmethod
    def round_result(self) -> JSON | None:
        """The current round's public result as JSON, once it is over."""

    @abstractmethod
    def board(self) -> Board:
        """The kind's public board of the current round (nothing hidden)."""

    @abstractmethod
    def private(self, seat: int) -> Private:
        """What seat `seat` alone sees (its hand)."""

    @abstractmethod
    def outcomes(self) -> list[SeatOutcome]:
        """Every seat's result, once the game is over."""

    # What every kind shares --------------------------------------------------------------------

    @classmethod
    def started(cls, game: RulesGame[View]) -> tuple[Self, JSON]:
        """The match of a newly dealt game, and its first deal as JSON."""
        return cls(game), dict(game.round.deal.to_dict())

    @classmethod
    def replayed(
        cls,
        rebuild: Callable[[list[tuple[Any, Sequence[int]]]], RulesGame[View]],
        rounds: Sequence[tuple[JSON, Sequence[int]]],
        errors: tuple[type[Exception], ...],
    ) -> Self:
        """The match rebuilt by the rules' own replay (`rebuild`, of the read deals and the
        move codes); GameDataError if a deal cannot be read or the rules raise one of
        `errors` (or KeyError, TypeError, ValueError on broken data)."""
        caught: tuple[type[Exception], ...] = (*errors, KeyError, TypeError, ValueError)
        try:
            return cls(rebuild([(cls.deal_of(deal), codes) for deal, codes in rounds]))
        except caught as exc:
            raise GameDataError(f"the stored game does not replay: {exc}") from exc

    @property
    def config(self) -> JSON:
        """The config as stored."""
        return dict(self.game.config.to_dict())

    @property
    def round_number(self) -> int:
        """1 for the first round."""
        return self.game.round_number

    @property
    def ply(self) -> int:
        """Moves made in the current round."""
        return len(self.game.round.moves)

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None between rounds and after the game."""
        return self.game.to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has been decided."""
        return self.game.is_over

    @property
    def round_over(self) -> bool:
        """Whether the current round has ended."""
        return self.game.round.result is not None

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's running total."""
        return tuple(self.game.scores)

    @property
    def winner(self) -> int | None:
        """The seat that won the game, once it is over."""
        return self.game.winner

    def totals_by_round(self) -> tuple[tuple[int, ...], ...]:
        """Every seat's total after each finished round, oldest first."""
        return running_totals(r.result.points for r in self.game.rounds if r.result is not None)

    def legal_codes(self) -> tuple[int, ...]:
        """The codes of the moves the seat to move may make."""
        return tuple(move.code for move in self.game.legal_moves())

    def automatic_code(self) -> int | None:
        """None by default: a person always chooses their move."""
        return None

    def step_codes(self, step: int) -> tuple[int, ...]:
        """The legal codes a first pick (`step`: a tile, a card) leads to: by default none,
        as every move is one press (a kind whose hand offers picks says which)."""
        return ()

    def apply(self, seat: int, code: int) -> tuple[object, ...]:
        """Make the move with this code; raises ValueError if it is not allowed. Returns the
        rules' events of the move."""
        return tuple(self.game.apply(seat, self.move_of(code)))

    def next_deal(self, rng: random.Random) -> JSON:
        """The next round's deal, drawn from `rng`."""
        return dict(self.game.next_deal(rng).to_dict())

    def start_round(self, deal: JSON) -> None:
        """Start the next round from a stored or new deal."""
        self.game.start_round(self.deal_of(deal))

    def revealed(self) -> tuple[Private, ...]:
        """Every seat's private view, shown when a round ends."""
        return tuple(self.private(seat) for seat in range(len(self.game.scores)))

    def computer_view(self, seat: int) -> View:
        """What the rules show a computer player at `seat`."""
        return self.game.seat_view(seat)
