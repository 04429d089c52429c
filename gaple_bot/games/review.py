"""A finished game's review: every decision of the people seated judged against the best
move on what that person knew, marked by what it cost, and summed up per seat (pure, no I/O).

The work splits in three so the heavy part can run elsewhere: `decisions` replays the stored
game and lists every decision with a choice (two or more legal moves), each with the seat's
computer view and a seed; the kind's `review_values(view, seed)` judges one of them (the
heavy search, in the computer players' pool); `assemble` turns their values into marks and
summaries. `review_game` does all three in this process (tests, the bench).

A move's loss is the best move's value minus the played move's (points, never below 0). Its
mark (`Mark.of`) is by the loss in the kind's review units (`GameKind.review_unit`: Gaple's
point, a fifth of Gap's): best below 1, good below 4, inaccuracy below 10, mistake below 20,
blunder from 20. A seat's accuracy is the mean over its decisions of 100 x exp(-loss / 10
units): 100 for the best move every time, about 67 for a loss of 4, 37 for 10, 14 for 20.
docs/COMPUTER_PLAYERS.md ("Reviews") says why.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .seam import JSON, AnyGameKind, AnyMatch, GameDataError

REVIEW_VERSION = 1
"""The version of a review's JSON (`GameReview.to_json`)."""
ACCURACY_SCALE = 10.0
"""Review units of loss that take a move's accuracy from 100 to 100/e (about 37)."""


class ReviewDataError(ValueError):
    """A stored review's JSON that is not one (`GameReview.from_json`)."""


class Mark(StrEnum):
    """What a move cost against the best one, as a chess review marks it."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"

    @classmethod
    def of(cls, loss: float, unit: float = 1.0) -> Mark:
        """The mark of a move that lost `loss` points, in a game where `unit` points count
        as one point of the thresholds (`THRESHOLDS`)."""
        for below, mark in THRESHOLDS:
            if loss < below * unit:
                return mark
        return cls.BLUNDER


THRESHOLDS: tuple[tuple[float, Mark], ...] = (
    (1.0, Mark.BEST),
    (4.0, Mark.GOOD),
    (10.0, Mark.INACCURACY),
    (20.0, Mark.MISTAKE),
)
"""A loss below each bound (in review units) gets its mark; from the last bound on, blunder.
Best is within the search's own noise (two seeds differ by half a point to a point on a
Gaple decision); a Gaple round is worth tens of points, the round's win 40 of them in the
hard player's value, so a blunder throws away about half a round."""


