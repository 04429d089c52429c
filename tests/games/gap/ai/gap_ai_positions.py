"""Helpers for Gap's ai tests: positions reached by random play, with the truth behind them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import NamedTuple

from gaple_bot.games.gap.rules import Game, GapConfig, SeatView

SEAT_COUNTS = (2, 3, 4, 5, 6)


class Position(NamedTuple):
    """A seat's view with the game behind it (the hidden hands and pile)."""

    view: SeatView
    game: Game


def random_game(config: GapConfig, rng: random.Random) -> Game:
    """A new game, half the time already in its second round (scores set, another first)."""
    while True:
        game = Game.new(config, rng)
        if rng.random() < 0.5:
            return game
        while game.to_move is not None:
            game.apply(game.to_move, rng.choice(game.legal_moves()))
        if not game.is_over:
            game.next_round(rng)
            return game


def positions(config: GapConfig, rng: random.Random, count: int) -> Iterator[Position]:
    """`count` positions, each the view of the seat to move after random play."""
    made = 0
    while made < count:
        game = random_game(config, rng)
        current = game.round
        moves = 0
        total = config.seats * config.hand_size
        for stop in sorted(rng.sample(range(total), min(3, total))):
            while current.to_move is not None and moves < stop:
                game.apply(current.to_move, rng.choice(current.legal_moves()))
                moves += 1
            if current.to_move is None:
                break
            yield Position(game.seat_view(current.to_move), game)
            made += 1
            if made >= count:
                return
