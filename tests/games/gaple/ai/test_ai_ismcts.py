"""The tree search: its legal moves are the engine's, every iteration goes through one root
move, and the same seed gives the same search."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from gaple_bot.games.gaple.ai import fastcore
from gaple_bot.games.gaple.ai.fastcore import DISCARD_CODE, PASS_CODE, keeping_code, legal_codes
from gaple_bot.games.gaple.ai.ismcts import tree_visits
from gaple_bot.games.gaple.ai.levels import BUDGETS, Level
from gaple_bot.games.gaple.ai.montecarlo import monte_carlo_move
from gaple_bot.games.gaple.ai.playout import BIT_OF, rules_of, to_bits
from gaple_bot.games.gaple.rules import (
    Game,
    GameConfig,
    Move,
    MoveKind,
    RuleSet,
    SeatView,
    Side,
    deal_round,
)

from .ai_positions import SETUPS, positions
from .test_ai_fastcore import _judge_for


def _engine_codes(legal: tuple[Move, ...]) -> list[int]:
    """The tree's codes of the engine's legal moves."""
    codes = []
    for move in legal:
        if move.kind is MoveKind.PASS:
            codes.append(PASS_CODE)
        elif move.kind is MoveKind.DISCARD:
            codes.append(DISCARD_CODE + BIT_OF[move.tile])
        else:
            codes.append(2 * BIT_OF[move.tile] + int(move.side is Side.LEFT))
    return codes


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_the_trees_legal_moves_are_the_engines(config: GameConfig) -> None:
    rules = rules_of(config)
    out = np.empty(64, dtype=np.int64)
    for position in positions(config, random.Random(21), 200):
        view = position.view
        if view.ends is None:
            continue
        n = legal_codes(to_bits(view.hand), *view.ends, rules.discards, out)
        assert sorted(out[:n].tolist()) == sorted(_engine_codes(view.legal))


def test_every_iteration_passes_through_one_root_move_and_the_seed_decides() -> None:
    config = GameConfig(RuleSet.CLASSIC, 4)
    for position in positions(config, random.Random(22), 30):
        view = position.view
        if view.ends is None or len(view.legal) < 2:
            continue
        first = _tree(view, seed=5)
        assert sum(first) == 400
        assert _tree(view, seed=5) == first


def _tree(view: SeatView, seed: int) -> list[int]:
    judge, moves = _judge_for(view, random.Random(seed))
    return tree_visits(judge, moves, 400, 64, 1.0, 50.0, 5000)[0]


def test_a_tiny_tree_room_still_answers() -> None:
    config = GameConfig(RuleSet.CLASSIC, 4)
    for position in positions(config, random.Random(23), 10):
        view = position.view
        if view.ends is None or len(view.legal) < 2:
            continue
        judge, moves = _judge_for(view, random.Random(1))
        visits, _ = tree_visits(judge, moves, 300, 16, 1.0, 50.0, 3)
        assert sum(visits) == 300


def test_paired_every_root_move_plays_every_deal() -> None:
    config = GameConfig(RuleSet.CLASSIC, 4)
    checked = 0
    for position in positions(config, random.Random(25), 30):
        view = position.view
        if view.ends is None or len(view.legal) < 2:
            continue
        judge, moves = _judge_for(view, random.Random(2))
        visits, _ = tree_visits(judge, moves, 1001, 32, 3.0, 50.0, 20000, paired=True)
        # Whole rounds of the root moves: at least the iterations asked, all moves alike.
        assert len(set(visits)) == 1
        assert visits[0] * len(moves) >= 1001
        checked += 1
    assert checked


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_the_trees_rule_for_other_seats_is_the_keeping_rollouts_first_move(
    config: GameConfig,
) -> None:
    rules = rules_of(config)
    for position in positions(config, random.Random(26), 200):
        view = position.view
        if view.ends is None or (not rules.discards and view.legal[0].kind is MoveKind.PASS):
            continue
        hands = np.array([to_bits(h) for h in position.hands], dtype=np.int64)
        trace = np.zeros((1, fastcore.TRACE_FIELDS), dtype=np.int64)
        fastcore.play_out(
            fastcore.KEEPING,
            3,
            rules.classic,
            rules.discards,
            rules.seats,
            hands,
            np.array([to_bits(d) for d in position.discards], dtype=np.int64),
            *view.ends,
            view.seat,
            view.seat,
            np.array([1], dtype=np.int64),
            np.zeros(rules.seats, dtype=np.int64),
            trace,
            np.empty(56, dtype=np.int64),
        )
        _, kind, bit, on_left, _ = trace[0].tolist()
        expected = 2 * bit + on_left if kind == fastcore.PLAY else DISCARD_CODE + bit
        assert keeping_code(to_bits(view.hand), *view.ends, 3, 0) == expected


@pytest.mark.parametrize("config", SETUPS[::2], ids=str)
def test_keyed_others_choose_by_their_fitting_tiles_and_the_seed_decides(
    config: GameConfig,
) -> None:
    searched = differ = 0
    for position in positions(config, random.Random(27), 30):
        view = position.view
        if view.ends is None or len(view.legal) < 2:
            continue
        keyed = _keyed_tree(view, keyed_others=True)
        assert sum(keyed[0]) == 400
        assert _keyed_tree(view, keyed_others=True) == keyed
        differ += keyed != _keyed_tree(view, keyed_others=False)
        searched += 1
    assert searched > 5
    # Kept apart by their hands, the others' statistics (and so the root's) are not the same.
    assert differ > 0


def _keyed_tree(view: SeatView, keyed_others: bool) -> tuple[list[int], list[float]]:
    judge, moves = _judge_for(view, random.Random(8))
    return tree_visits(judge, moves, 400, 64, 1.0, 50.0, 5000, keyed_others=keyed_others)


@pytest.mark.parametrize("config", SETUPS[::3], ids=str)
def test_keyed_others_play_whole_rounds_legally(config: GameConfig) -> None:
    # The tree keeps a key above each other seat's move code: what it plays is the code alone.
    budget = dataclasses.replace(
        BUDGETS[Level.HARD], keyed_others=True, tree=200, tree_pool=32, time_cap=None
    )
    for number in range(3):
        game = Game(config, deal_round(config, random.Random(number), None))
        current = game.round
        while current.to_move is not None:
            view = game.seat_view(current.to_move)
            move = monte_carlo_move(view, random.Random(number), budget)
            assert move in view.legal
            game.apply(current.to_move, move)
