"""Round and game results for the group: every collection with its score, totals, standings."""

from __future__ import annotations

from ....i18n import Translator
from ...texts import points_count, seat_name
from ...views import GameMessage, RoundReveal, TableView
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
                name=seat_name(t, seat),
                collection=collection_text(result.collections[n]),
                points=result.points[n],
            )
        )
    lines.append("")
    lines.append(_totals(t, table))
    return GameMessage("\n".join(lines))


def _totals(t: Translator, table: TableView[GapBoard]) -> str:
    totals = " · ".join(
        t.gettext("{name} {points}").format(name=seat_name(t, s), points=table.scores[s.number])
        for s in table.seats
    )
    return t.gettext("Totals: {totals}").format(totals=totals)


def render_game_end(t: Translator, table: TableView[GapBoard]) -> GameMessage:
    """The winner (G6, after its tie-breaks) and the final standings."""
    assert table.winner is not None
    lines = [
        t.gettext("🏆 <b>{name}</b> wins the game with {points}!").format(
            name=seat_name(t, table.seats[table.winner]),
            points=points_count(t, table.scores[table.winner]),
        ),
        "",
    ]
    order = sorted(table.seats, key=lambda s: table.scores[s.number], reverse=True)
    for place, seat in enumerate(order, start=1):
        lines.append(f"{place}. {seat_name(t, seat)} — {table.scores[seat.number]}")
    return GameMessage("\n".join(lines))
