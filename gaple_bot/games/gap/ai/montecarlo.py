"""Determinised sampling: judge each legal move on deals of the unseen cards, played out."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..rules import Move, SeatView
from .greedy import taken_by
from .sampler import Sampler
from .sim import State, pack


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a decision gets."""

    deals: int
    """Deals drawn; every legal move is judged on every deal (common random numbers, so moves
    are compared on the same hidden cards)."""
    per_move: bool = False
    """Draw `deals` deals for each legal move rather than `deals` in all."""
    time_cap: float | None = None
    """Seconds after which no further deal is drawn (None: no cap)."""
    min_deals: int = 1
    """Deals judged even past the time cap."""
    win: float = 0.0
    """What winning the round (the best score, ties included) is worth on top of the margin
    over the best opponent."""

    def deals_for(self, legal_moves: int) -> int:
        """The deals a decision among `legal_moves` moves draws."""
        return self.deals * legal_moves if self.per_move else self.deals


def worth(points: list[int], me: int, win: float) -> float:
    """A finished round's worth to `me`: its margin over the best opponent (the game is won on
    totals), plus `win` if no opponent scored more."""
    best_other = max(p for s, p in enumerate(points) if s != me)
    margin = points[me] - best_other
    return margin + win if margin >= 0 else margin


def monte_carlo_move(view: SeatView, rng: random.Random, budget: Budget) -> Move:
    """The legal move with the best average worth over the drawn deals.

    Each deal puts the unseen cards into the other hands and the pile (`Sampler`); a move's
    worth on a deal is `worth` after every seat plays greedily to the end of the round. Ties go
    to the earlier legal move, so a decision depends on the seed alone unless the time cap
    cuts it short.
    """
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no move to make")
    if len(legal) == 1:
        return legal[0]
    started = time.perf_counter()
    deadline = None if budget.time_cap is None else started + budget.time_cap
    me = view.seat
    sampler = Sampler(view)
    middle = list(view.middle)
    keys = [pack(cards) for cards in view.collections]
    hand = list(view.hand)
    plays = [(move.card, taken_by(move, middle)) for move in legal]
    totals = [0.0] * len(legal)
    everyone = range(len(legal))
    for drawn in range(budget.deals_for(len(legal))):
        hands, pile = sampler.sample(rng)
        hands[me] = hand
        base = State(hands, middle, pile, keys, me)
        for j in everyone:
            state = base.copy()
            card, taken = plays[j]
            state.play(card, taken)
            state.rollout()
            totals[j] += worth(state.points(), me, budget.win)
        past_minimum = drawn + 1 >= budget.min_deals
        if deadline is not None and past_minimum and time.perf_counter() > deadline:
            break
    return legal[max(everyone, key=totals.__getitem__)]
