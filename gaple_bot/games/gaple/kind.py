"""Gaple on the seam: its options, seats, configs, matches and computer players."""

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
from .board import GapleBoard, GapleHand
from .rules import (
    PASS,
    Deal,
    EndReason,
    Game,
    GameConfig,
    GapleError,
    Move,
    Played,
    RuleSet,
    SeatView,
    StuckRule,
    replay,
)
from .rules.rules import SEAT_RANGE

RULES = OptionSpec("rules", ("classic", "discards", "discards-pass"), "classic")
"""C1-C13, D1-D8 with discards (D4), or D1-D8 where stuck players pass (the D4 option)."""
TARGET = OptionSpec("target", ("50", "100", "150", "200"), "100", free_range=(1, 10_000))
"""C13/D8: the total that ends the game."""
FILLED_SEATS = 4
"""Computer players make a table up to four seats (C2: classic; D1: discards need four)."""


def rule_set_of(options: Mapping[str, str]) -> tuple[RuleSet, StuckRule]:
    """The rule set and stuck rule an options' "rules" value names."""
    rules = options.get("rules", RULES.default)
    rule_set = RuleSet.CLASSIC if rules == "classic" else RuleSet.DISCARDS
    stuck = StuckRule.PASS if rules == "discards-pass" else StuckRule.DISCARD
    return rule_set, stuck


def config_of(data: JSON) -> GameConfig:
    """The engine's config stored as JSON; GameDataError if it is not one."""
    try:
        return GameConfig.from_dict(data)
    except (GapleError, TypeError, ValueError) as exc:
        raise GameDataError(f"not a Gaple config: {exc}") from exc


def seat_outcomes(game: Game) -> list[SeatOutcome]:
    """Every seat's place, points, rounds won, Gaple finishes and best round."""
    seats = game.config.seats
    rounds_won = [0] * seats
    gaples = [0] * seats
    best_round = [0] * seats
    for played_round in game.rounds:
        result = played_round.result
        if result is None:
            continue
        rounds_won[result.winner] += 1
        for seat, points in enumerate(result.points):
            best_round[seat] = max(best_round[seat], points)
        if result.reason is EndReason.GAPLE:
            # The play that emptied a hand comes just before the round's end.
            last = played_round.events[-2]
            if isinstance(last, Played):
                gaples[last.seat] += 1
    totals = game.scores
    return [
        SeatOutcome(
            seat=seat,
            place=1 + sum(other > totals[seat] for other in totals),
            points=totals[seat],
            rounds_won=rounds_won[seat],
            extras={"gaples": gaples[seat], "best_round": best_round[seat]},
        )
        for seat in range(seats)
    ]


class GapleMatch(RulesMatch[GapleBoard, GapleHand, SeatView]):
    """A Gaple game behind the seam's Match protocol."""

    __slots__ = ()

    game: Game

    move_of = staticmethod(Move.from_code)
    deal_of = staticmethod(Deal.from_dict)

    def automatic_code(self) -> int | None:
        """C9 (decision): a forced pass needs no button; the bot passes and says so."""
        return PASS.code if self.game.legal_moves() == [PASS] else None

    def step_codes(self, step: int) -> tuple[int, ...]:
        """The legal moves of tile `step` (C7: a tile fitting both ends asks which end)."""
        return tuple(
            move.code
            for move in self.game.legal_moves()
            if move.tile == step and move.kind is not PASS.kind
        )

    def round_result(self) -> JSON | None:
        """The current round's result as JSON (reason, winner, counts, points)."""
        result = self.game.round.result
        if result is None:
            return None
        return {
            "reason": result.reason.value,
            "winner": result.winner,
            "counts": list(result.counts),
            "points": list(result.points),
        }

    def board(self) -> GapleBoard:
        """The public state of the current round."""
        current = self.game.round
        return GapleBoard(
            config=self.game.config,
            line=tuple(current.line),
            ends=current.ends,
            hand_counts=tuple(hand.bit_count() for hand in current.hands),
            discard_counts=tuple(d.bit_count() for d in current.discards),
            events=tuple(current.events),
            result=current.result,
        )

    def private(self, seat: int) -> GapleHand:
        """The seat's own hand and discards (all of them are shown when a round ends)."""
        current = self.game.round
        return GapleHand(current.hands[seat], current.discards[seat])

    def outcomes(self) -> list[SeatOutcome]:
        """Every seat's result."""
        return seat_outcomes(self.game)


class GapleKind(GameKind[GapleBoard, GapleHand, SeatView]):
    """Gaple: two to five seats, classic or discard rules."""

    name = "gaple"
    options: tuple[OptionSpec, ...] = (RULES, TARGET, *COMMON_OPTIONS)
    extras = (ExtraSpec("gaples", "sum"), ExtraSpec("best_round", "max"))

    @property
    def presentation(self) -> Presentation[GapleBoard, GapleHand]:
        """Gaple's messages and buttons."""
        from .present import GaplePresentation

        return GaplePresentation()

    def seat_limits(self, options: Mapping[str, str]) -> SeatLimits:
        """C2: classic with 2-4 seats; D1: discards with 4-5."""
        allowed = SEAT_RANGE[rule_set_of(options)[0]]
        return SeatLimits(least=min(allowed), most=max(allowed), filled=FILLED_SEATS)

    def make_config(self, options: Mapping[str, str], seats: int) -> JSON:
        """The stored config; a lobby stores one with a provisional seat count."""
        rule_set, stuck = rule_set_of(options)
        target = int(options.get("target", TARGET.default))
        allowed = SEAT_RANGE[rule_set]
        seats = min(max(seats, min(allowed)), max(allowed))
        return dict(GameConfig(rule_set, seats, target, stuck).to_dict())

    def config_seats(self, config: JSON) -> int:
        """The config's seat count."""
        return config_of(config).seats

    def config_limits(self, config: JSON) -> SeatLimits:
        """C2/D1 for the config's rule set."""
        allowed = SEAT_RANGE[config_of(config).rule_set]
        return SeatLimits(least=min(allowed), most=max(allowed), filled=FILLED_SEATS)

    def with_seats(self, config: JSON, seats: int) -> JSON:
        """The config with `seats` seats; GameDataError outside C2/D1's range."""
        base = config_of(config)
        try:
            return dict(GameConfig(base.rule_set, seats, base.target, base.stuck_rule).to_dict())
        except GapleError as exc:
            raise GameDataError(str(exc)) from exc

    def new_match(self, config: JSON, rng: random.Random) -> tuple[GapleMatch, JSON]:
        """A new game with its first round dealt (C3/C4, D1/D2)."""
        return GapleMatch.started(Game.new(config_of(config), rng))

    def replay(self, config: JSON, rounds: Sequence[tuple[JSON, Sequence[int]]]) -> GapleMatch:
        """The game rebuilt from its stored deals and move codes."""
        return GapleMatch.replayed(
            lambda deals: replay(config_of(config), deals), rounds, (GapleError,)
        )

    def computer_move(self, level: str, view: SeatView, seed: int) -> int:
        """The move code computer `level` picks (runs in a worker process)."""
        from .ai.levels import decide

        return decide(level, view, seed).code

    def review_values(self, view: SeatView, seed: int) -> dict[int, float]:
        """Every legal move's worth to the seat in points: hard's tree search with twenty
        times its work, every move played on the same deals (`ai.review`)."""
        from .ai.review import move_values

        return move_values(view, seed)

    def warm_up_computers(self) -> None:
        """The compiled simulation core loaded from numba's cache (compiled if it is not)."""
        from .ai.fastcore import warm_up

        warm_up()
