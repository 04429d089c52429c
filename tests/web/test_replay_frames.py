"""A replay's rounds from the stored history: only rounds that are over, each position the
board and every hand as the kind's page draws them."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from gaple_bot.games.gap.present.cards import card_text
from gaple_bot.games.gap.rules import Played
from gaple_bot.games.registry import default_registry
from gaple_bot.games.views import SeatInfo
from gaple_bot.i18n import Translators
from gaple_bot.web.replay_frames import ReplayedGame, overview, round_frames, rounds_over

JSON = dict[str, Any]


def test_a_round_not_over_is_never_drawn() -> None:
    kind = default_registry().get("gaple")
    config = kind.make_config({}, 4)
    rng = random.Random(5)
    match, deal = kind.new_match(config, rng)
    history: list[tuple[JSON, list[int]]] = [(deal, [])]
    while not match.round_over:
        code = match.legal_codes()[0]
        match.apply(match.to_move or 0, code)
        history[-1][1].append(code)
    second = match.next_deal(rng)
    match.start_round(second)
    history.append((second, [match.legal_codes()[0]]))
    seats = tuple(SeatInfo(n, None, "", "easy") for n in range(4))
    game = ReplayedGame(1, -1, None, kind, config, seats)
    assert rounds_over(kind, config, history) == 1
    t = Translators("en").get("en")
    assert round_frames(t, game, history, 1)["round"] == 1
    with pytest.raises(KeyError):
        round_frames(t, game, history, 2)


@pytest.mark.parametrize("kind_name", ["gaple", "gap"])
def test_every_position_of_every_round_is_drawn_with_its_move(kind_name: str) -> None:
    kind = default_registry().get(kind_name)
    config = kind.make_config({}, 3)
    rng = random.Random(11)
    match, deal = kind.new_match(config, rng)
    history: list[tuple[JSON, list[int]]] = [(deal, [])]
    while not match.is_over:
        if match.round_over:
            deal = match.next_deal(rng)
            match.start_round(deal)
            history.append((deal, []))
            continue
        code = rng.choice(match.legal_codes())
        match.apply(match.to_move or 0, code)
        history[-1][1].append(code)
    seats = tuple(SeatInfo(n, None, "", "easy") for n in range(3))
    game = ReplayedGame(1, -1, None, kind, config, seats)
    t = Translators("en").get("en")
    rounds = overview(t, game, history)
    assert [r["round"] for r in rounds] == list(range(1, len(history) + 1))
    assert rounds[-1]["totals"] == list(match.scores)
    for number, (_, codes) in enumerate(history, start=1):
        frames = round_frames(t, game, history, number)
        positions = frames["positions"]
        assert [p["ply"] for p in positions] == list(range(len(codes) + 1))
        assert positions[0]["move"] is None
        assert [p["move"]["code"] for p in positions[1:]] == codes
        assert all(len(p["hands"]) == 3 for p in positions)
        # Each move's seat is the one to move before it; the round's end has nobody to move.
        for before, after in pairwise(positions):
            assert after["move"]["seat"] == before["to_move"]
        assert positions[-1]["to_move"] is None
        assert frames["totals"] == rounds[number - 1]["totals"]
        assert frames["last"] is (number == len(history))


def test_gaple_s_discards_show_face_up_in_the_replay() -> None:
    """D4: a discard is face down during the round; the replay, where the round is over,
    names it in the move list and shows it in its seat's discards."""
    kind = default_registry().get("gaple")
    config = kind.make_config({"rules": "discards"}, 4)
    rng = random.Random(3)
    for _ in range(20):
        match, deal = kind.new_match(config, rng)
        history: list[tuple[JSON, list[int]]] = [(deal, [])]
        while not match.round_over:
            code = rng.choice(match.legal_codes())
            match.apply(match.to_move or 0, code)
            history[-1][1].append(code)
        seats = tuple(SeatInfo(n, None, "", "easy") for n in range(4))
        game = ReplayedGame(1, -1, None, kind, config, seats)
        frames = round_frames(Translators("en").get("en"), game, history, 1)
        discards = [
            p for p in frames["positions"] if "discard" in (p["move"] or {}).get("label", "")
        ]
        if not discards:
            continue  # nobody had to discard in this deal: another
        first = discards[0]
        seat = first["move"]["seat"]
        assert first["hands"][seat]["discarded"], "the discard shows in its seat's hand"
        assert sum(first["board"]["discards"]) == 1
        return
    raise AssertionError("no deal of 20 had a discard")


def test_a_gap_move_is_named_with_every_card_it_took() -> None:
    """G4: a card of a value in the middle takes those cards by itself, which its code does
    not say; the replay names each move as it was played, every card taken included (the
    board's "played 🟥8 and took 🟦8")."""
    kind = default_registry().get("gap")
    config = kind.make_config({}, 3)
    rng = random.Random(7)
    match, deal = kind.new_match(config, rng)
    history: list[tuple[JSON, list[int]]] = [(deal, [])]
    played: list[Played] = []
    while not match.round_over:
        code = rng.choice(match.legal_codes())
        played += [e for e in match.apply(match.to_move or 0, code) if isinstance(e, Played)]
        history[-1][1].append(code)
    seats = tuple(SeatInfo(n, None, "", "easy") for n in range(3))
    game = ReplayedGame(1, -1, None, kind, config, seats)
    t = Translators("en").get("en")
    frames = round_frames(t, game, history, 1)
    labels = [p["move"]["label"] for p in frames["positions"][1:]]
    assert len(labels) == len(played)
    unnamed = 0
    for label, play, code in zip(labels, played, history[0][1], strict=True):
        cards = [card_text(play.card), *(card_text(c) for c in play.taken)]
        expected = cards[0] if not play.taken else f"{cards[0]} taking {' '.join(cards[1:])}"
        assert label == expected
        unnamed += kind.presentation.move_label(t, code) != label
    assert unnamed, "some play took cards its code does not name (seed 7)"
