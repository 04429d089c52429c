"""The compiled core plays as the pure rules and `sim` do (issue 41): the same legal moves, the
same greedy play-outs move for move, legal random play-outs, the same scores and worths."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from gaple_bot.games.gap.ai import fastsim
from gaple_bot.games.gap.ai.fastsim import (
    DUMPS,
    GREEDY,
    HAND,
    MIXED,
    RANDOM,
    RECORD,
    ROOM,
    SCRATCH,
    judge,
)
from gaple_bot.games.gap.ai.montecarlo import Budget, value
from gaple_bot.games.gap.ai.sim import State, greedy, pack, score
from gaple_bot.games.gap.rules import (
    Game,
    GapConfig,
    Move,
    game_from_dict,
    game_to_dict,
    score_counts,
)

from .gap_ai_positions import SEAT_COUNTS, positions

NONE = np.full(3, -1, dtype=np.int64)
"""No forced first play."""
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _copy(game: Game) -> Game:
    """An independent copy of a game (positions() plays on after yielding its game)."""
    return game_from_dict(game_to_dict(game))


def _games(seats: int, count: int, seed: int) -> Iterator[Game]:
    """Copies of the games behind `count` random positions at this many seats."""
    rng = random.Random(seed)
    for _, game in positions(GapConfig(seats), rng, count):
        yield _copy(game)


def _arrays(
    game: Game,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, np.ndarray, int, np.ndarray]:
    """The round's state as the core holds it: hands, lengths, middle, its length, pile, its
    length, packed collections."""
    current = game.round
    seats = game.config.seats
    hands = np.zeros((seats, HAND), dtype=np.int64)
    lengths = np.zeros(seats, dtype=np.int64)
    for s, hand in enumerate(current.hands):
        hands[s, : len(hand)] = hand
        lengths[s] = len(hand)
    middle = np.zeros(ROOM, dtype=np.int64)
    middle[: len(current.middle)] = current.middle
    pile = np.zeros(ROOM, dtype=np.int64)
    pile[: len(current.pile)] = current.pile
    keys = np.array([pack(cards) for cards in current.collections], dtype=np.int64)
    return hands, lengths, middle, len(current.middle), pile, len(current.pile), keys


def _move(game: Game, card: int, taken: set[int]) -> Move:
    """The rules' legal move that plays `card` and takes `taken`."""
    current = game.round
    moves = [m for m in current.moves_of(card) if set(current.taken_by(m)) == taken]
    assert len(moves) == 1, (card, taken, current.moves_of(card))
    return moves[0]


def _play_out(
    game: Game, policy: int, seed: int, epsilon: float = 0.0
) -> tuple[np.ndarray, list[int]]:
    """The core's play-out from the game's round: its records and final packed collections."""
    hands, lengths, middle, mlen, pile, plen, keys = _arrays(game)
    left = int(lengths.sum())
    records = np.full((left, RECORD), -1, dtype=np.int64)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    seat = game.round.to_move
    assert seat is not None
    fastsim.playout(
        hands, lengths, seat, middle, mlen, pile, plen, 0, keys, policy, epsilon,
        np.uint64(seed), scratch, records, NONE, ROOM,
    )  # fmt: skip
    assert lengths.sum() == 0
    return records, [int(k) for k in keys]


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_the_same_legal_moves_as_the_rules(seats: int) -> None:
    out = np.empty((6 * 36, 3), dtype=np.int64)
    for game in _games(seats, 300, 400 + seats):
        current = game.round
        seat = current.to_move
        assert seat is not None
        hand = np.array(current.hands[seat], dtype=np.int64)
        middle = np.array(current.middle, dtype=np.int64)
        rows = fastsim.legal_plays(hand, len(hand), middle, len(middle), out)
        ours = sorted(tuple(int(x) for x in out[r]) for r in range(rows))
        theirs = sorted(
            (
                m.card,
                -1 if m.low_card is None else m.low_card,
                -1 if m.high_card is None else m.high_card,
            )
            for m in current.legal_moves()
        )
        assert ours == theirs


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_greedy_play_outs_are_sims_move_for_move_and_score_as_the_rules(seats: int) -> None:
    for game in _games(seats, 200, 500 + seats):
        current = game.round
        seat = current.to_move
        assert seat is not None
        records, keys = _play_out(game, GREEDY, 1)
        state = State(
            [list(h) for h in current.hands],
            list(current.middle),
            list(current.pile),
            [pack(cards) for cards in current.collections],
            seat,
        )
        for record in records:
            card, taken, _ = greedy(state.hands[state.seat], state.middle, state.keys[state.seat])
            assert (int(record[0]), sorted(int(c) for c in record[2 : 2 + record[1]])) == (
                card,
                sorted(taken),
            )
            state.play(card, taken)
            mover = current.to_move
            assert mover is not None
            game.apply(mover, _move(game, card, set(taken)))
        assert state.keys == keys
        assert current.result is not None
        assert list(current.result.points) == state.points() == [fastsim.score(k) for k in keys]


