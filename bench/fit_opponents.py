"""Fit Gaple's model of an opponent's plays (`opponents.PLAY_WEIGHTS`) to the reference player.

The reference player (plain flat Monte Carlo, bench/ai.py's yardstick) plays single classic
rounds against itself on seeded deals; every choice it makes among two or more plays is kept
as the features of each play (`play_features`) and the one it chose. A softmax over a linear
score of the features is then fitted by maximum likelihood (Newton's method, a little L2), on
three quarters of the choices; the rest measure it against uniform choice. It prints the
weights to paste into gaple_bot/games/gaple/ai/opponents.py.

    .venv/bin/python bench/fit_opponents.py --rounds 1500 --seats 4,3,2
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from gaple_bot.games.gaple.ai.arena import _deal
from gaple_bot.games.gaple.ai.opponents import play_features
from gaple_bot.games.gaple.ai.playout import move_parts, to_bits
from gaple_bot.games.gaple.ai.reference import reference_move
from gaple_bot.games.gaple.rules import Game, GameConfig, MoveKind, RuleSet

Choice = tuple[list[list[float]], int]
"""The features of every play a seat had, and the index of the one it made."""


def collect(config: GameConfig, rounds: int, seed: int) -> list[Choice]:
    """The reference player's choices among two or more plays over `rounds` single rounds."""
    rng = random.Random(seed)
    out: list[Choice] = []
    for index in range(rounds):
        game = Game(config, _deal(config, seed, index, 0, None))
        current = game.round
        while current.to_move is not None:
            seat = current.to_move
            view = game.seat_view(seat)
            move = reference_move(view, random.Random(rng.getrandbits(64)))
            plays = [m for m in view.legal if m.kind is MoveKind.PLAY]
            if len(plays) > 1 and view.ends is not None:
                hand, played = to_bits(view.hand), to_bits(view.played)
                rows = []
                for m in plays:
                    _, bit, side = move_parts(m)
                    rows.append(play_features(hand, played, view.ends, bit, side))
                out.append((rows, plays.index(move)))
            game.apply(seat, move)
    return out


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector (Gauss-Jordan with partial pivoting)."""
    n = len(vector)
    rows = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda i: abs(rows[i][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for i in range(n):
            if i != col:
                factor = rows[i][col] / rows[col][col]
                for j in range(col, n + 1):
                    rows[i][j] -= factor * rows[col][j]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def log_likelihood(choices: list[Choice], weights: list[float]) -> float:
    """The mean log-likelihood of the choices under the softmax with `weights`."""
    total = 0.0
    for rows, chosen in choices:
        scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
        top = max(scores)
        total += scores[chosen] - top - math.log(sum(math.exp(s - top) for s in scores))
    return total / len(choices)


def fit(choices: list[Choice], iterations: int = 12, l2: float = 1e-3) -> list[float]:
    """The weights maximising the choices' likelihood less l2 x |w|^2 / 2."""
    k = len(choices[0][0][0])
    weights = [0.0] * k
    for _ in range(iterations):
        grad = [-l2 * w for w in weights]
        hess = [[l2 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for rows, chosen in choices:
            scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
            top = max(scores)
            odds = [math.exp(s - top) for s in scores]
            total = sum(odds)
            probs = [o / total for o in odds]
            mean = [sum(p * row[i] for p, row in zip(probs, rows, strict=True)) for i in range(k)]
            for i in range(k):
                grad[i] += rows[chosen][i] - mean[i]
                for j in range(k):
                    second = sum(p * row[i] * row[j] for p, row in zip(probs, rows, strict=True))
                    hess[i][j] += second - mean[i] * mean[j]
        step = _solve(hess, grad)
        weights = [w + s for w, s in zip(weights, step, strict=True)]
    return weights


def main() -> int:
    """Collect, fit, print the weights and the held-out fit against uniform choice."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1500, help="single rounds per table")
    parser.add_argument("--seats", default="4", help="comma-separated seat counts (classic)")
    parser.add_argument("--seed", type=int, default=555)
    args = parser.parse_args()
    choices: list[Choice] = []
    for seats in (int(s) for s in args.seats.split(",")):
        choices += collect(GameConfig(RuleSet.CLASSIC, seats), args.rounds, args.seed)
    random.Random(1).shuffle(choices)
    cut = len(choices) * 3 // 4
    train, test = choices[:cut], choices[cut:]
    weights = fit(train)
    uniform = sum(-math.log(len(rows)) for rows, _ in test) / len(test)
    print(f"{len(choices)} choices; held-out log-likelihood per choice: uniform {uniform:.4f},")
    fitted, trained = log_likelihood(test, weights), log_likelihood(train, weights)
    print(f"fitted {fitted:.4f} (train {trained:.4f})")
    print("PLAY_WEIGHTS = (" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
