"""The lean bitmask simulation agrees with the engine, and the exact solver with brute force."""

from __future__ import annotations

import copy
import random

import pytest

from gaple_bot.games.gaple.ai.exact import SearchTooLarge, Solver
from gaple_bot.games.gaple.ai.playout import (
    BIT_OF,
    HI,
    LO,
    NUM,
    SUM,
    TILE_OF,
    finish,
    keeping_rollout,
    move_parts,
    pip_count,
    rollout,
    rules_of,
    step,
    to_bits,
    to_tiles,
)
from gaple_bot.games.gaple.ai.value import MatchValue
from gaple_bot.games.gaple.rules import (
    Game,
    GameConfig,
    Move,
    MoveKind,
    Round,
    RuleSet,
    Side,
    discard,
)
from gaple_bot.games.gaple.rules.tiles import (
    FULL_SET,
    HIGH,
    LOW,
    NUMBER_MASK,
    WEIGHT,
    heaviness,
    pips,
    tile_id,
)

from .ai_positions import SETUPS


def test_bit_order_is_greedy_order() -> None:
    assert sorted(TILE_OF) == list(range(28))
    assert [BIT_OF[t] for t in TILE_OF] == list(range(28))
    assert [heaviness(t) for t in TILE_OF] == sorted(heaviness(t) for t in range(28))
    for bit, tile in enumerate(TILE_OF):
        assert (LO[bit], HI[bit], SUM[bit]) == (LOW[tile], HIGH[tile], WEIGHT[tile])
    for number in range(7):
        assert to_tiles(NUM[number]) == NUMBER_MASK[number]
    rng = random.Random(1)
    for _ in range(200):
        mask = rng.getrandbits(28) & FULL_SET
        assert to_tiles(to_bits(mask)) == mask
        assert pip_count(to_bits(mask)) == pips(mask)


def _state(current: Round) -> tuple[list[int], list[int], int, int]:
    left, right = current.ends if current.ends is not None else (-1, -1)
    return [to_bits(h) for h in current.hands], [to_bits(d) for d in current.discards], left, right


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_step_and_finish_match_the_engine_move_by_move(config: GameConfig) -> None:
    """Random rounds mirrored move by move: same ends, same seat to move, same points."""
    rng = random.Random(7)
    rules = rules_of(config)
    for _ in range(150):
        game = Game.new(config, rng)
        current = game.round
        hands, discs, left, right = _state(current)
        while current.to_move is not None:
            seat = current.to_move
            move = rng.choice(current.legal_moves())
            kind, bit, side = move_parts(move)
            nxt = step(rules, hands, discs, left, right, seat, kind, bit, side)
            current.apply(seat, move)
            if current.result is not None:
                assert nxt.points == current.result.points
            else:
                assert nxt.points is None
                assert (nxt.left, nxt.right) == current.ends
                assert nxt.seat == current.to_move
                assert hands == [to_bits(h) for h in current.hands]
                assert discs == [to_bits(d) for d in current.discards]
            left, right = nxt.left, nxt.right


def _rollout_policy(current: Round) -> Move:
    """The rollout's policy written against the engine: heaviest fitting tile, ties of end
    to the number the rest of the hand shows more of (else right); stuck: lightest discard."""
    legal = current.legal_moves()
    plays = [m for m in legal if m.kind is MoveKind.PLAY]
    if plays:
        tile = max({m.tile for m in plays}, key=heaviness)
        sides = [m for m in plays if m.tile == tile]
        if len(sides) == 1:
            return sides[0]
        assert current.ends is not None
        rest = current.hands[current.to_move or 0] & ~(1 << tile)
        left, right = current.ends
        keeps_left = (rest & NUMBER_MASK[LOW[tile] + HIGH[tile] - left]).bit_count()
        keeps_right = (rest & NUMBER_MASK[LOW[tile] + HIGH[tile] - right]).bit_count()
        wanted = Side.LEFT if keeps_left > keeps_right else Side.RIGHT
        return next(m for m in sides if m.side is wanted)
    if legal[0].kind is MoveKind.DISCARD:
        return discard(min((m.tile for m in legal), key=heaviness))
    return legal[0]


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_rollout_plays_out_like_its_policy_in_the_engine(config: GameConfig) -> None:
    rng = random.Random(3)
    rules = rules_of(config)
    for _ in range(150):
        current = Game.new(config, rng).round
        for _ in range(rng.randrange(1, 12)):
            if current.to_move is None:
                break
            current.apply(current.to_move, rng.choice(current.legal_moves()))
        if current.to_move is None:
            continue
        hands, discs, left, right = _state(current)
        points = rollout(rules, hands, discs, left, right, current.to_move)
        while current.to_move is not None:
            current.apply(current.to_move, _rollout_policy(current))
        assert current.result is not None
        assert points == current.result.points


