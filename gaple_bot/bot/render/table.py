"""The table message in the group: the line, the ends, the seats and the last moves."""

from __future__ import annotations

from datetime import datetime

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...games.gaple.rules import GameConfig, RuleSet, tile_text
from ...i18n import Translator
from ...service.views import GameStatus, TableView
from ..callback_data import Action, encode
from .common import (
    Rendered,
    by_weight,
    line_text,
    points_count,
    seat_name,
    seconds_count,
    tiles_count,
)
from .events import recent_lines

RECENT_MOVES = 5


def rule_set_name(t: Translator, config: GameConfig) -> str:
    """The rule set's short name in the reader's language."""
    if config.rule_set is RuleSet.CLASSIC:
        return t.gettext("classic")
    if config.discards_when_stuck:
        return t.gettext("with discards")
    return t.gettext("with a starting tile, stuck players pass")


def render_table(t: Translator, table: TableView, now: datetime) -> Rendered:
    """The group's table message for the current round."""
    lines = [
        t.gettext("<b>Gaple</b> · round {round} · {rules} · first to {target}").format(
            round=table.round_number,
            rules=rule_set_name(t, table.config),
            target=table.config.target,
        )
    ]
    if table.ends is None:
        lines.append(
            t.gettext("The line is empty: {name} leads.").format(
                name=seat_name(t, table.seats[table.to_move]) if table.to_move is not None else "—"
            )
        )
    else:
        lines.append(line_text(table.line))
        lines.append(
            t.gettext("Open ends: <b>{left}</b> and <b>{right}</b>").format(
                left=table.ends[0], right=table.ends[1]
            )
        )
    lines.append("")
    for seat in table.seats:
        n = seat.number
        details = [tiles_count(t, table.hand_counts[n])]
        if table.config.rule_set is RuleSet.DISCARDS and table.discard_counts[n]:
            details.append(
                t.ngettext("{n} discarded", "{n} discarded", table.discard_counts[n]).format(
                    n=table.discard_counts[n]
                )
            )
        details.append(points_count(t, table.scores[n]))
        row = t.gettext("{name} — {details}").format(
            name=seat_name(t, seat), details=" · ".join(details)
        )
        if n == table.to_move:
            marker = "▶️ "
            if table.deadline is not None and not seat.computer_moves:
                left = max(0, round((table.deadline - now).total_seconds()))
                row = t.gettext("{row} · ⏳ {time}").format(row=row, time=seconds_count(t, left))
        else:
            marker = "▫️ "
        lines.append(marker + row)
    recent = recent_lines(t, table.seats, table.events, RECENT_MOVES)
    if recent:
        lines.append("")
        lines.append(t.gettext("Last moves:"))
        lines.extend("• " + line for line in recent)
    if table.status is GameStatus.ABORTED:
        lines.append("")
        lines.append(t.gettext("This game was stopped."))
    elif table.result is not None:
        lines.append("")
        lines.append(t.gettext("This round is over."))
    markup = None
    if table.result is None and table.status is GameStatus.RUNNING:
        markup = InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        t.gettext("🁢 My hand"),
                        callback_data=encode(Action.SHOW_HAND, table.game_id),
                    )
                ]
            ]
        )
    return Rendered("\n".join(lines), markup)


def hand_alert(t: Translator, hand: int) -> str:
    """The short private alert a seated player sees on 'My hand' (at most 200 characters)."""
    tiles = " ".join(tile_text(tile) for tile in by_weight(hand)) or "—"
    return t.gettext("Your hand: {tiles}").format(tiles=tiles)
