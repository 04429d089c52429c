"""Flat Monte Carlo judgements on the compiled core: one decision's deals played in batches."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..rules import Move, MoveKind, Side
from . import fastcore
from .dealer import Dealer
from .fastcore import Floats, Ints
from .knowledge import PlaceKind
from .playout import Rules, move_parts
from .value import GAME_WEIGHT

_KIND = {PlaceKind.HAND: 0, PlaceKind.DISCARDS: 1, PlaceKind.SET_ASIDE: 2}
KIND_CODES = {
    MoveKind.PLAY: fastcore.PLAY,
    MoveKind.PASS: fastcore.PASS,
    MoveKind.DISCARD: fastcore.DISCARD,
}
"""A move's kind as the core codes it."""


def core_moves(legal: Sequence[Move]) -> list[tuple[int, int, int]]:
    """Legal moves as the core takes them: (kind code, bit, 1 if at the left end)."""
    moves = []
    for move in legal:
        kind, bit, side = move_parts(move)
        moves.append((KIND_CODES[kind], bit, int(side is Side.LEFT)))
    return moves


@dataclass(frozen=True, slots=True)
class Valuation:
    """How the judge values a round: by its margin, or by what the match makes of it."""

    match: bool
    scores: Sequence[int] = ()
    target: int = 0
    win_worth: float = 0.0


