"""The table message in the group: the line, the ends, the seats and the last moves."""

from __future__ import annotations

from datetime import datetime

from ....i18n import Translator
from ...texts import last_moves, points_count, seat_name, seat_row
from ...views import GameMessage, TableView
from ..board import GapleBoard
from ..rules import GameConfig, RuleSet
from .events import recent_lines
from .tiles import line_text, tiles_count

RECENT_MOVES = 5


def rule_set_name(t: Translator, config: GameConfig) -> str:
    """The rule set's short name in the reader's language."""
    if config.rule_set is RuleSet.CLASSIC:
        return t.gettext("classic")
    if config.discards_when_stuck:
        return t.gettext("with discards")
    return t.gettext("with a starting tile, stuck players pass")


def render_table(t: Translator, table: TableView[GapleBoard], now: datetime) -> GameMessage:
    """The group's table message for the current round (the bot adds its buttons)."""
    board = table.board
    config = board.config
    lines = [
        t.gettext("<b>Gaple</b> · round {round} · {rules} · first to {target}").format(
            round=table.round_number, rules=rule_set_name(t, config), target=config.target
        )
    ]
    if board.ends is None:
        lines.append(
            t.gettext("The line is empty: {name} leads.").format(
                name=seat_name(t, table.seats[table.to_move], table.seats)
                if table.to_move is not None
                else "—"
            )
        )
    else:
        lines.append(line_text(board.line))
        lines.append(
            t.gettext("Open ends: <b>{left}</b> and <b>{right}</b>").format(
                left=board.ends[0], right=board.ends[1]
            )
        )
    lines.append("")
    for seat in table.seats:
        n = seat.number
        details = [tiles_count(t, board.hand_counts[n])]
        if config.rule_set is RuleSet.DISCARDS and board.discard_counts[n]:
            details.append(
                t.ngettext("{n} discarded", "{n} discarded", board.discard_counts[n]).format(
                    n=board.discard_counts[n]
                )
            )
        details.append(points_count(t, table.scores[n]))
        lines.append(seat_row(t, table, seat, details, now))
    lines += last_moves(t, recent_lines(t, table.seats, board.events, RECENT_MOVES))
    return GameMessage("\n".join(lines))
