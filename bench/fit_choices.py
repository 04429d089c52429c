"""Fit Gaple's model of a player's plays (`choice_weights`) from self-play (the reference's).

Four reference players play single classic rounds (seeded; `--players` seats others, each seat
of each round drawn from the list). At each of their plays with a choice, the seat's player is
asked `--samples` times (each with its own random numbers) what it would play, which gives how
often it picks each fitting play: the soft label. Each play is described by
`fastcore.choice_features` (the first `--features` of them), seen exactly as hard later sees
another seat's recorded play (`choices.evidence_of`). A layer of `--hidden` tanh units plus a
linear part is fitted by maximum likelihood of the soft labels (a softmax over each choice's plays,
full-batch Adam, L2 1e-4) on 80% of the choices (`--split round`: of the rounds); the other
20% measure it, in nats per choice against uniform choice, the earlier linear model
(`opponents.PLAY_WEIGHTS`), the shipped model and the labels' own entropy (the floor no model
of this player goes below). It writes the weights as `gaple_bot/games/gaple/ai/choice_weights.py`
(or `--out`); `--choices` keeps the played positions and answers, so another fit (with other
features too) skips the play.

    .venv/bin/python bench/fit_choices.py --rounds 6000 --processes 2

Everything is seeded: the same arguments give the same weights on the same machine and numpy
(with a player whose thinking has a time cap, hard-v1 to hard, only at the same load).
"""

from __future__ import annotations

import argparse
import collections
import math
import random
import sys
import textwrap
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from gaple_bot.games.gaple.ai.choices import choice_model, evidence_of
from gaple_bot.games.gaple.ai.fastcore import (
    BASE_CHOICE_FEATURES,
    CHOICE_FEATURES,
    choice_options,
)
from gaple_bot.games.gaple.ai.opponents import PLAY_WEIGHTS, play_features
from gaple_bot.games.gaple.ai.players import Player, play
from gaple_bot.games.gaple.ai.playout import move_parts, to_bits
from gaple_bot.games.gaple.rules import Game, GameConfig, Move, RuleSet, SeatView, Side, deal_round
from gaple_bot.games.gaple.rules.tiles import TILE_COUNT

ROOT = Path(__file__).resolve().parents[1]
# A sibling script's module, imported as bench's (as bench/load.py does), from the checkout.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fit_inputs import check_kept, keep, players_of, read_kept  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "gaple_bot/games/gaple/ai/choice_weights.py"
Choice = tuple[int, list[int], list[list[float]], list[float]]
"""One choice: its round, the position (`POSITION`), each play's features under the earlier
linear model, and how often the seat's player picked it."""
POSITION = ("hand", "line", "left", "right", "voids", "fewest")
"""What `fastcore.choice_options` reads of a choice: kept rather than its features, so a fit
with other features reads the same kept plays."""


def _choices(
    seed: int, first: int, rounds: int, samples: int, players: Sequence[Player]
) -> list[Choice]:
    """The choices of `rounds` self-play rounds from round `first` on, each seat's player drawn
    from `players` anew each round."""
    config = GameConfig(RuleSet.CLASSIC, 4)
    out: list[Choice] = []
    features = np.empty((2 * TILE_COUNT, CHOICE_FEATURES), dtype=np.float64)
    plays = np.empty((2 * TILE_COUNT, 2), dtype=np.int64)
    for number in range(first, first + rounds):
        game = Game(config, deal_round(config, random.Random(seed * 1_000_003 + number), None))
        rng = random.Random(f"choices:{seed}:{number}")
        # One player alone keeps the random numbers the shipped weights were fitted with.
        seated = [players[0]] * 4 if len(players) == 1 else rng.choices(players, k=4)
        current = game.round
        while current.to_move is not None:
            seat = current.to_move
            view = game.seat_view(seat)
            if len(view.legal) == 1 or view.ends is None:
                move = view.legal[0] if len(view.legal) == 1 else _ask(seated[seat], view, rng)
                game.apply(seat, move)
                continue
            picked = collections.Counter(_ask(seated[seat], view, rng) for _ in range(samples))
            move = rng.choices(view.legal, weights=[picked[m] for m in view.legal])[0]
            hand = to_bits(view.hand)
            game.apply(seat, move)
            # The play as the next seat sees it: the same row hard reads from the record.
            row = evidence_of(game.seat_view((seat + 1) % 4))[-1]
            line, left_end, right_end, voids, fewest = (int(row[k]) for k in (3, 4, 5, 8, 9))
            count = choice_options(hand, line, left_end, right_end, voids, fewest, features, plays)
            picked_by = {_play_of(m): picked[m] for m in view.legal}
            played = to_bits(view.played)
            assert view.ends is not None
            linear = [
                play_features(hand, played, view.ends, bit, Side.LEFT if left else Side.RIGHT)
                for bit, left in plays[:count].tolist()
            ]
            labels = [picked_by[(bit, left)] / samples for bit, left in plays[:count].tolist()]
            position = [hand, line, left_end, right_end, voids, fewest]
            out.append((number, position, linear, labels))
    return out


