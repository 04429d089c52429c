"""Fit Gaple's learned value of a position (`value_weights`) from the project's players' rounds.

Strong players (`--players`, each seat of each round drawn from the list) play single classic
four-seat rounds (seeded, other deals than the arenas'). Every position with tiles on the line
and the round not over is kept with every hand in it, and labelled with how the round ended:
who won it and the points the winner scored. A layer of `--hidden` rectified linear units over
`fastcore.value_features` (each hand, the ends, counts; seats taken from the seat to move) is
fitted to predict the winner (a softmax over the four seats) and the points a winner scores
(squared error, where that seat won), by minibatch Adam on 80% of the rounds; the other 20%
measure it, in nats per position and the points' error, against the winner's base rates. It
writes the weights as `gaple_bot/games/gaple/ai/value_weights.py` (or `--out`); `--positions`
keeps the played positions for another fit.

    .venv/bin/python bench/fit_values.py --processes 2

Everything is seeded: the same arguments give the same weights on the same machine and numpy
(with players whose thinking has a time cap, only at the same load).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import textwrap
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from gaple_bot.games.gaple.ai.fastcore import VALUE_FEATURES, VALUE_POINTS_UNIT, value_features
from gaple_bot.games.gaple.ai.players import Player, play
from gaple_bot.games.gaple.ai.playout import to_bits
from gaple_bot.games.gaple.rules import Game, GameConfig, RuleSet, deal_round

ROOT = Path(__file__).resolve().parents[1]
# A sibling script's module, imported as bench's (as bench/load.py does), from the checkout.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fit_inputs import check_kept, keep, players_of, read_kept  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "gaple_bot/games/gaple/ai/value_weights.py"
SEATS = 4
POSITION_FIELDS = 7
"""A kept position: its round, the seat to move, the four hands (simulation bits) and the
ends packed as 8 * left + right."""
OUTCOME_FIELDS = 2
"""A position's label: the winner's seat, the points it scored."""


def _positions(
    seed: int, first: int, rounds: int, players: Sequence[Player]
) -> tuple[list[list[int]], list[list[int]]]:
    """The positions of `rounds` self-play rounds from round `first` on and their outcomes,
    each seat's player drawn from `players` anew each round."""
    config = GameConfig(RuleSet.CLASSIC, SEATS)
    positions: list[list[int]] = []
    outcomes: list[list[int]] = []
    for number in range(first, first + rounds):
        game = Game(config, deal_round(config, random.Random(seed * 1_000_003 + number), None))
        rng = random.Random(f"values:{seed}:{number}")
        seated = rng.choices(players, k=SEATS)
        current = game.round
        kept = 0
        while current.to_move is not None:
            seat = current.to_move
            if current.left >= 0:
                hands = [to_bits(hand) for hand in current.hands]
                positions.append([number, seat, *hands, 8 * current.left + current.right])
                kept += 1
            view = game.seat_view(seat)
            move = (
                view.legal[0]
                if len(view.legal) == 1
                else play(seated[seat], view, rng.getrandbits(64))
            )
            game.apply(seat, move)
        result = current.result
        assert result is not None
        outcomes.extend([[result.winner, result.points[result.winner]]] * kept)
    return positions, outcomes


