"""The moves of a stored game named as they were played: by round and ply, for every round
that is over, with what each move took (Gap's same-value captures included)."""

from __future__ import annotations

import random

import pytest

from gaple_bot.games.played import named_moves
from gaple_bot.games.registry import default_registry
from gaple_bot.games.seam import JSON
from gaple_bot.i18n import Translators

REGISTRY = default_registry()
EN = Translators().get("en")


def _played_game(kind_name: str, seed: int) -> tuple[JSON, list[tuple[JSON, list[int]]]]:
    """A whole game of random legal moves, as the store keeps it: its config, each round's
    deal and codes."""
    kind = REGISTRY.get(kind_name)
    rng = random.Random(seed)
    config = kind.make_config({}, kind.seat_limits({}).filled)
    match, deal = kind.new_match(config, rng)
    rounds: list[tuple[JSON, list[int]]] = [(deal, [])]
    while not match.is_over:
        if match.round_over:
            deal = match.next_deal(rng)
            match.start_round(deal)
            rounds.append((deal, []))
            continue
        seat = match.to_move
        assert seat is not None
        code = rng.choice(match.legal_codes())
        match.apply(seat, code)
        rounds[-1][1].append(code)
    return config, rounds


@pytest.mark.parametrize("kind_name", ["gaple", "gap"])
def test_every_move_is_named_by_its_round_and_ply_as_it_was_played(kind_name: str) -> None:
    kind = REGISTRY.get(kind_name)
    config, rounds = _played_game(kind_name, 5)
    labels = named_moves(kind, EN, config, rounds).played
    assert set(labels) == {
        (number, ply)
        for number, (_, codes) in enumerate(rounds, start=1)
        for ply in range(1, len(codes) + 1)
    }
    presentation = kind.presentation
    match = kind.replay(config, [(rounds[0][0], ())])
    for number, (deal, codes) in enumerate(rounds, start=1):
        if number > 1:
            match.start_round(deal)
        for ply, code in enumerate(codes, start=1):
            seat = match.to_move
            assert seat is not None
            events = match.apply(seat, code)
            assert labels[number, ply] == presentation.played_label(EN, code, events)


def test_gap_names_the_cards_a_play_took_which_its_code_does_not() -> None:
    kind = REGISTRY.get("gap")
    config, rounds = _played_game("gap", 5)
    labels = named_moves(kind, EN, config, rounds).played
    codes = {key: rounds[key[0] - 1][1][key[1] - 1] for key in labels}
    richer = [
        key
        for key, label in labels.items()
        if label != kind.presentation.move_label(EN, codes[key])
    ]
    assert richer, "no play took a card its code does not name"
    assert all("taking" in labels[key] for key in richer)


def test_a_round_the_game_stopped_in_is_not_named() -> None:
    kind = REGISTRY.get("gaple")
    config, rounds = _played_game("gaple", 6)
    assert len(rounds) > 1 and len(rounds[1][1]) > 2
    deal, codes = rounds[1]
    stopped = [rounds[0], (deal, codes[:2])]
    labels = named_moves(kind, EN, config, stopped).played
    assert {number for number, _ in labels} == {1}


def test_each_round_s_first_tile_opens_the_line_and_so_does_the_better_move_there() -> None:
    """Gaple's first tile of a round has no side: it is named as opening the line, as is the
    better move a review names in its place; a later move and its better move keep theirs."""
    kind = REGISTRY.get("gaple")
    config, rounds = _played_game("gaple", 5)
    assert len(rounds) > 1
    firsts = {(number, 1): codes[0] for number, (_, codes) in enumerate(rounds, start=1)}
    later = {(number, 2): codes[1] for number, (_, codes) in enumerate(rounds, start=1)}
    named = named_moves(kind, EN, config, rounds, firsts | later)
    assert named.played == named_moves(kind, EN, config, rounds).played
    over = {number for number, _ in named.played}
    assert over == set(range(1, len(rounds) + 1))
    for number in over:
        assert named.played[number, 1].startswith("open with [")
        assert named.better[number, 1] == named.played[number, 1]
        code = later[number, 2]
        assert named.better[number, 2] == kind.presentation.move_label(EN, code)
        assert "open with" not in named.played[number, 2]
