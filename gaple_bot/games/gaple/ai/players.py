"""Every player the arena knows: the chat levels plus reference opponents no chat is offered."""

from __future__ import annotations

import dataclasses
import random
from enum import StrEnum

from ..rules import Move, SeatView
from .levels import BUDGETS, Level, decide
from .montecarlo import Budget, monte_carlo_move
from .reference import reference_move


class Player(StrEnum):
    """A computer player the arena can seat; the chat-selectable ones are `Level`'s."""

    EASY = Level.EASY.value
    NORMAL = Level.NORMAL.value
    HARD = Level.HARD.value
    HARD_V1 = "hard-v1"
    """The hard level as issue 15 found it, frozen so later versions can be measured on it."""
    HARD_V2 = "hard-v2"
    """The hard level as issue 30 found it (no worth for the round's win), frozen likewise."""
    HARD_V3 = "hard-v3"
    """The hard level as issue 41 found it (flat judgement, the round's win worth 40)."""
    HARD_V4 = "hard-v4"
    """The hard level as issue 41's fourth sitting left it (tree search, the win worth 40)."""
    HARD_V5 = "hard-v5"
    """The hard level as issue 41's fifth sitting left it (the learned model at power 0.5 beside
    the passed-over tiles)."""
    REFERENCE = "reference"
    """Plain flat Monte Carlo (`reference_move`): the fixed yardstick of bench/ai.py."""


HARD_V1 = Budget(
    deals=50,
    per_move=True,
    exact_tiles=14,
    time_cap=0.060,
    min_deals=8,
    extra_deals=150,
    passed_over=0.5,
    keep=3,
)
"""The hard level's budget before issue 15."""

HARD_V2 = Budget(
    deals=50,
    per_move=True,
    exact_tiles=12,
    time_cap=0.040,
    min_deals=8,
    extra_deals=50,
    passed_over=0.5,
    keep=3,
    prune=2.0,
    exact_nodes=6000,
    work=1000,
    discards_keep=0,
)
"""The hard level's budget before issue 30's third sitting (the round's win worth nothing on
top)."""


HARD_V3 = dataclasses.replace(HARD_V2, win_worth=40.0)
"""The hard level's budget before issue 41 (flat judgement of every move on its deals)."""


HARD_V4 = Budget(
    deals=0,
    tree=3000,
    explore=3.0,
    by_mean=True,
    time_cap=0.040,
    passed_over=0.5,
    keep=3,
    discards_keep=0,
    win_worth=40.0,
)
"""The hard level's budget before issue 41's fifth sitting (the tree search valuing the
round's win at 40 points, the deals weighted by passed-over tiles only)."""


HARD_V5 = dataclasses.replace(HARD_V4, win_worth=200.0, scale=200.0, choices=0.5)
"""The hard level's budget before issue 41's eighth sitting (the tree's deals weighted at four
classic seats by the learned model of play at power 0.5 and by the passed-over tiles)."""


FROZEN: dict[Player, Budget] = {
    Player.HARD_V1: HARD_V1,
    Player.HARD_V2: HARD_V2,
    Player.HARD_V3: HARD_V3,
    Player.HARD_V4: HARD_V4,
    Player.HARD_V5: HARD_V5,
}
"""The frozen hard levels' budgets."""


def budget_of(player: Player | str) -> Budget | None:
    """The thinking a Monte Carlo player gets, or None for one with no budget (easy, the
    reference)."""
    player = Player(player)
    if player in FROZEN:
        return FROZEN[player]
    if player is Player.REFERENCE:
        return None
    return BUDGETS.get(Level(player.value))


def play(player: Player | str, view: SeatView, seed: int, budget: Budget | None = None) -> Move:
    """The move `player` makes in `view`, its randomness drawn from `seed`; `budget` overrides
    a Monte Carlo player's thinking (tests)."""
    player = Player(player)
    if player is Player.REFERENCE:
        return reference_move(view, random.Random(seed))
    if player in FROZEN:
        return monte_carlo_move(view, random.Random(seed), budget or FROZEN[player])
    return decide(Level(player.value), view, seed, budget)
