"""Stored games: JSON round trips of hand-dealt games and refusal of broken stored games."""

from __future__ import annotations

import json
import random

import pytest

from gaple_bot.games.gaple.rules import (
    PASS,
    Game,
    SerialError,
    game_from_dict,
    game_from_json,
    game_to_dict,
    game_to_json,
    replay,
)

from .hand_dealt import CLASSIC_2, DISCARDS_4, classic_deal, discards_deal, play_out, tile


def two_seat_game() -> Game:
    """Two seats, [6|6] then [6|4] played, seat 0 to move."""
    deal = classic_deal("66 43 62 02 04 14 24", "64 63 00 01 11 13 22", leader=0, lead="66")
    game = Game(CLASSIC_2, deal)
    play_out(game, "R66 R64")
    return game


def finished_then_next_round() -> Game:
    """A discard-rules game: a blocked first round, then eight random moves of the second."""
    deal = discards_deal(
        "10 31 43 64 55 65",
        "00 20 11 51 54 66",
        "60 21 61 42 33 53",
        "30 40 50 41 63 44",
        start="32",
        leader=0,
    )
    game = Game(DISCARDS_4, deal)
    play_out(game, "R43 L20 R42 L30 L31 L11 L21")
    rng = random.Random(4)
    game.next_round(rng)
    for _ in range(8):
        if game.to_move is None:
            break
        game.apply(game.to_move, rng.choice(game.legal_moves()))
    return game


def test_a_game_round_trips_through_json() -> None:
    for game in (two_seat_game(), finished_then_next_round()):
        restored = game_from_json(game_to_json(game))
        assert restored.replay_key() == game.replay_key()
        assert restored.legal_moves() == game.legal_moves()
        assert restored.scores == game.scores


def test_the_stored_form_is_the_config_the_deals_and_the_move_codes() -> None:
    game = two_seat_game()
    data = json.loads(game_to_json(game))
    assert data["format"] == 1
    assert data["config"] == {
        "rule_set": "classic",
        "seats": 2,
        "target": 100,
        "stuck_rule": "discard",
    }
    # Plays are coded tile * 2 + side, the right side being 1.
    assert data["rounds"][0]["moves"] == [2 * tile("66") + 1, 2 * tile("64") + 1]
    assert data["rounds"][0]["deal"]["lead_tile"] == tile("66")


def test_replay_rebuilds_the_same_game_from_deals_and_codes() -> None:
    game = two_seat_game()
    again = replay(game.config, [(game.round.deal, list(game.round.moves))])
    assert again.replay_key() == game.replay_key()
    with pytest.raises(SerialError):
        replay(game.config, [])


def broken_copies() -> list[str]:
    """Stored games that must be refused, each broken in one way."""
    good = game_to_dict(two_seat_game())
    broken: list[str] = ["not json", "[1, 2]", json.dumps({**good, "format": 2})]
    broken.append(json.dumps({**good, "config": None}))
    broken.append(json.dumps({**good, "rounds": []}))
    broken.append(json.dumps({**good, "config": {**good["config"], "seats": 5}}))  # type: ignore[dict-item]
    rounds = good["rounds"]
    assert isinstance(rounds, list)
    # Seat 0 passing although it can play.
    broken.append(
        json.dumps({**good, "rounds": [{**rounds[0], "moves": [*rounds[0]["moves"], PASS.code]}]})
    )
    # A code that is no move.
    broken.append(
        json.dumps({**good, "rounds": [{**rounds[0], "moves": [rounds[0]["moves"][0], 999]}]})
    )
    # A round without its deal.
    broken.append(json.dumps({**good, "rounds": [{"moves": rounds[0]["moves"]}]}))
    # A deal using a tile twice.
    deal = dict(rounds[0]["deal"])
    deal["set_aside"] = [*deal["set_aside"], tile("66")]
    broken.append(json.dumps({**good, "rounds": [{**rounds[0], "deal": deal}]}))
    return broken


def test_broken_stored_games_are_serial_errors() -> None:
    for text in broken_copies():
        with pytest.raises(SerialError):
            game_from_json(text)


def test_moves_stored_after_the_round_ended_are_serial_errors() -> None:
    deal = classic_deal("66 00 01 02 03 04 11", "65 12 13 14 22 23 24", leader=0, lead="66")
    game = Game(CLASSIC_2, deal)
    play_out(game, "R66 R65")
    data = game_to_dict(game)
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    rounds[0]["moves"].append(PASS.code)
    with pytest.raises(SerialError):
        game_from_dict(data)


def test_a_stored_lead_tile_beyond_the_set_is_a_serial_error() -> None:
    # Today this escapes as IndexError from Deal.validate (BIT[28]).
    data = game_to_dict(two_seat_game())
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    rounds[0]["deal"]["lead_tile"] = 28
    with pytest.raises(SerialError):
        game_from_dict(data)


def test_a_stored_hand_naming_tile_minus_one_is_a_serial_error() -> None:
    # -1 is allowed for the start only; inside a hand BIT[-1] silently makes it [6|6] (id 27).
    data = game_to_dict(two_seat_game())
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    hand_0 = rounds[0]["deal"]["hands"][0]
    hand_0[hand_0.index(tile("66"))] = -1
    with pytest.raises(SerialError):
        game_from_dict(data)