def _brute_force(current: Round, value: MatchValue) -> tuple[float, ...]:
    """max^n over engine rounds: each seat picks the first move best for itself, trying moves
    in the solver's order (lighter tiles first, the right end before the left)."""
    if current.result is not None:
        return value.of(current.result.points)
    seat = current.to_move
    assert seat is not None
    best: tuple[float, ...] | None = None
    order = sorted(current.legal_moves(), key=lambda m: (BIT_OF[m.tile], m.side is Side.LEFT))
    for move in order:
        child = copy.deepcopy(current)
        child.apply(seat, move)
        values = _brute_force(child, value)
        if best is None or values[seat] > best[seat]:
            best = values
    assert best is not None
    return best


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_exact_solver_agrees_with_brute_force_on_engine_rounds(config: GameConfig) -> None:
    rng = random.Random(11)
    rules = rules_of(config)
    checked = 0
    while checked < 12:
        current = Game.new(config, rng).round
        while current.to_move is not None and sum(h.bit_count() for h in current.hands) > 7:
            current.apply(current.to_move, rng.choice(current.legal_moves()))
        if current.to_move is None or current.ends is None:
            continue
        scores = [rng.randrange(60) for _ in range(config.seats)]
        value = MatchValue(scores, 100)
        hands, discs, left, right = _state(current)
        solver = Solver(rules, value)
        assert solver.solve(tuple(hands), tuple(discs), left, right, current.to_move) == (
            _brute_force(current, value)
        )
        checked += 1


def test_the_solver_stops_at_its_node_limit() -> None:
    config = GameConfig(RuleSet.CLASSIC, 4)
    rng = random.Random(12)
    rules = rules_of(config)
    value = MatchValue([0] * 4, 100)
    searched = 0
    while searched < 6:
        current = Game.new(config, rng).round
        while current.to_move is not None and sum(h.bit_count() for h in current.hands) > 10:
            current.apply(current.to_move, rng.choice(current.legal_moves()))
        if current.to_move is None or current.ends is None:
            continue
        hands, discs, left, right = _state(current)
        position = (tuple(hands), tuple(discs), left, right, current.to_move)
        unlimited = Solver(rules, value)
        values = unlimited.solve(*position)
        if unlimited.nodes < 2:
            continue
        # Exactly enough positions give the same answer; one fewer raises.
        assert Solver(rules, value, unlimited.nodes).solve(*position) == values
        with pytest.raises(SearchTooLarge):
            Solver(rules, value, unlimited.nodes - 1).solve(*position)
        searched += 1


def test_match_value_serves_the_match() -> None:
    value = MatchValue([0, 90, 10, 0], 100)
    # A round that lets seat 1 reach the target loses the game for everyone else.
    assert value.of((0, 15, 0, 0))[0] == -200
    assert value.of((0, 15, 0, 0))[1] == 200
    # Otherwise a seat's value is its lead over its best opponent afterwards.
    assert value.of((20, 0, 0, 0))[0] == 20 - 90
    assert value.of((0, 0, 5, 0))[0] == 0 - 90
    assert value.of((0, 5, 0, 0))[2] == 10 - 95
    # Points won and lost both count: another seat's win costs more once it leads.
    assert value.of((0, 0, 85, 0))[3] < value.of((0, 0, 10, 0))[3]
    assert MatchValue([0, 0], 100).of((30, 0)) == (30.0, -30.0)
    assert MatchValue([0, 0, 0], 1).of((0, 0, 0)) == (0.0, 0.0, 0.0)


