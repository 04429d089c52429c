"""Gaple for the page: the line laid out as the round-end picture lays it, the hand with the
moves each tile makes, and every hand at a round's end, as JSON for the page's drawing."""

from __future__ import annotations

import html
import re
from typing import Any

from ....i18n import Translator
from ...views import HandView, RoundReveal, TableView
from ..board import GapleBoard, GapleHand
from ..rules import Move, MoveKind, Side
from ..rules.tiles import HIGH, LOW
from .events import recent_lines
from .picture import line_layout, line_origin
from .results import render_round_end
from .table import rule_set_name
from .tiles import by_weight

JSON = dict[str, Any]
LINE_WIDTH = 720
"""The width the page's line is laid out in (the page scales it to the screen)."""
RECENT_MOVES = 4
TAG = re.compile(r"<[^>]+>")


def _face(tile: int) -> list[int]:
    return [HIGH[tile], LOW[tile]]


def tile_label(t: Translator, tile: int) -> str:
    """A tile as a screen reader says it."""
    return t.gettext("Tile {high} and {low}").format(high=HIGH[tile], low=LOW[tile])


def page_board(t: Translator, table: TableView[GapleBoard]) -> JSON:
    """The public board: the line laid out (doubles crosswise, turning to stay inside the
    width), the tile it grew from, the open ends, each seat's tiles and discards counted."""
    board = table.board
    placed, height, length = line_layout(board.line, LINE_WIDTH) if board.line else ([], 0, 0)
    first = line_origin(board)
    config = board.config
    return {
        "title": t.gettext("<b>Gaple</b> · round {round} · {rules} · first to {target}")
        .format(round=table.round_number, rules=rule_set_name(t, config), target=config.target)
        .replace("<b>", "")
        .replace("</b>", ""),
        "line": [
            {
                "x": p.x,
                "y": p.y,
                "a": p.first,
                "b": p.second,
                "upright": p.upright,
                "first": p.index == first,
                "label": t.gettext("Tile {high} and {low}").format(high=p.first, low=p.second),
            }
            for p in placed
        ],
        "width": LINE_WIDTH,
        "height": height,
        "length": length,
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
    """Every seat's tiles and discards at the round's end, and the round's result in words."""
    text = render_round_end(t, reveal).text
    return {
        "hands": [[_face(tile) for tile in by_weight(seat.hand)] for seat in reveal.seats],
        "discarded": [[_face(tile) for tile in by_weight(seat.discards)] for seat in reveal.seats],
        "summary": [html.unescape(TAG.sub("", line)) for line in text.split("\n") if line],
    }
