"""The engine and the plain reference model agree move by move on many random games of Gap."""

from __future__ import annotations

import random

import pytest

from gaple_bot.games.gap.rules import COLOUR, VALUE, Game, GapConfig, Move, Round

from .reference_gap import Card, RefMove, RefRound, ref_deck, ref_hand_size, ref_winners

GAMES_PER_SEAT_COUNT = 150


def pair(card: int) -> Card:
    """An engine card id as the reference's (colour, value)."""
    return (COLOUR[card], VALUE[card])


def pairs(ids: list[int] | tuple[int, ...]) -> list[Card]:
    return [pair(c) for c in ids]


def as_reference(current: Round, move: Move) -> RefMove:
    """An engine move in the reference's terms: the card and what it takes now."""
    return pair(move.card), tuple(sorted(pairs(current.taken_by(move))))


def reference_of(current: Round) -> RefRound:
    deal = current.deal
    return RefRound(
        [pairs(hand) for hand in deal.hands], pairs(deal.middle), pairs(deal.pile), deal.first
    )


def normal(move: RefMove) -> RefMove:
    return move[0], tuple(sorted(move[1]))


def check_round(game: Game, rng: random.Random) -> None:
    current = game.round
    model = reference_of(current)
    while current.to_move is not None:
        assert model.to_move == current.to_move
        legal = current.legal_moves()
        assert [m.code for m in legal] == sorted(m.code for m in legal)
        assert {as_reference(current, m) for m in legal} == {normal(m) for m in model.legal_moves()}
        # Distinct codes name distinct ways to play.
        assert len({as_reference(current, m) for m in legal}) == len(legal)
        move = rng.choice(legal)
        taken = current.taken_by(move)
        events = game.apply(current.to_move, move)
        model.play(normal((pair(move.card), tuple(pairs(taken)))))
        assert tuple(pairs(events[0].taken)) == tuple(pairs(taken))  # type: ignore[union-attr]
        assert pairs(current.middle) == model.middle
        assert pairs(current.pile) == model.pile
        assert [sorted(pairs(c)) for c in current.collections] == [
            sorted(c) for c in model.collections
        ]
        assert [pairs(h) for h in current.hands] == [sorted(h) for h in model.hands]
    assert model.to_move is None
    assert current.result is not None
    assert list(current.result.points) == model.points


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_random_games_agree_with_the_reference_move_by_move(seats: int) -> None:
    rng = random.Random(1000 + seats)
    assert sorted(pairs(GapConfig(seats).deck)) == sorted(ref_deck(seats))
    assert GapConfig(seats).hand_size == ref_hand_size(seats)
    for _ in range(GAMES_PER_SEAT_COUNT):
        game = Game.new(GapConfig(seats, target=rng.choice((1, 8, 15, 30))), rng)
        history: list[list[int]] = []
        while True:
            check_round(game, rng)
            assert game.round.result is not None
            history.append(list(game.round.result.points))
            assert list(game.scores) == [sum(p[s] for p in history) for s in range(seats)]
            assert list(game.winners) == ref_winners(history, game.config.target)
            if game.is_over:
                break
            game.next_round(rng)
            assert game.round.deal.first == (len(history)) % seats
