"""A round's end for the group: every collection with its score, then the totals."""

from __future__ import annotations

from ....i18n import Translator
from ...texts import seat_name, totals_line
from ...views import GameMessage, RoundReveal
from ..board import GapBoard, GapHand
from .cards import collection_text


def render_round_end(t: Translator, reveal: RoundReveal[GapBoard, GapHand]) -> GameMessage:
    """G5: every collection by colour and what it scores, then the totals."""
    table = reveal.table
    result = table.board.result
    assert result is not None
    lines = [
        t.gettext("🏁 Round {round} is over: every hand is empty.").format(
            round=table.round_number
        ),
        "",
    ]
    for seat in table.seats:
        n = seat.number
        lines.append(
            t.gettext("{name}: {collection} = {points}").format(
                name=seat_name(t, seat, table.seats),
                collection=collection_text(result.collections[n]),
                points=result.points[n],
            )
        )
    lines.append("")
    lines.append(totals_line(t, table))
    return GameMessage("\n".join(lines))
