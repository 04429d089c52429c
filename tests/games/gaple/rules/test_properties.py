"""Invariants over random games of every rule set and seat count, checked after every move."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gaple_bot.games.gaple.rules import (
    TILES,
    Discarded,
    EndReason,
    Game,
    GameConfig,
    GapleError,
    IllegalMoveError,
    Move,
    MoveKind,
    NotYourTurnError,
    Passed,
    Played,
    Round,
    RoundEnded,
    RoundOverError,
    RuleSet,
    SeatView,
    StuckRule,
    game_from_json,
    game_to_json,
    tile_id,
)
from gaple_bot.games.gaple.rules.moves import ALL_MOVES
from gaple_bot.games.gaple.rules.tiles import FULL_SET, tiles_in

CONFIGS = (
    GameConfig(RuleSet.CLASSIC, 2),
    GameConfig(RuleSet.CLASSIC, 3),
    GameConfig(RuleSet.CLASSIC, 4),
    GameConfig(RuleSet.DISCARDS, 4, stuck_rule=StuckRule.DISCARD),
    GameConfig(RuleSet.DISCARDS, 4, stuck_rule=StuckRule.PASS),
    GameConfig(RuleSet.DISCARDS, 5, stuck_rule=StuckRule.DISCARD),
    GameConfig(RuleSet.DISCARDS, 5, stuck_rule=StuckRule.PASS),
)
CONFIG_IDS = [
    f"{c.rule_set.value}-{c.seats}"
    + (f"-{c.stuck_rule.value}" if c.rule_set is RuleSet.DISCARDS else "")
    for c in CONFIGS
]
# Small targets end games after a round or two, so game ends (C13, D8) are exercised too.
TARGETS = st.sampled_from((1, 20, 60, 100))
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
MAX_ROUNDS = 3
# Far above any real round (28 tiles, a pass per seat between plays): a safety net only.
MOVE_CAP = 28 * 5
# Seven configs each: 420 random games per property.
EXAMPLES = settings(max_examples=60, deadline=None)

VIEW_FIELDS = {
    "config",
    "seat",
    "round_number",
    "hand",
    "own_discards",
    "line",
    "ends",
    "start",
    "leader",
    "hand_counts",
    "discard_counts",
    "events",
    "scores",
    "to_move",
    "legal",
}


def random_game(config: GameConfig, target: int, seed: int) -> Iterator[Game]:
    """Deal and play random legal moves for up to MAX_ROUNDS rounds; yield after every change."""
    rng = random.Random(seed)
    game = Game.new(dataclasses.replace(config, target=target), rng)
    yield game
    for round_number in range(1, MAX_ROUNDS + 1):
        moves = 0
        while game.to_move is not None:
            assert moves < MOVE_CAP, "the round does not end"
            game.apply(game.to_move, rng.choice(game.legal_moves()))
            moves += 1
            yield game
        if game.is_over or round_number == MAX_ROUNDS:
            return
        game.next_round(rng)
        yield game


def mask_of_line(current: Round) -> int:
    """The tiles on the line (the starting tile included) as a mask."""
    mask = 0
    for a, b in current.line:
        mask |= 1 << tile_id(a, b)
    return mask


def weight(mask: int) -> int:
    """The pips of the tiles in a mask, added up from the (low, high) table."""
    return sum(TILES[t][0] + TILES[t][1] for t in tiles_in(mask))


def fits(mask: int, ends: tuple[int, int]) -> bool:
    """Whether any tile in the mask shows either end's number."""
    return any(ends[0] in TILES[t] or ends[1] in TILES[t] for t in tiles_in(mask))


def assert_refused(game: Game, seat: int, move: Move, error: type[GapleError]) -> None:
    """`apply` raises exactly `error` and the game is left exactly as it was."""
    before = game.replay_key()
    legal_before = game.legal_moves()
    with pytest.raises(GapleError) as raised:
        game.apply(seat, move)
    assert type(raised.value) is error
    assert game.replay_key() == before
    assert game.legal_moves() == legal_before


