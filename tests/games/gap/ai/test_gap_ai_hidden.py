"""The players cannot see hidden cards: positions that differ only there get the same move."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from gaple_bot.games.gap.ai import BUDGETS, Budget, Level, decide
from gaple_bot.games.gap.rules import Deal, Game, GapConfig, Move

from .gap_ai_clock import stop_the_clock
from .gap_ai_positions import SEAT_COUNTS, random_game


def _replay(config: GapConfig, deals: list[Deal], codes: list[list[int]]) -> Game:
    """The game after these rounds' moves from these deals."""
    game = Game(config, deals[0])
    for number, (deal, moves) in enumerate(zip(deals, codes, strict=True)):
        if number:
            game.start_round(deal)
        for code in moves:
            seat = game.to_move
            assert seat is not None
            game.apply(seat, Move.from_code(code))
    return game


def _twin(config: GapConfig, rng: random.Random) -> tuple[Game, Game, int] | None:
    """Two games whose current deals differ only in cards still hidden from the seat to move
    (swapped between other hands and the pile, and the rest of the pile reordered), with the
    same public history; and that seat."""
    game = random_game(config, rng)
    current = game.round
    for _ in range(rng.randrange(0, config.seats * config.hand_size - 1)):
        game.apply(current.to_move or 0, rng.choice(current.legal_moves()))
    me = current.to_move
    assert me is not None
    deal = current.deal
    drawn = len(deal.pile) - len(current.pile)
    hands = [list(h) for h in deal.hands]
    pile = list(deal.pile)
    # The hidden places: the cards other seats still hold, and the pile not yet drawn.
    places = [(hands[s], list(current.hands[s])) for s in range(config.seats) if s != me]
    places.append((pile, list(current.pile)))
    places = [p for p in places if p[1]]
    if len(places) < 2:
        return None
    for _ in range(rng.randrange(1, 4)):
        (a, held_a), (b, held_b) = rng.sample(places, 2)
        x, y = rng.choice(held_a), rng.choice(held_b)
        a[a.index(x)], b[b.index(y)] = y, x
        held_a[held_a.index(x)], held_b[held_b.index(y)] = y, x
    tail = pile[drawn:]
    rng.shuffle(tail)
    pile[drawn:] = tail
    twin_deal = replace(deal, hands=tuple(tuple(h) for h in hands), pile=tuple(pile))
    if twin_deal == deal:
        return None
    deals = [r.deal for r in game.rounds]
    codes = [list(r.moves) for r in game.rounds]
    twin = _replay(config, [*deals[:-1], twin_deal], codes)
    assert twin.round.events == current.events and twin.to_move == me
    return game, twin, me


FEWER = {Level.NORMAL: Budget(deals=4), Level.HARD: replace(BUDGETS[Level.HARD], deals=3)}


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_hidden_cards_do_not_change_decisions(seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    stop_the_clock(monkeypatch)
    config = GapConfig(seats)
    rng = random.Random(17 + seats)
    checked = differ = 0
    while checked < 40:
        pair = _twin(config, rng)
        if pair is None:
            continue
        game, twin, me = pair
        differ += game.round.hands != twin.round.hands or game.round.pile != twin.round.pile
        view, twin_view = game.seat_view(me), twin.seat_view(me)
        assert view == twin_view  # nothing hidden shows in the view...
        seed = rng.getrandbits(64)
        for level in Level:
            # ...so no level can tell the two apart.
            assert decide(level, view, seed, FEWER.get(level)) == decide(
                level, twin_view, seed, FEWER.get(level)
            )
        checked += 1
    assert differ == checked


def test_the_real_levels_agree_on_twins(monkeypatch: pytest.MonkeyPatch) -> None:
    stop_the_clock(monkeypatch)
    rng = random.Random(3)
    checked = 0
    while checked < 15:
        pair = _twin(GapConfig(4), rng)
        if pair is None:
            continue
        game, twin, me = pair
        seed = rng.getrandbits(64)
        for level in Level:
            assert decide(level, game.seat_view(me), seed) == decide(
                level, twin.seat_view(me), seed
            )
        checked += 1
