"""Deals weighted by how likely the opponents' plays were: the model's likelihood, checked."""

from __future__ import annotations

import math
import random

import pytest

from gaple_bot.games.gaple.ai import Budget, Level, decide
from gaple_bot.games.gaple.ai.dealer import Dealer
from gaple_bot.games.gaple.ai.inference import PlayModel
from gaple_bot.games.gaple.ai.playout import BIT_OF, NUM, SUM
from gaple_bot.games.gaple.rules import GameConfig, Played, SeatView
from gaple_bot.games.gaple.rules.tiles import tile_id

from .ai_positions import SETUPS, positions


def _likelihood(view: SeatView, hands: list[int], beta: float) -> float:
    """The plays' likelihood from scratch: each hand then is the hand now plus what it played
    since, and the play's odds are its tile's among the fitting tiles of that hand."""
    plays = [e for e in view.events if isinstance(e, Played) and e.seat != view.seat]
    out = 1.0
    for index, play in enumerate(plays):
        if play.ends is None:
            continue
        then = hands[play.seat]
        for later in plays[index:]:
            if later.seat == play.seat:
                then |= 1 << BIT_OF[later.tile]
        fit = then & (NUM[play.ends[0]] | NUM[play.ends[1]])
        odds = [math.exp(beta * SUM[b]) for b in range(28) if fit >> b & 1]
        out *= math.exp(beta * SUM[BIT_OF[play.tile]]) / sum(odds)
    return out


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_deal_weights_are_the_plays_likelihood_up_to_a_constant(config: GameConfig) -> None:
    rng = random.Random(14)
    compared = 0
    for view, *_ in positions(config, rng, 40):
        model = PlayModel.of(view, 0.2)
        dealer = Dealer.of(view, config.seats)
        first, _, _ = dealer.deal(rng)
        second, _, _ = dealer.deal(rng)
        expected = _likelihood(view, first, 0.2) / _likelihood(view, second, 0.2)
        assert model.weight(first) / model.weight(second) == pytest.approx(expected)
        compared += bool(model.evidence)
    assert compared > 10


def test_an_unplayed_heavier_fitting_tile_makes_a_deal_less_likely() -> None:
    # Seat 1 played 1|0 on a line ending in 0 and 5: a hand that also held 6|5 then is the less
    # likely one, more so the more the model favours heavy tiles.
    played, heavier, unfitting = (BIT_OF[tile_id(a, b)] for a, b in ((1, 0), (6, 5), (6, 6)))
    ratios = []
    for beta in (0.1, 0.3):
        odds = tuple(math.exp(beta * pips) for pips in SUM)
        model = PlayModel(odds, ((1, NUM[0] | NUM[5], odds[played]),))
        alone = model.weight([0, 1 << unfitting, 0, 0])
        assert alone == 1.0  # a tile that did not fit was no alternative
        ratios.append(model.weight([0, 1 << heavier, 0, 0]) / alone)
    assert 0 < ratios[1] < ratios[0] < 1


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_play_weighted_decisions_are_legal_and_repeat_for_a_seed(config: GameConfig) -> None:
    budget = Budget(deals=3, per_move=True, keep=3, play_model=0.15)
    rng = random.Random(15)
    for view, *_ in positions(config, rng, 60):
        move = decide(Level.HARD, view, 81, budget)
        assert move in view.legal
        assert decide(Level.HARD, view, 81, budget) == move
