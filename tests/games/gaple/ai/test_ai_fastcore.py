"""The compiled core plays as the rules do: same legal moves, same moves, same points."""

from __future__ import annotations

import dataclasses
import random
from math import comb

import numpy as np
import pytest

from gaple_bot.games.gaple.ai import fastcore
from gaple_bot.games.gaple.ai.dealer import Dealer
from gaple_bot.games.gaple.ai.fastsearch import KIND_CODES, FastJudge, Valuation, core_moves
from gaple_bot.games.gaple.ai.levels import BUDGETS, Level
from gaple_bot.games.gaple.ai.montecarlo import fast_judge
from gaple_bot.games.gaple.ai.playout import (
    TILE_OF,
    keeping_rollout,
    move_parts,
    rollout,
    rules_of,
    step,
    to_bits,
)
from gaple_bot.games.gaple.ai.reference import round_margin
from gaple_bot.games.gaple.ai.value import GAME_WEIGHT, MatchValue
from gaple_bot.games.gaple.rules import Game, GameConfig, Move, MoveKind, Round, SeatView, Side

from .ai_positions import SETUPS, positions

POLICIES = {
    fastcore.GREEDY: 0,
    fastcore.KEEPING: 3,
    fastcore.BLOCKING: 3,
    fastcore.SELF_KEEPING: 3,
    fastcore.KEEPING_AT_RANDOM: 3,
    fastcore.KEEPING_AT_RANDOM + 20: 3,
    fastcore.KEEPING_AT_RANDOM + 100: 3,
}


def _state(current: Round) -> tuple[list[int], list[int], int, int]:
    left, right = current.ends if current.ends is not None else (-1, -1)
    return [to_bits(h) for h in current.hands], [to_bits(d) for d in current.discards], left, right


def _rounds(config: GameConfig, seed: int, count: int) -> list[Round]:
    """Rounds after a few random moves with the line not empty and the round not over."""
    rng = random.Random(seed)
    found: list[Round] = []
    while len(found) < count:
        current = Game.new(config, rng).round
        for _ in range(rng.randrange(1, 14)):
            if current.to_move is None:
                break
            current.apply(current.to_move, rng.choice(current.legal_moves()))
        if current.to_move is not None and current.ends is not None:
            found.append(current)
    return found


def _play_out(
    config: GameConfig, current: Round, policy: int, seed: int, trace_rows: int = 0
) -> tuple[tuple[int, ...], list[int], list[int], int, fastcore.Ints]:
    """The core's play-out of `current` by `policy`: points, final hands and discards, the
    moves made and their trace."""
    rules = rules_of(config)
    hands, discs, left, right = _state(current)
    h = np.array(hands, dtype=np.int64)
    d = np.array(discs, dtype=np.int64)
    points = np.zeros(rules.seats, dtype=np.int64)
    trace = np.zeros((trace_rows, fastcore.TRACE_FIELDS), dtype=np.int64)
    rng = np.array([seed], dtype=np.int64)
    made = fastcore.play_out(
        policy,
        POLICIES.get(policy, 0),
        rules.classic,
        rules.discards,
        rules.seats,
        h,
        d,
        left,
        right,
        current.to_move or 0,
        current.to_move or 0,
        rng,
        points,
        trace,
        np.empty(56, dtype=np.int64),
    )
    return tuple(points.tolist()), h.tolist(), d.tolist(), made, trace


@pytest.mark.parametrize("config", SETUPS, ids=str)
@pytest.mark.parametrize("policy", [fastcore.GREEDY, fastcore.KEEPING, fastcore.KEEPING_AT_RANDOM])
def test_greedy_and_keeping_play_outs_match_the_python_rollouts(
    config: GameConfig, policy: int
) -> None:
    # Keeping with no move at random is keeping.
    rules = rules_of(config)
    for current in _rounds(config, 5 + policy % 100, 300):
        hands, discs, left, right = _state(current)
        if policy == fastcore.GREEDY:
            expected = rollout(rules, hands, discs, left, right, current.to_move or 0)
        else:
            expected = keeping_rollout(rules, hands, discs, left, right, current.to_move or 0, 3)
        points, end_hands, end_discs, _, _ = _play_out(config, current, policy, 1)
        assert points == expected
        assert (end_hands, end_discs) == (hands, discs)


def _judge_for(view: SeatView, rng: random.Random) -> tuple[FastJudge, list[tuple[int, int, int]]]:
    """A keeping judge of the seat to move in `view`, valued by the match, and its legal moves
    as the core codes them."""
    rules = rules_of(view.config)
    moves = core_moves(view.legal)
    judge = FastJudge(
        rules,
        Dealer.of(view, rules.seats),
        view.ends if view.ends is not None else (-1, -1),
        view.seat,
        moves,
        fastcore.KEEPING,
        3,
        Valuation(True, view.scores, view.config.target, 40.0),
        rng,
    )
    return judge, moves


