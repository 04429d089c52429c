"""Information-set Monte Carlo tree search on the compiled core (single observer, SO-ISMCTS).

Each iteration picks one deal of the hidden tiles (from a pool drawn to fit what the seat
knows, by weight), walks down one tree of move sequences shared by every deal, choosing among
the moves legal in that deal by UCB with availability counts (a move is judged only against
the deals in which it could be made), adds one node, plays the round out with the rollout
policy and credits each move with what the round is worth to the seat that made it. Every
seat's choices in the tree are thus searched for that seat's own good, as a good player makes
them, rather than played by the rollout's rule of thumb.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from .fastcore import (
    DISCARD_CODE,
    FIRST_CHILD,
    MOVE,
    NEXT_SIBLING,
    PASS,
    PASS_CODE,
    PLAY,
    VISITS,
    Floats,
    Ints,
    search,
)
from .fastsearch import FastJudge
from .values import ValueModel, no_value_model

CHUNK = 500
"""Iterations between two looks at the clock."""


def tree_visits(
    judge: FastJudge,
    moves: Sequence[tuple[int, int, int]],
    iterations: int,
    pool: int,
    explore: float,
    scale: float,
    room: int,
    deadline: float | None = None,
    paired: bool = False,
    hand_aware: bool = False,
    own_explore: float | None = None,
    reweigh: Callable[[Ints, Ints, Floats], Floats] | None = None,
    values: ValueModel | None = None,
    value_mix: float = 0.0,
    others_win: float | None = None,
    others_scale: float | None = None,
    paranoid: bool = False,
    keyed_others: bool = False,
) -> tuple[list[int], list[float]]:
    """Each legal move's visits at the root after `iterations` iterations of the search, and
    the value its visits led to in all, on a pool of `pool` deals drawn by `judge` (its rules,
    seat, policy and valuation); `moves` are the legal moves as (kind, bit, on_left). Past
    `deadline` (`time.perf_counter`), checked every `CHUNK` iterations, it stops early: a
    safety net for a loaded machine, the one thing that makes the answer depend on more than
    the seed. Paired, every deal is played from each root move in turn; hand aware, the other
    seats' moves follow the rollout's rule with their dealt hands (see `search`); `own_explore`
    is the exploration of the seat's own later moves (None: `explore`); `reweigh` gives the
    pool's weights again from its hands, discards and weights (an opponent model's evidence);
    `value_mix` is the share of a leaf's value the learned value `values` gives (four seats);
    `others_win`, `others_scale` are the round's win's worth to the other seats and their unit
    of reward in their choices (None: the seat's own); paranoid, the other seats play against
    the seat (their reward the negative of its value, in its unit), whatever those say;
    keyed others, the other seats' choices in the tree are kept apart by the fitting tiles they
    hold in the deal, so each chooses knowing its own hand."""
    if not 0.0 <= value_mix <= 1.0:
        raise ValueError(f"value_mix must be a share from 0 to 1, not {value_mix}")
    hands, discs, weights = judge.pool(pool)
    if reweigh is not None:
        weights = reweigh(hands, discs, weights)
    cumulative = np.cumsum(weights)
    if cumulative[-1] <= 0.0:
        cumulative = np.arange(1.0, pool + 1.0)
    table = judge.table
    tree_table = np.array(
        [
            *table[:8].tolist(),
            table[9],
            int(paired),
            2 if keyed_others else int(hand_aware),
            -1 if own_explore is None else round(100 * own_explore),
            round(100 * value_mix) if values is not None else 0,
        ],
        dtype=np.int64,
    )
    codes = np.array([_code(kind, bit, on_left) for kind, bit, on_left in moves], dtype=np.int64)
    scores, own = judge.valuation
    valuation = np.array(
        [
            own[0],
            own[1],
            own[1] if others_win is None else others_win,
            scale if others_scale is None or paranoid else others_scale,
            float(paranoid),
        ],
        dtype=np.float64,
    )
    links = np.zeros((6, max(2, room)), dtype=np.int64)
    links[FIRST_CHILD] = -1
    links[NEXT_SIBLING] = -1
    reward = np.zeros(links.shape[1], dtype=np.float64)
    learned = (values or no_value_model()).arrays()
    nodes = 1
    done = 0
    # Paired, a chunk is whole rounds of the root moves, so each chunk starts on a new deal.
    step = len(moves) * max(1, CHUNK // len(moves)) if paired else CHUNK
    while done < iterations:
        chunk = min(step, iterations - done)
        if paired:
            chunk = -(-chunk // len(moves)) * len(moves)
        nodes = search(
            tree_table,
            codes,
            hands,
            discs,
            cumulative,
            scores,
            valuation,
            chunk,
            explore,
            scale,
            judge.rng,
            links,
            reward,
            nodes,
            *learned,
        )
        done += chunk
        if deadline is not None and time.perf_counter() > deadline:
            break
    visits = [0] * len(moves)
    rewards = [0.0] * len(moves)
    where = {int(code): k for k, code in enumerate(codes)}
    child = int(links[FIRST_CHILD, 0])
    while child >= 0:
        k = where[int(links[MOVE, child])]
        visits[k], rewards[k] = int(links[VISITS, child]), float(reward[child])
        child = int(links[NEXT_SIBLING, child])
    return visits, rewards


def _code(kind: int, bit: int, on_left: int) -> int:
    """A move's code in the tree."""
    if kind == PLAY:
        return 2 * bit + on_left
    return PASS_CODE if kind == PASS else DISCARD_CODE + bit
