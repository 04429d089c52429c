"""Every level returns a legal move, the same one for the same seed, also off the event loop."""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace

import pytest

from gaple_bot.games.gaple.ai import (
    BUDGETS,
    Budget,
    Level,
    choose_move,
    choose_move_async,
    decide,
)
from gaple_bot.games.gaple.ai.montecarlo import _survivors
from gaple_bot.games.gaple.rules import Game, GameConfig, RuleSet

from .ai_clock import stop_the_clock, stop_the_clock_for_good
from .ai_positions import SETUPS, positions

SMALL = Budget(deals=2, per_move=True, exact_tiles=6)
"""A tiny budget that still goes through sampling, rollouts and the exact solver."""
UNCAPPED = {level: replace(budget, time_cap=None) for level, budget in BUDGETS.items()}
"""The real budgets without the clock, so the decision depends on the seed alone."""


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_every_level_returns_a_legal_move_on_many_positions(config: GameConfig) -> None:
    rng = random.Random(21)
    for view, *_ in positions(config, rng, 320):
        for level in Level:
            budget = None if level is Level.EASY else SMALL
            assert choose_move(level, view, rng, budget) in view.legal


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_the_real_levels_return_legal_moves(config: GameConfig) -> None:
    rng = random.Random(4)
    for index, (view, *_) in enumerate(positions(config, rng, 60)):
        assert choose_move(Level.NORMAL, view, rng) in view.legal
        if index % 2 == 0:
            assert choose_move(Level.HARD, view, rng) in view.legal


def test_levels_play_whole_games_of_both_rule_sets() -> None:
    rng = random.Random(8)
    for config in (GameConfig(RuleSet.CLASSIC, 4), GameConfig(RuleSet.DISCARDS, 4)):
        game = Game.new(config, rng)
        lineup = [Level.HARD, Level.NORMAL, Level.EASY, Level.NORMAL]
        while game.to_move is not None:
            seat = game.to_move
            game.apply(seat, choose_move(lineup[seat], game.seat_view(seat), rng))
        assert game.round.result is not None


@pytest.mark.parametrize("config", SETUPS[::2], ids=str)
def test_same_seed_same_decision(config: GameConfig) -> None:
    rng = random.Random(6)
    for index, (view, *_) in enumerate(positions(config, rng, 40)):
        seed = rng.getrandbits(64)
        for level in Level:
            if level is Level.HARD and index % 4:
                continue  # the uncapped hard level is slow on free leads
            budget = UNCAPPED.get(level)
            first = choose_move(level, view, random.Random(seed), budget)
            assert choose_move(level, view, random.Random(seed), budget) == first
            assert decide(level, view, random.Random(seed).getrandbits(64), budget) == first


def test_same_seed_same_decision_for_the_real_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    # The real budgets, with their time caps' clock stopped so that only the seed decides.
    stop_the_clock(monkeypatch)
    rng = random.Random(9)
    for view, *_ in positions(GameConfig(RuleSet.CLASSIC, 4), rng, 30):
        if view.ends is None:
            continue  # a free lead is the one decision that may meet hard's time cap
        for level in Level:
            seed = rng.getrandbits(64)
            first = choose_move(level, view, random.Random(seed))
            assert choose_move(level.value, view, random.Random(seed)) == first


def test_forced_moves_are_answered_at_once_and_bad_calls_raise() -> None:
    rng = random.Random(2)
    game = Game.new(GameConfig(RuleSet.CLASSIC, 4), rng)
    leader = game.to_move
    assert leader is not None
    view = game.seat_view(leader)
    assert len(view.legal) == 1  # C4: the first lead is [6|6]
    assert choose_move(Level.HARD, view, rng) == view.legal[0]
    other = game.seat_view((leader + 1) % 4)
    with pytest.raises(ValueError):
        choose_move(Level.NORMAL, other, rng)
    with pytest.raises(ValueError):
        choose_move("impossible", view, rng)


def test_views_and_moves_pickle_for_process_pools() -> None:
    rng = random.Random(3)
    for view, *_ in positions(GameConfig(RuleSet.DISCARDS, 5), rng, 20):
        copy = pickle.loads(pickle.dumps(view))
        assert copy == view
        move = choose_move(Level.NORMAL, view, rng)
        assert pickle.loads(pickle.dumps(move)) == move


async def test_async_choice_matches_the_sync_one_in_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stop_the_clock(monkeypatch)
    rng = random.Random(12)
    picks = list(positions(GameConfig(RuleSet.CLASSIC, 4), rng, 8))
    with ThreadPoolExecutor(max_workers=2) as pool:
        for view, *_ in picks:
            for level in (Level.EASY, Level.NORMAL):
                expected = choose_move(level, view, random.Random(5))
                assert await choose_move_async(level, view, random.Random(5)) == expected
                assert await choose_move_async(level, view, random.Random(5), pool) == expected