def _engine_move(seat: int, kind: int, bit: int, on_left: int) -> Move:
    if kind == fastcore.PASS:
        return Move(MoveKind.PASS)
    tile = TILE_OF[bit]
    if kind == fastcore.DISCARD:
        return Move(MoveKind.DISCARD, tile)
    return Move(MoveKind.PLAY, tile, Side.LEFT if on_left else Side.RIGHT)


@pytest.mark.parametrize("config", SETUPS, ids=str)
@pytest.mark.parametrize(
    "policy",
    [
        fastcore.GREEDY,
        fastcore.KEEPING,
        fastcore.RANDOM,
        fastcore.BLOCKING,
        fastcore.SELF_KEEPING,
        fastcore.KEEPING_AT_RANDOM + 20,
    ],
)
def test_every_traced_move_is_legal_in_the_engine_and_the_points_are_its(
    config: GameConfig, policy: int
) -> None:
    """A play-out traced move by move and replayed in the rules: each move is one of the
    engine's legal moves, the count of choices the core saw is the engine's, and the round
    ends with the engine's points."""
    for number, current in enumerate(_rounds(config, 40 + policy % 100, 200)):
        points, _, _, made, trace = _play_out(config, current, policy, number, trace_rows=64)
        assert made <= 64
        for seat, kind, bit, on_left, choices in trace[:made].tolist():
            assert seat == current.to_move
            legal = current.legal_moves()
            move = _engine_move(seat, kind, bit, on_left)
            if kind == fastcore.PLAY and not any(m.side is Side.LEFT for m in legal):
                # The engine names a tile fitting both ends alike by one side only.
                move = next(m for m in legal if m.tile == move.tile)
            assert move in legal
            if kind != fastcore.PASS:
                # The choices the core saw: the engine's legal moves.
                assert choices == len(legal)
            current.apply(seat, move)
        assert current.result is not None
        assert points == current.result.points


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_keeping_at_random_plays_its_share_of_moves_off_the_keeping_rule(
    config: GameConfig,
) -> None:
    """Each move is keeping's unless drawn at random: none off it at 0%, about as many as a
    random player's at 100%, some in between."""

    def off_keeping(policy: int) -> int:
        off = 0
        for number, current in enumerate(_rounds(config, 60, 150)):
            _, _, _, made, trace = _play_out(config, current, policy, number, trace_rows=64)
            hands, _, left, right = _state(current)
            for seat, kind, bit, on_left, _ in trace[:made].tolist():
                if kind == fastcore.PLAY:
                    code = fastcore.keeping_code(hands[seat], left, right, 3, 0)
                    off += code != 2 * bit + on_left
                    total = fastcore.SUM_A[bit]
                    if on_left:
                        left = total - left
                    else:
                        right = total - right
                    hands[seat] &= ~(1 << bit)
                elif kind == fastcore.DISCARD:
                    hands[seat] &= ~(1 << bit)
        return off

    assert off_keeping(fastcore.KEEPING_AT_RANDOM) == 0
    some, random_ones = off_keeping(fastcore.KEEPING_AT_RANDOM + 20), off_keeping(fastcore.RANDOM)
    assert 0 < some < random_ones
    assert off_keeping(fastcore.KEEPING_AT_RANDOM + 100) > some


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_a_move_made_by_the_core_is_the_python_step(config: GameConfig) -> None:
    rules = rules_of(config)
    rng = random.Random(8)
    for _ in range(150):
        current = Game.new(config, rng).round
        hands, discs, left, right = _state(current)
        while current.to_move is not None:
            seat = current.to_move
            move = rng.choice(current.legal_moves())
            kind, bit, side = move_parts(move)
            h = np.array(hands, dtype=np.int64)
            d = np.array(discs, dtype=np.int64)
            ends = np.array([left, right], dtype=np.int64)
            points = np.zeros(rules.seats, dtype=np.int64)
            following = fastcore.make_move(
                rules.classic,
                rules.discards,
                rules.seats,
                h,
                d,
                ends,
                seat,
                KIND_CODES[kind],
                bit,
                side is Side.LEFT,
                points,
            )
            nxt = step(rules, hands, discs, left, right, seat, kind, bit, side)
            if nxt.points is None:
                assert (following, *ends.tolist()) == (nxt.seat, nxt.left, nxt.right)
            else:
                assert following == -1
                assert tuple(points.tolist()) == nxt.points
            assert (h.tolist(), d.tolist()) == (hands, discs)
            current.apply(seat, move)
            left, right = nxt.left, nxt.right


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_the_compiled_draws_keep_every_constraint_and_weigh_as_the_sampler(
    config: GameConfig,
) -> None:
    rng = random.Random(9)
    for number, position in enumerate(positions(config, rng, 60)):
        view = position.view
        dealer = Dealer.of(view, config.seats)
        unseen, counts, allowed, order, free = dealer.sampler.fast_plan()
        out = np.zeros(len(counts), dtype=np.int64)
        state = np.array([number], dtype=np.int64)
        for _ in range(20):
            weight = fastcore.draw(
                unseen,
                np.array(counts, dtype=np.int64),
                np.array(allowed, dtype=np.int64),
                np.array(order, dtype=np.int64),
                np.array(free, dtype=np.int64),
                state,
                out,
                np.empty(28, dtype=np.int64),
            )
            if weight < 0:
                continue
            masks = out.tolist()
            assert sum(masks) == unseen  # disjoint and covering
            expected_weight = 1.0
            remaining = unseen
            for i in order:
                available = remaining & allowed[i]
                if available.bit_count() > counts[i]:
                    expected_weight *= comb(available.bit_count(), counts[i])
                remaining ^= masks[i]
            assert weight == expected_weight
            for mask, count, may in zip(masks, counts, allowed, strict=True):
                assert mask.bit_count() == count
                assert mask & ~may == 0


