"""The arena-only players: legal moves, the same one for the same seed, never a chat level."""

from __future__ import annotations

import dataclasses
import random

import pytest

from gaple_bot.games.gaple.ai import Budget, Level
from gaple_bot.games.gaple.ai.arena import play_arena
from gaple_bot.games.gaple.ai.levels import BUDGETS
from gaple_bot.games.gaple.ai.players import (
    HARD_V1,
    HARD_V2,
    HARD_V3,
    HARD_V4,
    HARD_V5,
    Player,
    budget_of,
    play,
)
from gaple_bot.games.gaple.ai.playout import random_rollout, rules_of, to_bits
from gaple_bot.games.gaple.ai.reference import round_margin
from gaple_bot.games.gaple.rules import GameConfig, RuleSet

from .ai_positions import SETUPS, positions

SMALL_V1 = Budget(deals=2, per_move=True, exact_tiles=6, extra_deals=2, passed_over=0.5, keep=3)
SMALL_V4 = dataclasses.replace(HARD_V4, tree=60, tree_pool=16, time_cap=None)
SMALL_V5 = dataclasses.replace(HARD_V5, tree=60, tree_pool=16, time_cap=None)


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_the_reference_player_plays_legal_moves_that_repeat_for_a_seed(
    config: GameConfig,
) -> None:
    rng = random.Random(31)
    for view, *_ in positions(config, rng, 60):
        seed = rng.getrandbits(64)
        move = play(Player.REFERENCE, view, seed)
        assert move in view.legal
        assert play("reference", view, seed) == move


@pytest.mark.parametrize("config", SETUPS[::3], ids=str)
def test_the_frozen_hard_players_play_legal_moves_that_repeat_for_a_seed(
    config: GameConfig,
) -> None:
    rng = random.Random(32)
    for view, *_ in positions(config, rng, 40):
        seed = rng.getrandbits(64)
        for frozen in (Player.HARD_V1, Player.HARD_V2, Player.HARD_V3):
            move = play(frozen, view, seed, SMALL_V1)
            assert move in view.legal
            assert play(frozen, view, seed, SMALL_V1) == move
        for tree, small in ((Player.HARD_V4, SMALL_V4), (Player.HARD_V5, SMALL_V5)):
            move = play(tree, view, seed, small)
            assert move in view.legal
            assert play(tree, view, seed, small) == move


def test_random_rollouts_end_the_round_with_points_that_add_up() -> None:
    rng = random.Random(5)
    for config in SETUPS:
        for position in positions(config, rng, 10):
            view = position.view
            if view.ends is None:
                continue
            hands = [to_bits(h) for h in position.hands]
            discs = [to_bits(d) for d in position.discards]
            points = random_rollout(rules_of(config), hands, discs, *view.ends, view.seat, rng)
            assert len(points) == config.seats and min(points) >= 0
            if config.rule_set is RuleSet.CLASSIC:
                assert sum(p > 0 for p in points) <= 1  # C12: only the winner scores
    assert round_margin((0, 12, 5), 1) == 7
    assert round_margin((0, 12, 5), 0) == -12


def test_chats_are_offered_the_levels_only() -> None:
    assert {level.value for level in Level} == {"easy", "normal", "hard"}
    assert {p.value for p in Player} - {level.value for level in Level} == {
        "reference",
        "hard-v1",
        "hard-v2",
        "hard-v3",
        "hard-v4",
        "hard-v5",
    }
    with pytest.raises(ValueError):
        Level("reference")


def test_single_rounds_are_first_rounds_that_repeat_for_a_seed() -> None:
    config = GameConfig(RuleSet.CLASSIC, 4)
    lineup = ["reference", "easy", "easy", "easy"]
    runs = [play_arena(config, lineup, 8, seed=4, single_rounds=True) for _ in range(2)]
    for run in runs:
        assert run.rounds == run.games == 8
        assert sum(sum(s.round_wins) for s in run.stats.values()) == 8
        reference = run.stats[Player.REFERENCE]
        assert reference.game_wins == reference.round_wins  # a single round is the game
    assert runs[0].stats[Player.REFERENCE].round_wins == runs[1].stats[Player.REFERENCE].round_wins


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_monte_carlo_with_random_rollouts_repeats_for_a_seed(config: GameConfig) -> None:
    budget = Budget(deals=3, exact_tiles=6, random_rollouts=True, passed_over=0.5)
    rng = random.Random(33)
    for view, *_ in positions(config, rng, 60):
        move = play(Player.HARD, view, 78, budget)
        assert move in view.legal
        assert play(Player.HARD, view, 78, budget) == move


def test_hard_v5_is_the_fifth_sittings_hard() -> None:
    # Frozen: the learned model at power 0.5 beside the passed-over tiles, the win worth 200.
    assert (
        Budget(
            deals=0,
            tree=3000,
            explore=3.0,
            by_mean=True,
            time_cap=0.040,
            passed_over=0.5,
            keep=3,
            discards_keep=0,
            win_worth=200.0,
            scale=200.0,
            choices=0.5,
        )
        == HARD_V5
    )
    assert BUDGETS[Level.HARD] != HARD_V5


def test_each_player_has_its_own_budget() -> None:
    # What bench/ai.py reads each player's time cap from.
    assert budget_of(Player.HARD_V1) == HARD_V1
    assert budget_of("hard-v2") == HARD_V2
    assert budget_of(Player.HARD_V3) == HARD_V3
    assert budget_of(Player.HARD_V4) == HARD_V4
    assert budget_of(Player.HARD_V5) == HARD_V5
    assert budget_of(Player.HARD) == BUDGETS[Level.HARD]
    assert budget_of(Player.NORMAL) == BUDGETS[Level.NORMAL]
    assert budget_of(Player.EASY) is None
    assert budget_of(Player.REFERENCE) is None
    # Hard-v1 is bounded by time alone: no bound on its work (0), its exact search unbounded.
    assert HARD_V1.time_cap == 0.060 and HARD_V1.work == 0 and HARD_V1.exact_nodes == 0
