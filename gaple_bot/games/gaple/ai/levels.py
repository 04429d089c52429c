"""The three computer levels and the one entry point that picks a move for any of them."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Executor
from enum import StrEnum

from ..rules import Move, SeatView
from .greedy import greedy_move
from .montecarlo import Budget, monte_carlo_move


class Level(StrEnum):
    """How strongly a computer player plays."""

    EASY = "easy"
    """Greedy: the heaviest legal tile first."""
    NORMAL = "normal"
    """Determinised Monte Carlo with greedy rollouts: every legal move judged on 60 deals."""
    HARD = "hard"
    """Information-set tree search (`ismcts`): 3,000 iterations, each on a deal picked by
    weight from 512 drawn to fit the public record (weighted by how the opponents played: at
    four classic seats by the learned model of play, elsewhere by the tiles they passed over),
    down one tree of every seat's moves, then a rollout that keeps tiles playable; the move
    with the best mean value, the round's win worth 200 points on top of the lead; bounded by
    work, with a time cap as a last resort."""


BUDGETS: dict[Level, Budget] = {
    Level.NORMAL: Budget(deals=60, time_cap=0.030, min_deals=4),
    Level.HARD: Budget(
        deals=0,
        tree=3000,
        explore=3.0,
        by_mean=True,
        time_cap=0.040,
        passed_over=0.5,
        keep=3,
        discards_keep=0,
        win_worth=200.0,
        scale=200.0,
        choices=1.0,
        modelled_passed_over=1.0,
    ),
}
"""The thinking each Monte Carlo level gets.

Normal judges every legal move on the same 10 deals. Hard draws 50 deals per legal move and
judges every move on each (more deals where there are more choices: a free lead, a discard),
and solves each deal exactly from 14 tiles in hand. In bench/ai.py, spending deals where the
choices are many is what lifts hard above normal; a flat 200 deals did less. Against three
normal players (4,000 rounds, seed 11) hard won 29.4% of rounds with greedy rollouts, 31.5%
with keeping rollouts (`keep`), 32.6% when deals are also weighted by the opponents' plays
(`passed_over`), and 32.2% with keeping rollouts plus 150 extra deals for the two best moves
when they are within a standard error and exact search from 14 tiles. The time caps keep
a slow decision (a free lead with seven choices, an early exact search) under 100 ms; they are
the only thing that can make a decision depend on the machine rather than on the seed alone.

Issue 15 tried cheaper budgets against three reference players (bench/ai.py, seed 2024): 8
deals per move with exact search from 12 tiles cost a tenth (2.35 ms median, 15.8 ms p99) but
won 2.3 points fewer single rounds (95% CI -4.3 to -0.3) and 12 points fewer whole games
(19.0% against 31.0% of 200, CI -20.4 to -3.6), so hard keeps this budget.

It then dropped moves more than two standard errors behind the best (`prune`, checked at 16,
32, 64 … deals) and cut the close-call deals from 150 to 50: on 2,000 single rounds (seed
2024, `bench/ai.py --rounds 2000 --tables 1`) hard won 28.2% (26.3-30.2) against hard-v1's
27.3% (25.3-29.2), paired +0.9 points (CI -1.7 to +3.6), at a median of 13.37 ms per real
decision against 24.10 (0.55 times; p99 61.40 against 61.82, both at the time cap).

Then its thinking was bounded by work rather than time: at most 1,000 moves judged
(`work`), exact search from 12 tiles rather than 14 with at most 6,000 positions searched in
all (`exact_nodes`, rollouts past it), and a 40 ms cap rather than 60 for a loaded machine.
On 2,000 single rounds against three reference players (seed 2024) that was +0.2 points on
the same deals (CI -0.7 to +1.2), and against three hard-v1 -0.2 (CI -1.8 to +1.3); in
`bench/ai.py --rounds 2000 --tables 1` hard won 28.1% (26.1-30.1) at a median of 8.91 ms and
a p99 of 42.21 per real decision (CPU time 6.45 and 20.95; load average 5.3 falling to 1.4),
and again at load 1.1-1.4 28.0% (26.1-30.0) at 6.22 and 20.67 ms (CPU 6.19 and 20.57).
The CPU p99 is half the cap, so on an idle core the time cap, the one thing that makes a
decision depend on the machine, seldom decides; on a loaded one it still bounds the wait.
Each part alone was within a point: exact from 12 tiles -0.1, from 10 -0.2, `work` 700 -0.4,
a 40 ms cap -0.1. Deals weighted by a softmax model of the opponents' plays (`play_model`
0.15, fitted to the reference player) instead of `passed_over` lost 0.4 (CI -1.8 to +1.0),
and with it 1.2 (CI -2.8 to +0.3); `passed_over` 0.3 lost 1.1 (CI -2.4 to +0.1); so
neither is used.

Under the discard rules greedy rollouts (`discards_keep` 0) did better than keeping ones:
+1.4 points (CI -0.4 to +3.2) on 1,200 single rounds against three reference players (seed
2024) and +1.8 (CI +0.3 to +3.3) on 2,000 (seed 7), at about a third of the time.