@pytest.mark.parametrize("policy", [RANDOM, MIXED, DUMPS])
@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_random_play_outs_move_legally_and_score_as_the_rules(seats: int, policy: int) -> None:
    for n, game in enumerate(_games(seats, 200, 600 + seats)):
        current = game.round
        records, keys = _play_out(game, policy, n, 0.5)
        for record in records:
            card, taken = int(record[0]), {int(c) for c in record[2 : 2 + record[1]]}
            mover = current.to_move
            assert mover is not None
            game.apply(mover, _move(game, card, taken))  # raises unless legal
        assert current.result is not None
        assert list(current.result.points) == [fastsim.score(k) for k in keys]


def test_the_score_table_is_g5() -> None:
    rng = random.Random(3)
    cases = [[rng.choice((0, 0, 1, 2, 3, 4, 5, 7, 10)) for _ in range(6)] for _ in range(20000)]
    cases += [[a, b, c, 0, 0, 0] for a in range(11) for b in range(11) for c in range(11)]
    cases += [[0, 0, 0, a, b, c] for a in range(11) for b in range(11) for c in range(11)]
    for counts in cases:
        key = sum(n << (4 * colour) for colour, n in enumerate(counts))
        assert fastsim.score(key) == score_counts(counts) == score(key)


def _splitmix(state: int) -> tuple[int, int]:
    """The core's generator in Python: (the next state, its 64 bits)."""
    state = (state + GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_judge_deals_as_the_sampler_and_values_as_montecarlo(seats: int) -> None:
    # One deal judged by the core with greedy play-outs, against the same deal (its shuffle
    # redone in Python) played out by `sim` and valued by `montecarlo.value`.
    budget = Budget(deals=1, margin=1.0, win=0.5, share=4.0)
    weights = np.array([budget.margin, budget.win, budget.share], dtype=np.float64)
    rng = random.Random(700 + seats)
    for view, _ in positions(GapConfig(seats), rng, 150):
        me = view.seat
        unseen = list(view.unseen)
        counts = [0 if s == me else n for s, n in enumerate(view.hand_counts)]
        plays = np.array(
            [
                (
                    m.card,
                    -1 if m.low_card is None else m.low_card,
                    -1 if m.high_card is None else m.high_card,
                )
                for m in view.legal
            ],
            dtype=np.int64,
        )
        seed = rng.getrandbits(64)
        totals = np.zeros(len(view.legal), dtype=np.float64)
        judge(
            np.array(view.hand, dtype=np.int64),
            np.array(view.middle, dtype=np.int64),
            np.array([pack(c) for c in view.collections], dtype=np.int64),
            np.array(unseen, dtype=np.int64),
            np.array(counts, dtype=np.int64),
            me, plays, 1, GREEDY, 0.0, weights, np.uint64(seed), totals,
        )  # fmt: skip
        state = seed
        cards = unseen[:]
        for i in range(len(cards) - 1, 0, -1):
            state, bits = _splitmix(state)
            j = ((bits >> 33) * (i + 1)) >> 31
            cards[i], cards[j] = cards[j], cards[i]
        hands: list[list[int]] = []
        at = 0
        for count in counts:
            hands.append(cards[at : at + count])
            at += count
        hands[me] = list(view.hand)
        for j, move in enumerate(view.legal):
            sim = State(
                [h[:] for h in hands],
                list(view.middle),
                cards[at:],
                [pack(c) for c in view.collections],
                me,
            )
            exact = [c for c in view.middle if c % 10 == move.card % 10]
            sim.play(move.card, exact or list(move.neighbours))
            sim.rollout()
            assert totals[j] == pytest.approx(value(sim.points(), me, budget))


def test_dumps_gives_the_middle_what_the_next_seat_gains_least_by() -> None:
    # Seat 0 holds G5 and B7, neither of which takes from a middle of R0; seat 1 holds Y5
    # (it would take G5) and P3. Greedy gives the first card, G5; DUMPS gives B7.
    hands = np.zeros((2, HAND), dtype=np.int64)
    hands[0, :2] = (15, 27)
    hands[1, :2] = (35, 43)
    firsts = {}
    for policy in (GREEDY, DUMPS):
        records = np.full((4, RECORD), -1, dtype=np.int64)
        middle = np.zeros(ROOM, dtype=np.int64)
        fastsim.playout(
            hands.copy(), np.array([2, 2], dtype=np.int64), 0, middle, 1,
            np.zeros(ROOM, dtype=np.int64), 0, 0, np.zeros(2, dtype=np.int64), policy, 0.0,
            np.uint64(1), np.empty(SCRATCH, dtype=np.int64), records, NONE, ROOM,
        )  # fmt: skip
        firsts[policy] = int(records[0, 0])
    assert firsts == {GREEDY: 15, DUMPS: 27}
