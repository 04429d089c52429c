"""Invariants over random games of Gap for every seat count, checked after every move."""

from __future__ import annotations

import dataclasses
import json
import pickle
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaple_bot.games.gap.rules import (
    ALL_MOVES,
    NONE,
    Deal,
    Game,
    GapConfig,
    GapError,
    IllegalMoveError,
    Move,
    NotYourTurnError,
    Played,
    Refilled,
    Round,
    RoundEnded,
    RoundOverError,
    RoundResult,
    SeatView,
    game_from_json,
    game_to_json,
    move,
    replay,
)

SEATS = (2, 3, 4, 5, 6)
# Small targets end games after a round or two, so G6's game ends are exercised too.
TARGETS = st.sampled_from((1, 10, 30))
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
MAX_ROUNDS = 3
# Five seat counts each: 200 random games per property.
EXAMPLES = settings(max_examples=40, deadline=None)

VIEW_FIELDS = {
    "config",
    "seat",
    "round_number",
    "first",
    "hand",
    "middle",
    "collections",
    "played",
    "hand_counts",
    "pile_count",
    "events",
    "scores",
    "past_points",
    "to_move",
    "legal",
}


def random_game(seats: int, target: int, seed: int) -> Iterator[Game]:
    """Deal and play random legal moves for up to MAX_ROUNDS rounds; yield after every change."""
    rng = random.Random(seed)
    game = Game.new(GapConfig(seats, target), rng)
    yield game
    for round_number in range(1, MAX_ROUNDS + 1):
        while game.to_move is not None:
            game.apply(game.to_move, rng.choice(game.legal_moves()))
            yield game
        if game.is_over or round_number == MAX_ROUNDS:
            return
        game.next_round(rng)
        yield game


def assert_refused(game: Game, seat: int, move: Move, error: type[GapError]) -> None:
    """`apply` raises exactly `error` and the game is left exactly as it was."""
    before = game.replay_key()
    legal_before = game.legal_moves()
    with pytest.raises(GapError) as raised:
        game.apply(seat, move)
    assert type(raised.value) is error
    assert game.replay_key() == before
    assert game.legal_moves() == legal_before