Issue 30 tried deals weighted by a softmax model of play fitted to the reference player
(`opponents`: +1.1 points on 2,000 rounds of seed 7, -1.4 on seed 11, both within the noise),
70 deals per move (-0.8), and rollouts playing the model's best play (`modelled`, -0.2); none
is used (docs/COMPUTER_PLAYERS.md has every figure). It then gave the round's win a worth of
its own on top of the lead (`win_worth`: for the next lead, C5, and for winning at all): 40
points won +0.9 (CI -0.4 to +2.3), +0.4 (-0.8 to +1.7) and +1.2 (+0.2 to +2.1) points of
single rounds on seeds 7, 11 (2,000 rounds each) and 2024 (4,000), about +0.9 (+0.3 to +1.6)
pooled; 10, 20, 80 and a pure win (1,000) did no better.

Issue 41 compiled the simulation (fastcore, 25 times the play-outs a second) and replaced
hard's flat judgement by information-set tree search (`ismcts`): on 4,000 single rounds against
three reference players (seed 7) 3,000 iterations with exploration 3.0 and the move by best
mean value won 30.9% against the flat budget's 28.5%, paired +2.5 points (CI +0.9 to +4.0), at
3.2 ms CPU median and 4.9 p99 (the flat one 0.5 and 13.0: its exact searches run in Python).
Exact search at the end added nothing to the tree (30.6% without, 30.7% with, on 2,000
rounds), so hard has none and every decision is compiled. More iterations (5,000), a larger
pool of deals, other explorations (1.0 to 10.0), paired root moves, rollouts that block the
next seat or play the others at random, other worths of the win and other weights of the
opponents' passed-over tiles all stayed within a point of it; greedy rollouts lost 1.6.
Normal judges 60 deals rather than 10: 26.8% against 23.0% on 2,000 rounds, at 0.2 ms. The
figures are in docs/COMPUTER_PLAYERS.md.

Issue 41's fourth sitting found that hard seeing every hand would win 43.5% where hard wins
29.9% (bench/ai_ceiling.py), and weighed the tree's deals by a model of the reference player's
plays learned from its self-play (`Budget.choices`, bench/fit_choices.py): about +0.4 points
over five seeds of 4,000 rounds (pooled interval -0.2 to +1.0) at twice the CPU. Its fifth
sitting put that model (at power 0.5) together with the round valued mostly by its win (worth
200 points, with 200 points as the exploration's unit): 30.8% of 20,000 rounds over the same
five seeds against the fourth sitting's 29.8% (hard-v4), 31.7% on seed 2024 (paired with
hard-v4 +1.3, CI -0.5 to +3.2) at 5.4 ms CPU median once the model's kernel skipped plays
without a choice.

Its eighth sitting weighed the deals at four classic seats by that model alone, at power 1,
no longer also by the passed-over tiles (`modelled_passed_over`; hard-v1, the level before
issue 15, keeps numbers playable rather than shed its heaviest tile, which the passed-over
rule reads wrongly): against three hard-v1 on the five seeds' 20,000 rounds 27.7% against
27.2% for the fifth sitting's hard (hard-v5), and against three reference players 30.8% of
the same seeds' rounds against 30.9% (31.6% on seed 2024, as hard-v5), at about the same CPU.
Elsewhere hard is as before."""


def decide(level: Level | str, view: SeatView, seed: int, budget: Budget | None = None) -> Move:
    """The move `level` makes in `view`, its randomness drawn from `seed` (pool-friendly: every
    argument pickles, so a process pool can run it)."""
    level = Level(level)
    rng = random.Random(seed)
    if level is Level.EASY:
        return greedy_move(view, rng)
    return monte_carlo_move(view, rng, budget or BUDGETS[level])


def choose_move(
    level: Level | str, view: SeatView, rng: random.Random, budget: Budget | None = None
) -> Move:
    """The legal move the computer player of `level` makes for the seat to move in `view`.

    It draws one seed from `rng` whatever the level, so the same `rng` state gives the same
    decision here and in `choose_move_async`. `budget` overrides the level's thinking (tests).
    """
    if not view.my_turn or not view.legal:
        raise ValueError(f"seat {view.seat} is not to move")
    return decide(level, view, rng.getrandbits(64), budget)


async def choose_move_async(
    level: Level | str,
    view: SeatView,
    rng: random.Random,
    executor: Executor | None = None,
) -> Move:
    """`choose_move` run off the event loop, in `executor`.

    None runs it in the loop's default thread pool: the loop stays responsive, but the GIL
    means the decision still takes CPU time from the loop's thread while it runs, which is
    fine for the short easy and normal decisions. For hard players pass a process pool (a
    "spawn" ProcessPoolExecutor, as the service makes), which thinks on another core.
    """
    if not view.my_turn or not view.legal:
        raise ValueError(f"seat {view.seat} is not to move")
    seed = rng.getrandbits(64)
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor, decide, Level(level), view, seed)
