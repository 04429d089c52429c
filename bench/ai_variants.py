"""Screen variants of Gaple's hard level against the reference player, paired on the same deals.

Each named variant (a `Budget`) plays in the first seat against copies of the reference player
(or of `--opponent`) on the same seeded single rounds as hard's own budget, in every seat
rotation; it prints each variant's share of rounds won with its 95% interval, its paired
difference from hard on the same deals (interval over deals), and its CPU ms per real decision
(median, p99).

    .venv/bin/python bench/ai_variants.py --rounds 800 --variants hard-v2,opponents

`hard-v2` is hard as issue 30 found it (the round's win worth nothing on top), `hard-v4` as
issue 41's fourth sitting left it (the tree search with the win worth 40), `hard-v5` as its
fifth left it (the learned model of play at power 0.5, the win worth 200). Most other names
are the budgets issues 30 and 41 screened (docs/COMPUTER_PLAYERS.md gives their figures).
`NAME@MODULE` plays NAME with the learned model of play's weights from that module of
gaple_bot.games.gaple.ai, as `bench/fit_choices.py --out` writes them:

    .venv/bin/python bench/fit_choices.py --players reference,hard-v1 \
        --out gaple_bot/games/gaple/ai/choice_weights_a.py
    .venv/bin/python bench/ai_variants.py --opponent hard-v1 --variants hard@choice_weights_a
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence

from gaple_bot.games.gaple.ai.arena import ArenaRun, mean_interval, percentile, play_arena, wilson
from gaple_bot.games.gaple.ai.choices import choice_model
from gaple_bot.games.gaple.ai.levels import BUDGETS, Level
from gaple_bot.games.gaple.ai.montecarlo import Budget
from gaple_bot.games.gaple.ai.players import HARD_V2, HARD_V3, HARD_V4, HARD_V5, Player
from gaple_bot.games.gaple.rules import GameConfig, RuleSet

HARD = HARD_V4
"""The budget the variants change: hard as issue 41's fourth sitting left it, so each name
keeps the budget its figures in docs/COMPUTER_PLAYERS.md were measured with; the sixth and
seventh sittings' `hard-*` names change hard-v5 (hard as they found it), and so do the eighth's
`hard-po10-choices*`; its other names change `EIGHTH`."""

EIGHTH = dataclasses.replace(HARD_V5, choices=1.0, modelled_passed_over=1.0)
"""Hard as issue 41's eighth sitting left it (deals weighed at four classic seats by the
learned model of play at power 1 and not by the passed-over tiles)."""


def _variants() -> dict[str, Budget]:
    """Every variant the script knows, by name."""
    with_ = dataclasses.replace
    return {
        "hard": BUDGETS[Level.HARD],
        "hard-v2": HARD_V2,
        "hard-v3": HARD_V3,
        "hard-v4": HARD_V4,
        "hard-v5": HARD_V5,
        "opponents": with_(HARD, opponents=1.0, passed_over=1.0),
        "opponents-po": with_(HARD, opponents=1.0),
        "opponents-tries4": with_(HARD, opponents=1.0, passed_over=1.0, tries=4),
        "opponents-half": with_(HARD, opponents=0.5, passed_over=1.0),
        "deals70": with_(HARD, deals=70, work=1400),
        "opponents-70": with_(HARD, opponents=1.0, passed_over=1.0, deals=70, work=1400),
        "modelled": with_(HARD, modelled=True),
        "opponents-modelled": with_(HARD, opponents=1.0, passed_over=1.0, modelled=True),
        "opponents-random": with_(HARD, opponents=1.0, passed_over=1.0, random_rollouts=True),
        **{f"win{w}": with_(HARD, win_worth=float(w)) for w in (10, 20, 40, 80, 1000)},
        **{f"keep{k}": with_(HARD, keep=k) for k in (0, 1, 2, 5, 8)},
        # Issue 41: the compiled core makes deals twenty times cheaper.
        **{
            f"work{w}k": with_(HARD, deals=50 * w, work=1000 * w, extra_deals=50 * w)
            for w in (4, 10, 20)
        },
        "work10k-noexact": with_(HARD, deals=500, work=10000, extra_deals=500, exact_tiles=0),
        "noexact": with_(HARD, exact_tiles=0),
        **{
            f"tree{n}-c{c}": with_(HARD, tree=n, explore=c / 10)
            for n in (1000, 3000, 5000, 10000)
            for c in (3, 5, 7, 10, 15, 20, 30, 50, 100)
        },
        "normal": BUDGETS[Level.NORMAL],
        "normal-d60": with_(BUDGETS[Level.NORMAL], deals=60),
        "normal-tree500": with_(BUDGETS[Level.NORMAL], tree=500, explore=3.0),
        "normal-tree800-keep": with_(
            BUDGETS[Level.NORMAL], tree=800, explore=3.0, keep=3, discards_keep=0
        ),
        "tree-mean": with_(HARD, tree=3000, explore=3.0, by_mean=True),
        "tree-mean-c10": with_(HARD, tree=3000, explore=10.0, by_mean=True),
        **{
            f"final-c{c}": with_(HARD, tree=3000, explore=c / 10, exact_tiles=0, by_mean=True)
            for c in (10, 20, 30, 50)
        },
        **{
            f"final-po{p}": with_(
                HARD, tree=3000, explore=3.0, exact_tiles=0, by_mean=True, passed_over=p / 10
            )
            for p in (3, 7)
        },
        **{
            f"final-win{w}": with_(
                HARD, tree=3000, explore=3.0, exact_tiles=0, by_mean=True, win_worth=float(w)
            )
            for w in (20, 80, 200, 1000)
        },
        **{
            f"paired-c{c}": with_(
                HARD, tree=3000, explore=c / 10, exact_tiles=0, by_mean=True, paired=True
            )
            for c in (10, 30)
        },
        "block": with_(HARD, tree=3000, explore=3.0, exact_tiles=0, by_mean=True, blocking=True),
        "block-paired": with_(
            HARD,
            tree=3000,
            explore=1.0,
            exact_tiles=0,
            by_mean=True,
            paired=True,
            blocking=True,
        ),
        "block-flat": with_(HARD, blocking=True),
        "selfkeep": with_(
            HARD, tree=3000, explore=3.0, exact_tiles=0, by_mean=True, self_keeping=True
        ),
        "aware": with_(HARD, tree=3000, explore=3.0, exact_tiles=0, by_mean=True, hand_aware=True),
        "aware-c1": with_(
            HARD, tree=3000, explore=1.0, exact_tiles=0, by_mean=True, hand_aware=True
        ),
        **{
            f"own{o}": with_(
                HARD, tree=3000, explore=3.0, exact_tiles=0, by_mean=True, own_explore=o / 10
            )
            for o in (3, 5, 10)
        },
        "selfkeep-flat": with_(HARD, exact_tiles=0, self_keeping=True),
        "final-k5": with_(HARD, tree=3000, explore=3.0, exact_tiles=0, by_mean=True, keep=5),
        "final-4k": with_(HARD, tree=4000, explore=3.0, exact_tiles=0, by_mean=True),
        "tree-k2": with_(HARD, tree=3000, explore=3.0, exact_tiles=0, keep=2),
        "tree-k5": with_(HARD, tree=3000, explore=3.0, exact_tiles=0, keep=5),
        "tree-win0": with_(HARD, tree=3000, explore=3.0, exact_tiles=0, win_worth=0.0),
        "tree2000": with_(HARD, tree=2000, explore=3.0, exact_tiles=0),
        "tree-noexact": with_(HARD, tree=3000, explore=3.0, exact_tiles=0),
        "tree-pool2k": with_(HARD, tree=3000, explore=3.0, tree_pool=2048),
        "tree-greedy": with_(HARD, tree=3000, explore=3.0, keep=0),
        "tree-even": with_(HARD, tree=3000, explore=3.0, passed_over=1.0),
        "tree-scale25": with_(HARD, tree=3000, explore=3.0, scale=25.0),
        # Issue 41, fourth sitting: the hidden hands are worth 13.7 points (bench/ai_ceiling.py).
        "tree-opp": with_(HARD, opponents=1.0, passed_over=1.0),
        "tree-opp-po": with_(HARD, opponents=1.0),
        **{f"choices{c}": with_(HARD, choices=c / 10, passed_over=1.0) for c in (5, 10)},
        **{f"choices{c}-po": with_(HARD, choices=c / 10) for c in (5, 10, 15, 20)},
        "choices10-po-pool1k": with_(HARD, choices=1.0, tree_pool=1024),
        # The round's win alone, with the exploration scaled to it (the value's unit).
        "win-only": with_(HARD, win_worth=1000.0, scale=1000.0),
        "win200-scaled": with_(HARD, win_worth=200.0, scale=200.0),
        # Issue 41, fifth sitting: the two best of the fourth together.
        **{
            f"choices{c}-win200": with_(HARD, choices=c / 10, win_worth=200.0, scale=200.0)
            for c in (5, 10)
        },
        "choices3-win200": with_(HARD, choices=0.3, win_worth=200.0, scale=200.0),
        **{
            f"choices5-win{w}": with_(HARD, choices=0.5, win_worth=float(w), scale=float(w))
            for w in (100, 400, 1000)
        },
        **{
            f"choices5-win200-{name}": with_(
                HARD, choices=0.5, win_worth=200.0, scale=200.0, **change
            )
            for name, change in (
                ("k1", {"keep": 1}),
                ("k5", {"keep": 5}),
                ("c20", {"explore": 2.0}),
                ("c50", {"explore": 5.0}),
                ("t5000", {"tree": 5000}),
            )
        },
        # The others' moves in the tree explored more widely (the reference plays loosely),
        # the seat's own later moves at hard's 3.0.
        **{f"others{o}": with_(HARD, explore=o / 10, own_explore=3.0) for o in (60, 100, 200)},
        # Issue 41, sixth sitting: hard-v5 with the others' moves (and the root's)
        # explored less widely, as tighter players than the reference (hard-v1) play.
        "hard-others20": with_(HARD_V5, explore=2.0, own_explore=3.0),
        # … and its tree's deals drawn from a larger pool, so the learned model's weights
        # leave more distinct deals to search.
        "hard-pool2k": with_(HARD_V5, tree_pool=2048),
        # Issue 41, seventh sitting: hard-v1 solves each deal exactly from 14 tiles in hand;
        # hard-v5 with flat exact judgement (hard-v3's) once this few tiles are in hand.
        **{f"hard-exact{t}": _exact_from(t) for t in (12, 14)},
        # … and its leaves valued partly or wholly by the learned value of the position
        # (bench/fit_values.py) rather than by their rollouts alone.
        **{f"hard-values{m}": with_(HARD_V5, values=m / 10) for m in (3, 5, 10)},
        # … and the others searched as playing for their margin (the win worth nothing more to
        # them, 50 points a unit of their reward), as hard-v1 and the reference do.
        "hard-others-margin50": with_(HARD_V5, others_win_worth=0.0, others_scale=50.0),
        # … and the others' plays not read as heaviest first (hard-v1 keeps numbers playable
        # rather than shed its heaviest tile), the learned model alone weighing them.
        "hard-po10": with_(HARD_V5, passed_over=1.0),
        # … with the learned model at full power: the plays' likelihood as it stands.
        "hard-po10-choices10": with_(HARD_V5, passed_over=1.0, choices=1.0),
        # … and the two best of these together: exact judgement from 14 tiles in hand and the
        # learned value at 0.3.
        "hard-exact14-values3": with_(_exact_from(14), values=0.3),
        # Issue 41, eighth sitting: hard-po10-choices10 (its hard) with the likelihood
        # sharpened past what the model says.
        **{
            f"hard-po10-choices{c}": with_(HARD_V5, passed_over=1.0, choices=c / 10)
            for c in (15, 20)
        },
        # … its hard with the others in the tree playing against the deciding seat.
        "hard-paranoid": with_(EIGHTH, paranoid=True),
        # … and with more thinking, within the 10 ms median: a larger pool of deals for the
        # model's sharper weights, or more iterations.
        "hard8-pool1k": with_(EIGHTH, tree_pool=1024),
        "hard8-tree4500": with_(EIGHTH, tree=4500),
        # The ninth sitting: the model at other powers, for models fitted with the features
        # that compare a play with the hand's others (`NAME@MODULE`).
        "hard8-choices7": with_(EIGHTH, choices=0.7),
        # … and rollouts that play some of their moves at random, keeping the rest.
        **{f"hard8-random{p}": with_(EIGHTH, random_share=p) for p in (10, 20)},
        # … and the others choosing in the tree knowing which fitting tiles they hold.
        "hard8-keyed": with_(EIGHTH, keyed_others=True),
        # … and the round's win worth more or less, as many points a unit of reward.
        **{f"hard8-win{w}": with_(EIGHTH, win_worth=float(w), scale=float(w)) for w in (100, 1000)},
    }


def _exact_from(tiles: int) -> Budget:
    """Hard-v5 judging every move flat on its deals, each solved exactly (hard-v3's
    budget for that), once at most `tiles` tiles are in hand."""
    return dataclasses.replace(
        HARD_V5,
        deals=50,
        per_move=True,
        exact_tiles=tiles,
        min_deals=8,
        extra_deals=50,
        prune=2.0,
        exact_nodes=6000,
        work=1000,
    )


def _paired(a: Sequence[int], b: Sequence[int], cluster: int) -> tuple[float, float, float]:
    """The mean of a - b with its 95% interval, the seat rotations of a deal taken together."""
    per_deal = [
        sum(x - y for x, y in zip(a[i : i + cluster], b[i : i + cluster], strict=True)) / cluster
        for i in range(0, len(a), cluster)
    ]
    return mean_interval(per_deal)


def _line(name: str, run: ArenaRun, base: ArenaRun | None, seats: int) -> str:
    """One variant's printed figures."""
    stats = run.stats[Player.HARD]
    wins = stats.round_wins
    low, high = wilson(sum(wins), len(wins))
    cpu = stats.decision_cpu_seconds
    text = (
        f"{name:24} {100 * sum(wins) / len(wins):5.1f}% of {len(wins)} "
        f"({100 * low:.1f}-{100 * high:.1f}); CPU ms {1000 * percentile(cpu, 0.5):.2f} / "
        f"{1000 * percentile(cpu, 0.99):.2f}"
    )
    if base is not None:
        mean, lo, hi = _paired(wins, base.stats[Player.HARD].round_wins, seats)
        text += f"; paired vs hard {100 * mean:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})"
    return text