class FastJudge:
    """Judges one decision's legal moves on batches of deals with `fastcore.judge`."""

    __slots__ = (
        "_base_discs",
        "_base_hands",
        "_dealer",
        "_drawn",
        "_drawn_weight",
        "_free",
        "_moves",
        "_order",
        "_passed",
        "_passed_over",
        "_places",
        "_py_rng",
        "_rng",
        "_scores",
        "_table",
        "_valuation",
    )

    def __init__(
        self,
        rules: Rules,
        dealer: Dealer,
        ends: tuple[int, int],
        me: int,
        moves: Sequence[tuple[int, int, int]],
        policy: int,
        keep: int,
        valuation: Valuation,
        rng: random.Random,
        passed: Sequence[tuple[int, int]] = (),
        passed_over: float = 1.0,
    ) -> None:
        unseen, counts, allowed, order, free = dealer.sampler.fast_plan()
        places = dealer.knowledge.places
        self._places = np.array(
            [
                (count, mask, _KIND[place.kind], place.seat)
                for count, mask, place in zip(counts, allowed, places, strict=True)
            ],
            dtype=np.int64,
        ).reshape(len(places), 4)
        self._order = np.array(order, dtype=np.int64)
        self._free = np.array(free, dtype=np.int64)
        self._base_hands = np.array(dealer.hands, dtype=np.int64)
        self._base_discs = np.array(dealer.discs, dtype=np.int64)
        self._table = np.array(
            [
                rules.seats,
                int(rules.classic),
                int(rules.discards),
                ends[0],
                ends[1],
                me,
                policy,
                keep,
                fastcore.MATCH if valuation.match else fastcore.MARGIN,
                valuation.target,
                unseen,
            ],
            dtype=np.int64,
        )
        self._scores = np.array(valuation.scores or [0] * rules.seats, dtype=np.int64)
        self._valuation = np.array(
            [float(GAME_WEIGHT * valuation.target), valuation.win_worth], dtype=np.float64
        )
        self._moves = np.array(moves, dtype=np.int64).reshape(len(moves), 3)
        self._passed = np.array(passed, dtype=np.int64).reshape(len(passed), 2)
        self._passed_over = passed_over
        self._dealer = dealer
        self._py_rng = rng
        self._rng = np.array([rng.getrandbits(63)], dtype=np.int64)
        self._drawn = 0
        self._drawn_weight = 0.0

    def judge(self, active: Sequence[int], deals: int) -> tuple[Floats, Floats]:
        """The `active` moves' values on `deals` new deals, [deal, move] (moves not active
        left at 0), and each deal's weight."""
        worth = np.zeros((deals, len(self._moves)), dtype=np.float64)
        weights = np.zeros(deals, dtype=np.float64)
        chosen = np.array(active, dtype=np.int64)
        given_hands, given_discs, given_weights = self._given(0)
        done = self._run(chosen, deals, given_hands, given_discs, given_weights, worth, weights)
        if done < deals:
            # The compiled fast path kept hitting dead ends: the sampler's matching draws the
            # rest, each counting as much as an average fast draw (as `Sampler` does).
            self._dealer.sampler.give_up_fast()
            given_hands, given_discs, given_weights = self._given(deals - done)
            rest_worth = np.zeros((deals - done, len(self._moves)), dtype=np.float64)
            rest_weights = np.zeros(deals - done, dtype=np.float64)
            self._run(
                chosen,
                deals - done,
                given_hands,
                given_discs,
                given_weights,
                rest_worth,
                rest_weights,
            )
            worth[done:] = rest_worth
            weights[done:] = rest_weights
        return worth, weights

    def pool(self, count: int) -> tuple[Ints, Ints, Floats]:
        """`count` new deals (hands, discards) and their weights, as `judge` draws them."""
        seats = len(self._base_hands)
        hands = np.zeros((count, seats), dtype=np.int64)
        discs = np.zeros((count, seats), dtype=np.int64)
        weights = np.zeros(count, dtype=np.float64)
        done = int(
            fastcore.deal_pool(
                int(self._table[10]),
                self._places,
                self._order,
                self._free,
                self._base_hands,
                self._base_discs,
                self._passed,
                self._passed_over,
                self._rng,
                hands,
                discs,
                weights,
            )
        )
        if done < count:
            self._drawn, self._drawn_weight = done, float(weights[:done].sum())
            self._dealer.sampler.give_up_fast()
            hands[done:], discs[done:], weights[done:] = self._given(count - done)
        return hands, discs, weights

    @property
    def table(self) -> Ints:
        """The judge's table (seats, rules, ends, seat, policy, keep, valuation, target…)."""
        return self._table

    @property
    def rng(self) -> Ints:
        """The core's generator state, shared by everything this judge runs."""
        return self._rng

    @property
    def valuation(self) -> tuple[Ints, Floats]:
        """The scores and [game value, win worth] the round's points are valued with."""
        return self._scores, self._valuation

    def judge_given(
        self, active: Sequence[int], deals: Sequence[tuple[list[int], list[int], float]]
    ) -> tuple[Floats, Floats]:
        """`judge` on these deals (hands, discards, weight) rather than new ones."""
        worth = np.zeros((len(deals), len(self._moves)), dtype=np.float64)
        weights = np.zeros(len(deals), dtype=np.float64)
        hands = np.array([h for h, _, _ in deals], dtype=np.int64).reshape(len(deals), -1)
        discs = np.array([d for _, d, _ in deals], dtype=np.int64).reshape(len(deals), -1)
        given_weights = np.array([w for _, _, w in deals], dtype=np.float64)
        chosen = np.array(active, dtype=np.int64)
        self._run(chosen, len(deals), hands, discs, given_weights, worth, weights)
        return worth, weights

    def _given(self, count: int) -> tuple[Ints, Ints, Floats]:
        # Deals by the Python sampler, weighing as much as an average compiled draw.
        seats = len(self._base_hands)
        hands = np.zeros((count, seats), dtype=np.int64)
        discs = np.zeros((count, seats), dtype=np.int64)
        mean = self._drawn_weight / self._drawn if self._drawn else 1.0
        for row in range(count):
            h, d, _ = self._dealer.deal(self._py_rng)
            hands[row] = h
            discs[row] = d
        return hands, discs, np.full(count, mean, dtype=np.float64)

    def _run(
        self,
        active: Ints,
        deals: int,
        given_hands: Ints,
        given_discs: Ints,
        given_weights: Floats,
        worth: Floats,
        weights: Floats,
    ) -> int:
        done = int(
            fastcore.judge(
                self._table,
                self._base_hands,
                self._base_discs,
                self._places,
                self._order,
                self._free,
                given_hands,
                given_discs,
                given_weights,
                self._passed,
                self._passed_over,
                self._moves,
                active,
                deals,
                self._scores,
                self._valuation,
                self._rng,
                worth,
                weights,
            )
        )
        if not given_hands.shape[0]:
            self._drawn += done
            self._drawn_weight += float(weights[:done].sum())
        return done
