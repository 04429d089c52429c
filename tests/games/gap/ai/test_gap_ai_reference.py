"""The arena's reference player and the arena's paired single rounds (issue 30): legal, seeded,
and the levels' moves bounded by work, not by the clock."""

from __future__ import annotations

import itertools
import random
import types

import pytest

from gaple_bot.games.gap.ai import BUDGETS, Level, decide, montecarlo
from gaple_bot.games.gap.ai.arena import play_arena
from gaple_bot.games.gap.ai.levels import decision
from gaple_bot.games.gap.ai.montecarlo import Budget
from gaple_bot.games.gap.ai.players import Player, play, play_traced
from gaple_bot.games.gap.ai.reference import REFERENCE_DEALS, reference_move
from gaple_bot.games.gap.rules import GapConfig

from .gap_ai_clock import stop_the_clock
from .gap_ai_positions import SEAT_COUNTS, positions


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_the_reference_player_moves_legally_and_by_its_seed(seats: int) -> None:
    rng = random.Random(70 + seats)
    for view, _ in positions(GapConfig(seats), rng, 60):
        seed = rng.getrandbits(64)
        move = reference_move(view, random.Random(seed), deals=3)
        assert move in view.legal
        assert reference_move(view, random.Random(seed), deals=3) == move


def test_the_real_reference_player_is_seeded() -> None:
    rng = random.Random(5)
    for view, _ in positions(GapConfig(4), rng, 12):
        seed = rng.getrandbits(64)
        move = play(Player.REFERENCE, view, seed)
        assert move in view.legal and play("reference", view, seed) == move
        assert reference_move(view, random.Random(seed), REFERENCE_DEALS) == move


def _ticking(step: float) -> types.SimpleNamespace:
    """A clock that moves on by `step` seconds every time it is read (a machine of any speed)."""
    ticks = itertools.count()
    return types.SimpleNamespace(perf_counter=lambda: step * next(ticks))


@pytest.mark.parametrize("seats", (2, 4, 6))
def test_a_levels_move_does_not_depend_on_the_clock(
    seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The real budgets: the same seed and view give the same move whether the clock is stopped
    # or a tenth of a millisecond passes between its readings: the work bound, not the cap,
    # ends the thinking.
    rng = random.Random(90 + seats)
    for view, _ in positions(GapConfig(seats), rng, 15):
        seed = rng.getrandbits(64)
        stop_the_clock(monkeypatch)
        stopped = {level: decide(level, view, seed) for level in Level}
        monkeypatch.setattr(montecarlo, "time", _ticking(0.0001))
        for level in Level:
            move, capped = decision(level, view, seed)
            assert not capped and move == stopped[level]


def test_the_cap_is_only_a_safety_net(monkeypatch: pytest.MonkeyPatch) -> None:
    # A clock an hour late on every reading: the cap binds and says so, after min_deals.
    monkeypatch.setattr(montecarlo, "time", _ticking(3600.0))
    rng = random.Random(3)
    budget = BUDGETS[Level.HARD]
    for view, _ in positions(GapConfig(4), rng, 10):
        if len(view.legal) > 1:
            move, capped = decision(Level.HARD, view, 1, budget)
            assert capped and move in view.legal


def test_the_work_bound_limits_the_deals() -> None:
    rng = random.Random(4)
    for view, _ in positions(GapConfig(4), rng, 10):
        if len(view.legal) < 2:
            continue
        # Three deals' worth of simulated plays: the same thinking as three deals exactly.
        small = Budget(deals=1000, work=sum(view.hand_counts) * len(view.legal) * 3)
        assert play_traced(Player.HARD, view, 9, small) == play_traced(
            "hard", view, 9, Budget(deals=3)
        )


def test_a_small_arena_run_against_the_reference_pairs_up_by_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stop_the_clock(monkeypatch)
    quick = {"hard": Budget(deals=2, per_move=True), "normal": Budget(deals=2)}
    config = GapConfig(3)
    runs = [
        play_arena(config, [first, "reference", "reference"], 6, 11, quick, single_rounds=True)
        for first in ("hard", "hard", "normal")
    ]
    for run in runs:
        assert run.rounds == run.games == 6  # one round per game, every deal in 3 rotations
        stats = run.stats[run.lineup[0]]
        assert len(stats.round_wins) == 6 and stats.capped == 0
        assert all(0.0 <= w <= 1.0 for w in stats.round_wins)
        assert len(stats.decision_cpu_seconds) == len(stats.decision_seconds) > 0
        theirs = run.stats[Player.REFERENCE].round_wins
        shares = [a + b for a, b in zip(stats.round_wins, theirs, strict=True)]
        assert shares == pytest.approx([1.0] * 6)
    assert runs[0].stats[Player.HARD].round_wins == runs[1].stats[Player.HARD].round_wins