def expected_result(config: GameConfig, finished: Round) -> RoundEnded:
    """C10-C12 or D5-D7, worked out again from the round's final hands, discards and events."""
    seats = config.seats
    classic = config.rule_set is RuleSet.CLASSIC
    held = [
        hand if classic else hand | discarded
        for hand, discarded in zip(finished.hands, finished.discards, strict=True)
    ]
    counts = tuple(weight(mask) for mask in held)
    ending_move = finished.events[-2]
    # A pass changes nothing, so it can never end a round.
    assert isinstance(ending_move, Played | Discarded)
    emptied = [seat for seat in range(seats) if not finished.hands[seat]]
    if emptied:
        assert emptied == [ending_move.seat]
        reason = EndReason.GAPLE if isinstance(ending_move, Played) else EndReason.DISCARDED_OUT
    else:
        # C11: nothing in any hand fits either end; only a play can bring that about, since a
        # discarded tile never fitted the ends.
        assert isinstance(ending_move, Played)
        assert finished.ends is not None
        assert not any(fits(hand, finished.ends) for hand in finished.hands)
        reason = EndReason.BLOCKED

    def standing(seat: int) -> tuple[int, int, tuple[int, int]]:
        tiles = [TILES[t] for t in tiles_in(held[seat])]
        lightest = min(((low + high, low) for low, high in tiles), default=(-1, -1))
        return counts[seat], len(tiles), lightest

    if classic and reason is EndReason.GAPLE:
        winner = ending_move.seat
    else:
        ranked = sorted(range(seats), key=standing)
        winner = ranked[0]
        # C11: the last tie-break always decides.
        assert standing(ranked[0]) < standing(ranked[1])
    if classic:
        points = tuple(sum(counts) - counts[s] if s == winner else 0 for s in range(seats))
    else:
        points = tuple(sum(c - mine for c in counts if c > mine) for mine in counts)
    return RoundEnded(reason, winner, counts, points)


def expected_winner(scores: list[int], target: int) -> int | None:
    """C13/D8: a single highest total at or over the target wins; otherwise play goes on."""
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    if best >= target and len(leaders) == 1:
        return leaders[0]
    return None


