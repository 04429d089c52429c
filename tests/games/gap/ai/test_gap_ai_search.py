"""The searches on the compiled core (issue 41): legal moves, chosen by the seed alone, the
work bound's deals, and a time cap that only ever cuts them short."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from gaple_bot.games.gap.ai import montecarlo
from gaple_bot.games.gap.ai.fastsearch import deals_for, fast_search
from gaple_bot.games.gap.ai.fastsim import warm_up
from gaple_bot.games.gap.ai.ismcts import tree_search
from gaple_bot.games.gap.ai.montecarlo import Budget
from gaple_bot.games.gap.rules import GapConfig

from .gap_ai_clock import stop_the_clock
from .gap_ai_positions import SEAT_COUNTS, positions
from .test_gap_ai_reference import _ticking

FLAT = Budget(deals=400, fast=True, work=3000, epsilon=0.0, share=4.0, min_deals=2)
RANDOM_FLAT = Budget(deals=400, fast=True, work=3000, epsilon=1.0)
MIXED_FLAT = Budget(deals=400, fast=True, work=3000, epsilon=0.5)
TREE = Budget(deals=1, tree=True, work=3000, epsilon=0.0, explore=4.0, min_deals=2)
OWN_TREE = Budget(deals=1, tree=True, own=True, work=3000, epsilon=0.0, dumps=True, min_deals=2)
SEARCHES = {
    "flat": (fast_search, FLAT),
    "flat-random": (fast_search, RANDOM_FLAT),
    "flat-mixed": (fast_search, MIXED_FLAT),
    "tree": (tree_search, TREE),
    "own-tree": (tree_search, OWN_TREE),
}


@pytest.mark.parametrize("name", SEARCHES)
@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_a_search_moves_legally_and_by_its_seed(
    seats: int, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    stop_the_clock(monkeypatch)
    run, budget = SEARCHES[name]
    rng = random.Random(800 + seats)
    for view, _ in positions(GapConfig(seats), rng, 60):
        seed = rng.getrandbits(64)
        move, capped = run(view, random.Random(seed), budget)
        assert move in view.legal and not capped
        assert run(view, random.Random(seed), budget).move == move


@pytest.mark.parametrize("name", SEARCHES)
def test_a_forced_move_is_answered_at_once(name: str) -> None:
    run, budget = SEARCHES[name]
    rng = random.Random(9)
    forced = [view for view, _ in positions(GapConfig(2), rng, 300) if len(view.legal) == 1]
    assert forced
    for view in forced:
        assert run(view, random.Random(1), budget) == (view.legal[0], False)


@pytest.mark.parametrize("name", SEARCHES)
def test_the_time_cap_only_cuts_the_work_short(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A clock a tenth of a millisecond on per reading: the work bound ends the thinking, and
    # the move is the stopped clock's. A clock an hour late: the cap binds and says so.
    run, budget = SEARCHES[name]
    big = replace(budget, work=60000, time_cap=0.25)
    rng = random.Random(31)
    for view, _ in positions(GapConfig(4), rng, 12):
        if len(view.legal) < 2:
            continue
        stop_the_clock(monkeypatch)
        stopped = run(view, random.Random(5), big)
        monkeypatch.setattr(montecarlo, "time", _ticking(0.0001))
        assert run(view, random.Random(5), big) == stopped
        monkeypatch.setattr(montecarlo, "time", _ticking(3600.0))
        move, capped = run(view, random.Random(5), big)
        assert capped and move in view.legal


def test_the_work_bound_sets_the_deals() -> None:
    budget = Budget(deals=400, work=8500, min_deals=4)
    assert deals_for(budget, 6, 24) == 8500 // (6 * 24)
    assert deals_for(budget, 10, 4) == 212
    assert deals_for(Budget(deals=400, work=8500), 60, 24) == 5
    assert deals_for(budget, 200, 24) == 4  # never below min_deals
    assert deals_for(Budget(deals=3, work=8500), 2, 2) == 3  # never above deals


def test_warm_up_runs() -> None:
    warm_up()
