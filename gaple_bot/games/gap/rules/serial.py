"""A whole game of Gap as JSON: the config and every round's deal and move codes, replayed."""

from __future__ import annotations

import json
from collections.abc import Sequence

from .config import GapConfig
from .deal import Deal
from .errors import GapError, SerialError
from .game import Game
from .moves import Move

FORMAT = 1


def game_to_dict(game: Game) -> dict[str, object]:
    """The game as plain JSON values; `game_from_dict` rebuilds it by replaying."""
    return {
        "format": FORMAT,
        "config": game.config.to_dict(),
        "rounds": [{"deal": r.deal.to_dict(), "moves": list(r.moves)} for r in game.rounds],
    }


def replay(config: GapConfig, rounds: Sequence[tuple[Deal, Sequence[int]]]) -> Game:
    """Rebuild a game from its deals and move codes, checking every deal and move as it is
    made; raises SerialError (a GapError) when they do not replay."""
    if not rounds:
        raise SerialError("a game has at least one round")
    try:
        game: Game | None = None
        for deal, codes in rounds:
            if game is None:
                game = Game(config, deal)
            else:
                game.start_round(deal)
            for code in codes:
                seat = game.to_move
                if seat is None:
                    raise SerialError("a move is stored after the round ended")
                game.apply(seat, Move.from_code(code))
    except SerialError:
        raise
    except GapError as exc:
        raise SerialError(f"the stored game does not replay: {exc}") from exc
    assert game is not None
    return game


def game_from_dict(data: dict[str, object]) -> Game:
    """The game stored by `game_to_dict`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SerialError("not a stored game of a known format")
    config_data, rounds_data = data.get("config"), data.get("rounds")
    if not isinstance(config_data, dict) or not isinstance(rounds_data, list):
        raise SerialError("a stored game needs a config and a list of rounds")
    try:
        config = GapConfig.from_dict(config_data)
        rounds = [(Deal.from_dict(r["deal"]), list(r["moves"])) for r in rounds_data]
    except (GapError, KeyError, TypeError, ValueError) as exc:
        raise SerialError(f"invalid stored game: {exc}") from exc
    return replay(config, rounds)


def game_to_json(game: Game) -> str:
    """The game as a JSON string."""
    return json.dumps(game_to_dict(game), separators=(",", ":"))


def game_from_json(text: str) -> Game:
    """The game stored by `game_to_json`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SerialError(f"not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise SerialError("a stored game is a JSON object")
    return game_from_dict(data)
