"""Gaple for the page: the line laid out as a snake that never moves a placed tile, the hand
with the moves each tile makes, and every hand at a round's end, as JSON for the page."""

from __future__ import annotations

import html
import re
from typing import Any

from ....i18n import Translator
from ...views import HandView, RoundReveal, TableView
from ..board import GapleBoard, GapleHand
from ..rules import Move, MoveKind, Played, Side, pips
from ..rules.tiles import HIGH, LOW
from .events import recent_lines
from .picture import line_origin
from .results import render_round_end
from .snake import LONG, NARROW, WIDE, OpenEnd, Placed, Snake, lay_out
from .table import rule_set_name
from .tiles import by_weight

JSON = dict[str, Any]
UNIT = 40
"""The page's units per tile's short side (the page scales the whole line to the felt)."""
REACHES = {"narrow": NARROW, "wide": WIDE}
"""The snakes the page chooses from by its felt's shape (snake.py)."""
RECENT_MOVES = 4
TAG = re.compile(r"<[^>]+>")


def _face(tile: int) -> list[int]:
    return [HIGH[tile], LOW[tile]]


def tile_label(t: Translator, tile: int) -> str:
    """A tile as a screen reader says it."""
    return t.gettext("Tile {high} and {low}").format(high=HIGH[tile], low=LOW[tile])


def _place(placed: Placed) -> JSON:
    return {
        "x": placed.x * UNIT,
        "y": placed.y * UNIT,
        "w": placed.width * UNIT,
        "h": placed.height * UNIT,
        "a": placed.a,
        "b": placed.b,
    }


def _open(end: OpenEnd) -> JSON:
    return {"x": end.x * UNIT, "y": end.y * UNIT, "dx": end.dx, "dy": end.dy}


def _layout(snake: Snake, reach: float) -> JSON:
    """One snake's places, in the order of the board's `line`, and its open ends; `span` is
    the least the page shows around the first tile, so a short line is not drawn huge and
    the scale changes only when the line outgrows it."""
    wide = (reach + LONG) * UNIT
    return {
        "tiles": [_place(placed) for placed in snake.tiles],
        "open": [_open(snake.ends[0]), _open(snake.ends[1])],
        "span": [-wide, -1.5 * LONG * UNIT, wide, 1.5 * LONG * UNIT],
    }


def page_board(t: Translator, table: TableView[GapleBoard]) -> JSON:
    """The public board: the line's tiles (the first, then outward to the right, then to the
    left) with a snake for each shape of felt (the page's units, the first tile's centre at
    0, 0), its open ends' numbers, each seat's tiles and discards counted."""
    board = table.board
    config = board.config
    origin = line_origin(board)
    snakes = (
        {name: lay_out(board.line, origin, reach) for name, reach in REACHES.items()}
        if origin is not None
        else {}
    )
    # Who laid each tile (none for a starting tile turned up, D1): it slides in from them.
    laid_by = {
        f"{LOW[e.tile]}-{HIGH[e.tile]}": e.seat for e in board.events if isinstance(e, Played)
    }
    line: list[JSON] = []
    if snakes:
        for placed in snakes["wide"].tiles:
            low, high = sorted((placed.a, placed.b))
            key = f"{low}-{high}"
            line.append(
                {
                    "key": key,
                    "end": placed.end.value,
                    "seat": laid_by.get(key),
                    "label": t.gettext("Tile {high} and {low}").format(high=high, low=low),
                }
            )
    return {
        "title": t.gettext("<b>Gaple</b> · round {round} · {rules} · first to {target}")
        .format(round=table.round_number, rules=rule_set_name(t, config), target=config.target)
        .replace("<b>", "")
        .replace("</b>", ""),
        "line": line,
        "layouts": {name: _layout(snakes[name], REACHES[name]) for name in snakes},
        "ends": list(board.ends) if board.ends is not None else None,
        "counts": list(board.hand_counts),
        "discards": list(board.discard_counts),
        "recent": recent_lines(t, table.seats, board.events, RECENT_MOVES),
    }


def page_hand(t: Translator, view: HandView[GapleBoard, GapleHand]) -> JSON:
    """The seat's own tiles, heaviest first, each with the moves it makes now (two when it
    fits both ends, C7: the end is then a second choice), and its face-down discards."""
    ends = view.table.board.ends
    moves: dict[int, list[JSON]] = {}
    for code in view.legal:
        move = Move.from_code(code)
        if move.kind is MoveKind.PASS:
            continue
        choice: str | None = None
        if move.kind is MoveKind.DISCARD:
            choice = None
        elif ends is not None and move.side is Side.LEFT:
            choice = t.gettext("⬅️ Left end ({end})").format(end=ends[0])
        elif ends is not None:
            choice = t.gettext("Right end ({end}) ➡️").format(end=ends[1])
        moves.setdefault(move.tile, []).append(
            {"code": code, "choice": choice, "discard": move.kind is MoveKind.DISCARD}
        )
    items = []
    for tile in by_weight(view.private.hand):
        made = moves.get(tile, [])
        if len(made) == 1:
            made[0]["choice"] = None  # one end only: a tap plays it
        items.append({"id": tile, "face": _face(tile), "label": tile_label(t, tile), "moves": made})
    return {
        "items": items,
        "discarded": [_face(tile) for tile in by_weight(view.private.discards)],
    }


def page_reveal(t: Translator, reveal: RoundReveal[GapleBoard, GapleHand]) -> JSON:
    """Every seat's tiles and discards at the round's end with their pips, the round's winner,
    its points and the totals after it, and the round's result in words."""
    table = reveal.table
    result = table.board.result
    text = render_round_end(t, reveal).text
    # The result's head, up to its first blank line: how the round ended and, under the
    # discard rules, who won it (the one who went out need not be the winner, D6).
    head = text.split("\n\n", 1)[0]
    return {
        "headline": html.unescape(TAG.sub("", " ".join(head.split("\n")))),
        "hands": [[_face(tile) for tile in by_weight(seat.hand)] for seat in reveal.seats],
        "discarded": [[_face(tile) for tile in by_weight(seat.discards)] for seat in reveal.seats],
        "pips": [pips(seat.hand) for seat in reveal.seats],
        "discard_pips": [pips(seat.discards) for seat in reveal.seats],
        "winner": result.winner if result is not None else None,
        "points": list(result.points) if result is not None else [0] * len(reveal.seats),
        "totals": list(table.scores),
        "summary": [html.unescape(TAG.sub("", line)) for line in text.split("\n") if line],
    }
