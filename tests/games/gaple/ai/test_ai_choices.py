"""The learned model of the reference player's plays: its features, its evidence, its weights."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from gaple_bot.games.gaple.ai import Level, decide
from gaple_bot.games.gaple.ai.choices import (
    ChoiceModel,
    choice_model,
    evidence_of,
    reweigh_by_choices,
)
from gaple_bot.games.gaple.ai.dealer import Dealer
from gaple_bot.games.gaple.ai.fastcore import (
    BASE_CHOICE_FEATURES,
    CHOICE_FEATURES,
    choice_features,
    choice_log_likelihoods,
    choice_options,
)
from gaple_bot.games.gaple.ai.levels import BUDGETS
from gaple_bot.games.gaple.ai.montecarlo import _passed_over_factor, _reweigh
from gaple_bot.games.gaple.ai.playout import BIT_OF, HI, LO, NUM, SUM, to_bits
from gaple_bot.games.gaple.ai.reference import reference_move
from gaple_bot.games.gaple.rules import (
    Discarded,
    Game,
    GameConfig,
    Move,
    MoveKind,
    Passed,
    RuleSet,
    Side,
    deal_round,
)
from gaple_bot.games.gaple.rules.tiles import TILE_COUNT

from .ai_clock import stop_the_clock
from .ai_positions import SETUPS, positions

ALL = (1 << TILE_COUNT) - 1


def _count(mask: int) -> int:
    return mask.bit_count()


def _features(
    hand: int,
    played: int,
    ends: tuple[int, int],
    bit: int,
    on_left: bool,
    lacked: list[int],
    fewest: int,
) -> list[float]:
    """`choice_features` as its docstring defines them, in plain Python."""
    left, right = ends
    covered, other = (left, right) if on_left else (right, left)
    exposed = SUM[bit] - covered
    rest = hand & ~(1 << bit)
    after = played | 1 << bit
    unseen = ALL & ~(after | rest)
    new, old, cov = NUM[exposed], NUM[other], NUM[covered]
    double = float(LO[bit] == HI[bit])
    doubles = sum(1 << b for b in range(TILE_COUNT) if LO[b] == HI[b])
    out = [
        SUM[bit] / 12,
        double,
        _count(rest & (new | old)) / 3,
        _count(rest & new) / 3,
        _count(unseen & new) / 3,
        _count(unseen & (new | old)) / 5,
        float(exposed == other),
        _count(rest & cov) / 3,
        _count(unseen & cov) / 3,
        double * _count(rest & new) / 3,
        _count(rest & old) / 3,
        _count(unseen & old) / 3,
        sum(SUM[b] for b in range(TILE_COUNT) if rest >> b & 1) / 40,
        _count(rest) / 7,
        _count(rest & doubles) / 2,
    ]
    out += [((lacked[k] >> exposed & 1) + (lacked[k] >> other & 1)) / 2 for k in range(3)]
    out += [
        _count(new & after) / 6,
        float(not unseen & (new | old) and not rest & (new | old)),
        fewest / 7,
        float(not unseen & (new | old)),
        float(_count(rest & new & old)),
        float(not rest & (new | old)),
    ]
    scores = _keeping_scores(hand, ends)
    # Equal ends make a play at either one the same move, on the right (C7).
    play = (bit, on_left and left != right)
    keeping = max(scores, key=lambda p: (scores[p], p[0], not p[1]))
    heaviest = max(SUM[b] for b, _ in scores)
    counts = [_count(rest & NUM[number]) for number in range(7)]
    out += [
        float(keeping == play),
        (max(scores.values()) - scores[play]) / 12,
        (heaviest - SUM[bit]) / 12,
        len({b for b, _ in scores if SUM[b] > SUM[bit]}) / 3,
        sum(1 for c in counts if c) / 7,
        max(counts) / 3,
    ]
    return out


def _keeping_scores(hand: int, ends: tuple[int, int]) -> dict[tuple[int, bool], int]:
    """Each play's keeping score: its pips plus 3 for each tile left that fits the ends it
    leaves (equal ends take a play on the right only, C7)."""
    left, right = ends
    scores: dict[tuple[int, bool], int] = {}
    for b in range(TILE_COUNT):
        if not hand >> b & 1:
            continue
        others = hand & ~(1 << b)
        if NUM[right] >> b & 1:
            scores[(b, False)] = SUM[b] + 3 * _count(others & (NUM[left] | NUM[SUM[b] - right]))
        if NUM[left] >> b & 1 and left != right:
            scores[(b, True)] = SUM[b] + 3 * _count(others & (NUM[SUM[b] - left] | NUM[right]))
    return scores


def test_the_compiled_features_are_their_definition() -> None:
    rng = random.Random(51)
    out = np.empty(CHOICE_FEATURES, dtype=np.float64)
    for _ in range(2000):
        tiles = rng.sample(range(TILE_COUNT), 12)
        hand = sum(1 << b for b in tiles[:6])
        played = sum(1 << b for b in tiles[6:])
        left, right = rng.randrange(7), rng.randrange(7)
        fitting = [b for b in tiles[:6] if NUM[left] >> b & 1 or NUM[right] >> b & 1]
        if not fitting:
            continue
        bit = rng.choice(fitting)
        on_left = bool(NUM[left] >> bit & 1) and (not NUM[right] >> bit & 1 or rng.random() < 0.5)
        lacked = [rng.randrange(128) for _ in range(3)]
        voids = sum(v << (7 * k) for k, v in enumerate(lacked))
        fewest = rng.randrange(1, 8)
        choice_features(hand, played, left, right, bit, int(on_left), voids, fewest, out)
        expected = _features(hand, played, (left, right), bit, on_left, lacked, fewest)
        assert out.tolist() == pytest.approx(expected)


def test_options_are_the_legal_plays() -> None:
    features = np.empty((2 * TILE_COUNT, CHOICE_FEATURES), dtype=np.float64)
    plays = np.empty((2 * TILE_COUNT, 2), dtype=np.int64)
    for config in SETUPS:
        for view, *_ in positions(config, random.Random(52), 40):
            if view.ends is None or view.legal[0].kind is not MoveKind.PLAY:
                continue
            count = choice_options(
                to_bits(view.hand), 0, view.ends[0], view.ends[1], 0, 7, features, plays
            )
            legal = {(BIT_OF[m.tile], int(m.side is Side.LEFT)) for m in view.legal}
            got = [(int(b), int(s)) for b, s in plays[:count].tolist()]
            assert sorted(got) == sorted(legal)


def _recorded_round(config: GameConfig, seed: int) -> tuple[Game, list[list[int]]]:
    """A round played at random, and for each play the row its player's situation makes (the
    line, ends and tile, each follower's lacked numbers, the fewest tiles a follower held,
    the player's hand then), in play order."""
    rng = random.Random(seed)
    game = Game(config, deal_round(config, rng, None))
    seats = config.seats
    lacked = [0] * seats
    rows: list[list[int]] = []
    current = game.round
    while current.to_move is not None:
        seat = current.to_move
        view = game.seat_view(seat)
        move: Move = rng.choice(view.legal)
        if move.kind is MoveKind.PLAY and view.ends is not None:
            followers = [(seat + k) % seats for k in range(1, seats)]
            rows.append(
                [
                    seat,
                    to_bits(view.played),
                    *view.ends,
                    BIT_OF[move.tile],
                    int(move.side is Side.LEFT),
                    sum(lacked[f] << (7 * k) for k, f in enumerate(followers[:3])),
                    min(view.hand_counts[f] for f in followers),
                    to_bits(view.hand),
                ]
            )
        before = len(view.events)
        game.apply(seat, move)
        for event in game.seat_view(seat).events[before:]:
            if isinstance(event, Passed | Discarded):
                lacked[event.seat] |= 1 << event.ends[0] | 1 << event.ends[1]
    return game, rows


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_evidence_is_each_other_seats_play_as_its_player_saw_it(config: GameConfig) -> None:
    checked = 0
    for seed in range(12):
        game, rows = _recorded_round(config, seed)
        for me in range(config.seats):
            view = game.seat_view(me)
            evidence = evidence_of(view).tolist()
            others = [row for row in rows if row[0] != me]
            assert len(evidence) <= len(others)
            # A play is left out only when its player discarded both before and after it.
            kept = iter(evidence)
            for row in others:
                got = next((e for e in kept if e[6] == row[4]), None)
                if got is None:
                    break
                seat, played, left, right, bit, on_left, voids, fewest, hand = row
                assert got[0] == seat
                assert got[3:10] == [played, left, right, bit, on_left, voids, fewest]
                now = game.round.hands[seat]
                held = to_bits(now) | got[1]
                if got[2]:
                    held |= to_bits(game.round.discards[seat])
                assert held == hand
                checked += 1
    assert checked > 50


