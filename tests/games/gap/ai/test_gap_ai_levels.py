"""Every Gap level returns a legal move, the same one for the same seed, also in a process."""

from __future__ import annotations

import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import pytest

from gaple_bot.games.gap.ai import BUDGETS, Budget, Level, decide, greedy_move
from gaple_bot.games.gap.ai.greedy import gain
from gaple_bot.games.gap.ai.sim import pack
from gaple_bot.games.gap.rules import Game, GapConfig, Move, score_collection

from .gap_ai_clock import stop_the_clock, stop_the_clock_for_good
from .gap_ai_positions import SEAT_COUNTS, positions

SMALL = Budget(deals=2)
"""A tiny budget that still goes through sampling and play-outs."""
UNCAPPED = {level: replace(budget, time_cap=None) for level, budget in BUDGETS.items()}
"""The real budgets without the clock, so the decision depends on the seed alone."""


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_every_level_returns_a_legal_move_on_many_positions(seats: int) -> None:
    rng = random.Random(seats)
    for view, _ in positions(GapConfig(seats), rng, 400):
        for level in Level:
            budget = None if level is Level.EASY else SMALL
            assert decide(level, view, rng.getrandbits(64), budget) in view.legal


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_the_real_levels_return_legal_moves(seats: int) -> None:
    rng = random.Random(40 + seats)
    for view, _ in positions(GapConfig(seats), rng, 40):
        for level in Level:
            assert decide(level, view, rng.getrandbits(64)) in view.legal


def test_easy_takes_the_best_immediate_gain() -> None:
    rng = random.Random(5)
    for view, _ in positions(GapConfig(4), rng, 300):
        own = view.collections[view.seat]
        before = score_collection(own)
        move = decide(Level.EASY, view, rng.getrandbits(64))
        gains = {}
        for m in view.legal:
            taken = _taken(view.middle, m)
            after = score_collection([*own, *taken, m.card]) if taken else before
            gains[m] = after - before
            assert gain(m, view.middle, pack(own)) == gains[m]
        assert gains[move] == max(gains.values())


def _taken(middle: tuple[int, ...], move: Move) -> tuple[int, ...]:
    exact = tuple(c for c in middle if c % 10 == move.card % 10)
    return exact or move.neighbours


def test_easy_breaks_ties_with_its_seed() -> None:
    rng = random.Random(6)
    seen: set[Move] = set()
    for view, _ in positions(GapConfig(4), rng, 60):
        picks = {greedy_move(view, random.Random(seed)) for seed in range(30)}
        if len(picks) > 1:
            seen |= picks
    assert seen  # some positions hold several equally good moves and the seed picks among them


def test_levels_play_whole_games() -> None:
    rng = random.Random(8)
    for seats in SEAT_COUNTS:
        game = Game.new(GapConfig(seats), rng)
        lineup = [Level.HARD, Level.NORMAL, Level.EASY, Level.NORMAL, Level.HARD, Level.EASY]
        while game.to_move is not None:
            seat = game.to_move
            game.apply(seat, decide(lineup[seat], game.seat_view(seat), rng.getrandbits(64)))
        assert game.round.result is not None


@pytest.mark.parametrize("seats", SEAT_COUNTS[::2])
def test_same_seed_same_decision(seats: int) -> None:
    rng = random.Random(6)
    for view, _ in positions(GapConfig(seats), rng, 40):
        seed = rng.getrandbits(64)
        for level in Level:
            budget = UNCAPPED.get(level)
            first = decide(level, view, seed, budget)
            assert decide(level.value, view, seed, budget) == first


def test_same_seed_same_decision_for_the_real_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    # The real budgets, with their time caps' clock stopped so that only the seed decides.
    stop_the_clock(monkeypatch)
    rng = random.Random(9)
    for view, _ in positions(GapConfig(4), rng, 40):
        seed = rng.getrandbits(64)
        for level in Level:
            assert decide(level, view, seed) == decide(level, view, seed)
            assert decide(level, view, seed) == decide(level, view, seed, UNCAPPED.get(level))


def test_a_seat_not_to_move_or_a_bad_level_raises() -> None:
    game = Game.new(GapConfig(4), random.Random(2))
    assert game.to_move == 0
    other = game.seat_view(1)
    for level in Level:
        with pytest.raises(ValueError):
            decide(level, other, 1)
    with pytest.raises(ValueError):
        decide("impossible", game.seat_view(0), 1)


def test_a_forced_move_is_answered_at_once() -> None:
    rng = random.Random(3)
    for view, _ in positions(GapConfig(2), rng, 400):
        if len(view.legal) == 1:
            for level in Level:
                assert decide(level, view, 1) == view.legal[0]


def test_views_and_moves_pickle(monkeypatch: pytest.MonkeyPatch) -> None:
    # The time caps' clock stopped: a busy machine must not change how many deals are sampled.
    stop_the_clock(monkeypatch)
    rng = random.Random(3)
    for view, _ in positions(GapConfig(5), rng, 30):
        copy = pickle.loads(pickle.dumps(view))
        assert copy == view
        move = decide(Level.NORMAL, view, 4)
        assert pickle.loads(pickle.dumps(move)) == move
        assert pickle.loads(pickle.dumps(move)).code == move.code
        assert decide(Level.NORMAL, copy, 4) == move
        assert pickle.loads(pickle.dumps(Level.HARD)) is Level.HARD


def test_decide_in_a_spawned_process_pool_gives_the_same_moves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As a kind would run it: decide(level, view, seed).code in a "spawn" worker, with the time
    # caps' clock stopped on both sides.
    stop_the_clock(monkeypatch)
    rng = random.Random(13)
    picks = [view for view, _ in positions(GapConfig(4), rng, 6)]
    jobs = [(level, view, 100 + i) for i, view in enumerate(picks) for level in Level]
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context, initializer=stop_the_clock_for_good) as pool:
        futures = [pool.submit(decide, level, view, seed) for level, view, seed in jobs]
        remote = [future.result(timeout=120) for future in futures]
    assert remote == [decide(level, view, seed) for level, view, seed in jobs]
    assert [m.code for m in remote] == [decide(*job).code for job in jobs]
