"""Determinised Monte Carlo: judge each legal move on deals drawn to fit what the seat knows."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..engine import Move, SeatView
from .exact import Solver
from .inference import PlayModel, resample
from .knowledge import Knowledge, PlaceKind, knowledge_of
from .playout import move_parts, rollout, rules_of, step, to_bits
from .sampler import Sampler, SamplerError
from .value import MatchValue


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a decision gets."""

    samples: int
    """Deals drawn; every legal move is judged on each of them (so: samples per legal move)."""
    exact_tiles: int = 0
    """Solve each deal exactly instead of rolling out once the hands hold at most this many."""
    time_cap: float | None = None
    """Seconds after which no further deal is drawn (None: no cap)."""
    min_samples: int = 1
    """Deals judged even past the time cap."""
    noise: float = 0.0
    smart: tuple[int, int] | None = None
    lead_bonus: float = 0.0
    round_only: bool = False
    per_move: bool = False
    candidates: int = 1
    """Deals drawn per deal judged; above 1, the judged ones are resampled from them by how
    well they explain the other seats' plays (`PlayModel`)."""


def _sampler(knowledge: Knowledge) -> Sampler:
    """A sampler of the hidden tiles in this module's bit order."""
    return Sampler(
        to_bits(knowledge.unseen), [(p.count, to_bits(p.allowed)) for p in knowledge.places]
    )


def monte_carlo_move(view: SeatView, rng: random.Random, budget: Budget) -> Move:
    """The legal move with the best weighted average value over the drawn deals.

    Each deal gives the other seats' hands and discards consistent with the public record; a
    move's value on a deal is what the match makes of the round's points (`MatchValue`) after
    greedy play to the end, or after perfect play by all when few tiles remain (`Solver`).
    """
    legal = view.legal
    if not legal:
        raise ValueError("the seat has no move to make")
    if len(legal) == 1:
        return legal[0]
    started = time.perf_counter()
    me = view.seat
    rules = rules_of(view.config)
    value = MatchValue(
        [0] * rules.seats if budget.round_only else view.scores,
        10_000 if budget.round_only else view.config.target,
        budget.lead_bonus,
    )
    knowledge = knowledge_of(view)
    places = knowledge.places
    try:
        sampler = _sampler(knowledge)
        sampler.sample(random.Random(0))
    except SamplerError:
        # Only the C4 inference is an assumption (a hand-made first deal may break it).
        knowledge = knowledge_of(view, assume_c4=False)
        places = knowledge.places
        sampler = _sampler(knowledge)
    left, right = view.ends if view.ends is not None else (-1, -1)
    base_hands = [0] * rules.seats
    base_discs = [0] * rules.seats
    base_hands[me] = to_bits(view.hand)
    base_discs[me] = to_bits(view.own_discards)
    moves = [move_parts(move) for move in legal]
    exact = sum(view.hand_counts) <= budget.exact_tiles and left >= 0
    totals = [0.0] * len(legal)
    deadline = None if budget.time_cap is None else started + budget.time_cap

    def draw() -> tuple[list[int], list[int], float]:
        masks, weight = sampler.sample(rng)
        hands, discs = list(base_hands), list(base_discs)
        for place, mask in zip(places, masks, strict=True):
            if place.kind is PlaceKind.HAND:
                hands[place.seat] = mask
            elif place.kind is PlaceKind.DISCARDS:
                discs[place.seat] |= mask
        return hands, discs, weight

    n_samples = budget.samples * (len(legal) if budget.per_move else 1)
    model = PlayModel(view) if budget.candidates > 1 else None
    if model:
        pool = [draw() for _ in range(n_samples * budget.candidates)]
        chosen = resample([w * model.likelihood(h) for h, _, w in pool], n_samples, rng)
        deals = iter([(pool[i][0], pool[i][1], 1.0) for i in chosen])
    else:
        deals = (draw() for _ in range(n_samples))
    for drawn, (hands, discs, weight) in enumerate(deals):
        solver = Solver(rules, value) if exact else None
        for j, (kind, bit, side) in enumerate(moves):
            if solver is not None:
                worth = solver.after(hands, discs, left, right, me, kind, bit, side)[me]
            else:
                h, d = list(hands), list(discs)
                nxt = step(rules, h, d, left, right, me, kind, bit, side)
                points = nxt.points
                if points is None:
                    points = rollout(rules, h, d, nxt.left, nxt.right, nxt.seat, rng, budget.noise)
                worth = value.of(points)[me]
            totals[j] += weight * worth
        if deadline is not None and drawn + 1 >= budget.min_samples:
            if time.perf_counter() > deadline:
                break
    best = max(range(len(legal)), key=totals.__getitem__)
    return legal[best]