def _python_log_likelihood(
    evidence: list[list[int]], hands: list[int], discs: list[int], model: ChoiceModel
) -> float:
    """The plays' log-likelihood from scratch: each play's share of the softmax of the model's
    scores over the hand's plays then."""
    features = np.empty((2 * TILE_COUNT, CHOICE_FEATURES), dtype=np.float64)
    plays = np.empty((2 * TILE_COUNT, 2), dtype=np.int64)
    total = 0.0
    for seat, later, with_discards, played, left, right, bit, on_left, voids, fewest, _ in evidence:
        hand = hands[seat] | later | (discs[seat] if with_discards else 0)
        count = choice_options(hand, played, left, right, voids, fewest, features, plays)
        if count < 2:
            continue
        z = (features[:count, : len(model.mean)] - model.mean) / model.spread
        scores = np.tanh(z @ model.hidden + model.bias) @ model.outer + z @ model.direct
        mine = next(k for k in range(count) if plays[k].tolist() == [bit, on_left])
        total += float(scores[mine] - np.log(np.exp(scores).sum()))
    return total


def _wide_model(units: int, seed: int) -> ChoiceModel:
    """A model of random weights that reads every feature, not only the shipped model's."""
    rng = np.random.default_rng(seed)
    n = CHOICE_FEATURES
    return ChoiceModel(
        rng.normal(0.0, 0.3, n),
        rng.uniform(0.5, 2.0, n),
        rng.normal(0.0, 0.5, (n, units)),
        rng.normal(0.0, 0.5, units),
        rng.normal(0.0, 1.0, units),
        rng.normal(0.0, 0.5, n),
    )