def _play_of(move: Move) -> tuple[int, int]:
    """A play as (bit, 1 if at the left end)."""
    _, bit, side = move_parts(move)
    return bit, int(side is Side.LEFT)


def _ask(player: Player, view: SeatView, rng: random.Random) -> Move:
    """`player`'s move, with its own random numbers."""
    return play(player, view, rng.getrandbits(64))


class Model:
    """A layer of tanh units over standardised features plus a linear part: one score a play."""

    def __init__(self, mean: np.ndarray, spread: np.ndarray, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        n = len(mean)
        self.mean, self.spread = mean, spread
        self.params = [
            rng.normal(0.0, 1.0 / math.sqrt(n), (n, hidden)),
            np.zeros(hidden),
            rng.normal(0.0, 0.1 / math.sqrt(max(1, hidden)), hidden),
            np.zeros(n),
        ]

    def scores(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row's score, and the hidden units' values."""
        hidden, bias, outer, direct = self.params
        units = np.tanh(x @ hidden + bias)
        return units @ outer + x @ direct, units


def _cross_entropy(
    scores: np.ndarray, group: np.ndarray, labels: np.ndarray, groups: int
) -> tuple[float, np.ndarray]:
    """Nats per choice of the soft labels under a softmax of `scores` within each group, and
    each row's probability."""
    top = np.full(groups, -np.inf)
    np.maximum.at(top, group, scores)
    odds = np.exp(scores - top[group])
    norm = np.zeros(groups)
    np.add.at(norm, group, odds)
    p = odds / norm[group]
    return float(-(labels * np.log(p)).sum() / groups), p


def fit(
    x: np.ndarray, group: np.ndarray, labels: np.ndarray, hidden: int, steps: int, seed: int
) -> Model:
    """The model fitted to the choices (rows `x` in choice `group`, soft `labels`)."""
    groups = int(group.max()) + 1
    mean, spread = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / spread
    model = Model(mean, spread, hidden, seed)
    first = [np.zeros_like(p) for p in model.params]
    second = [np.zeros_like(p) for p in model.params]
    label_sum = np.zeros(groups)
    np.add.at(label_sum, group, labels)
    for t in range(1, steps + 1):
        scores, units = model.scores(z)
        _, p = _cross_entropy(scores, group, labels, groups)
        d_scores = (p * label_sum[group] - labels) / groups
        outer = model.params[2]
        d_units = np.outer(d_scores, outer) * (1.0 - units * units)
        grads = [z.T @ d_units, d_units.sum(axis=0), units.T @ d_scores, z.T @ d_scores]
        for k, (param, grad) in enumerate(zip(model.params, grads, strict=True)):
            if k != 1:
                grad = grad + L2 * param
            first[k] = 0.9 * first[k] + 0.1 * grad
            second[k] = 0.999 * second[k] + 0.001 * grad * grad
            step = (first[k] / (1 - 0.9**t)) / (np.sqrt(second[k] / (1 - 0.999**t)) + 1e-8)
            param -= LEARNING_RATE * step
    return model


def _shipped() -> Model:
    """The model hard plays with today (`choice_weights`), to measure on the same choices."""
    shipped = choice_model("choice_weights")
    model = Model(shipped.mean, shipped.spread, len(shipped.bias), 0)
    model.params = [shipped.hidden, shipped.bias, shipped.outer, shipped.direct]
    return model


L2 = 1e-4
LEARNING_RATE = 0.01


def _arrays(choices: list[Choice]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The choices as arrays: positions, linear features and labels as rows (one a play),
    each row's choice index."""
    positions = [position for _, position, _, _ in choices]
    linear = [row for _, _, rows, _ in choices for row in rows]
    group = [i for i, (_, _, rows, _) in enumerate(choices) for _ in rows]
    labels = [p for _, _, _, ps in choices for p in ps]
    return np.array(positions), np.array(linear), np.array(group), np.array(labels)


def _features(positions: np.ndarray) -> np.ndarray:
    """Every play of every choice, as `fastcore.choice_features` describes it (rows in the
    order of the kept labels)."""
    features = np.empty((2 * TILE_COUNT, CHOICE_FEATURES), dtype=np.float64)
    plays = np.empty((2 * TILE_COUNT, 2), dtype=np.int64)
    rows: list[np.ndarray] = []
    for hand, line, left, right, voids, fewest in positions.tolist():
        count = choice_options(hand, line, left, right, voids, fewest, features, plays)
        rows.append(features[:count].copy())
    return np.concatenate(rows)


def _renumbered(group: np.ndarray) -> np.ndarray:
    """Choice indices made consecutive from 0."""
    _, out = np.unique(group, return_inverse=True)
    return out


def _write(model: Model, header: str, out: Path) -> None:
    """The weights as a Python module."""

    def floats(values: np.ndarray) -> str:
        return "(\n" + "".join(f"    {float(v)!r},\n" for v in values.ravel()) + ")"

    hidden, bias, outer, direct = model.params
    wrapped = "\n\n".join(textwrap.fill(part, 96) for part in header.split("\n\n"))
    out.write_text(
        f'"""{wrapped}\n"""\n\n'
        f"MEAN = {floats(model.mean)}\n"
        f"SPREAD = {floats(model.spread)}\n"
        f"HIDDEN = {floats(hidden)}\n"
        f'"""Features x units, row by row."""\n'
        f"BIAS = {floats(bias)}\n"
        f"OUTER = {floats(outer)}\n"
        f"DIRECT = {floats(direct)}\n"
    )


def _played(
    seed: int, rounds: int, samples: int, players: Sequence[Player], processes: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The choices of the self-play rounds as rows (`_arrays`), and each choice's round."""
    share = -(-rounds // processes)
    with ProcessPoolExecutor(processes) as pool:
        parts = pool.map(
            _choices,
            [seed] * processes,
            [k * share for k in range(processes)],
            [min(share, rounds - k * share) for k in range(processes)],
            [samples] * processes,
            [players] * processes,
        )
        choices = [choice for part in parts for choice in part]
    return (*_arrays(choices), np.array([number for number, _, _, _ in choices]))


def main() -> int:
    """Play, fit, measure, write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6000)
    parser.add_argument("--samples", type=int, default=16, help="answers per choice")
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=41)
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument(
        "--features",
        type=int,
        default=BASE_CHOICE_FEATURES,
        help=f"the model reads the first this many of the {CHOICE_FEATURES} features (default: "
        f"the {BASE_CHOICE_FEATURES} the shipped weights were fitted with)",
    )
    parser.add_argument(
        "--players",
        default=Player.REFERENCE.value,
        help="comma-separated players, each seat of each round drawn from them (default: the "
        "reference player alone)",
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where the weights go")
    parser.add_argument(
        "--choices",
        type=Path,
        help="an .npz file keeping the played positions and answers: read if it exists (the "
        "same rounds), written if not, so another fit (other features too) skips the play (the "
        "same plays for players with no time cap)",
    )
    parser.add_argument(
        "--split",
        choices=("choice", "round"),
        default="choice",
        help="hold out a fifth of the choices one by one (as the shipped weights were fitted) "
        "or of whole rounds (a fairer held-out figure: no round on both sides)",
    )
    parser.add_argument("--dry-run", action="store_true", help="measure, do not write")
    args = parser.parse_args()
    players = players_of(parser, args.players)
    check_kept(parser, "--choices", args.choices)
    if not 0 < args.features <= CHOICE_FEATURES:
        parser.error(f"--features: from 1 to {CHOICE_FEATURES}")
    started = time.perf_counter()
    played_with = f"{args.rounds} {args.samples} {args.seed} {','.join(p.value for p in players)}"
    source = "play"
    keys = ("positions", "linear", "group", "labels", "rounds_of")
    kept = read_kept(parser, "--choices", args.choices, played_with)
    if kept is not None and "positions" not in kept:
        parser.error(f"--choices: {args.choices} keeps features, not positions: play again")
    if kept is not None:
        positions, linear, group, labels, rounds_of = (kept[k] for k in keys)
        source = f"reading {args.choices}"
    else:
        positions, linear, group, labels, rounds_of = _played(
            args.seed, args.rounds, args.samples, players, args.processes
        )
        played_arrays = (positions, linear, group, labels, rounds_of)
        keep(args.choices, played_with, dict(zip(keys, played_arrays, strict=True)))
    every = _features(positions)
    x = every[:, : args.features]
    played = time.perf_counter() - started
    if args.split == "round":
        # No round's choices fall on both sides, which would flatter the held-out figure.
        held_out = (np.random.default_rng(args.seed).random(args.rounds) < 0.2)[rounds_of]
    else:
        held_out = np.random.default_rng(args.seed).random(len(rounds_of)) < 0.2
    train, test = ~held_out[group], held_out[group]
    model = fit(x[train], _renumbered(group[train]), labels[train], args.hidden, args.steps, 0)
    tests = int(held_out.sum())
    g, y = _renumbered(group[test]), labels[test]
    scores, _ = model.scores((x[test] - model.mean) / model.spread)
    learned, _ = _cross_entropy(scores, g, y, tests)
    uniform, _ = _cross_entropy(np.zeros(len(y)), g, y, tests)
    earlier, _ = _cross_entropy(linear[test] @ np.array(PLAY_WEIGHTS), g, y, tests)
    today = _shipped()
    known = every[test][:, : len(today.mean)]
    shipped, _ = _cross_entropy(today.scores((known - today.mean) / today.spread)[0], g, y, tests)
    floor = float(-(y[y > 0] * np.log(y[y > 0])).sum() / tests)
    lineup = ", ".join(p.value for p in players)
    figures = (
        f"{len(rounds_of)} choices from {args.rounds} rounds of {lineup} ({args.samples} answers "
        f"each, seed {args.seed}; a fifth of the {args.split}s held out), {args.features} "
        f"features, {args.hidden} hidden units, {args.steps} steps; held-out nats per choice: "
        f"uniform {uniform:.3f}, earlier linear model {earlier:.3f}, the shipped model "
        f"{shipped:.3f}, this model "
        f"{learned:.3f}, the labels' entropy {floor:.3f}; {played:.0f} s of {source}, "
        f"{time.perf_counter() - started - played:.0f} s of fitting"
    )
    print(figures, flush=True)
    if not args.dry_run:
        _write(
            model,
            "The weights of Gaple's model of a player's plays (`choices`), written by "
            "bench/fit_choices.py: do not edit.\n\n"
            f"`.venv/bin/python bench/fit_choices.py --rounds {args.rounds} --samples "
            f"{args.samples} --seed {args.seed} --features {args.features} --hidden {args.hidden} "
            f"--steps {args.steps} "
            f"--players {','.join(p.value for p in players)} --split {args.split}`: "
            + figures
            + ".",
            args.out,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
