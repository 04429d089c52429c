"""Determinised Monte Carlo: judge each legal move on deals drawn to fit what the seat knows."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..rules import Move, MoveKind, Played, SeatView
from ..rules.tiles import TILE_COUNT
from .choices import reweigh_by_choices
from .dealer import Dealer
from .exact import SearchTooLarge, Solver
from .fastcore import (
    BLOCKING,
    GREEDY,
    KEEPING,
    KEEPING_AT_RANDOM,
    RANDOM,
    SELF_KEEPING,
    Floats,
    Ints,
)
from .fastsearch import FastJudge, Valuation, core_moves
from .inference import PlayModel
from .ismcts import tree_visits
from .modelled import Policy, modelled_rollout
from .opponents import OpponentModel
from .playout import (
    BIT_OF,
    NUM,
    keeping_rollout,
    move_parts,
    random_rollout,
    rollout,
    rules_of,
    step,
    to_bits,
)
from .value import MatchValue
from .values import ValueModel, value_model


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a decision gets."""

    deals: int
    """Deals drawn; every legal move is judged on every deal drawn (common random numbers,
    so moves are compared on the same hidden hands)."""
    per_move: bool = False
    """Draw `deals` deals for each legal move rather than `deals` in all, so decisions with
    many choices (a free lead, a discard) get more deals."""
    exact_tiles: int = 0
    """Solve each deal exactly instead of rolling out once the hands hold at most this many."""
    time_cap: float | None = None
    """Seconds after which no further deal is drawn (None: no cap)."""
    min_deals: int = 1
    """Deals judged even past the time cap."""
    extra_deals: int = 0
    """Deals added, judging only the two best moves, when the paired comparison of those two
    cannot tell them apart (their difference is within one standard error)."""
    passed_over: float = 1.0
    """Deals are weighted by this factor for every tile an opponent holds in them that is
    heavier than a tile it played and fitted the line then (it would likely have played it);
    1.0 ignores how the opponents played."""
    keep: int = 0
    """Rollouts play `keeping_rollout` with this weight per tile kept playable (0: greedy)."""
    discards_keep: int | None = None
    """`keep` under the discard rules, where a stuck seat throws a tile rather than pass
    (None: `keep`; 0: greedy rollouts)."""
    random_rollouts: bool = False
    """Rollouts play uniformly random legal moves (`random_rollout`) instead; `keep` unused."""
    prune: float = 0.0
    """After 16, 32, 64 … deals, stop judging every move whose paired difference from the
    best move so far is more than `prune` standard errors below it, and stop drawing once one
    move is left (0: judge every move on every deal). Cuts cost where one move dominates."""
    play_model: float = 0.0
    """Deals are also weighted by how likely the other seats' plays were had they held the
    dealt hands, each picking a fitting tile with odds exp(`play_model` x its pips)
    (`PlayModel`; 0: not)."""
    exact_nodes: int = 0
    """Positions the exact searches of one decision may solve in all (0: no limit). A deal
    whose search would pass it is judged by rollouts, and so is every deal after it, so an
    early endgame costs a bounded amount whatever the hands."""
    opponents: float = 0.0
    """Deals are also weighted by the likelihood of the other seats' recorded plays under
    `OpponentModel` (a softmax over features of each fitting play, fitted to the reference
    player), raised to this power (0: not)."""
    modelled: bool = False
    """Rollouts play `modelled_rollout` (every seat the fitted model's best play) instead."""
    tries: int = 1
    """Deals drawn for each deal judged: one of them is kept with odds its weight, and it
    carries their mean weight (importance resampling), so rollouts go to likely deals."""
    win_worth: float = 0.0
    """Points of value the round's winner gets on top of its lead (`MatchValue`)."""
    work: int = 0
    """Moves judged (rollouts and exact searches, one per move per deal) after which no
    further deal is drawn, past `min_deals` (0: no limit). Unlike the time cap it depends on
    the seed alone."""

    @property
    def compiled(self) -> bool:
        """Whether the compiled core can judge this budget's deals (`fastsearch`): not with a
        model of the opponents' play, which it does not have."""
        return not (self.play_model or (self.opponents and not self.tree) or self.modelled)

    tree: int = 0
    """Iterations of information-set tree search (`ismcts`) instead of flat judgement, past
    exact search (0: flat)."""
    tree_pool: int = 512
    """Deals drawn for the tree search to pick from by weight."""
    explore: float = 0.7
    """The tree search's exploration constant (UCB, rewards divided by `scale`)."""
    scale: float = 50.0
    """Points of value that count as one unit of reward in the tree search."""
    tree_room: int = 60000
    """Nodes the tree search may make."""
    blocking: bool = False
    """Rollouts play `fastcore`'s blocking policy (keeping play that also counts the tiles the
    next seat could play, seen in the deal) instead of `keeping_rollout` (compiled only)."""
    self_keeping: bool = False
    """Rollouts play keeping for the deciding seat and at random for every other (compiled
    only): the reference players judge by random play."""
    random_share: int = 0
    """Percent of the rollouts' moves played at random rather than by keeping (compiled only;
    0: none; where the rollouts keep nothing, as hard's under the discard rules, unused)."""
    own_explore: float | None = None
    """The tree search's exploration of the deciding seat's own moves below the root (None:
    `explore`): it need not play its own later moves as loosely as it models the others'."""
    hand_aware: bool = False
    """In the tree search the other seats play by the keeping rule with the hands they hold in
    each deal rather than being searched."""
    keyed_others: bool = False
    """In the tree search each other seat's choice is a node per set of fitting tiles it holds
    in the deal, so it chooses knowing its own hand (its statistics split that many ways)."""
    paired: bool = False
    """The tree search plays each deal from every legal move in turn (common random numbers
    at the root, as the flat judgement has) rather than choosing the root's move by UCB."""
    by_mean: bool = False
    """The tree search's move is the one whose visits led to the best mean value, rather than
    the one visited most."""
    choices: float = 0.0
    """The tree search's deals are also weighted by the likelihood of the other seats' recorded
    plays under the learned model of play (`choices`), raised to this power (0: not); at four
    seats under the classic rules only, the play it was fitted to."""
    modelled_passed_over: float | None = None
    """`passed_over` where the learned model of play weighs the tree's deals (`choices`, at four
    classic seats), which reads the same plays without assuming the heaviest fitting tile goes
    first (None: `passed_over`)."""
    choice_weights: str = "choice_weights"
    """The module of this package holding that model's weights (bench/fit_choices.py)."""
    values: float = 0.0
    """The share (0 to 1) of a tree search leaf's value that comes from the learned value of
    the position (`values`) rather than from its rollout (0: rollouts alone); at four seats
    under the classic rules only, the play it was fitted to."""
    value_weights: str = "value_weights"
    """The module of this package holding the learned value's weights (bench/fit_values.py)."""
    others_win_worth: float | None = None
    """The round's win's worth to the other seats in the tree search (None: `win_worth`): the
    players it meets may play for their margin alone."""
    others_scale: float | None = None
    """Points of value that count as one unit of reward in the other seats' choices in the tree
    search (None: `scale`)."""

    paranoid: bool = False
    """The other seats in the tree search play against the deciding seat (their reward the
    negative of its value) rather than each for its own good."""

    def __post_init__(self) -> None:
        """ValueError: a share of the learned value outside 0 to 1, or of random rollout
        moves outside 0 to 100 percent."""
        if not 0.0 <= self.values <= 1.0:
            raise ValueError(f"values must be a share from 0 to 1, not {self.values}")
        if not 0 <= self.random_share <= 100:
            raise ValueError(f"random_share must be from 0 to 100 percent, not {self.random_share}")

    def deals_for(self, legal_moves: int) -> int:
        """The deals a decision among `legal_moves` moves draws."""
        return self.deals * legal_moves if self.per_move else self.deals