@pytest.mark.parametrize("config", SETUPS, ids=str)
@pytest.mark.parametrize("wide", [False, True], ids=["shipped", "every-feature"])
def test_deal_log_likelihoods_are_the_models_softmax(config: GameConfig, wide: bool) -> None:
    # The shipped model reads the first features alone; a model may read them all.
    m = _wide_model(5, 56) if wide else choice_model("choice_weights")
    rng = random.Random(53)
    compared = 0
    for view, *_ in positions(config, rng, 30):
        evidence = evidence_of(view)
        dealer = Dealer.of(view, config.seats)
        deals = [dealer.deal(rng) for _ in range(4)]
        hands = np.array([h for h, _, _ in deals], dtype=np.int64)
        discs = np.array([d for _, d, _ in deals], dtype=np.int64)
        out = np.zeros(len(deals), dtype=np.float64)
        choice_log_likelihoods(
            hands, discs, evidence, m.mean, m.spread, m.hidden, m.bias, m.outer, m.direct, out
        )
        for row, (h, d, _) in enumerate(deals):
            assert out[row] == pytest.approx(_python_log_likelihood(evidence.tolist(), h, d, m))
        compared += bool(len(evidence))
    assert compared > 10


def test_the_true_hands_are_likelier_than_drawn_ones_against_the_reference() -> None:
    # Four reference players: the player the model was fitted to. Midway through each round,
    # the true hidden hands explain the recorded plays better than deals drawn without them.
    config = GameConfig(RuleSet.CLASSIC, 4)
    rng = random.Random(54)
    true_logs: list[float] = []
    drawn_logs: list[float] = []
    for number in range(40):
        game = Game(config, deal_round(config, random.Random(number), None))
        current = game.round
        for _ in range(12):
            if current.to_move is None:
                break
            view = game.seat_view(current.to_move)
            game.apply(current.to_move, reference_move(view, random.Random(rng.getrandbits(64))))
        if current.to_move is None:
            continue
        view = game.seat_view(current.to_move)
        reweigh = reweigh_by_choices(view, 1.0, "choice_weights")
        assert reweigh is not None
        dealer = Dealer.of(view, config.seats)
        drawn = [dealer.deal(rng) for _ in range(20)]
        truth = [to_bits(h) for h in current.hands]
        truth[view.seat] = dealer.hands[view.seat]
        hands = np.array([truth] + [h for h, _, _ in drawn], dtype=np.int64)
        discs = np.zeros_like(hands)
        logs = np.log(reweigh(hands, discs, np.ones(len(hands))))
        true_logs.append(float(logs[0]))
        drawn_logs.append(float(logs[1:].mean()))
    assert len(true_logs) > 30
    gains = [t - d for t, d in zip(true_logs, drawn_logs, strict=True)]
    assert sum(gains) / len(gains) > 0.5
    assert sum(g > 0 for g in gains) > 0.7 * len(gains)