def seed_of(round_number: int, ply: int, seat: int) -> int:
    """A decision's search seed, derived from where it was made alone (the same game gives
    the same review in any process and on any machine)."""
    digest = hashlib.blake2b(f"review:{round_number}:{ply}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision with a choice: where it was made, what was played, what the seat knew."""

    round: int
    """1 for the first round."""
    ply: int
    """1 for the round's first move (every move counts, forced passes too)."""
    seat: int
    code: int
    """The move played."""
    legal: tuple[int, ...]
    """Every legal move's code then (two or more)."""
    view: Any
    """The kind's computer view of the seat then (its hand and everything public)."""
    seed: int
    """The search's seed (`seed_of`)."""
    unit: float = 1.0
    """The kind's review unit (`GameKind.review_unit`)."""


class Decisions(list[Decision]):
    """`decisions`' list, which also remembers the seats reviewed, so that `assemble` gives
    a seat without any decision its summary line too."""

    seats: tuple[int, ...]

    def __init__(self, items: Iterable[Decision] = (), seats: Iterable[int] = ()) -> None:
        super().__init__(items)
        self.seats = tuple(sorted(set(seats)))


def decisions(
    kind: AnyGameKind,
    config: JSON,
    rounds: Sequence[tuple[JSON, Sequence[int]]],
    seats: Collection[int],
) -> list[Decision]:
    """Every decision of `seats` that had two or more legal moves, in the order played, by
    replaying the stored game move by move (a partial last round too); GameDataError if it
    does not replay."""
    found = Decisions(seats=seats)
    if not rounds:
        return found
    wanted = frozenset(seats)
    unit = kind.review_unit
    match: AnyMatch = kind.replay(config, [(rounds[0][0], ())])
    for index, (deal, codes) in enumerate(rounds):
        try:
            if index:
                match.start_round(deal)
            for code in codes:
                seat = match.to_move
                if seat is None:
                    raise GameDataError(f"a move after round {match.round_number} ended")
                legal = match.legal_codes()
                if seat in wanted and len(legal) >= 2:
                    number, ply = match.round_number, match.ply + 1
                    found.append(
                        Decision(
                            round=number,
                            ply=ply,
                            seat=seat,
                            code=code,
                            legal=legal,
                            view=match.computer_view(seat),
                            seed=seed_of(number, ply, seat),
                            unit=unit,
                        )
                    )
                match.apply(seat, code)
        except GameDataError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise GameDataError(f"the stored game does not replay: {exc}") from exc
    return found


def _tenth(value: float) -> float:
    """A figure as stored: one decimal (and no negative zero)."""
    return round(value, 1) + 0.0


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One decision judged: the move played, the best, what it cost and every move's value."""

    round: int
    ply: int
    seat: int
    code: int
    best: int
    """The best move's code (the played one when nothing was better)."""
    loss: float
    """Points the played move cost against the best (one decimal, never below 0)."""
    mark: Mark
    values: tuple[tuple[int, float], ...]
    """Every legal move's code and value in points (one decimal), in the legal order."""

    def to_json(self) -> JSON:
        """The move as a review's JSON holds it."""
        return {
            "round": self.round,
            "ply": self.ply,
            "seat": self.seat,
            "code": self.code,
            "best": self.best,
            "loss": self.loss,
            "mark": self.mark.value,
            "values": [[code, value] for code, value in self.values],
        }

    def worst_json(self) -> JSON:
        """The move as a seat's summary names its worst (no seat, no values)."""
        return {
            "round": self.round,
            "ply": self.ply,
            "code": self.code,
            "best": self.best,
            "loss": self.loss,
            "mark": self.mark.value,
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat's review summed up."""

    seat: int
    decisions: int
    """Its decisions with a choice."""
    accuracy: float
    """0 to 100 (one decimal): the mean of its moves' accuracies; 100 without decisions."""
    average_loss: float
    """Points lost per decision (one decimal)."""
    worst: MoveReview | None
    """Its biggest loss, None if every move was marked best."""

    def to_json(self) -> JSON:
        """The summary as a review's JSON holds it."""
        return {
            "seat": self.seat,
            "decisions": self.decisions,
            "accuracy": self.accuracy,
            "average_loss": self.average_loss,
            "worst": None if self.worst is None else self.worst.worst_json(),
        }


@dataclass(frozen=True, slots=True)
class GameReview:
    """A game's review: every judged move in the order played, and a summary per seat."""

    moves: tuple[MoveReview, ...]
    seats: tuple[SeatSummary, ...]

    def to_json(self) -> JSON:
        """The review as stored (`REVIEW_VERSION`'s shape)."""
        return {
            "version": REVIEW_VERSION,
            "moves": [move.to_json() for move in self.moves],
            "seats": [summary.to_json() for summary in self.seats],
        }

    @classmethod
    def from_json(cls, data: JSON) -> GameReview:
        """The review stored by `to_json`; ReviewDataError if it is not one."""
        try:
            if data["version"] != REVIEW_VERSION:
                raise ReviewDataError(f"review version {data['version']!r}")
            moves = tuple(_move_of(item) for item in data["moves"])
            by_place = {(m.round, m.ply, m.seat): m for m in moves}
            seats = tuple(_summary_of(item, by_place) for item in data["seats"])
        except ReviewDataError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise ReviewDataError(f"not a review: {exc!r}") from exc
        return cls(moves, seats)

    def seat(self, seat: int) -> SeatSummary | None:
        """The summary of `seat`, if the review covers it."""
        return next((summary for summary in self.seats if summary.seat == seat), None)


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ReviewDataError(f"not an integer: {value!r}")
    return value


def _float(value: object) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise ReviewDataError(f"not a number: {value!r}")
    return float(value)


def _move_of(item: JSON) -> MoveReview:
    return MoveReview(
        round=_int(item["round"]),
        ply=_int(item["ply"]),
        seat=_int(item["seat"]),
        code=_int(item["code"]),
        best=_int(item["best"]),
        loss=_float(item["loss"]),
        mark=Mark(item["mark"]),
        values=tuple((_int(code), _float(value)) for code, value in item["values"]),
    )


def _summary_of(item: JSON, moves: Mapping[tuple[int, int, int], MoveReview]) -> SeatSummary:
    seat = _int(item["seat"])
    worst_item = item["worst"]
    worst = None
    if worst_item is not None:
        place = (_int(worst_item["round"]), _int(worst_item["ply"]), seat)
        worst = moves.get(place) or MoveReview(
            round=place[0],
            ply=place[1],
            seat=seat,
            code=_int(worst_item["code"]),
            best=_int(worst_item["best"]),
            loss=_float(worst_item["loss"]),
            mark=Mark(worst_item["mark"]),
            values=(),
        )
    return SeatSummary(
        seat=seat,
        decisions=_int(item["decisions"]),
        accuracy=_float(item["accuracy"]),
        average_loss=_float(item["average_loss"]),
        worst=worst,
    )


def judged(decision: Decision, values: Mapping[int, float]) -> MoveReview:
    """One decision's move judged from every legal move's value (`GameKind.review_values`);
    ValueError if a legal move or the played one has no value."""
    missing = [code for code in (*decision.legal, decision.code) if code not in values]
    if missing:
        raise ValueError(f"round {decision.round}, ply {decision.ply}: no value for {missing}")
    played = values[decision.code]
    top = max(values[code] for code in decision.legal)
    loss = _tenth(max(0.0, top - played))
    # The best move: the played one when nothing was lost (to a tenth of a point), else the
    # first best in legal order.
    best = decision.code
    if loss > 0.0:
        best = next(code for code in decision.legal if values[code] == top)
    return MoveReview(
        round=decision.round,
        ply=decision.ply,
        seat=decision.seat,
        code=decision.code,
        best=best,
        loss=loss,
        mark=Mark.of(loss, decision.unit),
        values=tuple((code, _tenth(values[code])) for code in decision.legal),
    )


def move_accuracy(loss: float, unit: float = 1.0) -> float:
    """A move's accuracy, 0 to 100, from its loss: 100 x exp(-loss / ACCURACY_SCALE units)."""
    return 100.0 * math.exp(-max(0.0, loss) / (ACCURACY_SCALE * unit))


def summary(seat: int, moves: Sequence[MoveReview], unit: float = 1.0) -> SeatSummary:
    """A seat's summary of its judged moves."""
    if not moves:
        return SeatSummary(seat, 0, 100.0, 0.0, None)
    accuracy = sum(move_accuracy(move.loss, unit) for move in moves) / len(moves)
    lost = [move for move in moves if move.mark is not Mark.BEST]
    worst = max(lost, key=lambda move: move.loss) if lost else None
    return SeatSummary(
        seat=seat,
        decisions=len(moves),
        accuracy=_tenth(accuracy),
        average_loss=_tenth(sum(move.loss for move in moves) / len(moves)),
        worst=worst,
    )


def assemble(
    decisions: Sequence[Decision],
    values: Sequence[Mapping[int, float]],
    seats: Collection[int] = (),
) -> GameReview:
    """The game's review from its decisions and their values (`values[i]` for
    `decisions[i]`): every move judged, and a summary for every seat with a decision, every
    seat of `seats` and every seat `decisions` (a `Decisions`) was made for."""
    if len(decisions) != len(values):
        raise ValueError(f"{len(decisions)} decisions but {len(values)} values")
    moves = tuple(judged(d, v) for d, v in zip(decisions, values, strict=True))
    covered = set(seats) | set(getattr(decisions, "seats", ())) | {d.seat for d in decisions}
    units = {d.seat: d.unit for d in decisions}
    return GameReview(
        moves=moves,
        seats=tuple(
            summary(seat, [m for m in moves if m.seat == seat], units.get(seat, 1.0))
            for seat in sorted(covered)
        ),
    )


def review_game(
    kind: AnyGameKind,
    config: JSON,
    rounds: Sequence[tuple[JSON, Sequence[int]]],
    seats: Collection[int],
    judge: Callable[[Decision], Mapping[int, float]] | None = None,
) -> GameReview:
    """The whole review in this process: `decisions`, each judged by the kind's
    `review_values` (or by `judge`: tests may judge with less work), then `assemble`."""
    found = decisions(kind, config, rounds, seats)

    def by_kind(decision: Decision) -> Mapping[int, float]:
        return kind.review_values(decision.view, decision.seed)

    values = [(judge or by_kind)(decision) for decision in found]
    return assemble(found, values, seats)
