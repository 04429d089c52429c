"""The table message in the group: the middle, the pile, every collection and the last moves."""

from __future__ import annotations

from datetime import datetime

from ....i18n import Translator
from ...texts import last_moves, points_count, seat_row
from ...views import GameMessage, TableView
from ..board import GapBoard
from ..rules import score_collection
from .cards import cards_text, collection_text
from .events import recent_lines

RECENT_MOVES = 5


def cards_count(t: Translator, n: int) -> str:
    """'1 card' / '5 cards' in the reader's language."""
    return t.ngettext("{n} card", "{n} cards", n).format(n=n)


def render_table(t: Translator, table: TableView[GapBoard], now: datetime) -> GameMessage:
    """The group's table message for the current round (the bot adds its buttons)."""
    board = table.board
    lines = [
        t.gettext("<b>Gap</b> · round {round} · first to {target}").format(
            round=table.round_number, target=board.config.target
        ),
        t.gettext("Middle: {cards}").format(cards=cards_text(board.middle)),
        t.gettext("Pile: {cards}").format(cards=cards_count(t, board.pile_count)),
        "",
    ]
    for seat in table.seats:
        n = seat.number
        collected = board.collections[n]
        details = [
            t.gettext("{n} in hand").format(n=board.hand_counts[n]),
            t.gettext("{collection} ({score} now)").format(
                collection=collection_text(collected), score=score_collection(collected)
            ),
            points_count(t, table.scores[n]),
        ]
        lines.append(seat_row(t, table, seat, details, now))
    lines += last_moves(t, recent_lines(t, table.seats, board.events, RECENT_MOVES))
    return GameMessage("\n".join(lines))
