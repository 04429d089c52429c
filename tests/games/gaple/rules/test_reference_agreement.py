"""The engine and the plain reference model agree on thousands of random classic rounds."""

from __future__ import annotations

import random
from collections import Counter

from gaple_bot.games.gaple.rules import (
    TILES,
    Game,
    GameConfig,
    Move,
    MoveKind,
    Round,
    RuleSet,
    Side,
    deal_round,
)
from gaple_bot.games.gaple.rules.moves import ALL_MOVES
from gaple_bot.games.gaple.rules.tiles import tiles_in

from .reference_classic import (
    LEFT,
    RIGHT,
    RefGame,
    RefMove,
    RefRound,
    Tile,
    first_lead,
    pip_total,
)

ROUNDS = 10_000
# Every fifth round also asks `is_legal` about all 85 moves (slower, so not every round).
FULL_LEGALITY_EVERY = 5


def as_reference(move: Move) -> RefMove:
    """An engine move in the reference's terms: (tile as (low, high), side), or None for pass."""
    assert move.kind is not MoveKind.DISCARD, "the classic rules have no discards"
    if move.kind is MoveKind.PASS:
        return None
    return TILES[move.tile], LEFT if move.side is Side.LEFT else RIGHT


def reference_hands(engine_round: Round) -> list[list[Tile]]:
    """The round's dealt hands as lists of (low, high) tuples."""
    return [[TILES[t] for t in tiles_in(mask)] for mask in engine_round.deal.hands]


def check_round(engine: Game, model: RefRound, rng: random.Random, every_move: bool) -> str:
    """Play the engine's current round and the model's side by side, comparing every step.

    Returns how the round was decided: "gaple", "blocked", or the C11 tie-break that decided a
    blocked round ("blocked, fewer tiles" or "blocked, lightest tile").
    """
    current = engine.round
    deal = current.deal
    assert model.to_move == deal.leader
    expected_lead = -1 if model.lead_tile is None else TILES.index(model.lead_tile)
    assert deal.lead_tile == expected_lead
    while current.to_move is not None:
        assert model.to_move == current.to_move
        legal = current.legal_moves()
        assert {as_reference(move) for move in legal} == model.legal_moves()
        assert len(set(legal)) == len(legal)
        if every_move:
            allowed = set(legal)
            assert all(current.is_legal(move) == (move in allowed) for move in ALL_MOVES)
        move = rng.choice(legal)
        engine.apply(current.to_move, move)
        model.play(as_reference(move))
        assert current.line == model.line
        assert current.ends == model.ends()
    assert model.to_move is None
    result = current.result
    assert result is not None
    assert (result.reason.value, result.winner) == (model.reason, model.winner)
    assert list(result.counts) == model.counts
    assert list(result.points) == model.points
    return how_decided(model)


def how_decided(model: RefRound) -> str:
    """Which C11 criterion decided a round: none for a gaple, else pips, tiles or lightest."""
    if model.reason == "gaple":
        return "gaple"
    totals = sorted((pip_total(hand), len(hand)) for hand in model.hands)
    if totals[0][0] != totals[1][0]:
        return "blocked"
    if totals[0][1] != totals[1][1]:
        return "blocked, fewer tiles"
    return "blocked, lightest tile"


def test_engine_and_reference_agree_on_random_classic_rounds() -> None:
    rng = random.Random(20_240_607)
    rounds_played = 0
    games_played = 0
    decided: Counter[tuple[int, str]] = Counter()
    while rounds_played < ROUNDS:
        seats = 2 + games_played % 3
        config = GameConfig(RuleSet.CLASSIC, seats, target=rng.choice((30, 100)))
        engine = Game.new(config, rng)
        model = RefGame(seats, config.target)
        while True:
            model_round = model.start_round(reference_hands(engine.round))
            every_move = rounds_played % FULL_LEGALITY_EVERY == 0
            decided[seats, check_round(engine, model_round, rng, every_move)] += 1
            model.end_round(model_round)
            rounds_played += 1
            assert engine.scores == model.scores
            assert engine.winner == model.winner
            if engine.is_over:
                break
            engine.next_round(rng)
        games_played += 1
    # The mix covers every seat count and both endings, over many whole games; C11's later
    # tie-breaks are rarer but decide dozens of rounds.
    assert games_played > 500
    for seats in (2, 3, 4):
        assert decided[seats, "gaple"] > ROUNDS // 20
        assert decided[seats, "blocked"] > ROUNDS // 20
    assert sum(n for (_, how), n in decided.items() if how == "blocked, fewer tiles") > 20
    assert sum(n for (_, how), n in decided.items() if how == "blocked, lightest tile") > 20


def test_engine_and_reference_agree_on_the_first_lead_of_many_deals() -> None:
    rng = random.Random(4)
    leads: Counter[str] = Counter()
    for seats in (2, 3, 4):
        config = GameConfig(RuleSet.CLASSIC, seats)
        for _ in range(6_000):
            deal = deal_round(config, rng, None)
            hands = [[TILES[t] for t in tiles_in(mask)] for mask in deal.hands]
            leader, lead_tile = first_lead(hands)
            assert (deal.leader, TILES[deal.lead_tile]) == (leader, lead_tile)
            low, high = lead_tile
            leads["[6|6]" if high == low == 6 else "double" if low == high else "heaviest"] += 1
    # All three cases of C4 occur (a deal without any double is rare: two seats, ~0.3%).
    assert min(leads.values()) > 5
