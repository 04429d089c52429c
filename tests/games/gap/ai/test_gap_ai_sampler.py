"""The sampler deals the unseen cards only, into hands of the known sizes and a pile of the
known size, every way alike; and the fast round model plays by the rules."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from gaple_bot.games.gap.ai.greedy import greedy_move
from gaple_bot.games.gap.ai.sampler import Sampler, SamplerError
from gaple_bot.games.gap.ai.sim import State, greedy, pack, score
from gaple_bot.games.gap.rules import COLOUR, NONE, VALUE, Game, GapConfig, Move, score_collection
from gaple_bot.games.gap.rules.cards import LOWER, UPPER

from .gap_ai_positions import SEAT_COUNTS, positions


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_deals_respect_everything_known(seats: int) -> None:
    rng = random.Random(seats)
    for view, game in positions(GapConfig(seats), rng, 150):
        known = {*view.hand, *view.middle, *(c for cards in view.collections for c in cards)}
        assert set(view.unseen).isdisjoint(known)
        truth = game.round
        hidden = {*truth.pile, *(c for s, h in enumerate(truth.hands) if s != view.seat for c in h)}
        assert set(view.unseen) == hidden
        sampler = Sampler(view)
        for _ in range(5):
            hands, pile = sampler.sample(rng)
            assert hands[view.seat] == []
            assert [len(h) for s, h in enumerate(hands) if s != view.seat] == [
                n for s, n in enumerate(view.hand_counts) if s != view.seat
            ]
            assert len(pile) == view.pile_count
            dealt = [*pile, *(c for hand in hands for c in hand)]
            assert sorted(dealt) == list(view.unseen)
            assert known.isdisjoint(dealt)


def test_every_card_goes_everywhere_in_proportion() -> None:
    rng = random.Random(1)
    game = Game.new(GapConfig(4), rng)
    view = game.seat_view(0)
    sampler = Sampler(view)
    places: Counter[tuple[int, int]] = Counter()
    draws = 3000
    for _ in range(draws):
        hands, pile = sampler.sample(rng)
        for seat, hand in enumerate(hands):
            for card in hand:
                places[card, seat] += 1
        for card in pile[:1]:
            places[card, -1] += 1  # the next card drawn
    unseen = len(view.unseen)
    for card in view.unseen:
        for place in (1, 2, 3):
            expected = draws * view.hand_counts[place] / unseen
            assert abs(places[card, place] - expected) < 5 * expected**0.5
        expected = draws / unseen
        assert abs(places[card, -1] - expected) < 5 * expected**0.5


def test_a_deal_shuffles_as_random_shuffle_does_draw_for_draw() -> None:
    """The sampler's own shuffle keeps the standard library's sequence of draws, so a seed
    deals what it dealt before the shuffle was made cheaper (and the moves stay the same)."""
    game = Game.new(GapConfig(4), random.Random(2))
    view = game.seat_view(1)
    sampler = Sampler(view)
    for seed in range(50):
        ours, theirs = random.Random(seed), random.Random(seed)
        hands, pile = sampler.sample(ours)
        cards = list(view.unseen)
        theirs.shuffle(cards)
        assert [*(c for hand in hands for c in hand), *pile] == cards
        assert ours.random() == theirs.random()


def test_counts_that_do_not_add_up_are_refused() -> None:
    view = Game.new(GapConfig(3), random.Random(2)).seat_view(0)
    with pytest.raises(SamplerError):
        Sampler(replace(view, pile_count=view.pile_count + 1))
    with pytest.raises(SamplerError):
        Sampler(replace(view, hand_counts=(6, 5, 6)))


def _move(card: int, taken: list[int]) -> Move:
    """The rules' move for a play of the fast model."""
    value = VALUE[card]
    if any(VALUE[c] == value for c in taken):
        return Move(card)
    low = next((COLOUR[c] for c in taken if VALUE[c] == LOWER[value]), NONE)
    high = next((COLOUR[c] for c in taken if VALUE[c] == UPPER[value]), NONE)
    return Move(card, low, high)


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_the_fast_model_plays_and_scores_by_the_rules(seats: int) -> None:
    rng = random.Random(30 + seats)
    for _, game in positions(GapConfig(seats), rng, 60):
        current = game.round
        seat = current.to_move
        assert seat is not None
        keys = [pack(cards) for cards in current.collections]
        state = State(
            [list(h) for h in current.hands], list(current.middle), list(current.pile), keys, seat
        )
        # Step by step the rules accept every greedy play and agree on the state after it.
        while current.to_move is not None:
            assert state.seat == current.to_move
            mover = state.seat
            card, taken, points = greedy(state.hands[mover], state.middle, state.keys[mover])
            move = _move(card, taken)
            assert sorted(current.taken_by(move)) == sorted(taken)
            state.play(card, taken)
            game.apply(mover, move)
            assert points == score(state.keys[mover])
            assert sorted(state.middle) == sorted(current.middle)
            assert state.pile[state.drawn :] == current.pile
            for s in range(seats):
                assert score(state.keys[s]) == score_collection(current.collections[s])
        assert current.result is not None
        assert state.points() == list(current.result.points)


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_a_rollout_ends_the_round_as_the_rules_would(seats: int) -> None:
    rng = random.Random(50 + seats)
    for view, game in positions(GapConfig(seats), rng, 40):
        current = game.round
        keys = [pack(cards) for cards in current.collections]
        hands = [list(h) for h in current.hands]
        state = State(hands, list(current.middle), list(current.pile), keys, view.seat)
        state.rollout()
        assert state.left == 0 and all(not h for h in state.hands)
        # The same game played greedily through the rules scores the same.
        while current.to_move is not None:
            seat = current.to_move
            mine = game.seat_view(seat)
            card, taken, _ = greedy(
                list(mine.hand), list(mine.middle), pack(mine.collections[seat])
            )
            game.apply(seat, _move(card, taken))
        assert current.result is not None
        assert state.points() == list(current.result.points)
        assert greedy_move  # the easy level is the same greedy choice with random tie-breaks
