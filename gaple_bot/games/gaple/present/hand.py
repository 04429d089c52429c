"""A player's private hand message: the tiles as buttons, legal ones marked, on their turn."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime

from ....i18n import Translator
from ...texts import time_left, waiting_line
from ...views import Button, GameMessage, HandView
from ..board import GapleBoard, GapleHand
from ..rules import Move, MoveKind, Played, Side, tile_text
from .tiles import by_weight, hand_text, line_text

TILES_PER_ROW = 4

GapleHandView = HandView[GapleBoard, GapleHand]


def _header(t: Translator, view: GapleHandView) -> list[str]:
    table, board = view.table, view.table.board
    lines = [
        t.gettext("<b>Gaple</b> in {chat} · round {round}").format(
            chat=html.escape(table.chat_title), round=table.round_number
        )
    ]
    if board.ends is not None:
        lines.append(t.gettext("Line: {line}").format(line=line_text(board.line)))
        lines.append(
            t.gettext("Open ends: <b>{left}</b> and <b>{right}</b>").format(
                left=board.ends[0], right=board.ends[1]
            )
        )
    lines.append(t.gettext("Your hand: {tiles}").format(tiles=hand_text(view.private.hand)))
    if view.private.discards:
        lines.append(
            t.gettext("Your discards (only you see them): {tiles}").format(
                tiles=hand_text(view.private.discards)
            )
        )
    return lines


def render_hand(
    t: Translator, view: GapleHandView, now: datetime, picked: int | None = None
) -> GameMessage:
    """The hand with live buttons when the seat is to move, else as plain text.

    `picked` is a tile fitting both (different) ends: the buttons then ask which end (C7).
    """
    lines = _header(t, view)
    table = view.table
    legal = [Move.from_code(code) for code in view.legal]
    if not legal:
        waiting = waiting_line(t, table)
        return GameMessage("\n".join([*lines, waiting] if waiting else lines))
    if picked is not None:
        lines.append(t.gettext("Which end for {tile}?").format(tile=tile_text(picked)))
    elif legal[0].kind is MoveKind.DISCARD:
        lines.append(t.gettext("▶️ Your turn. Nothing fits: choose a tile to discard face down."))
    else:
        lines.append(t.gettext("▶️ Your turn: tap a tile marked ✅."))
    if table.deadline is not None:
        left = time_left(t, (table.deadline - now).total_seconds())
        lines.append(t.gettext("⏳ {time} left").format(time=left))
    if picked is not None:
        return GameMessage("\n".join(lines), _end_rows(t, view, legal, picked))
    return GameMessage("\n".join(lines), _tile_rows(view, legal))


def _tile_rows(view: GapleHandView, legal: list[Move]) -> tuple[tuple[Button, ...], ...]:
    by_tile: dict[int, list[Move]] = {}
    for move in legal:
        by_tile.setdefault(move.tile, []).append(move)
    buttons = []
    for tile in by_weight(view.private.hand):
        moves = by_tile.get(tile, [])
        if len(moves) == 1 and moves[0].kind is MoveKind.DISCARD:
            buttons.append(Button("🗑 " + tile_text(tile), "move", moves[0].code, "danger"))
        elif len(moves) == 1:
            buttons.append(Button("✅ " + tile_text(tile), "move", moves[0].code, "success"))
        elif moves:
            # C7: a tile fitting both ends asks which end.
            buttons.append(Button("✅ " + tile_text(tile), "pick", tile, "success"))
        else:
            # A tile that fits nowhere still answers, saying it does not fit.
            buttons.append(Button(tile_text(tile), "pick", tile))
    return tuple(
        tuple(buttons[i : i + TILES_PER_ROW]) for i in range(0, len(buttons), TILES_PER_ROW)
    )


def _end_rows(
    t: Translator, view: GapleHandView, legal: list[Move], tile: int
) -> tuple[tuple[Button, ...], ...]:
    ends = view.table.board.ends
    assert ends is not None
    row = []
    for move in legal:
        if move.tile != tile:
            continue
        if move.side is Side.LEFT:
            text = t.gettext("⬅️ Left end ({end})").format(end=ends[0])
        else:
            text = t.gettext("Right end ({end}) ➡️").format(end=ends[1])
        row.append(Button(text, "move", move.code, "success"))
    return (tuple(row), (Button(t.gettext("↩️ Back"), "back"),))


def played_line(t: Translator, move: Move) -> str:
    """What the player did, in one sentence."""
    if move.kind is MoveKind.DISCARD:
        return t.gettext("You discarded {tile}.").format(tile=tile_text(move.tile))
    if move.kind is MoveKind.PASS:
        return t.gettext("You passed.")
    return t.gettext("You played {tile}.").format(tile=tile_text(move.tile))


def move_label(t: Translator, move: Move) -> str:
    """A move named from its code alone, in a few words: the tile and the end it goes on
    ('[6|4] on the left'; equal ends are on the right, C7, and so is a lead, which
    played_label names as opening the line), a pass, or a discard."""
    if move.kind is MoveKind.DISCARD:
        return t.pgettext("move", "discard {tile}").format(tile=tile_text(move.tile))
    if move.kind is MoveKind.PASS:
        return t.pgettext("move", "pass")
    if move.side is Side.LEFT:
        return t.pgettext("move", "{tile} on the left").format(tile=tile_text(move.tile))
    return t.pgettext("move", "{tile} on the right").format(tile=tile_text(move.tile))


def opens_line(events: Sequence[object]) -> bool:
    """Whether the move that made `events` laid the first tile of an empty line (a lead with
    no starting tile: the tile has no side yet)."""
    return any(isinstance(e, Played) and e.ends is None for e in events)


def opening_label(t: Translator, move: Move) -> str:
    """A play that lays the first tile of the line, in a few words ('open with [6|6]')."""
    return t.pgettext("move", "open with {tile}").format(tile=tile_text(move.tile))


def played_label(t: Translator, move: Move, events: Sequence[object]) -> str:
    """A move as it was played, or as it would have been where the move that made `events`
    was (a review's better move): the first tile of a line opens it (it has no side, though
    its code says right, C7); any other move as move_label names it."""
    if move.kind is MoveKind.PLAY and opens_line(events):
        return opening_label(t, move)
    return move_label(t, move)


def timed_out_line(t: Translator, move: Move) -> str:
    """What the computer did when the person's time ran out."""
    if move.kind is MoveKind.DISCARD:
        return t.gettext("⏰ Time ran out: the computer discarded {tile} for you.").format(
            tile=tile_text(move.tile)
        )
    if move.kind is MoveKind.PASS:
        return t.gettext("⏰ Time ran out: the computer passed for you.")
    return t.gettext("⏰ Time ran out: the computer played {tile} for you.").format(
        tile=tile_text(move.tile)
    )


def render_played(t: Translator, view: GapleHandView, move: Move) -> GameMessage:
    """The hand message after the player's move: what they did, and no live buttons."""
    return GameMessage("\n".join([*_header(t, view), played_line(t, move)]))


def hand_alert(t: Translator, hand: GapleHand) -> str:
    """The short private alert a seated player sees on 'My hand' (at most 200 characters)."""
    return t.gettext("Your hand: {tiles}").format(tiles=hand_text(hand.hand))
