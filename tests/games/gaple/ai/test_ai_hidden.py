"""The players cannot see hidden tiles: positions that differ only there get the same move."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from gaple_bot.games.gaple.ai import BUDGETS, Level, choose_move
from gaple_bot.games.gaple.rules import Deal, Game, GameConfig, GapleError, Move
from gaple_bot.games.gaple.rules.tiles import tiles_in

from .ai_positions import SETUPS


def _replay(config: GameConfig, deals: list[Deal], codes: list[list[int]]) -> Game | None:
    """The game after these rounds' moves from these deals, or None if a move is illegal."""
    try:
        game = Game(config, deals[0])
        for number, (deal, moves) in enumerate(zip(deals, codes, strict=True)):
            if number:
                game.start_round(deal)
            for code in moves:
                seat = game.to_move
                if seat is None:
                    return None
                game.apply(seat, Move.from_code(code))
    except GapleError:
        return None
    return game


def _twin(config: GameConfig, rng: random.Random) -> tuple[Game, Game, int] | None:
    """Two games whose current deals differ only in which other seat holds some tiles still
    in hand, with the same public history, legal in both; and the seat to move (observer).
    Half the time the current round is a later one (free lead, scores already set)."""
    game = Game.new(config, rng)
    if rng.random() < 0.5:
        while game.to_move is not None:
            game.apply(game.to_move, rng.choice(game.legal_moves()))
        if game.is_over:
            return None
        game.next_round(rng)
    current = game.round
    for _ in range(rng.randrange(2, 16)):
        if current.to_move is None:
            return None
        game.apply(current.to_move, rng.choice(current.legal_moves()))
    me = current.to_move
    if me is None:
        return None
    deals = [r.deal for r in game.rounds]
    codes = [list(r.moves) for r in game.rounds]
    # Hidden places: the other hands, and the tiles set aside (index -1).
    held = {s: current.hands[s] for s in range(config.seats) if s != me and current.hands[s]}
    if current.deal.set_aside:
        held[-1] = current.deal.set_aside
    if len(held) < 2:
        return None
    for _ in range(30):
        first, second = rng.sample(sorted(held), 2)
        swap = 1 << rng.choice(list(tiles_in(held[first])))
        swap |= 1 << rng.choice(list(tiles_in(held[second])))
        hands = list(current.deal.hands)
        set_aside = current.deal.set_aside
        for place in (first, second):
            if place < 0:
                set_aside ^= swap
            else:
                hands[place] ^= swap
        deal = replace(current.deal, hands=tuple(hands), set_aside=set_aside)
        twin = _replay(config, [*deals[:-1], deal], codes)
        # The same moves must leave the same public record, down to the round not having been
        # blocked: C11 looks at the hands only, so a tile moved out of the set-aside could
        # keep a round going that the original blocked.
        if twin is not None and twin.round.events == current.events and twin.to_move == me:
            return game, twin, me
    return None


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_hidden_tiles_do_not_change_decisions(config: GameConfig) -> None:
    rng = random.Random(17)
    # Without their clocks (and hard with fewer deals, for speed) the levels depend on the
    # seed alone.
    normal = replace(BUDGETS[Level.NORMAL], time_cap=None)
    hard = replace(BUDGETS[Level.HARD], time_cap=None, deals=12)
    budgets = {Level.EASY: None, Level.NORMAL: normal, Level.HARD: hard}
    compared = 0
    for _ in range(500):
        pair = _twin(config, rng)
        if pair is None:
            continue
        game, twin, me = pair
        assert game.round.replay_key() != twin.round.replay_key()
        assert game.round.hands[me] == twin.round.hands[me]
        view, twin_view = game.seat_view(me), twin.seat_view(me)
        assert view == twin_view  # the view holds nothing that differs
        for level, budget in budgets.items():
            seed = rng.getrandbits(64)
            assert choose_move(level, view, random.Random(seed), budget) == choose_move(
                level, twin_view, random.Random(seed), budget
            )
        compared += 1
        if compared == 25:
            break
    assert compared == 25