def _budget(known: dict[str, Budget], name: str) -> Budget:
    """The variant `name` of `known`; `NAME@MODULE` is NAME with its learned model of play's
    weights read from the module MODULE of gaple_bot.games.gaple.ai (one written by
    bench/fit_choices.py --out). ValueError: that module is not there, or NAME does not use
    the model."""
    variant, _, weights = name.partition("@")
    budget = known[variant]
    if not weights:
        return budget
    if not budget.choices:
        raise ValueError(f"{variant} does not use the learned model of play")
    try:
        choice_model(weights)
    except ImportError as error:
        raise ValueError(f"{name}: {error}") from None
    return dataclasses.replace(budget, choice_weights=weights)


def main() -> int:
    """Play hard and each variant on the same deals; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    known = _variants()
    parser.add_argument("--rounds", type=int, default=800, help="rounds per variant")
    parser.add_argument("--seed", type=int, default=7, help="the deals' seed")
    parser.add_argument(
        "--seats", type=int, default=4, help="seats at the table (2 to 4; 4 or 5 with discards)"
    )
    parser.add_argument("--rules", choices=[r.value for r in RuleSet], default="classic")
    parser.add_argument(
        "--variants",
        default="hard-v2",
        help="comma-separated names, each paired with hard's own run (NAME@MODULE: with the "
        "learned model's weights from that module of gaple_bot.games.gaple.ai): "
        + ", ".join(known),
    )
    parser.add_argument("--no-base", action="store_true", help="skip hard's own run")
    parser.add_argument(
        "--opponent",
        default=Player.REFERENCE.value,
        choices=[p.value for p in Player],
        help="the player in every other seat (default: the reference player)",
    )
    args = parser.parse_args()
    config = GameConfig(RuleSet(args.rules), args.seats)
    lineup = [Player.HARD] + [Player(args.opponent)] * (args.seats - 1)
    names = [n.strip() for n in args.variants.split(",") if n.strip()]
    unknown = [n for n in names if n.partition("@")[0] not in known]
    if unknown:
        parser.error(f"--variants: unknown {', '.join(unknown)}")
    try:
        # All made before any play, so a mistyped module does not end a long run halfway.
        budgets = {name: _budget(known, name) for name in names}
    except ValueError as error:
        parser.error(f"--variants: {error}")
    print(
        f"{config.rule_set.value}, {args.seats} seats, seed {args.seed}, against "
        f"{args.opponent}; "
        f"load {os.getloadavg()[0]:.2f}",
        flush=True,
    )
    base = None
    if not args.no_base:
        base = play_arena(config, lineup, args.rounds, args.seed, {}, True)
        print(_line("hard", base, None, args.seats), flush=True)
    for name in names:
        run = play_arena(config, lineup, args.rounds, args.seed, {"hard": budgets[name]}, True)
        print(_line(name, run, base, args.seats) + f"; load {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