@pytest.mark.parametrize(("weights", "features"), [("choice_weights", 24)])
def test_the_weights_fit_the_features(weights: str, features: int) -> None:
    m = choice_model(weights)
    units = len(m.bias)
    assert features <= CHOICE_FEATURES
    assert m.mean.shape == m.spread.shape == m.direct.shape == (features,)
    assert m.hidden.shape == (features, units) and m.outer.shape == (units,)
    assert (m.spread > 0).all()


def test_tree_decisions_weighted_by_the_model_are_legal_and_repeat_for_a_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stop_the_clock(monkeypatch)
    config = GameConfig(RuleSet.CLASSIC, 4)
    budget = dataclasses.replace(BUDGETS[Level.HARD], tree=200, choices=1.0)
    rng = random.Random(55)
    weighed = 0
    for view, *_ in positions(config, rng, 80):
        weighed += _reweigh(view, budget) is not None
        move = decide(Level.HARD, view, 83, budget)
        assert move in view.legal
        assert decide(Level.HARD, view, 83, budget) == move
    assert weighed > 20


@pytest.mark.parametrize("config", SETUPS[1:], ids=str)
def test_the_model_weighs_deals_only_at_four_classic_seats(config: GameConfig) -> None:
    # It was fitted to four-seat classic play: elsewhere its features mean something else.
    budget = dataclasses.replace(BUDGETS[Level.HARD], choices=1.0)
    for view, *_ in positions(config, random.Random(57), 20):
        assert _reweigh(view, budget) is None


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_passed_over_tiles_give_way_to_the_model_only_where_it_weighs(
    config: GameConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where the learned model reads the plays, `modelled_passed_over` replaces `passed_over`;
    # elsewhere the passed-over tiles weigh the deals as before.
    stop_the_clock(monkeypatch)
    small = dataclasses.replace(
        BUDGETS[Level.HARD], tree=150, passed_over=0.2, choices=1.0, modelled_passed_over=None
    )
    budget = dataclasses.replace(small, modelled_passed_over=1.0)
    modelled = config == GameConfig(RuleSet.CLASSIC, 4)
    same_as = dataclasses.replace(small, passed_over=1.0) if modelled else small
    changed = 0
    for view, *_ in positions(config, random.Random(61), 25):
        assert _passed_over_factor(view, budget) == (1.0 if modelled else 0.2)
        assert _passed_over_factor(view, small) == 0.2
        move = decide(Level.HARD, view, 87, budget)
        assert move == decide(Level.HARD, view, 87, same_as)
        changed += move != decide(Level.HARD, view, 87, small)
    # The factor matters where it is replaced (four of these 25 decisions when written).
    assert (changed > 0) == modelled


def test_a_narrow_row_gets_the_base_features_alone() -> None:
    rng = random.Random(55)
    wide = np.empty(CHOICE_FEATURES, dtype=np.float64)
    narrow = np.full(BASE_CHOICE_FEATURES + 2, -1.0)
    for _ in range(200):
        tiles = rng.sample(range(TILE_COUNT), 10)
        hand = sum(1 << b for b in tiles[:5])
        played = sum(1 << b for b in tiles[5:])
        left, right = rng.randrange(7), rng.randrange(7)
        fitting = [b for b in tiles[:5] if NUM[right] >> b & 1]
        if not fitting:
            continue
        bit = fitting[0]
        choice_features(hand, played, left, right, bit, 0, 0, 3, wide)
        choice_features(hand, played, left, right, bit, 0, 0, 3, narrow)
        assert narrow[:BASE_CHOICE_FEATURES].tolist() == wide[:BASE_CHOICE_FEATURES].tolist()
        assert narrow[BASE_CHOICE_FEATURES:].tolist() == [-1.0, -1.0]
