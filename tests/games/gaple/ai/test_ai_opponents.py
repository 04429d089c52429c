"""The fitted model of the opponents' plays: its deal weights are the plays' likelihood."""

from __future__ import annotations

import math
import random

import pytest

from gaple_bot.games.gaple.ai import Budget, Level, decide
from gaple_bot.games.gaple.ai.dealer import Dealer
from gaple_bot.games.gaple.ai.opponents import (
    PLAY_WEIGHTS,
    Evidence,
    OpponentModel,
    _option,
    play_features,
    play_options,
)
from gaple_bot.games.gaple.ai.playout import BIT_OF, to_bits
from gaple_bot.games.gaple.rules import Discarded, GameConfig, Played, SeatView, Side
from gaple_bot.games.gaple.rules.tiles import tile_id

from .ai_clock import stop_the_clock
from .ai_positions import SETUPS, positions


def _likelihood(view: SeatView, hands: list[int], discs: list[int]) -> float:
    """The plays' likelihood from scratch, through `play_features`: each hand then is the hand
    now plus what it played since (plus its discards when all came later)."""
    events = view.events
    played = to_bits(1 << view.start) if view.start >= 0 else 0
    out = 1.0
    for index, event in enumerate(events):
        if not isinstance(event, Played):
            continue
        bit = BIT_OF[event.tile]
        if event.seat != view.seat and event.ends is not None:
            seat = event.seat
            thrown = [
                i for i, e in enumerate(events) if isinstance(e, Discarded) and e.seat == seat
            ]
            if not any(i < index for i in thrown) or all(i < index for i in thrown):
                then = hands[seat]
                for later in events[index:]:
                    if isinstance(later, Played) and later.seat == seat:
                        then |= 1 << BIT_OF[later.tile]
                if thrown and all(i > index for i in thrown):
                    then |= discs[seat]
                odds = {}
                for option in play_options(then, event.ends):
                    features = play_features(then, played, event.ends, *option)
                    score = sum(w * x for w, x in zip(PLAY_WEIGHTS, features, strict=True))
                    odds[option] = math.exp(score)
                out *= odds[(bit, event.side)] / sum(odds.values())
        played |= 1 << bit
    return out


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_deal_weights_are_the_plays_likelihood_up_to_a_constant(config: GameConfig) -> None:
    rng = random.Random(31)
    compared = 0
    for view, *_ in positions(config, rng, 40):
        model = OpponentModel.of(view)
        dealer = Dealer.of(view, config.seats)
        first, first_discs, _ = dealer.deal(rng)
        second, second_discs, _ = dealer.deal(rng)
        expected = _likelihood(view, first, first_discs) / _likelihood(view, second, second_discs)
        ratio = model.likelihood(first, first_discs, {}) / model.likelihood(
            second, second_discs, {}
        )
        assert ratio == pytest.approx(expected)
        compared += bool(model.evidence)
    assert compared > 10


def test_a_heavier_fitting_tile_left_unplayed_makes_a_deal_less_likely() -> None:
    # Seat 1 played 1|0 on ends 0 and 5 when it might have held 6|5: a hand holding 6|5 then
    # (it still does) is the less likely one.
    played = BIT_OF[tile_id(1, 0)]
    heavier, unfitting = BIT_OF[tile_id(6, 5)], BIT_OF[tile_id(6, 6)]
    weights = PLAY_WEIGHTS
    options = tuple(
        _option(weights, 0, (0, 5), b, side, b == played)
        for b, side in ((played, Side.LEFT), (heavier, Side.RIGHT))
    )
    model = OpponentModel((Evidence(1, 1 << played, False, options),))
    alone = model.likelihood([0, 1 << unfitting, 0, 0], [0, 0, 0, 0], {})
    assert alone == 1.0  # a tile that did not fit was no alternative
    assert 0 < model.likelihood([0, 1 << heavier, 0, 0], [0, 0, 0, 0], {}) < alone


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_decisions_with_the_model_are_legal_and_repeat_for_a_seed(
    config: GameConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    stop_the_clock(monkeypatch)
    budget = Budget(deals=3, per_move=True, keep=3, opponents=1.0, tries=2)
    rng = random.Random(32)
    for view, *_ in positions(config, rng, 60):
        move = decide(Level.HARD, view, 82, budget)
        assert move in view.legal
        assert decide(Level.HARD, view, 82, budget) == move


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_tree_decisions_weighted_by_the_model_are_legal_and_repeat_for_a_seed(
    config: GameConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    stop_the_clock(monkeypatch)
    budget = Budget(deals=0, tree=200, explore=3.0, by_mean=True, keep=3, opponents=1.0)
    rng = random.Random(33)
    for view, *_ in positions(config, rng, 40):
        move = decide(Level.HARD, view, 85, budget)
        assert move in view.legal
        assert decide(Level.HARD, view, 85, budget) == move
