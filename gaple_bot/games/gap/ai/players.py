"""Every Gap player the arena knows: the chat levels plus opponents no chat is offered."""

from __future__ import annotations

import random
from enum import StrEnum

from ..rules import Move, SeatView
from .levels import Level, decision
from .montecarlo import Budget, Decision, search
from .reference import reference_move


class Player(StrEnum):
    """A computer player the arena can seat; the chat-selectable ones are `Level`'s."""

    EASY = Level.EASY.value
    NORMAL = Level.NORMAL.value
    HARD = Level.HARD.value
    HARD_V1 = "hard-v1"
    """The hard level as issue 30 found it (24 deals per move, greedy rollouts, a 16 ms cap),
    frozen so later versions can be measured on it."""
    HARD_V2 = "hard-v2"
    """The hard level as issue 30 left it (flat Monte Carlo in Python, random play-outs, 8,500
    simulated plays, the round's win worth 4 points), frozen so issue 41's can be measured on
    it."""
    REFERENCE = "reference"
    """Plain flat Monte Carlo (`reference_move`): the fixed yardstick of bench/ai_gap.py."""


HARD_V1 = Budget(deals=24, per_move=True, time_cap=0.016, min_deals=4)
"""The hard level's budget before issue 30."""
HARD_V2 = Budget(deals=400, epsilon=1.0, work=8500, time_cap=0.25, min_deals=4, share=4.0)
"""The hard level's budget after issue 30 (before issue 41)."""


def play_traced(
    player: Player | str, view: SeatView, seed: int, budget: Budget | None = None
) -> Decision:
    """The move `player` makes in `view`, its randomness drawn from `seed`, and whether a time
    cap cut its thinking short; `budget` overrides a sampling player's thinking (tests)."""
    player = Player(player)
    if not view.my_turn or not view.legal:
        raise ValueError(f"seat {view.seat} is not to move")
    if player is Player.REFERENCE:
        return Decision(reference_move(view, random.Random(seed)), False)
    if player is Player.HARD_V1:
        return search(view, random.Random(seed), budget or HARD_V1)
    if player is Player.HARD_V2:
        return search(view, random.Random(seed), budget or HARD_V2)
    return decision(Level(player.value), view, seed, budget)


def play(player: Player | str, view: SeatView, seed: int, budget: Budget | None = None) -> Move:
    """The move `player` makes in `view` (`play_traced` without the trace)."""
    return play_traced(player, view, seed, budget).move
