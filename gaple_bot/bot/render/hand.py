"""A player's private hand message: the tiles as buttons, legal ones marked, on their turn."""

from __future__ import annotations

import html
from datetime import datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...games.gaple.rules import Move, MoveKind, Side, tile_text
from ...i18n import Translator
from ...service.views import HandView
from ..callback_data import Action, encode
from .common import Rendered, by_weight, hand_text, line_text, seat_name, seconds_count

TILES_PER_ROW = 4


def _header(t: Translator, view: HandView, chat_title: str) -> list[str]:
    table = view.table
    lines = [
        t.gettext("<b>Gaple</b> in {chat} · round {round}").format(
            chat=html.escape(chat_title), round=table.round_number
        )
    ]
    if table.ends is not None:
        lines.append(t.gettext("Line: {line}").format(line=line_text(table.line)))
        lines.append(
            t.gettext("Open ends: <b>{left}</b> and <b>{right}</b>").format(
                left=table.ends[0], right=table.ends[1]
            )
        )
    lines.append(t.gettext("Your hand: {tiles}").format(tiles=hand_text(view.hand)))
    if view.discards:
        lines.append(
            t.gettext("Your discards (only you see them): {tiles}").format(
                tiles=hand_text(view.discards)
            )
        )
    return lines


def render_hand(
    t: Translator, view: HandView, chat_title: str, now: datetime, picked: int | None = None
) -> Rendered:
    """The hand with live buttons when the seat is to move, else as plain text.

    `picked` is a tile fitting both (different) ends: the buttons then ask which end (C7).
    """
    lines = _header(t, view, chat_title)
    table = view.table
    if not view.legal:
        if table.to_move is not None:
            lines.append(
                t.gettext("Waiting for {name}.").format(
                    name=seat_name(t, table.seats[table.to_move])
                )
            )
        return Rendered("\n".join(lines))
    if picked is not None:
        lines.append(t.gettext("Which end for {tile}?").format(tile=tile_text(picked)))
    elif view.legal[0].kind is MoveKind.DISCARD:
        lines.append(t.gettext("▶️ Your turn. Nothing fits: choose a tile to discard face down."))
    else:
        lines.append(t.gettext("▶️ Your turn: tap a tile marked ✅."))
    if table.deadline is not None:
        left = max(0, round((table.deadline - now).total_seconds()))
        lines.append(t.gettext("⏳ {time} left").format(time=seconds_count(t, left)))
    if picked is not None:
        return Rendered("\n".join(lines), _end_keyboard(t, view, picked))
    return Rendered("\n".join(lines), _tile_keyboard(view))


def _tile_keyboard(view: HandView) -> InlineKeyboardMarkup:
    by_tile: dict[int, list[Move]] = {}
    for move in view.legal:
        by_tile.setdefault(move.tile, []).append(move)
    buttons = []
    for tile in by_weight(view.hand):
        moves = by_tile.get(tile, [])
        if len(moves) == 1 and moves[0].kind is MoveKind.DISCARD:
            text, style = "🗑 " + tile_text(tile), "danger"
        elif moves:
            text, style = "✅ " + tile_text(tile), "success"
        else:
            text, style = tile_text(tile), None
        if len(moves) == 1:
            data = encode(Action.MOVE, view.game_id, view.version, moves[0].code)
        else:
            # Two moves (both ends) ask which end; no move answers that the tile does not fit.
            data = encode(Action.PICK_TILE, view.game_id, view.version, tile)
        buttons.append(InlineKeyboardButton(text, callback_data=data, style=style))
    rows = [buttons[i : i + TILES_PER_ROW] for i in range(0, len(buttons), TILES_PER_ROW)]
    return InlineKeyboardMarkup(rows)


def _end_keyboard(t: Translator, view: HandView, tile: int) -> InlineKeyboardMarkup:
    ends = view.table.ends
    assert ends is not None
    row = []
    for move in view.legal:
        if move.tile != tile:
            continue
        if move.side is Side.LEFT:
            text = t.gettext("⬅️ Left end ({end})").format(end=ends[0])
        else:
            text = t.gettext("Right end ({end}) ➡️").format(end=ends[1])
        data = encode(Action.MOVE, view.game_id, view.version, move.code)
        row.append(InlineKeyboardButton(text, callback_data=data, style="success"))
    back = InlineKeyboardButton(
        t.gettext("↩️ Back"), callback_data=encode(Action.BACK, view.game_id, view.version)
    )
    return InlineKeyboardMarkup([row, [back]])


def played_line(t: Translator, move: Move) -> str:
    """What the player did, in one sentence."""
    if move.kind is MoveKind.DISCARD:
        return t.gettext("You discarded {tile}.").format(tile=tile_text(move.tile))
    if move.kind is MoveKind.PASS:
        return t.gettext("You passed.")
    return t.gettext("You played {tile}.").format(tile=tile_text(move.tile))


def render_played(t: Translator, view: HandView, chat_title: str, move: Move) -> Rendered:
    """The hand message after the player's move: what they did, and no live buttons."""
    return Rendered("\n".join([*_header(t, view, chat_title), played_line(t, move)]))
