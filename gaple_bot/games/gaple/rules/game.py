"""A whole game: rounds one after another, running scores, and the game's winner (C5, C13, D8)."""

from __future__ import annotations

import random

from .deal import Deal, deal_round, first_lead
from .errors import ConfigError, GameOverError, RoundNotOverError
from .events import Event, RoundEnded
from .moves import Move
from .round import Round
from .rules import GameConfig, RuleSet
from .view import SeatView, seat_view


class Game:
    """Rounds of one game with their deals, moves and results, and the running scores."""

    __slots__ = ("config", "rounds", "scores", "winner")

    def __init__(self, config: GameConfig, first_deal: Deal, *, _trusted: bool = False) -> None:
        """A game from its first deal; `_trusted` is for `new`, whose deal_round already
        follows C3/C4/D1/D2, and skips re-checking what it just built."""
        first_round = Round(config, first_deal, _trusted=_trusted)
        if not _trusted:
            _check_first_lead(config, first_deal)
        self.config = config
        self.rounds: list[Round] = [first_round]
        self.scores: list[int] = [0] * config.seats
        self.winner: int | None = None
        self._settle_if_over()

    @classmethod
    def new(cls, config: GameConfig, rng: random.Random) -> Game:
        """A game with its first round dealt from `rng` (C3, C4, D1, D2)."""
        return cls(config, deal_round(config, rng, None), _trusted=True)

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
        """Whether the game has a winner (C13, D8)."""
        return self.winner is not None

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None between rounds and after the game."""
        return self.rounds[-1].to_move

    def legal_moves(self) -> list[Move]:
        """The moves the seat to move may make now."""
        return self.rounds[-1].legal_moves()

    def apply(self, seat: int, move: Move) -> list[Event]:
        """Make a move in the current round; raises (changing nothing) if it is not allowed."""
        events = self.rounds[-1].apply(seat, move)
        if self.rounds[-1].result is not None:
            self._settle_if_over()
        return events

    def next_deal(self, rng: random.Random) -> Deal:
        """Deal the next round from `rng`; C5/D2: the last round's winner leads."""
        result = self._last_result()
        return deal_round(self.config, rng, result.winner)

    def next_round(self, rng: random.Random) -> Round:
        """Deal and start the next round."""
        return self.start_round(self.next_deal(rng))

    def start_round(self, deal: Deal) -> Round:
        """Start the next round from a given deal (a stored or hand-made one)."""
        result = self._last_result()
        # C5/D2: the last round's winner leads the next one, with any tile.
        if deal.leader != result.winner or deal.lead_tile >= 0:
            raise ConfigError(f"seat {result.winner} leads this round, with any tile")
        new_round = Round(self.config, deal)
        self.rounds.append(new_round)
        self._settle_if_over()
        return new_round

    def _last_result(self) -> RoundEnded:
        if self.winner is not None:
            raise GameOverError("the game is over")
        result = self.rounds[-1].result
        if result is None:
            raise RoundNotOverError("the round is still being played")
        return result

    def _settle_if_over(self) -> None:
        """Add a finished round's points to the totals and decide whether the game is won."""
        result = self.rounds[-1].result
        if result is None:
            return
        for seat, points in enumerate(result.points):
            self.scores[seat] += points
        self.winner = game_winner(self.scores, self.config.target)

    def seat_view(self, seat: int) -> SeatView:
        """What `seat` may know now: its own hand and everything public."""
        return seat_view(self, seat)

    def replay_key(self) -> tuple[object, ...]:
        """Everything that makes this game's state; equal keys mean equal games."""
        return (
            self.config,
            tuple(self.scores),
            self.winner,
            tuple(r.replay_key() for r in self.rounds),
        )


def _check_first_lead(config: GameConfig, deal: Deal) -> None:
    """C4: the first classic round is led by the holder of the highest double (or tile);
    D2: the first leader of the discard rules plays any tile that fits the start."""
    if config.rule_set is RuleSet.CLASSIC:
        if (deal.leader, deal.lead_tile) != first_lead(deal.hands):
            raise ConfigError("the first classic round must be led as C4 says")
    elif deal.lead_tile >= 0:
        raise ConfigError("D2: the leader may play any tile that fits the start")


def game_winner(scores: list[int], target: int) -> int | None:
    """C13/D8: once a total reaches the target, the highest total wins; equal highest totals
    play on (in classic rules only the round's winner scores, so its total is the highest)."""
    best = max(scores)
    if best < target or scores.count(best) > 1:
        return None
    return scores.index(best)