def test_compiled_draws_are_uniform_over_a_small_deal() -> None:
    """Two places of two among four free tiles: each of the six splits about equally often."""
    counts = np.array([2, 2], dtype=np.int64)
    allowed = np.array([0b1111, 0b1111], dtype=np.int64)
    seen: dict[int, int] = {}
    state = np.array([3], dtype=np.int64)
    out = np.zeros(2, dtype=np.int64)
    scratch = np.empty(28, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    for _ in range(6000):
        fastcore.draw(0b1111, counts, allowed, empty, np.array([0, 1]), state, out, scratch)
        seen[int(out[0])] = seen.get(int(out[0]), 0) + 1
    assert len(seen) == 6
    assert all(800 < n < 1200 for n in seen.values())


def test_round_values_are_the_margin_and_the_match_value() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        seats = rng.choice((2, 3, 4, 5))
        scores = [rng.randrange(120) for _ in range(seats)]
        points = tuple(rng.choice((0, 0, rng.randrange(40))) for _ in range(seats))
        me = rng.randrange(seats)
        worth = rng.choice((0.0, 40.0))
        value = MatchValue(scores, 100, worth)
        arrays = (np.array(points, dtype=np.int64), np.array(scores, dtype=np.int64))
        assert fastcore.round_value(
            fastcore.MARGIN, seats, me, *arrays, 100, 0.0, 0.0
        ) == round_margin(points, me)
        assert fastcore.round_value(
            fastcore.MATCH, seats, me, *arrays, 100, float(GAME_WEIGHT * 100), worth
        ) == pytest.approx(value.of(points)[me])


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_a_judgement_on_given_deals_is_the_python_rollouts(config: GameConfig) -> None:
    """Greedy judgement of every legal move on deals drawn by the Python sampler: each value is
    what `step` and `rollout` make of that deal, valued by `MatchValue`."""
    rules = rules_of(config)
    rng = random.Random(10)
    for position in positions(config, rng, 40):
        view = position.view
        if view.ends is None or len(view.legal) < 2:
            # A search never judges a lone move; a lone pass may meet a deal that sets every
            # fitting tile aside, which the Python rollouts would pass around forever.
            continue
        dealer = Dealer.of(view, config.seats)
        deals = [dealer.deal(rng) for _ in range(5)]
        moves = [move_parts(m) for m in view.legal]
        judge = FastJudge(
            rules,
            dealer,
            view.ends,
            view.seat,
            [(KIND_CODES[k], b, int(s is Side.LEFT)) for k, b, s in moves],
            fastcore.GREEDY,
            0,
            Valuation(True, view.scores, view.config.target, 40.0),
            rng,
        )
        worth, weights = judge.judge_given(range(len(moves)), deals)
        value = MatchValue(view.scores, view.config.target, 40.0)
        for row, (hands, discs, weight) in enumerate(deals):
            assert weights[row] == weight
            for j, (kind, bit, side) in enumerate(moves):
                h, d = list(hands), list(discs)
                nxt = step(rules, h, d, view.ends[0], view.ends[1], view.seat, kind, bit, side)
                points = nxt.points or rollout(rules, h, d, nxt.left, nxt.right, nxt.seat)
                assert worth[row, j] == pytest.approx(value.of(points)[view.seat])


def test_a_budget_s_random_share_is_its_rollouts_policy() -> None:
    view = next(p.view for p in positions(SETUPS[0], random.Random(35), 20) if p.view.ends)
    dealer = Dealer.of(view, view.config.seats)
    shared = dataclasses.replace(BUDGETS[Level.HARD], random_share=15)
    judge = fast_judge(view, random.Random(7), shared, dealer, 3)
    # The policy is field 6, from 0, of the table the core reads (`FastJudge.table`).
    assert judge.table[6] == fastcore.KEEPING_AT_RANDOM + 15
    plain = fast_judge(view, random.Random(7), BUDGETS[Level.HARD], dealer, 3)
    assert plain.table[6] == fastcore.KEEPING
    # Rollouts that keep nothing (greedy) have no keeping to leave.
    assert fast_judge(view, random.Random(7), shared, dealer, 0).table[6] == fastcore.GREEDY
    for wrong in (-1, 101):
        with pytest.raises(ValueError, match="random_share"):
            dataclasses.replace(BUDGETS[Level.HARD], random_share=wrong)
