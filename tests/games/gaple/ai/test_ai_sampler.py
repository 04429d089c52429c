"""The hidden-tile sampler and the knowledge it draws from: always consistent, never failing."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaple_bot.games.gaple.ai.knowledge import PlaceKind, knowledge_of
from gaple_bot.games.gaple.ai.sampler import Sampler, SamplerError, bits_of
from gaple_bot.games.gaple.rules import Discarded, GameConfig, Passed, RuleSet
from gaple_bot.games.gaple.rules.tiles import FULL_SET, NUMBER_MASK, TILES

from .ai_positions import SETUPS, positions


def _check_draw(unseen: int, places: list[tuple[int, int]], masks: list[int]) -> None:
    """The masks are disjoint, cover `unseen`, fill every count and keep to `allowed`."""
    seen = 0
    for (count, allowed), mask in zip(places, masks, strict=True):
        assert mask.bit_count() == count
        assert mask & ~allowed == 0
        assert seen & mask == 0
        seen |= mask
    assert seen == unseen


@st.composite
def constrained_places(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    """A true assignment of some tiles to places, and allowed masks that contain it: often
    exactly (a forced place) or with a few extra tiles (tight), sometimes loose."""
    unseen = draw(st.integers(min_value=0, max_value=FULL_SET))
    tiles = bits_of(unseen)
    cuts = sorted(draw(st.lists(st.integers(0, len(tiles)), min_size=1, max_size=6)))
    shuffled = draw(st.permutations(tiles))
    places = []
    start = 0
    for cut in [*cuts, len(tiles)]:
        truth = sum(1 << t for t in shuffled[start:cut])
        start = cut
        slack = draw(st.sampled_from(["exact", "tight", "loose"]))
        if slack == "exact":
            extra = 0
        elif slack == "tight":
            picks = draw(st.lists(st.sampled_from(tiles), max_size=2)) if tiles else []
            extra = sum(1 << t for t in picks)
        else:
            extra = draw(st.integers(min_value=0, max_value=FULL_SET))
        places.append((truth.bit_count(), (truth | extra) & unseen))
    return unseen, places


@settings(max_examples=300, deadline=None)
@given(constrained_places(), st.integers(0, 2**32))
def test_sampler_draws_only_consistent_deals(
    case: tuple[int, list[tuple[int, int]]], seed: int
) -> None:
    unseen, places = case
    sampler = Sampler(unseen, places)
    rng = random.Random(seed)
    for _ in range(5):
        masks, weight = sampler.sample(rng)
        _check_draw(unseen, places, masks)
        assert weight > 0


@settings(max_examples=200, deadline=None)
@given(constrained_places(), st.integers(0, 2**32))
def test_matching_fallback_always_succeeds(
    case: tuple[int, list[tuple[int, int]]], seed: int
) -> None:
    unseen, places = case
    masks = Sampler(unseen, places)._matched(random.Random(seed))
    _check_draw(unseen, places, masks)


def test_tight_case_that_defeats_tightest_first_is_still_drawn() -> None:
    # Place 0 may take tiles 0-3, place 1 only 2-3, place 2 only 0-1 and 4; drawing place 1
    # first (tightest) is fine, but a greedy draw that starts elsewhere can strand a place.
    unseen = 0b11111
    places = [(2, 0b01111), (2, 0b01100), (1, 0b10011)]
    sampler = Sampler(unseen, places)
    rng = random.Random(3)
    for _ in range(200):
        masks, _ = sampler.sample(rng)
        _check_draw(unseen, places, masks)


def test_fallback_takes_over_when_the_fast_path_keeps_failing() -> None:
    # Found by search: tightest-first dead-ends on about 96% of fast draws here, so the
    # sampler soon switches to the matching, and the draws stay consistent.
    unseen = 0b11111111
    places = [(3, 0b11101001), (2, 0b11010010), (2, 0b00000110), (1, 0b00010000)]
    sampler = Sampler(unseen, places)
    rng = random.Random(0)
    for _ in range(300):
        masks, weight = sampler.sample(rng)
        _check_draw(unseen, places, masks)
        assert weight > 0
    assert sampler.uses_fallback


def test_impossible_constraints_raise() -> None:
    with pytest.raises(SamplerError):
        Sampler(0b111, [(2, 0b011), (2, 0b100)])
    with pytest.raises(SamplerError):
        Sampler(0b111, [(2, 0b001), (1, 0b111)])
    # Counts fit, but tiles 0 and 1 both belong to place 0 only, which holds one tile.
    with pytest.raises(SamplerError):
        Sampler(0b111, [(1, 0b011), (2, 0b100)]).sample(random.Random(0))


def test_weighted_draws_are_uniform_over_consistent_deals() -> None:
    # Two overlapping constrained places and a free one: enumerate every consistent deal and
    # compare with the importance-weighted frequencies of many draws.
    unseen = (1 << 7) - 1
    places = [(2, 0b0011111), (2, 0b1111100), (3, unseen)]
    deals = []
    for first in itertools.combinations(range(7), 2):
        for second in itertools.combinations([t for t in range(7) if t not in first], 2):
            a, b = sum(1 << t for t in first), sum(1 << t for t in second)
            if a & ~places[0][1] or b & ~places[1][1]:
                continue
            deals.append((a, b))
    sampler = Sampler(unseen, places)
    rng = random.Random(11)
    weights: Counter[tuple[int, int]] = Counter()
    total = 0.0
    for _ in range(60_000):
        masks, weight = sampler.sample(rng)
        weights[masks[0], masks[1]] += weight
        total += weight
    assert set(weights) == set(deals)
    expected = 1 / len(deals)
    for deal in deals:
        assert weights[deal] / total == pytest.approx(expected, rel=0.25)


@pytest.mark.parametrize("config", SETUPS, ids=str)
def test_knowledge_holds_for_the_real_deal_and_draws_fit_it(config: GameConfig) -> None:
    """The true hidden tiles satisfy every inferred constraint, and every draw respects the
    public record: counts, played tiles, and the numbers a seat passed or discarded on."""
    rng = random.Random(hash(str(config)) % 1000)
    for view, hands, discards, set_aside in positions(config, rng, 120):
        knowledge = knowledge_of(view)
        me = view.seat
        assert knowledge.unseen & (view.hand | view.own_discards | view.played) == 0
        sampler = Sampler(knowledge.unseen, [(p.count, p.allowed) for p in knowledge.places])
        truth = {}
        for place in knowledge.places:
            if place.kind is PlaceKind.HAND:
                assert place.count == hands[place.seat].bit_count()
                assert hands[place.seat] & ~place.allowed == 0
                truth[place] = hands[place.seat]
            elif place.kind is PlaceKind.SET_ASIDE:
                assert place.count == set_aside.bit_count()
        for seat in range(config.seats):
            if seat == me:
                continue
            groups = [
                p for p in knowledge.places if p.kind is PlaceKind.DISCARDS and p.seat == seat
            ]
            assert sum(p.count for p in groups) == discards[seat].bit_count()
            if groups:
                # The seat's real discards can be matched to its discard groups.
                fit = Sampler(discards[seat], [(p.count, p.allowed) for p in groups])
                fit._matched(random.Random(0))
        lacked = {s: 0 for s in range(config.seats)}
        for event in view.events:
            if isinstance(event, Passed | Discarded):
                for number in event.ends:
                    lacked[event.seat] |= NUMBER_MASK[number]
        for _ in range(10):
            masks, _ = sampler.sample(rng)
            _check_draw(knowledge.unseen, [(p.count, p.allowed) for p in knowledge.places], masks)
            for place, mask in zip(knowledge.places, masks, strict=True):
                if place.kind is PlaceKind.HAND:
                    assert mask & lacked[place.seat] == 0


def test_many_passes_make_tight_but_drawable_constraints() -> None:
    """After many passes a place may have no spare candidate at all (slack 0 or 1); those
    positions occur here and their draws still never fail."""
    rng = random.Random(5)
    config = GameConfig(RuleSet.CLASSIC, 4)
    tight = 0
    for view, *_ in positions(config, rng, 300):
        knowledge = knowledge_of(view)
        places = [(p.count, p.allowed) for p in knowledge.places]
        sampler = Sampler(knowledge.unseen, places)
        if min((allowed.bit_count() - count for count, allowed in places), default=9) <= 1:
            tight += 1
        for _ in range(5):
            masks, _ = sampler.sample(rng)
            _check_draw(knowledge.unseen, places, masks)
    assert tight > 10


def test_first_classic_lead_puts_higher_doubles_aside() -> None:
    """C4: when [5|5] leads a three-seat first round, nobody held [6|6]: it lies aside."""
    rng = random.Random(0)
    config = GameConfig(RuleSet.CLASSIC, 3)
    checked = 0
    for view, _, _, set_aside in positions(config, rng, 400):
        if view.round_number != 1 or view.ends is None:
            continue
        six_six = TILES.index((6, 6))
        if view.played >> six_six & 1 or view.hand >> six_six & 1:
            continue
        knowledge = knowledge_of(view)
        for place in knowledge.places:
            if place.kind is PlaceKind.HAND:
                assert not place.allowed >> six_six & 1
        assert set_aside >> six_six & 1
        checked += 1
    assert checked > 5
