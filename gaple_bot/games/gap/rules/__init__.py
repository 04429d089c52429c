"""The rules of Gap (G1-G6): pure, synchronous, no I/O; randomness comes from a random.Random."""

from .cards import (
    CARD_COUNT,
    COLOUR,
    COLOURS,
    VALUE,
    card_id,
    card_text,
    colour_counts,
    colours_in_play,
    deck,
    parse_card,
)
from .config import DEFAULT_TARGET, MAX_SEATS, MIDDLE_SIZE, MIN_SEATS, GapConfig
from .deal import Deal, deal_round
from .errors import (
    ConfigError,
    DealError,
    GameOverError,
    GapError,
    IllegalMoveError,
    MoveParseError,
    NotYourTurnError,
    RoundNotOverError,
    RoundOverError,
    SerialError,
)
from .events import Event, Played, Refilled, RoundEnded
from .game import Game, first_seat
from .moves import ALL_MOVES, MOVE_CODES, NONE, Move, move
from .round import Round, RoundResult
from .scoring import game_winners, score_collection, score_counts
from .serial import game_from_dict, game_from_json, game_to_dict, game_to_json, replay
from .view import SeatView

__all__ = [
    "ALL_MOVES",
    "CARD_COUNT",
    "COLOUR",
    "COLOURS",
    "DEFAULT_TARGET",
    "MAX_SEATS",
    "MIDDLE_SIZE",
    "MIN_SEATS",
    "MOVE_CODES",
    "NONE",
    "VALUE",
    "ConfigError",
    "Deal",
    "DealError",
    "Event",
    "Game",
    "GameOverError",
    "GapConfig",
    "GapError",
    "IllegalMoveError",
    "Move",
    "MoveParseError",
    "NotYourTurnError",
    "Played",
    "Refilled",
    "Round",
    "RoundEnded",
    "RoundNotOverError",
    "RoundOverError",
    "RoundResult",
    "SeatView",
    "SerialError",
    "card_id",
    "card_text",
    "colour_counts",
    "colours_in_play",
    "deal_round",
    "deck",
    "first_seat",
    "game_from_dict",
    "game_from_json",
    "game_to_dict",
    "game_to_json",
    "game_winners",
    "move",
    "parse_card",
    "replay",
    "score_collection",
    "score_counts",
]
