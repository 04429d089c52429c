"""Helpers for the ai tests: every rule-set setup, and positions reached by random play."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

from gaple_bot.games.gaple.rules import Game, GameConfig, RuleSet, SeatView, StuckRule

SETUPS: tuple[GameConfig, ...] = (
    GameConfig(RuleSet.CLASSIC, 4),
    GameConfig(RuleSet.CLASSIC, 3),
    GameConfig(RuleSet.CLASSIC, 2),
    GameConfig(RuleSet.DISCARDS, 4),
    GameConfig(RuleSet.DISCARDS, 5),
    GameConfig(RuleSet.DISCARDS, 4, stuck_rule=StuckRule.PASS),
    GameConfig(RuleSet.DISCARDS, 5, stuck_rule=StuckRule.PASS),
)


class Position(NamedTuple):
    """A seat's view with the hidden truth behind it, for checking inferences."""

    view: SeatView
    hands: tuple[int, ...]
    discards: tuple[int, ...]
    set_aside: int


def positions(config: GameConfig, rng: random.Random, count: int) -> Iterator[Position]:
    """`count` positions, each the view of the seat to move after random play, in first and
    later rounds. Random moves pass and discard often, which makes tight constraints."""
    made = 0
    while made < count:
        game = Game.new(config, rng)
        if rng.random() < 0.5:
            # A whole first round through the Game sets the scores and the next (free) leader.
            while game.to_move is not None:
                game.apply(game.to_move, rng.choice(game.legal_moves()))
            if game.is_over:
                continue
            game.next_round(rng)
        current = game.round
        moves = 0
        for stop in sorted(rng.sample(range(40), 3)):
            while current.to_move is not None and moves < stop:
                game.apply(current.to_move, rng.choice(current.legal_moves()))
                moves += 1
            if current.to_move is None:
                break
            yield Position(
                game.seat_view(current.to_move),
                tuple(current.hands),
                tuple(current.discards),
                current.deal.set_aside,
            )
            made += 1
            if made >= count:
                return
