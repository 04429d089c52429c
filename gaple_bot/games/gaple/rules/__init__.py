"""The rules of Gaple: pure, synchronous, no I/O; every random choice takes a random.Random."""

from .deal import Deal, deal_round, first_lead
from .errors import (
    ConfigError,
    GameOverError,
    GapleError,
    IllegalMoveError,
    MoveParseError,
    NotYourTurnError,
    RoundNotOverError,
    RoundOverError,
    SerialError,
)
from .events import Discarded, EndReason, Ends, Event, Passed, Played, RoundEnded
from .game import Game, game_winner
from .moves import PASS, Move, MoveKind, Side, discard, play
from .round import Round
from .rules import GameConfig, RuleSet, StuckRule
from .serial import game_from_dict, game_from_json, game_to_dict, game_to_json, replay
from .tiles import TILE_COUNT, TILES, pips, tile_id, tile_text, tiles_in
from .view import SeatView

__all__ = [
    "PASS",
    "TILES",
    "TILE_COUNT",
    "ConfigError",
    "Deal",
    "Discarded",
    "EndReason",
    "Ends",
    "Event",
    "Game",
    "GameConfig",
    "GameOverError",
    "GapleError",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "MoveParseError",
    "NotYourTurnError",
    "Passed",
    "Played",
    "Round",
    "RoundEnded",
    "RoundNotOverError",
    "RoundOverError",
    "RuleSet",
    "SeatView",
    "SerialError",
    "Side",
    "StuckRule",
    "deal_round",
    "discard",
    "first_lead",
    "game_from_dict",
    "game_from_json",
    "game_to_dict",
    "game_to_json",
    "game_winner",
    "pips",
    "play",
    "replay",
    "tile_id",
    "tile_text",
    "tiles_in",
]