def _passed_over(view: SeatView) -> list[tuple[int, int]]:
    """(seat, mask) for every play by another seat: the tiles, in simulation bits, heavier than
    the one it played that would have fitted the line then."""
    out: list[tuple[int, int]] = []
    for event in view.events:
        if isinstance(event, Played) and event.ends is not None and event.seat != view.seat:
            bit = BIT_OF[event.tile]
            a, b = event.ends
            heavier = ((1 << TILE_COUNT) - 1) & ~((1 << (bit + 1)) - 1)
            out.append((event.seat, heavier & (NUM[a] | NUM[b])))
    return out


def _close(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether the mean paired difference of `a` and `b` is within one standard error of 0."""
    n = len(a)
    if n < 2:
        return True
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean * mean * n <= var


PRUNE_FIRST = 16
"""Deals judged before the first pruning check; later checks come each time the count doubles."""


def _survivors(active: Sequence[int], scored: Sequence[Sequence[float]], z: float) -> list[int]:
    """The moves of `active` whose paired difference from the best of them (by total) is not
    more than `z` standard errors below 0; the best first, the rest in their order."""
    best = max(active, key=lambda j: (sum(scored[j]), -j))
    n = len(scored[best])
    if n < 2:
        return list(active)
    keep = [best]
    for j in active:
        if j == best:
            continue
        diffs = [x - y for x, y in zip(scored[best], scored[j], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean <= 0 or mean * mean * n <= z * z * var:
            keep.append(j)
    return sorted(keep)


def monte_carlo_move(view: SeatView, rng: random.Random, budget: Budget) -> Move:
    """The legal move with the best weighted average value over the drawn deals.

    Each deal gives the other seats' hands and discards consistent with the public record; a
    move's value on a deal is what the match makes of the round's points (`MatchValue`) after
    greedy (or `keeping_rollout`) play to the end, or after perfect play by all when few tiles
    remain (`Solver`). Deals may be weighted by how the opponents played (`passed_over`), and a
    close call between the two best moves may get `extra_deals`. Ties go to the earlier legal
    move, so a decision depends on the seed alone unless the time cap cuts it short.
    """
    legal = view.legal
    if not legal:
        raise ValueError("the seat has no move to make")
    if len(legal) == 1:
        return legal[0]
    started = time.perf_counter()
    deadline = None if budget.time_cap is None else started + budget.time_cap
    me = view.seat
    rules = rules_of(view.config)
    value = MatchValue(view.scores, view.config.target, budget.win_worth)
    dealer = Dealer.of(view, rules.seats)
    left, right = view.ends if view.ends is not None else (-1, -1)
    moves = [move_parts(move) for move in legal]
    exact = left >= 0 and sum(view.hand_counts) <= budget.exact_tiles
    keep = keep_of(view, budget)
    if not exact and budget.compiled:
        return _compiled_move(view, rng, budget, dealer, keep, deadline)
    nodes_left = budget.exact_nodes
    judged_moves = 0
    totals = [0.0] * len(legal)
    # Per move, its weighted worth on each deal (for the paired comparison of the top two).
    scored: list[list[float]] = [[] for _ in legal]

    # This path never applies the learned model of play, so `passed_over` weighs every deal.
    passed = _passed_over(view) if budget.passed_over != 1.0 else []
    model = PlayModel.of(view, budget.play_model) if budget.play_model else None
    opponents = OpponentModel.of(view) if budget.opponents else None
    if opponents is not None and not opponents.evidence:
        opponents = None
    memo: dict[tuple[int, int, int], float] = {}

    def one_deal() -> tuple[list[int], list[int], float]:
        hands, discs, weight = dealer.deal(rng)
        if passed:
            skipped = sum((hands[seat] & mask).bit_count() for seat, mask in passed)
            weight *= budget.passed_over**skipped
        if model is not None:
            weight *= model.weight(hands)
        if opponents is not None:
            weight *= opponents.likelihood(hands, discs, memo) ** budget.opponents
        return hands, discs, weight

    def deal() -> tuple[list[int], list[int], float]:
        if budget.tries <= 1 or opponents is None:
            return one_deal()
        drawn = [one_deal() for _ in range(budget.tries)]
        total = sum(w for _, _, w in drawn)
        if total <= 0.0:
            return drawn[0]
        pick = rng.random() * total
        for hands, discs, weight in drawn:
            pick -= weight
            if pick < 0.0:
                return hands, discs, total / len(drawn)
        hands, discs, _ = drawn[-1]
        return hands, discs, total / len(drawn)

    def solved(hands: list[int], discs: list[int], judged: Sequence[int]) -> list[float] | None:
        # Each judged move's worth by exact search, or None once the node budget runs out.
        nonlocal exact, nodes_left
        if budget.exact_nodes and nodes_left <= 0:
            exact = False
            return None
        solver = Solver(rules, value, nodes_left)
        try:
            return [solver.after(hands, discs, left, right, me, *moves[j])[me] for j in judged]
        except SearchTooLarge:
            exact = False
            return None
        finally:
            nodes_left -= solver.nodes

    policy = Policy.of() if budget.modelled else None
    unplayed = to_bits(((1 << TILE_COUNT) - 1) & ~view.played) if policy is not None else 0

    def rolled(hands: list[int], discs: list[int], judged: Sequence[int]) -> list[float]:
        # Each judged move's worth after one rollout.
        worths: list[float] = []
        for j in judged:
            kind, bit, side = moves[j]
            h, d = list(hands), list(discs)
            nxt = step(rules, h, d, left, right, me, kind, bit, side)
            points = nxt.points
            if points is None and policy is not None:
                after = unplayed & ~(1 << bit) if kind is MoveKind.PLAY else unplayed
                points = modelled_rollout(rules, h, d, nxt.left, nxt.right, nxt.seat, after, policy)
            elif points is None and budget.random_rollouts:
                points = random_rollout(rules, h, d, nxt.left, nxt.right, nxt.seat, rng)
            elif points is None and keep:
                points = keeping_rollout(rules, h, d, nxt.left, nxt.right, nxt.seat, keep)
            elif points is None:
                points = rollout(rules, h, d, nxt.left, nxt.right, nxt.seat)
            worths.append(value.of(points)[me])
        return worths

    def judge(judged: Sequence[int]) -> None:
        nonlocal judged_moves
        hands, discs, weight = deal()
        worths = solved(hands, discs, judged) if exact else None
        if worths is None:
            worths = rolled(hands, discs, judged)
        judged_moves += len(judged)
        for j, worth in zip(judged, worths, strict=True):
            totals[j] += weight * worth
            scored[j].append(weight * worth)

    def spent() -> bool:
        # Whether the work budget or the time cap says no further deal.
        if 0 < budget.work <= judged_moves:
            return True
        return deadline is not None and time.perf_counter() > deadline

    everyone = range(len(legal))
    active: Sequence[int] = everyone
    check = PRUNE_FIRST
    for drawn in range(budget.deals_for(len(legal))):
        judge(active)
        if drawn + 1 >= budget.min_deals and spent():
            return legal[max(active, key=totals.__getitem__)]
        if budget.prune and drawn + 1 == check:
            check *= 2
            active = _survivors(active, scored, budget.prune)
            if len(active) == 1:
                return legal[active[0]]
    if budget.extra_deals and len(active) > 1:
        first, second = sorted(active, key=lambda j: (-totals[j], j))[:2]
        if _close(scored[first], scored[second]):
            pair = sorted((first, second))
            for _ in range(budget.extra_deals):
                judge(pair)
                if spent():
                    break
            return legal[max(pair, key=totals.__getitem__)]
    best = max(active, key=totals.__getitem__)
    return legal[best]


def keep_of(view: SeatView, budget: Budget) -> int:
    """The keeping weight of the budget's rollouts under the view's rules."""
    classic = rules_of(view.config).classic
    return budget.keep if classic or budget.discards_keep is None else budget.discards_keep


def fast_judge(
    view: SeatView, rng: random.Random, budget: Budget, dealer: Dealer, keep: int
) -> FastJudge:
    """The compiled judge of the seat to move in `view` under `budget`: its legal moves, its
    rollout policy, the match's valuation and the deals' weights by the opponents' plays; its
    generator seeded from `rng`."""
    if budget.random_rollouts:
        policy = RANDOM
    elif budget.blocking and keep:
        policy = BLOCKING
    elif budget.self_keeping and keep:
        policy = SELF_KEEPING
    elif budget.random_share and keep:
        policy = KEEPING_AT_RANDOM + budget.random_share
    else:
        policy = KEEPING if keep else GREEDY
    passed_over = _passed_over_factor(view, budget)
    return FastJudge(
        rules_of(view.config),
        dealer,
        view.ends if view.ends is not None else (-1, -1),
        view.seat,
        core_moves(view.legal),
        policy,
        keep,
        Valuation(True, view.scores, view.config.target, budget.win_worth),
        rng,
        _passed_over(view) if passed_over != 1.0 else (),
        passed_over,
    )


def _fitted_table(view: SeatView) -> bool:
    """Whether the table is the one the learned models were fitted to (four classic seats)."""
    return rules_of(view.config).classic and view.config.seats == 4


def _choices_apply(view: SeatView, budget: Budget) -> bool:
    """Whether the learned model of play weighs the tree's deals: the budget asks for it and
    the table is the one it was fitted to."""
    return bool(budget.choices) and _fitted_table(view)


def _passed_over_factor(view: SeatView, budget: Budget) -> float:
    """The factor weighing a compiled judge's deal per tile a seat passed over, at this table
    (`passed_over`, or `modelled_passed_over` where the learned model of play weighs the tree's
    deals)."""
    if budget.modelled_passed_over is not None and budget.tree and _choices_apply(view, budget):
        return budget.modelled_passed_over
    return budget.passed_over


def _reweigh(view: SeatView, budget: Budget) -> Callable[[Ints, Ints, Floats], Floats] | None:
    """How the tree's pool weights are weighed again by the other seats' recorded plays: by the
    learned model (`Budget.choices`) or `OpponentModel` (`Budget.opponents`); None: not."""
    if _choices_apply(view, budget):
        return reweigh_by_choices(view, budget.choices, budget.choice_weights)
    if budget.opponents:
        return _opponents_reweigh(view, budget.opponents)
    return None


def _learned_value(view: SeatView, budget: Budget) -> tuple[ValueModel | None, float]:
    """The learned value and its share of the tree's leaf values, where the budget uses it and
    the table is the one it was fitted to (four classic seats); else (None, 0)."""
    if budget.values and _fitted_table(view):
        return value_model(budget.value_weights), budget.values
    return None, 0.0


def _opponents_reweigh(
    view: SeatView, power: float
) -> Callable[[Ints, Ints, Floats], Floats] | None:
    """The tree's pool weights times the likelihood of the other seats' recorded plays under
    `OpponentModel`, raised to `power` (None when no play tells anything)."""
    model = OpponentModel.of(view)
    if not model.evidence:
        return None
    memo: dict[tuple[int, int, int], float] = {}

    def reweigh(hands: Ints, discs: Ints, weights: Floats) -> Floats:
        likelihood = [
            model.likelihood(h, d, memo) ** power
            for h, d in zip(hands.tolist(), discs.tolist(), strict=True)
        ]
        return weights * np.array(likelihood, dtype=np.float64)

    return reweigh


def _compiled_move(
    view: SeatView,
    rng: random.Random,
    budget: Budget,
    dealer: Dealer,
    keep: int,
    deadline: float | None,
) -> Move:
    """`monte_carlo_move`'s judgement by rollouts on the compiled core, in batches of deals
    between its checks (pruning, the work bound, the time cap): the same decision rules, the
    deals and rollouts drawn from the core's own generator, seeded from `rng`."""
    legal = view.legal
    moves = core_moves(legal)
    judge = fast_judge(view, rng, budget, dealer, keep)
    if budget.tree:
        visits, rewards = tree_visits(
            judge,
            moves,
            budget.tree,
            budget.tree_pool,
            budget.explore,
            budget.scale,
            budget.tree_room,
            deadline,
            budget.paired,
            budget.hand_aware,
            budget.own_explore,
            _reweigh(view, budget),
            *_learned_value(view, budget),
            budget.others_win_worth,
            budget.others_scale,
            budget.paranoid,
            budget.keyed_others,
        )
        if budget.by_mean:
            return legal[max(range(len(legal)), key=lambda j: (rewards[j] / max(1, visits[j]), -j))]
        return legal[max(range(len(legal)), key=lambda j: (visits[j], -j))]
    totals = [0.0] * len(legal)
    scored: list[list[float]] = [[] for _ in legal]
    judged_moves = 0

    def run(judged: Sequence[int], deals: int) -> None:
        nonlocal judged_moves
        worth, weights = judge.judge(judged, deals)
        weighted = worth * weights[:, None]
        for j in judged:
            totals[j] += float(weighted[:, j].sum())
            scored[j].extend(weighted[:, j].tolist())
        judged_moves += len(judged) * deals

    def batch(judged: int, deals_left: int) -> int:
        # Deals up to the work bound (the last batch may pass it by less than one deal, as a
        # deal judges every move still in the running).
        if budget.work:
            return max(1, min(deals_left, -(-(budget.work - judged_moves) // judged)))
        return deals_left

    def spent() -> bool:
        if 0 < budget.work <= judged_moves:
            return True
        return deadline is not None and time.perf_counter() > deadline

    active: Sequence[int] = range(len(legal))
    check = PRUNE_FIRST
    total = budget.deals_for(len(legal))
    drawn = 0
    while drawn < total:
        until = min(total, check) if budget.prune else total
        if drawn < budget.min_deals:
            until = min(until, budget.min_deals)
        deals = batch(len(active), until - drawn)
        run(active, deals)
        drawn += deals
        if drawn >= budget.min_deals and spent():
            return legal[max(active, key=totals.__getitem__)]
        if budget.prune and drawn == check:
            check *= 2
            active = _survivors(active, scored, budget.prune)
            if len(active) == 1:
                return legal[active[0]]
    if budget.extra_deals and len(active) > 1:
        first, second = sorted(active, key=lambda j: (-totals[j], j))[:2]
        if _close(scored[first], scored[second]):
            pair = sorted((first, second))
            extra = 0
            while extra < budget.extra_deals and not (extra and spent()):
                deals = batch(2, budget.extra_deals - extra)
                run(pair, deals)
                extra += deals
            return legal[max(pair, key=totals.__getitem__)]
    return legal[max(active, key=totals.__getitem__)]