def assert_view_hides_what_it_must(game: Game, seat: int) -> None:
    """Every field of the seat's view holds only its own tiles and public ones."""
    current = game.round
    view = game.seat_view(seat)
    # A new field must be reviewed here before this test can pass again.
    assert {field.name for field in dataclasses.fields(SeatView)} == VIEW_FIELDS
    hidden = current.deal.set_aside
    for other in range(game.config.seats):
        if other != seat:
            hidden |= current.hands[other] | current.discards[other]
    on_line = mask_of_line(current)
    assert (view.config, view.seat, view.round_number) == (game.config, seat, game.round_number)
    assert view.hand == current.hands[seat]
    assert view.own_discards == current.discards[seat]
    assert view.line == tuple(current.line)
    assert view.ends == current.ends
    assert view.start == current.deal.start
    assert view.leader == current.deal.leader
    assert view.hand_counts == tuple(h.bit_count() for h in current.hands)
    assert view.discard_counts == tuple(d.bit_count() for d in current.discards)
    assert view.scores == tuple(game.scores)
    assert view.to_move == current.to_move
    shown = view.hand | view.own_discards | on_line
    if view.start >= 0:
        assert on_line >> view.start & 1
        shown |= 1 << view.start
    for event in view.events:
        if isinstance(event, Played):
            assert on_line >> event.tile & 1
            shown |= 1 << event.tile
        elif isinstance(event, Passed | Discarded):
            # A pass or a discard names the seat and the ends, never a tile.
            assert event._fields == ("seat", "ends")
        else:
            assert isinstance(event, RoundEnded)
            assert event._fields == ("reason", "winner", "counts", "points")
    for move in view.legal:
        if move.kind is not MoveKind.PASS:
            assert view.hand >> move.tile & 1
            shown |= 1 << move.tile
    if current.to_move == seat:
        assert list(view.legal) == current.legal_moves()
    else:
        assert view.legal == ()
    assert shown & hidden == 0
    assert view.unseen & shown == 0
    assert view.unseen == FULL_SET & ~(view.hand | view.own_discards | on_line)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_the_28_tiles_are_conserved_at_every_step(
    config: GameConfig, seed: int, target: int
) -> None:
    for game in random_game(config, target, seed):
        current = game.round
        line_tiles = [tile_id(a, b) for a, b in current.line]
        assert len(set(line_tiles)) == len(line_tiles)
        parts = [*current.hands, *current.discards, current.deal.set_aside, mask_of_line(current)]
        seen = 0
        for part in parts:
            assert seen & part == 0
            seen |= part
        assert seen == FULL_SET
        if current.deal.start >= 0:
            assert current.deal.start in line_tiles
        on_line = mask_of_line(current)
        for seat in range(config.seats):
            # Tiles never move between seats: a seat holds or discarded only tiles dealt to it,
            # and whatever left its hand without being discarded is on the line.
            dealt = current.deal.hands[seat]
            kept = current.hands[seat] | current.discards[seat]
            assert kept & ~dealt == 0
            assert dealt & ~kept & ~on_line == 0
        for event in current.events:
            if isinstance(event, Played):
                assert current.deal.hands[event.seat] >> event.tile & 1
        # C7/C8: neighbouring tiles match and the ends are the outer numbers of the line.
        assert all(left[1] == right[0] for left, right in pairwise(current.line))
        if current.line:
            assert current.ends == (current.line[0][0], current.line[-1][1])


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_only_legal_moves_are_accepted_and_a_refused_move_changes_nothing(
    config: GameConfig, seed: int, target: int
) -> None:
    probe = random.Random(seed + 1)
    for game in random_game(config, target, seed):
        current = game.round
        legal = game.legal_moves()
        allowed = set(legal)
        assert len(allowed) == len(legal)
        seat = game.to_move
        if seat is None:
            assert legal == []
            assert_refused(
                game, probe.randrange(config.seats), probe.choice(ALL_MOVES), RoundOverError
            )
            continue
        assert legal, "the seat to move always has a move"
        if current.ends is not None:
            # Were no hand able to play, the round would already be over (C11).
            assert any(fits(hand, current.ends) for hand in current.hands)
        assert all(current.is_legal(move) == (move in allowed) for move in ALL_MOVES)
        illegal = [move for move in ALL_MOVES if move not in allowed]
        for move in probe.sample(illegal, 4):
            assert_refused(game, seat, move, IllegalMoveError)
        others = [s for s in range(config.seats) if s != seat]
        assert_refused(game, probe.choice(others), probe.choice(legal), NotYourTurnError)
        assert_refused(game, probe.choice(others), probe.choice(illegal), NotYourTurnError)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_every_round_ends_within_a_bounded_number_of_moves(
    config: GameConfig, seed: int, target: int
) -> None:
    dealt = config.seats * config.hand_size
    rounds_ended = 0
    for game in random_game(config, target, seed):
        current = game.round
        if current.result is None:
            continue
        rounds_ended += 1
        tile_moves = [e for e in current.events if isinstance(e, Played | Discarded)]
        passes = [e for e in current.events if isinstance(e, Passed)]
        assert len(tile_moves) <= dealt
        assert len(current.moves) == len(tile_moves) + len(passes)
        # Between two tile moves at most seats - 1 players pass: a full turn of passes is a
        # blocked round, which ends at once (C11).
        run = longest = 0
        for event in current.events:
            run = run + 1 if isinstance(event, Passed) else 0
            longest = max(longest, run)
        assert longest <= config.seats - 1
        # C9: classic players pass; D4: stuck players discard unless the chat chose to pass.
        if config.discards_when_stuck:
            assert not passes
        else:
            assert not any(isinstance(e, Discarded) for e in current.events)
    assert rounds_ended >= 1


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_results_and_scores_follow_the_rules_from_the_final_hands(
    config: GameConfig, seed: int, target: int
) -> None:
    checked: set[int] = set()
    for game in random_game(config, target, seed):
        current = game.round
        if current.result is None or id(current) in checked:
            continue
        checked.add(id(current))
        assert current.result == expected_result(config, current)
        assert current.events[-1] == current.result
        totals = [0] * config.seats
        for played in game.rounds:
            assert played.result is not None
            totals = [t + p for t, p in zip(totals, played.result.points, strict=True)]
        assert game.scores == totals
        assert game.winner == expected_winner(totals, target)
    assert checked


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_a_seat_view_never_holds_a_hidden_tile(config: GameConfig, seed: int, target: int) -> None:
    for game in random_game(config, target, seed):
        for seat in range(config.seats):
            assert_view_hides_what_it_must(game, seat)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@EXAMPLES
@given(seed=SEEDS, target=TARGETS)
def test_a_json_round_trip_gives_the_same_game(config: GameConfig, seed: int, target: int) -> None:
    sampler = random.Random(seed + 2)
    for game in random_game(config, target, seed):
        if game.to_move is not None and sampler.random() > 0.25:
            continue
        restored = game_from_json(game_to_json(game))
        assert restored.replay_key() == game.replay_key()
        assert restored.legal_moves() == game.legal_moves()
        assert (restored.scores, restored.winner) == (game.scores, game.winner)
        for seat in range(config.seats):
            assert restored.seat_view(seat) == game.seat_view(seat)