async def test_async_choice_in_a_process_pool_keeps_the_loop_free(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(13)
    picks = [view for view, *_ in positions(GameConfig(RuleSet.CLASSIC, 4), rng, 6)]
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.001)
            ticks += 1

    # As process_pool(1) makes it, with the time caps' clock stopped on both sides.
    stop_the_clock(monkeypatch)
    pool = ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=stop_the_clock_for_good,
    )
    running = asyncio.create_task(ticker())
    try:
        for view in picks:
            expected = choose_move(Level.NORMAL, view, random.Random(1))
            assert await choose_move_async(Level.NORMAL, view, random.Random(1), pool) == expected
    finally:
        running.cancel()
        pool.shutdown()
    assert ticks > 0


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_hard_refinements_give_legal_moves_that_repeat_for_a_seed(config: GameConfig) -> None:
    # Keeping rollouts, deals weighted by the opponents' plays and extra deals for close calls.
    budget = Budget(deals=3, per_move=True, extra_deals=4, passed_over=0.5, keep=3)
    rng = random.Random(8)
    for view, *_ in positions(config, rng, 120):
        move = decide(Level.HARD, view, 77, budget)
        assert move in view.legal
        assert decide(Level.HARD, view, 77, budget) == move


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_pruned_decisions_give_legal_moves_that_repeat_for_a_seed(config: GameConfig) -> None:
    # 10 deals per move reach the first pruning check (16 deals) whenever two moves are legal.
    budget = Budget(deals=10, per_move=True, extra_deals=4, keep=3, prune=2.0)
    rng = random.Random(9)
    for view, *_ in positions(config, rng, 60):
        move = decide(Level.HARD, view, 78, budget)
        assert move in view.legal
        assert decide(Level.HARD, view, 78, budget) == move


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_bounded_decisions_give_legal_moves_that_repeat_for_a_seed(config: GameConfig) -> None:
    # Exact search from any count with a node budget that runs out mid-search, and a work
    # budget that stops the deals early.
    budget = Budget(deals=6, per_move=True, exact_tiles=28, exact_nodes=60, work=20, keep=3)
    rng = random.Random(10)
    for view, *_ in positions(config, rng, 60):
        move = decide(Level.HARD, view, 79, budget)
        assert move in view.legal
        assert decide(Level.HARD, view, 79, budget) == move


def test_the_work_budget_stops_drawing_deals() -> None:
    # Every move is judged on every deal, so work for 3 deals plays like a budget of 3 deals.
    rng = random.Random(13)
    differs = 0
    for view, *_ in positions(GameConfig(RuleSet.CLASSIC, 4), rng, 80):
        if len(view.legal) < 2:
            continue
        three = decide(Level.HARD, view, 80, Budget(deals=3))
        assert decide(Level.HARD, view, 80, Budget(deals=60, work=3 * len(view.legal))) == three
        differs += decide(Level.HARD, view, 80, Budget(deals=60)) != three
    assert differs > 0  # the work budget did cut decisions that more deals would change


def test_the_discard_rules_can_roll_out_with_their_own_keep() -> None:
    own = Budget(deals=4, per_move=True, keep=3, discards_keep=0)
    for config, same_as in (
        (GameConfig(RuleSet.DISCARDS, 4), Budget(deals=4, per_move=True)),
        (GameConfig(RuleSet.CLASSIC, 4), Budget(deals=4, per_move=True, keep=3)),
    ):
        rng = random.Random(16)
        for view, *_ in positions(config, rng, 40):
            assert decide(Level.HARD, view, 82, own) == decide(Level.HARD, view, 82, same_as)


def test_pruning_drops_only_moves_clearly_below_the_best() -> None:
    best = [1.0, 0.0] * 10
    close = [0.0, 1.0] * 9 + [0.0, 0.0]  # one point behind the best: within the noise
    clearly_worse = [0.0] * 20  # behind on ten of twenty deals, never ahead
    tied = [1.0, 0.0] * 10  # a tie with the best keeps both
    scored = [close, best, clearly_worse, tied]
    assert _survivors(range(4), scored, 2.0) == [0, 1, 3]
    # With a huge threshold nothing is dropped; a single survivor is returned alone.
    assert _survivors(range(4), scored, 100.0) == [0, 1, 2, 3]
    assert _survivors([2], scored, 2.0) == [2]
