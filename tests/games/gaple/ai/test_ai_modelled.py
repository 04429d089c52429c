"""The modelled rollout plays out like its policy (the fitted model's best play) in the engine."""

from __future__ import annotations

import random

import pytest

from gaple_bot.games.gaple.ai import Budget, Level, decide
from gaple_bot.games.gaple.ai.modelled import Policy, modelled_rollout
from gaple_bot.games.gaple.ai.opponents import PLAY_WEIGHTS, play_features
from gaple_bot.games.gaple.ai.playout import BIT_OF, rules_of, to_bits
from gaple_bot.games.gaple.rules import Game, GameConfig, Move, MoveKind, Round, Side, discard
from gaple_bot.games.gaple.rules.tiles import FULL_SET, heaviness

from .ai_clock import stop_the_clock
from .ai_positions import SETUPS


def _modelled_policy(current: Round, played: int) -> Move:
    """The policy against the engine: a lone fitting tile goes right if it fits there; else
    the play with the best score (all but the last feature), ties to the heavier tile, then
    the left end; stuck: the lightest discard."""
    legal = current.legal_moves()
    plays = [m for m in legal if m.kind is MoveKind.PLAY]
    if plays:
        assert current.ends is not None
        if len({m.tile for m in plays}) == 1:
            return next((m for m in plays if m.side is Side.RIGHT), plays[0])
        hand = to_bits(current.hands[current.to_move or 0])

        def key(move: Move) -> tuple[float, int, bool]:
            assert current.ends is not None
            bit = BIT_OF[move.tile]
            features = play_features(hand, played, current.ends, bit, move.side)
            score = sum(w * x for w, x in zip(PLAY_WEIGHTS[:9], features[:9], strict=True))
            return round(score, 9), bit, move.side is Side.LEFT

        return max(plays, key=key)
    if legal[0].kind is MoveKind.DISCARD:
        return discard(min((m.tile for m in legal), key=heaviness))
    return legal[0]


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_modelled_rollout_plays_out_like_its_policy(config: GameConfig) -> None:
    rng = random.Random(41)
    rules = rules_of(config)
    for _ in range(100):
        game = Game.new(config, rng)
        current = game.round
        for _ in range(rng.randrange(1, 12)):
            if current.to_move is None:
                break
            current.apply(current.to_move, rng.choice(current.legal_moves()))
        if current.to_move is None or current.ends is None:
            continue
        seat = current.to_move
        view = game.seat_view(seat)
        played = to_bits(view.played)
        left, right = current.ends
        hands = [to_bits(h) for h in current.hands]
        discs = [to_bits(d) for d in current.discards]
        unplayed = FULL_SET & ~played
        points = modelled_rollout(rules, hands, discs, left, right, seat, unplayed, Policy.of())
        while current.to_move is not None:
            move = _modelled_policy(current, played)
            if move.kind is MoveKind.PLAY:
                played |= 1 << BIT_OF[move.tile]
            current.apply(current.to_move, move)
        assert current.result is not None
        assert points == current.result.points


@pytest.mark.parametrize("config", SETUPS[::2], ids=str)
def test_modelled_decisions_are_legal_and_repeat_for_a_seed(
    config: GameConfig, monkeypatch: pytest.MonkeyPatch
) -> None:
    stop_the_clock(monkeypatch)
    budget = Budget(deals=3, per_move=True, modelled=True, exact_tiles=4)
    rng = random.Random(42)
    for _ in range(30):
        game = Game.new(config, rng)
        while game.to_move is not None and rng.random() < 0.9:
            game.apply(game.to_move, rng.choice(game.legal_moves()))
        if game.to_move is None:
            continue
        view = game.seat_view(game.to_move)
        move = decide(Level.HARD, view, 83, budget)
        assert move in view.legal
        assert decide(Level.HARD, view, 83, budget) == move