def _played(
    seed: int, rounds: int, players: Sequence[Player], processes: int
) -> tuple[np.ndarray, np.ndarray]:
    """Every position of the self-play rounds and its outcome, as rows."""
    share = -(-rounds // processes)
    with ProcessPoolExecutor(processes) as pool:
        parts = list(
            pool.map(
                _positions,
                [seed] * processes,
                [k * share for k in range(processes)],
                [min(share, rounds - k * share) for k in range(processes)],
                [players] * processes,
            )
        )
    positions = np.array([p for part, _ in parts for p in part], dtype=np.int64)
    outcomes = np.array([o for _, part in parts for o in part], dtype=np.int64)
    return positions.reshape(-1, POSITION_FIELDS), outcomes.reshape(-1, OUTCOME_FIELDS)


def features_of(positions: np.ndarray) -> np.ndarray:
    """Each position's features (`fastcore.value_features`), seats from the seat to move."""
    out = np.empty((len(positions), VALUE_FEATURES), dtype=np.float64)
    hands = np.empty(SEATS, dtype=np.int64)
    for k, row in enumerate(positions.tolist()):
        _, mover, *held, ends = row
        for s in range(SEATS):
            hands[s] = held[(mover + s) % SEATS]
        value_features(SEATS, hands, ends >> 3, ends & 7, out[k])
    return out


def labels_of(positions: np.ndarray, outcomes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each position's winner, counted from the seat to move, and its points in units."""
    winner = (outcomes[:, 0] - positions[:, 1]) % SEATS
    return winner, outcomes[:, 1] / VALUE_POINTS_UNIT


class Model:
    """A layer of rectified linear units; out: four winner scores, then the points (in units)
    each seat would score winning, seats counted from the seat to move."""

    def __init__(self, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray) -> None:
        """The model with these weights."""
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The outputs and hidden units of each row."""
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        return hidden @ self.w2 + self.b2, hidden

    def losses(self, x: np.ndarray, winner: np.ndarray, points: np.ndarray) -> tuple[float, float]:
        """Nats per position of the winner and the mean squared error of its points (units)."""
        out, _ = self.forward(x)
        return _winner_nats(out[:, :SEATS], winner), float(
            ((out[np.arange(len(x)), SEATS + winner] - points) ** 2).mean()
        )


def _winner_nats(scores: np.ndarray, winner: np.ndarray) -> float:
    """Mean negative log-likelihood of the winners under softmax scores."""
    top = scores.max(axis=1, keepdims=True)
    log_z = top[:, 0] + np.log(np.exp(scores - top).sum(axis=1))
    return float((log_z - scores[np.arange(len(scores)), winner]).mean())


def fit(
    x: np.ndarray,
    winner: np.ndarray,
    points: np.ndarray,
    hidden: int,
    epochs: int,
    seed: int,
) -> Model:
    """The model fitted by minibatch Adam (batches of 1,024, L2 1e-5)."""
    rng = np.random.default_rng(seed)
    n, d = x.shape
    params = [
        rng.normal(0.0, 1.0 / math.sqrt(d), (d, hidden)),
        np.zeros(hidden),
        rng.normal(0.0, 1.0 / math.sqrt(hidden), (hidden, 2 * SEATS)),
        np.zeros(2 * SEATS),
    ]
    model = Model(*params)
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    rate, beta1, beta2, decay = 3e-3, 0.9, 0.999, 1e-5
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, 1024):
            rows = order[start : start + 1024]
            xb, wb, pb = x[rows], winner[rows], points[rows]
            out, h = model.forward(xb)
            m = len(rows)
            scores = out[:, :SEATS]
            p = np.exp(scores - scores.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            grad_out = np.zeros_like(out)
            grad_out[:, :SEATS] = p
            grad_out[np.arange(m), wb] -= 1.0
            grad_out[np.arange(m), SEATS + wb] = out[np.arange(m), SEATS + wb] - pb
            grad_out /= m
            grad_hidden = (grad_out @ model.w2.T) * (h > 0.0)
            grads = [
                xb.T @ grad_hidden + decay * model.w1,
                grad_hidden.sum(axis=0),
                h.T @ grad_out + decay * model.w2,
                grad_out.sum(axis=0),
            ]
            step += 1
            # Halve the rate over the last third of the epochs.
            lr = rate * (0.5 if epoch >= 2 * epochs // 3 else 1.0)
            for k, (param, grad) in enumerate(zip(params, grads, strict=True)):
                first[k] = beta1 * first[k] + (1 - beta1) * grad
                second[k] = beta2 * second[k] + (1 - beta2) * grad * grad
                param -= (
                    lr
                    * (first[k] / (1 - beta1**step))
                    / (np.sqrt(second[k] / (1 - beta2**step)) + 1e-8)
                )
    return model


def _write(model: Model, header: str, out: Path) -> None:
    """Write the weights as a Python module."""

    def floats(values: np.ndarray) -> str:
        # Six significant digits: the model's own precision is far coarser.
        return "(\n" + "".join(f"    {float(v):.6g},\n" for v in values.ravel()) + ")"

    wrapped = "\n\n".join(textwrap.fill(part, 96) for part in header.split("\n\n"))
    out.write_text(
        f'"""{wrapped}\n"""\n\n'
        f"HIDDEN_WEIGHTS = {floats(model.w1)}\n"
        f'"""Features x units, row by row."""\n'
        f"HIDDEN_BIASES = {floats(model.b1)}\n"
        f"OUT_WEIGHTS = {floats(model.w2)}\n"
        f'"""Units x outputs (four winner scores, then four winnings), row by row."""\n'
        f"OUT_BIASES = {floats(model.b2)}\n"
    )


def main() -> int:
    """Play, fit, measure, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=16000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=52)
    parser.add_argument("--hidden", type=int, default=48)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument(
        "--players",
        default="hard,hard-v1",
        help="comma-separated players, each seat of each round drawn from them",
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where the weights go")
    parser.add_argument(
        "--positions",
        type=Path,
        help="an .npz file keeping the played positions: read if it exists (the same rounds), "
        "written if not, so another fit skips the play",
    )
    parser.add_argument("--dry-run", action="store_true", help="measure, do not write")
    args = parser.parse_args()
    players = players_of(parser, args.players)
    check_kept(parser, "--positions", args.positions)
    started = time.perf_counter()
    played_with = f"{args.rounds} {args.seed} {','.join(p.value for p in players)}"
    source = "play"
    kept = read_kept(parser, "--positions", args.positions, played_with)
    if kept is not None:
        positions, outcomes = kept["positions"], kept["outcomes"]
        source = f"reading {args.positions}"
    else:
        positions, outcomes = _played(args.seed, args.rounds, players, args.processes)
        keep(args.positions, played_with, {"positions": positions, "outcomes": outcomes})
    played = time.perf_counter() - started
    x = features_of(positions)
    winner, points = labels_of(positions, outcomes)
    # Whole rounds held out: positions of one round are alike.
    held_out = (np.random.default_rng(args.seed).random(args.rounds) < 0.2)[positions[:, 0]]
    train, test = ~held_out, held_out
    model = fit(x[train], winner[train], points[train], args.hidden, args.epochs, args.seed)
    nats, squared = model.losses(x[test], winner[test], points[test])
    rates = np.bincount(winner[train], minlength=SEATS) / train.sum()
    base = float(-np.log(rates[winner[test]]).mean())
    base_error = float(((points[test] - points[train].mean()) ** 2).mean())
    lineup = ", ".join(p.value for p in players)
    figures = (
        f"{len(positions)} positions from {args.rounds} rounds of {lineup} (seed {args.seed}; "
        f"a fifth of the rounds held out), {args.hidden} hidden units, {args.epochs} epochs; "
        f"held out: the winner {nats:.3f} nats per position against {base:.3f} from the base "
        f"rates, the winner's points' squared error {squared:.3f} against {base_error:.3f} "
        f"(units of {VALUE_POINTS_UNIT:.0f} points)"
    )
    cost = f"{played:.0f} s of {source}, {time.perf_counter() - started - played:.0f} s of fitting"
    print(f"{figures}; {cost}", flush=True)
    if not args.dry_run:
        command = (
            f"`.venv/bin/python bench/fit_values.py --rounds {args.rounds} --seed {args.seed} "
            f"--hidden {args.hidden} --epochs {args.epochs} --players "
            f"{','.join(p.value for p in players)}`"
        )
        _write(
            model,
            "The weights of Gaple's learned value of a position (`values`), written by "
            f"bench/fit_values.py: do not edit.\n\n{command}: {figures}.",
            args.out,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
