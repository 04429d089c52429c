"""Helpers for the golden tests: write tiles as "63", deal hands by hand, play moves by text."""

from __future__ import annotations

from gaple_bot.games.gaple.rules import (
    Deal,
    Event,
    Game,
    GameConfig,
    Move,
    RuleSet,
    StuckRule,
    tile_id,
)
from gaple_bot.games.gaple.rules.tiles import HIGH, LOW, TILE_COUNT, mask_of, tiles_in

CLASSIC_2 = GameConfig(RuleSet.CLASSIC, 2)
CLASSIC_3 = GameConfig(RuleSet.CLASSIC, 3)
CLASSIC_4 = GameConfig(RuleSet.CLASSIC, 4)
DISCARDS_4 = GameConfig(RuleSet.DISCARDS, 4)
DISCARDS_5 = GameConfig(RuleSet.DISCARDS, 5)
DISCARDS_4_PASS = GameConfig(RuleSet.DISCARDS, 4, stuck_rule=StuckRule.PASS)


def tile(text: str) -> int:
    """The tile written as two digits in either order: "63" and "36" are both [6|3]."""
    return tile_id(int(text[0]), int(text[1]))


def tiles(text: str) -> list[int]:
    """The tiles written as space-separated pairs of digits."""
    return [tile(word) for word in text.split()]


def hand(text: str) -> int:
    """The hand mask holding the tiles written in `text`."""
    return mask_of(tiles(text))


def the_rest(*used: int) -> int:
    """The mask of every tile not in any of the `used` masks."""
    taken = 0
    for mask in used:
        taken |= mask
    return mask_of([t for t in range(TILE_COUNT) if not taken >> t & 1])


def classic_deal(*hands: str, leader: int, lead: str | None) -> Deal:
    """A classic deal; tiles not in a hand are set aside (C2). `lead` None is a free lead (C5)."""
    masks = tuple(hand(text) for text in hands)
    lead_tile = -1 if lead is None else tile(lead)
    return Deal(masks, the_rest(*masks), -1, leader, lead_tile)


def discards_deal(*hands: str, start: str, leader: int) -> Deal:
    """A deal under the discard rules; tiles in no hand and not the start are set aside (D1)."""
    masks = tuple(hand(text) for text in hands)
    start_tile = tile(start)
    return Deal(masks, the_rest(*masks, 1 << start_tile), start_tile, leader, -1)


def play_out(game: Game, moves: str) -> list[Event]:
    """Apply the space-separated move texts, each for the seat to move; all events, in order."""
    events: list[Event] = []
    for text in moves.split():
        seat = game.to_move
        assert seat is not None, f"the round is over before {text}"
        events.extend(game.apply(seat, Move.parse(text)))
    return events


def move_texts(moves: list[Move] | tuple[Move, ...]) -> set[str]:
    """The moves as a set of texts, for comparing legal moves with what a rule allows."""
    return {move.text() for move in moves}


def texts_of(mask: int) -> set[str]:
    """The tiles of a mask written high number first, as in "63"."""
    return {f"{HIGH[t]}{LOW[t]}" for t in tiles_in(mask)}
