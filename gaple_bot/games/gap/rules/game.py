"""A whole game of Gap: rounds one after another, running totals, and the winners (G6)."""

from __future__ import annotations

import random

from .config import GapConfig
from .deal import Deal, deal_round
from .errors import DealError, GameOverError, RoundNotOverError
from .events import Event
from .moves import Move
from .round import Round, RoundResult
from .scoring import game_winners
from .view import SeatView, seat_view


def first_seat(config: GapConfig, round_number: int) -> int:
    """G6 (decision): seat 0 moves first in round 1, and the first player moves one seat on
    each round."""
    return (round_number - 1) % config.seats


class Game:
    """Rounds of one game with their deals, moves and results, and the running totals."""

    __slots__ = ("config", "rounds", "scores", "winners")

    def __init__(self, config: GapConfig, first_deal: Deal, *, _trusted: bool = False) -> None:
        """A game from its first deal (G6: seat 0 moves first); `_trusted` is for `new`,
        whose deal_round already follows G1/G3."""
        if first_deal.first != first_seat(config, 1):
            raise DealError("G6: the first round starts with the first seat")
        self.config = config
        self.rounds: list[Round] = [Round(config, first_deal, _trusted=_trusted)]
        self.scores: tuple[int, ...] = (0,) * config.seats
        """Every seat's running total of finished rounds."""
        self.winners: tuple[int, ...] = ()
        """G6: the seats that won (several only when both tie-breaks leave them equal)."""

    @classmethod
    def new(cls, config: GapConfig, rng: random.Random) -> Game:
        """A game with its first round dealt from `rng` (G1, G3, G6)."""
        return cls(config, deal_round(config, rng, first_seat(config, 1)), _trusted=True)

    @property
    def round(self) -> Round:
        """The round being played, or the last one played."""
        return self.rounds[-1]

    @property
    def round_number(self) -> int:
        """1 for the first round."""
        return len(self.rounds)

    @property
    def is_over(self) -> bool:
        """Whether the game has been decided (G6)."""
        return bool(self.winners)

    @property
    def winner(self) -> int | None:
        """The first of the winners (the only one unless the win is shared), or None."""
        return self.winners[0] if self.winners else None

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None between rounds and after the game."""
        return self.rounds[-1].to_move

    @property
    def results(self) -> tuple[RoundResult, ...]:
        """The results of the finished rounds, in order."""
        return tuple(r.result for r in self.rounds if r.result is not None)

    def legal_moves(self) -> list[Move]:
        """The moves the seat to move may make now, sorted by code."""
        return self.rounds[-1].legal_moves()

    def apply(self, seat: int, move: Move) -> list[Event]:
        """Make a move in the current round; raises (changing nothing) if it is not allowed."""
        events = self.rounds[-1].apply(seat, move)
        if self.rounds[-1].result is not None:
            self._settle()
        return events

    def next_deal(self, rng: random.Random) -> Deal:
        """G6: deal the next round afresh from `rng`, the first player one seat on."""
        self._check_round_over()
        return deal_round(self.config, rng, first_seat(self.config, self.round_number + 1))

    def next_round(self, rng: random.Random) -> Round:
        """Deal and start the next round."""
        return self.start_round(self.next_deal(rng))

    def start_round(self, deal: Deal) -> Round:
        """Start the next round from a given deal (a stored or hand-made one)."""
        self._check_round_over()
        expected = first_seat(self.config, self.round_number + 1)
        if deal.first != expected:
            raise DealError(f"G6: seat {expected} moves first in round {self.round_number + 1}")
        new_round = Round(self.config, deal)
        self.rounds.append(new_round)
        return new_round

    def _check_round_over(self) -> None:
        if self.winners:
            raise GameOverError("the game is over")
        if self.rounds[-1].result is None:
            raise RoundNotOverError("the round is still being played")

    def _settle(self) -> None:
        """G6: add the finished round's points to the totals and decide whether it is won."""
        points = [r.points for r in self.results]
        self.scores = tuple(sum(p[seat] for p in points) for seat in range(self.config.seats))
        self.winners = game_winners(points, self.config.target)

    def seat_view(self, seat: int) -> SeatView:
        """What `seat` may know now: its own hand and everything public."""
        return seat_view(self, seat)

    def replay_key(self) -> tuple[object, ...]:
        """Everything that makes this game's state; equal keys mean equal games."""
        return (
            self.config,
            self.scores,
            self.winners,
            tuple(r.replay_key() for r in self.rounds),
        )