@pytest.mark.parametrize("seats", SEATS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_g1_g4_cards_are_conserved_at_every_step(seats: int, seed: int, target: int) -> None:
    for game in random_game(seats, target, seed):
        current = game.round
        held = [
            *(c for hand in current.hands for c in hand),
            *current.middle,
            *current.pile,
            *(c for cards in current.collections for c in cards),
        ]
        assert sorted(held) == list(game.config.deck)
        # A played card is in the middle or in a collection, never back in a hand or the pile.
        placed = set(current.middle) | {c for cards in current.collections for c in cards}
        assert set(current.played) <= placed
        # Cards never move between seats' hands: every hand is what was dealt minus its plays.
        for seat, hand in enumerate(current.hands):
            mine = [e.card for e in current.events if isinstance(e, Played) and e.seat == seat]
            assert sorted([*hand, *mine]) == list(current.deal.hands[seat])
            assert hand == sorted(hand)
        # The pile is drawn from the front only.
        deal_pile = current.deal.pile
        assert tuple(current.pile) == deal_pile[len(deal_pile) - len(current.pile) :]


@pytest.mark.parametrize("seats", SEATS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_g4_every_legal_move_applies_and_nothing_else_is_accepted(
    seats: int, seed: int, target: int
) -> None:
    probe = random.Random(seed + 1)
    for game in random_game(seats, target, seed):
        current = game.round
        legal = game.legal_moves()
        seat = game.to_move
        if seat is None:
            assert legal == []
            assert_refused(game, probe.randrange(seats), probe.choice(ALL_MOVES), RoundOverError)
            continue
        allowed = set(legal)
        assert len(allowed) == len(legal)
        # Every card in hand has at least one way to be played.
        assert {m.card for m in legal} == set(current.hands[seat])
        # Every way to name neighbours for the cards in hand, and a few moves of other cards.
        candidates = [
            move(c, low, high)
            for c in current.hands[seat]
            for low in range(NONE + 1)
            for high in range(NONE + 1)
        ] + probe.sample(ALL_MOVES, 20)
        assert all(current.is_legal(m) == (m in allowed) for m in candidates)
        for m in legal:
            taken = current.taken_by(m)
            exact = [c for c in current.middle if c % 10 == m.card % 10]
            if exact:
                assert (m.low, m.high) == (NONE, NONE)
                assert sorted(taken) == sorted(exact)
            else:
                assert taken == m.neighbours
        illegal = [m for m in candidates if m not in allowed]
        for m in probe.sample(illegal, min(3, len(illegal))):
            assert_refused(game, seat, m, IllegalMoveError)
        others = [s for s in range(seats) if s != seat]
        assert_refused(game, probe.choice(others), probe.choice(legal), NotYourTurnError)
        # Every legal move applies, each on its own copy of the round (rebuilt from its deal
        # and moves, so the walk is not disturbed), on a quarter of the steps.
        if probe.random() > 0.25:
            continue
        for chosen in legal:
            copy = Round(game.config, current.deal)
            for code in current.moves:
                copy.apply(copy.to_move or 0, Move.from_code(code))
            assert copy.replay_key() == current.replay_key()
            middle_before, pile_before = len(copy.middle), len(copy.pile)
            events = copy.apply(seat, chosen)
            played = events[0]
            assert played == Played(seat, chosen.card, current.taken_by(chosen))
            after = len(copy.middle)
            drawn = sum(len(e.cards) for e in events if isinstance(e, Refilled))
            assert after == middle_before - len(played.taken) + (not played.taken) + drawn
            assert len(copy.pile) == pile_before - drawn
            # G4: refilled to four while the pile lasts, never cut back.
            assert after >= 4 or not copy.pile
            assert drawn == 0 or after == 4 or not copy.pile


@pytest.mark.parametrize("seats", SEATS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_g5_a_round_ends_exactly_when_every_hand_is_empty(
    seats: int, seed: int, target: int
) -> None:
    rounds_ended = 0
    for game in random_game(seats, target, seed):
        current = game.round
        empty = all(not hand for hand in current.hands)
        assert (current.result is None) == (not empty)
        assert (current.to_move is None) == empty
        if current.result is None:
            continue
        rounds_ended += 1
        assert len(current.moves) == seats * game.config.hand_size
        assert current.events[-1] == RoundEnded(current.result.points)
        assert sum(isinstance(e, RoundEnded) for e in current.events) == 1
        totals = [0] * seats
        for played in game.rounds:
            assert played.result is not None
            totals = [t + p for t, p in zip(totals, played.result.points, strict=True)]
        assert game.scores == tuple(totals)
        assert game.is_over == (max(totals) >= target)
    assert rounds_ended >= 1


def assert_view_hides_what_it_must(game: Game, seat: int) -> None:
    """Every field of the view holds only the seat's own cards and public ones."""
    current = game.round
    view = game.seat_view(seat)
    # A new field must be reviewed here before this test can pass again.
    assert {f.name for f in dataclasses.fields(SeatView)} == VIEW_FIELDS
    assert view.hand == tuple(current.hands[seat])
    assert view.middle == tuple(current.middle)
    assert view.collections == tuple(tuple(c) for c in current.collections)
    assert view.hand_counts == tuple(len(h) for h in current.hands)
    assert view.pile_count == len(current.pile)
    assert (view.scores, view.to_move, view.first) == (
        game.scores,
        current.to_move,
        current.deal.first,
    )
    public = {*view.middle, *(c for cards in view.collections for c in cards)}
    shown = {*view.hand, *public, *view.played}
    for event in view.events:
        if isinstance(event, Played):
            shown |= {event.card, *event.taken}
        elif isinstance(event, Refilled):
            shown |= set(event.cards)
            # A refill shows only cards turned face up, never the pile beneath.
            assert set(event.cards) <= public | set(view.played)
    for legal_move in view.legal:
        shown |= {legal_move.card, *legal_move.neighbours}
    hidden = set(current.pile) | {c for s, h in enumerate(current.hands) if s != seat for c in h}
    assert not shown & hidden
    assert set(view.unseen) == hidden
    if current.to_move == seat:
        assert list(view.legal) == current.legal_moves()
    else:
        assert view.legal == ()
    # The pile's order cannot be in the view: none of its cards is in any field (the fields
    # are all listed above), only their number.
    if seat == current.to_move:
        assert pickle.loads(pickle.dumps(view)) == view


@pytest.mark.parametrize("seats", SEATS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_a_seat_view_holds_no_other_hand_and_not_the_piles_order(
    seats: int, seed: int, target: int
) -> None:
    for game in random_game(seats, target, seed):
        for seat in range(seats):
            assert_view_hides_what_it_must(game, seat)


@pytest.mark.parametrize("seats", SEATS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_json_round_trips_of_config_deal_moves_and_results(
    seats: int, seed: int, target: int
) -> None:
    for game in random_game(seats, target, seed):
        config = game.config
        assert GapConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
        deal = game.round.deal
        assert Deal.from_dict(json.loads(json.dumps(deal.to_dict()))) == deal
        for code in game.round.moves:
            assert 0 <= code < 32768
            assert Move.from_code(code).code == code
            assert Move.parse(Move.from_code(code).text()) == Move.from_code(code)
        result = game.round.result
        if result is not None:
            assert RoundResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


@pytest.mark.parametrize("seats", SEATS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_replay_of_a_random_game_equals_the_game(seats: int, seed: int, target: int) -> None:
    sampler = random.Random(seed + 2)
    for game in random_game(seats, target, seed):
        if game.to_move is not None and sampler.random() > 0.2:
            continue
        stored = [(Deal.from_dict(r.deal.to_dict()), list(r.moves)) for r in game.rounds]
        restored = replay(GapConfig.from_dict(game.config.to_dict()), stored)
        assert restored.replay_key() == game.replay_key()
        assert (restored.scores, restored.winners) == (game.scores, game.winners)
        assert restored.legal_moves() == game.legal_moves()
        again = game_from_json(game_to_json(game))
        assert again.replay_key() == game.replay_key()
        for seat in range(seats):
            assert restored.seat_view(seat) == game.seat_view(seat)
