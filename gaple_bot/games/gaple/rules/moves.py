"""Moves as small frozen values with a compact integer code and a text round trip."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from .errors import MoveParseError
from .tiles import HIGH, LOW, TILE_COUNT, tile_id, tile_text


class Side(IntEnum):
    """An open end of the line."""

    LEFT = 0
    RIGHT = 1


class MoveKind(IntEnum):
    """What a move does."""

    PLAY = 0
    PASS = 1
    DISCARD = 2


PASS_CODE = 2 * TILE_COUNT
DISCARD_BASE = PASS_CODE + 1
MOVE_CODES = DISCARD_BASE + TILE_COUNT
"""Codes run 0..MOVE_CODES-1: plays are tile*2+side, then pass, then discards by tile."""


@dataclass(frozen=True, slots=True)
class Move:
    """One move: play a tile at a side, pass, or discard a tile face down (D4)."""

    kind: MoveKind
    tile: int = -1
    side: Side = Side.RIGHT
    code: int = field(init=False, compare=False)
    """Derived from the other fields, so a move's code always names the move itself."""

    def __post_init__(self) -> None:
        if self.kind is MoveKind.PASS:
            code = PASS_CODE
        elif not 0 <= self.tile < TILE_COUNT:
            raise MoveParseError(f"no tile {self.tile}")
        elif self.kind is MoveKind.DISCARD:
            code = DISCARD_BASE + self.tile
        else:
            code = self.tile * 2 + self.side
        object.__setattr__(self, "code", code)

    def text(self) -> str:
        """The move as short text: `L63`/`R63` play [6|3] left/right, `P` pass, `D63` discard."""
        if self.kind is MoveKind.PASS:
            return "P"
        digits = f"{HIGH[self.tile]}{LOW[self.tile]}"
        if self.kind is MoveKind.DISCARD:
            return "D" + digits
        return ("L" if self.side is Side.LEFT else "R") + digits

    def __str__(self) -> str:
        if self.kind is MoveKind.PASS:
            return "pass"
        if self.kind is MoveKind.DISCARD:
            return f"discard {tile_text(self.tile)}"
        return f"{tile_text(self.tile)} {'left' if self.side is Side.LEFT else 'right'}"

    @staticmethod
    def from_code(code: int) -> Move:
        """The move with this code."""
        if not 0 <= code < MOVE_CODES:
            raise MoveParseError(f"no move has code {code}")
        return ALL_MOVES[code]

    @staticmethod
    def parse(text: str) -> Move:
        """The move written as `text` (the inverse of `Move.text`)."""
        if text == "P":
            return PASS
        if len(text) != 3 or text[0] not in "LRD" or not set(text[1:]) <= set("0123456"):
            raise MoveParseError(f"not a move: {text!r}")
        try:
            tile = tile_id(int(text[1]), int(text[2]))
        except ValueError as exc:
            raise MoveParseError(f"not a move: {text!r}") from exc
        if text[0] == "D":
            return DISCARDS[tile]
        return PLAYS_LEFT[tile] if text[0] == "L" else PLAYS_RIGHT[tile]


def _play(tile: int, side: Side) -> Move:
    return Move(MoveKind.PLAY, tile, side)


PLAYS_LEFT: tuple[Move, ...] = tuple(_play(t, Side.LEFT) for t in range(TILE_COUNT))
PLAYS_RIGHT: tuple[Move, ...] = tuple(_play(t, Side.RIGHT) for t in range(TILE_COUNT))
PASS = Move(MoveKind.PASS)
DISCARDS: tuple[Move, ...] = tuple(Move(MoveKind.DISCARD, t) for t in range(TILE_COUNT))
ALL_MOVES: tuple[Move, ...] = (
    *(m for t in range(TILE_COUNT) for m in (PLAYS_LEFT[t], PLAYS_RIGHT[t])),
    PASS,
    *DISCARDS,
)


def play(tile: int, side: Side = Side.RIGHT) -> Move:
    """The move that plays `tile` at `side`."""
    return PLAYS_LEFT[tile] if side is Side.LEFT else PLAYS_RIGHT[tile]


def discard(tile: int) -> Move:
    """The move that discards `tile` face down (D4)."""
    return DISCARDS[tile]
