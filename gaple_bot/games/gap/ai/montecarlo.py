"""Determinised sampling: judge each legal move on deals of the unseen cards, played out."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

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
    """Seconds after which no further deal is drawn (None: no cap): a safety net only."""
    min_deals: int = 1
    """Deals judged even past the time cap or the work bound."""
    win: float = 0.0
    """What winning the round (the best score, ties included) is worth on top of the margin
    over the best opponent."""
    work: int = 0
    """Simulated plays (every play of every play-out) after which no further deal is drawn,
    past `min_deals` (0: no bound). Unlike the time cap it depends on the seed alone."""
    margin: float = 1.0
    """What each point of margin over the best opponent is worth."""
    share: float = 0.0
    """What the round's win is worth, shared among the seats tied for the best score."""
    prune: float = 0.0
    """After 8, 16, 32 … deals, stop judging every move whose paired difference from the best
    move so far is more than `prune` standard errors below it, and stop drawing once one move
    is left (0: judge every move on every deal)."""
    epsilon: float = 0.0
    """Each simulated play is a random card with this probability instead of greedy's (1.0:
    `State.random_rollout`, uniformly random play throughout)."""
    dumps: bool = False
    """On the compiled core, greedy play-outs (`epsilon` 0) give the middle, when they give it a
    card, the one the next seat gains least by (`fastsim.DUMPS`)."""
    fast: bool = False
    """Play out on the compiled core (`fastsearch.fast_search`; no pruning) rather than in
    Python: the same method, many times the deals for the same CPU."""
    tree: bool = False
    """Search by information-set MCTS on the compiled core (`ismcts.tree_search`): `work`
    bounds its iterations, `explore` is UCB's constant (in points of worth)."""
    explore: float = 8.0
    own: bool = False
    """The tree holds the seat's own moves only, the others' played by the play-out policy."""

    def deals_for(self, legal_moves: int) -> int:
        """The deals a decision among `legal_moves` moves draws."""
        return self.deals * legal_moves if self.per_move else self.deals


class Decision(NamedTuple):
    """A decision's move and whether the time cap cut its thinking short."""

    move: Move
    capped: bool


def clock() -> Callable[[], float]:
    """The clock the sampling levels' time caps read (tests stop it by replacing `time`)."""
    return time.perf_counter


def value(points: list[int], me: int, budget: Budget) -> float:
    """A finished round's worth to `me` under the budget's weights: `margin` per point over the
    best opponent, `win` for no opponent ahead, `share` times its share of the round's win."""
    margin = points[me] - max(p for s, p in enumerate(points) if s != me)
    result = budget.margin * margin
    if margin >= 0:
        result += budget.win + budget.share / points.count(points[me])
    return result


def _behind(values: list[list[float]], j: int, best: int, prune: float) -> bool:
    """Whether move j's paired difference from move `best` over the deals so far is more than
    `prune` standard errors below zero."""
    a, b = values[j], values[best]
    n = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean < 0 and mean * mean * n > prune * prune * variance


def search(view: SeatView, rng: random.Random, budget: Budget) -> Decision:
    """The legal move with the best average worth over the drawn deals, and whether the time
    cap stopped the drawing before the budget's deals or work were spent.

    Each deal puts the unseen cards into the other hands and the pile (`Sampler`); a move's
    worth on a deal is `value` after every seat plays to the end of the round (greedily, or at
    random with the budget's `epsilon`). Deals stop at the budget's deals or work. Ties go
    to the earlier legal move, so a decision depends on the seed alone unless the time cap
    cuts it short.
    """
    legal = view.legal
    if not legal:
        raise ValueError(f"seat {view.seat} has no move to make")
    if len(legal) == 1:
        return Decision(legal[0], False)
    started = time.perf_counter()
    deadline = None if budget.time_cap is None else started + budget.time_cap
    me = view.seat
    sampler = Sampler(view)
    middle = list(view.middle)
    keys = [pack(cards) for cards in view.collections]
    hand = list(view.hand)
    plays = [(move.card, taken_by(move, middle)) for move in legal]
    values: list[list[float]] = [[] for _ in legal]
    alive = list(range(len(legal)))
    plies = sum(view.hand_counts)
    work, spent = budget.work, 0
    deals = budget.deals_for(len(legal))
    epsilon, prune = budget.epsilon, budget.prune
    check = 8
    capped = False
    for drawn in range(1, deals + 1):
        hands, pile = sampler.sample(rng)
        hands[me] = hand
        base = State(hands, middle, pile, keys, me)
        for j in alive:
            state = base.copy()
            card, taken = plays[j]
            state.play(card, taken)
            if epsilon >= 1.0:
                state.random_rollout(rng)
            elif epsilon:
                state.mixed_rollout(rng, epsilon)
            else:
                state.rollout()
            values[j].append(value(state.points(), me, budget))
        spent += len(alive) * plies
        if prune and drawn == check:
            check *= 2
            best = max(alive, key=lambda j: sum(values[j]))
            alive = [j for j in alive if j == best or not _behind(values, j, best, prune)]
            if len(alive) == 1:
                break
        if drawn < budget.min_deals or drawn == deals:
            continue
        if work and spent + len(alive) * plies > work:
            break
        if deadline is not None and time.perf_counter() > deadline:
            capped = True
            break
    best = max(alive, key=lambda j: (sum(values[j]), -j))
    return Decision(legal[best], capped)


def monte_carlo_move(view: SeatView, rng: random.Random, budget: Budget) -> Move:
    """The move `search` picks."""
    return search(view, rng, budget).move
