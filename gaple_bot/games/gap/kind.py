"""Gap on the seam: its options, seats, configs, matches and computer players."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..match import RulesMatch
from ..options import COMMON_OPTIONS, OptionSpec
from ..seam import (
    JSON,
    ExtraSpec,
    GameDataError,
    GameKind,
    Presentation,
    SeatLimits,
    SeatOutcome,
)
from .board import GapBoard, GapHand
from .rules import (
    MAX_SEATS,
    MIN_SEATS,
    Deal,
    Game,
    GapConfig,
    GapError,
    Move,
    SeatView,
    replay,
)

TARGET = OptionSpec("target", ("20", "30", "40", "50"), "30", free_range=(1, 10_000))
"""G2: the total that ends the game."""
FILLED_SEATS = 4
"""Computer players make a table up to four seats."""
REVIEW_UNIT = 0.2
"""Points of Gap that count as one point of a review's thresholds (docs/COMPUTER_PLAYERS.md,
"Reviews")."""


def config_of(data: JSON) -> GapConfig:
    """The engine's config stored as JSON; GameDataError if it is not one."""
    try:
        return GapConfig.from_dict(data)
    except (GapError, KeyError, TypeError, ValueError) as exc:
        raise GameDataError(f"not a Gap config: {exc}") from exc


def seat_outcomes(game: Game) -> list[SeatOutcome]:
    """G6: places by total, then best single round, then who scored it first; rounds won are
    the rounds where a seat scored the most (ties count for each)."""
    seats = game.config.seats
    points = [result.points for result in game.results]
    best = [max((p[seat] for p in points), default=0) for seat in range(seats)]
    first_best = [
        next((i for i, p in enumerate(points) if p[seat] == best[seat]), len(points))
        for seat in range(seats)
    ]
    key = [(game.scores[seat], best[seat], -first_best[seat]) for seat in range(seats)]
    rounds_won = [sum(p[seat] == max(p) for p in points) for seat in range(seats)]
    return [
        SeatOutcome(
            seat=seat,
            place=1 + sum(other > key[seat] for other in key),
            points=game.scores[seat],
            rounds_won=rounds_won[seat],
            extras={"best_round": best[seat]},
        )
        for seat in range(seats)
    ]


class GapMatch(RulesMatch[GapBoard, GapHand, SeatView]):
    """A Gap game behind the seam's Match protocol (no automatic move: every card in hand is
    always playable, so a person always chooses, G4)."""

    __slots__ = ()

    game: Game

    move_of = staticmethod(Move.from_code)
    deal_of = staticmethod(Deal.from_dict)

    def step_codes(self, step: int) -> tuple[int, ...]:
        """The legal moves of card `step`: several when a neighbour value offers a choice."""
        if self.game.to_move is None:
            return ()
        return tuple(move.code for move in self.game.round.moves_of(step))

    def round_result(self) -> JSON | None:
        """The current round's points and collections, once every hand is empty."""
        result = self.game.round.result
        return None if result is None else dict(result.to_dict())

    def board(self) -> GapBoard:
        """The public state of the current round."""
        current = self.game.round
        return GapBoard(
            config=self.game.config,
            middle=tuple(current.middle),
            pile_count=len(current.pile),
            hand_counts=tuple(len(hand) for hand in current.hands),
            collections=tuple(tuple(c) for c in current.collections),
            events=tuple(current.events),
            result=current.result,
        )

    def private(self, seat: int) -> GapHand:
        """The seat's cards (empty at the round's end: every card was played)."""
        return GapHand(tuple(self.game.round.hands[seat]))

    def outcomes(self) -> list[SeatOutcome]:
        """Every seat's result."""
        return seat_outcomes(self.game)


class GapKind(GameKind[GapBoard, GapHand, SeatView]):
    """Gap: two to six seats collecting colour cards."""

    name = "gap"
    options: tuple[OptionSpec, ...] = (TARGET, *COMMON_OPTIONS)
    extras = (ExtraSpec("best_round", "max"),)

    @property
    def presentation(self) -> Presentation[GapBoard, GapHand]:
        """Gap's messages and buttons."""
        from .present import GapPresentation

        return GapPresentation()

    def seat_limits(self, options: Mapping[str, str]) -> SeatLimits:
        """G1/G3: two to six seats."""
        return SeatLimits(least=MIN_SEATS, most=MAX_SEATS, filled=FILLED_SEATS)

    def make_config(self, options: Mapping[str, str], seats: int) -> JSON:
        """The stored config; a lobby stores one with a provisional seat count."""
        target = int(options.get("target", TARGET.default))
        seats = min(max(seats, MIN_SEATS), MAX_SEATS)
        return dict(GapConfig(seats, target).to_dict())

    def config_seats(self, config: JSON) -> int:
        """The config's seat count."""
        return config_of(config).seats

    def with_seats(self, config: JSON, seats: int) -> JSON:
        """The config with `seats` seats; GameDataError outside two to six."""
        try:
            return dict(GapConfig(seats, config_of(config).target).to_dict())
        except GapError as exc:
            raise GameDataError(str(exc)) from exc

    def new_match(self, config: JSON, rng: random.Random) -> tuple[GapMatch, JSON]:
        """A new game with its first round dealt (G1, G3, G6)."""
        return GapMatch.started(Game.new(config_of(config), rng))

    def replay(self, config: JSON, rounds: Sequence[tuple[JSON, Sequence[int]]]) -> GapMatch:
        """The game rebuilt from its stored deals and move codes."""
        return GapMatch.replayed(
            lambda deals: replay(config_of(config), deals), rounds, (GapError,)
        )

    def computer_move(self, level: str, view: SeatView, seed: int) -> int:
        """The move code computer `level` picks (runs in a worker process)."""
        from .ai.levels import decide

        return decide(level, view, seed).code

    def review_values(self, view: SeatView, seed: int) -> dict[int, float]:
        """Every legal move's worth to the seat in points: hard's flat judgement with twenty
        times its work, every move played out on the same deals (`ai.review`)."""
        from .ai.review import move_values

        return move_values(view, seed)

    @property
    def review_unit(self) -> float:
        """A Gap round is worth a few points (its margin), not tens as Gaple's: a review's
        thresholds count a fifth of a point of Gap as one."""
        return REVIEW_UNIT

    def warm_up_computers(self) -> None:
        """The compiled simulation core loaded from numba's cache (compiled if it is not)."""
        from .ai.fastsim import warm_up

        warm_up()
