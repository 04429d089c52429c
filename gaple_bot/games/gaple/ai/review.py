"""A review's judgement of one decision: every legal move's expected worth to the seat, by
hard's own search given twenty times its work.

Hard (`levels.BUDGETS[HARD]`) runs information-set tree search (`ismcts`) on the compiled
core and picks the move whose visits led to the best mean value (`MatchValue`: the seat's
lead over its best opponent after the round, the round's win worth points on top, a game won
or lost worth two targets). A review needs every legal move's value, each as well estimated
as the others, in points a player can read, and the same values on any machine. So it runs
the same search with:

- the round's win worth 40 points (`REVIEW_WIN_WORTH`), as hard valued it before issue 41's
  fifth sitting: hard now plays for the win at 200, which wins more rounds, but a review's
  marks are thresholds in points of a round;
- `REVIEW_WORK` (20) times hard's iterations and deal pool: 60,000 iterations on 10,240
  deals drawn to fit what the seat knew (its hand and the public record, weighted by the
  opponents' passed-over tiles as hard weighs them at other tables, not by the learned model
  of their play that hard weighs them by at four classic seats instead, worth under a point of
  rounds won), never the hidden hands;
- the root paired (`Budget.paired`): every deal picked is played once from each legal move in
  turn, so every move gets the same visits on the same hidden hands (common random numbers:
  the difference of two moves is not buried in the luck of different deals), and a weak
  move is not starved of visits as UCB at the root would starve it; below the root the tree
  searches every seat's moves for that seat's own good, as in hard;
- no time cap: the work alone bounds it, so a view and a seed always give the same values.

A move's value is the mean value its visits led to, in points, as hard's `by_mean` reads it.
A flat judgement (every move rolled out by the keeping rule on the same deals) would be
simpler and has common random numbers too, but plays every move after the judged one by the
rollouts' rule of thumb: that was hard's method before issue 41, and the tree beat it by 2.5
points of single rounds (paired, CI +0.9 to +4.0), so such a reviewer would often disagree
with a better player than itself.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..rules import SeatView
from .dealer import Dealer
from .fastsearch import core_moves
from .ismcts import tree_visits
from .levels import BUDGETS, Level
from .montecarlo import Budget, fast_judge, keep_of
from .playout import rules_of

REVIEW_WORK = 20
"""A review's work as a multiple of hard's (its tree iterations and its pool of deals)."""
REVIEW_WIN_WORTH = 40.0
"""Points the round's win is worth on top of its lead in a review's values. The marks'
thresholds are points of a round, so a review keeps this valuation whatever hard plays for
(hard values the win far higher, which wins more rounds but is no measure a player reads)."""
REVIEW_SCALE = 50.0
"""Points of value as one unit of the review's exploration below the root."""


def review_budget(work: float = REVIEW_WORK) -> Budget:
    """Hard's budget with `work` times its iterations and deals, the root paired, no time cap,
    valued in points (`REVIEW_WIN_WORTH`) (tests may pass a smaller `work`; the service uses
    the default)."""
    hard = BUDGETS[Level.HARD]
    iterations = max(1, round(hard.tree * work))
    return replace(
        hard,
        tree=iterations,
        tree_pool=max(16, round(hard.tree_pool * work)),
        tree_room=iterations + 64,
        paired=True,
        time_cap=None,
        win_worth=REVIEW_WIN_WORTH,
        scale=REVIEW_SCALE,
        # A review does not weigh its deals by the learned model of play, so the passed-over
        # tiles weigh them at every table.
        choices=0.0,
    )


def move_values(view: SeatView, seed: int, budget: Budget | None = None) -> dict[int, float]:
    """Every legal move's code of the seat to move in `view` mapped to its expected worth to
    that seat in points (the mean `MatchValue` of its visits), from `random.Random(seed)` and
    the work alone; ValueError if the seat is not to move."""
    legal = view.legal
    if not view.my_turn or not legal:
        raise ValueError(f"seat {view.seat} is not to move")
    budget = budget or review_budget()
    rng = random.Random(seed)
    dealer = Dealer.of(view, rules_of(view.config).seats)
    judge = fast_judge(view, rng, budget, dealer, keep_of(view, budget))
    # Paired: whole rounds of the root moves, at least one each.
    iterations = max(budget.tree, len(legal))
    visits, rewards = tree_visits(
        judge,
        core_moves(legal),
        iterations,
        budget.tree_pool,
        budget.explore,
        budget.scale,
        max(budget.tree_room, iterations + len(legal) + 1),
        None,
        paired=True,
        hand_aware=budget.hand_aware,
        own_explore=budget.own_explore,
    )
    return {move.code: rewards[k] / visits[k] if visits[k] else 0.0 for k, move in enumerate(legal)}