def test_match_value_adds_the_round_win_s_worth_to_its_winners_only() -> None:
    value = MatchValue([0, 0, 0, 0], 100, win_worth=40)
    assert value.of((20, 0, 0, 0)) == (60.0, -20.0, -20.0, -20.0)
    # D7: everyone may score, the one who scored most won the round.
    assert value.of((25, 10, 0, 5)) == (15.0 + 40, -15.0, -25.0, -20.0)
    # Seats tied for the most share it: the points do not say which of them won (D6's
    # tie-break), nor who went out when the others held no pips.
    assert value.of((10, 10, 0, 0)) == (20.0, 20.0, -10.0, -10.0)
    assert value.of((0, 0, 0, 0)) == (10.0, 10.0, 10.0, 10.0)
    # A round that ends the game is worth the game, whatever the round's worth.
    assert MatchValue([95, 0], 100, win_worth=40).of((10, 0)) == (200.0, -200.0)


def test_blocked_rounds_score_as_c11_and_d7() -> None:
    """C11: the lowest count wins a blocked classic round; D7: everyone scores differences."""
    six_six, one_zero, two_zero = (to_bits(1 << tile_id(*t)) for t in ((6, 6), (1, 0), (2, 0)))
    classic = rules_of(GameConfig(RuleSet.CLASSIC, 2))
    assert finish(classic, [six_six, one_zero], [0, 0], -1) == (0, 12)
    # C10/C11a: emptying the hand wins even with more pips left elsewhere... for the mover.
    assert finish(classic, [0, six_six], [0, 0], 0) == (12, 0)
    discards = rules_of(GameConfig(RuleSet.DISCARDS, 4))
    hands = [six_six, one_zero, 0, two_zero]
    assert finish(discards, hands, [0, 0, two_zero, 0], -1) == (0, 11 + 1 + 1, 10, 10)


def _keeping_policy(current: Round, keep: int) -> Move:
    """`keeping_rollout`'s policy against the engine: most pips plus `keep` per tile left that
    fits the ends left open, ties to the heavier tile then the right end; stuck: as greedy."""
    plays = [m for m in current.legal_moves() if m.kind is MoveKind.PLAY]
    if not plays or current.ends is None:
        return _rollout_policy(current)
    hand = current.hands[current.to_move or 0]
    left, right = current.ends

    def key(move: Move) -> tuple[int, tuple[int, int], bool]:
        tile = move.tile
        other = WEIGHT[tile] - (left if move.side is Side.LEFT else right)
        ends = (other, right) if move.side is Side.LEFT else (left, other)
        rest = hand & ~(1 << tile)
        kept = (rest & (NUMBER_MASK[ends[0]] | NUMBER_MASK[ends[1]])).bit_count()
        return WEIGHT[tile] + keep * kept, heaviness(tile), move.side is Side.RIGHT

    return max(plays, key=key)


@pytest.mark.parametrize("keep", [1, 3])
@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_keeping_rollout_plays_out_like_its_policy(config: GameConfig, keep: int) -> None:
    rng = random.Random(5)
    rules = rules_of(config)
    for _ in range(150):
        current = Game.new(config, rng).round
        for _ in range(rng.randrange(1, 12)):
            if current.to_move is None:
                break
            current.apply(current.to_move, rng.choice(current.legal_moves()))
        if current.to_move is None or current.ends is None:
            continue
        hands, discs, left, right = _state(current)
        points = keeping_rollout(rules, hands, discs, left, right, current.to_move, keep)
        while current.to_move is not None:
            current.apply(current.to_move, _keeping_policy(current, keep))
        assert current.result is not None
        assert points == current.result.points
