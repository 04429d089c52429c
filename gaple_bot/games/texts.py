"""Words and lines every game's messages share: seat names, levels, points, seconds, the
seat rows and last moves of a table, totals and final standings."""

from __future__ import annotations

import html
from datetime import datetime
from typing import Any

from ..i18n import Translator
from .views import GameMessage, SeatInfo, TableView


def seat_name(t: Translator, seat: SeatInfo) -> str:
    """The seat's display name, HTML-escaped; computer players say their level."""
    if seat.former:
        return t.gettext("{name} 🤖").format(name=former_player_name(t))
    if seat.is_computer:
        level = computer_level_name(t, seat.computer_level or "normal")
        # Numbered by seat, so two computers at one table can be told apart.
        return t.gettext("🤖 Computer {seat} ({level})").format(seat=seat.number + 1, level=level)
    name = html.escape(seat.name)
    if seat.autoplay:
        return t.gettext("{name} 🤖").format(name=name)
    return name


def former_player_name(t: Translator) -> str:
    """The neutral name of someone who deleted their data, where their games still show."""
    return t.gettext("a former player")


def computer_level_name(t: Translator, level: str) -> str:
    """A computer level's name in the reader's language."""
    names = {
        "easy": t.pgettext("computer level", "easy"),
        "normal": t.pgettext("computer level", "normal"),
        "hard": t.pgettext("computer level", "hard"),
    }
    return names.get(level, level)


def points_count(t: Translator, n: int) -> str:
    """'1 point' / '40 points' / '-1 point' in the reader's language (the plural form
    follows the size of the number: Gap's scores can be negative)."""
    return t.ngettext("{n} point", "{n} points", abs(n)).format(n=n)


def seconds_count(t: Translator, n: int) -> str:
    """'1 second' / '30 seconds' in the reader's language."""
    return t.ngettext("{n} second", "{n} seconds", n).format(n=n)


def time_left(t: Translator, seconds: float) -> str:
    """The whole seconds left of a turn (never negative), in words."""
    return seconds_count(t, max(0, round(seconds)))


def seat_row(
    t: Translator, table: TableView[Any], seat: SeatInfo, details: list[str], now: datetime
) -> str:
    """A seat's line on the table: ▶️ for the seat to move (with a person's time left), its
    name and the game's details."""
    row = t.gettext("{name} — {details}").format(
        name=seat_name(t, seat), details=" · ".join(details)
    )
    if seat.number != table.to_move:
        return "▫️ " + row
    if table.deadline is not None and not seat.computer_moves:
        left = time_left(t, (table.deadline - now).total_seconds())
        row = t.gettext("{row} · ⏳ {time}").format(row=row, time=left)
    return "▶️ " + row


def last_moves(t: Translator, recent: list[str]) -> list[str]:
    """The table's 'last moves' block (nothing when there are none)."""
    if not recent:
        return []
    return ["", t.gettext("Last moves:"), *("• " + line for line in recent)]


def waiting_line(t: Translator, table: TableView[Any]) -> str | None:
    """'Waiting for Ana.' in a hand off its turn; None when nobody is to move."""
    if table.to_move is None:
        return None
    return t.gettext("Waiting for {name}.").format(name=seat_name(t, table.seats[table.to_move]))


TOTALS_SEPARATOR = " · "
"""Between the seats of the totals line."""


def total_item(t: Translator, seat: SeatInfo, points: int) -> str:
    """'Ana 40': one seat of the totals line."""
    return t.gettext("{name} {points}").format(name=seat_name(t, seat), points=points)


def totals_template(t: Translator) -> str:
    """'Totals: {totals}', for the seats joined by TOTALS_SEPARATOR."""
    return t.gettext("Totals: {totals}")


def totals_line(t: Translator, table: TableView[Any]) -> str:
    """'Totals: Ana 40 · Budi 12' after a round."""
    totals = TOTALS_SEPARATOR.join(total_item(t, s, table.scores[s.number]) for s in table.seats)
    return totals_template(t).format(totals=totals)


def game_won_line(t: Translator, table: TableView[Any]) -> str:
    """'🏆 Ana wins the game with 105 points!', once the game is won."""
    assert table.winner is not None
    return t.gettext("🏆 <b>{name}</b> wins the game with {points}!").format(
        name=seat_name(t, table.seats[table.winner]),
        points=points_count(t, table.scores[table.winner]),
    )


def standings(t: Translator, table: TableView[Any]) -> GameMessage:
    """The game's winner and the final totals, best first (the bot adds Play again)."""
    lines = [game_won_line(t, table), ""]
    order = sorted(table.seats, key=lambda s: table.scores[s.number], reverse=True)
    for place, seat in enumerate(order, start=1):
        lines.append(f"{place}. {seat_name(t, seat)} — {table.scores[seat.number]}")
    return GameMessage("\n".join(lines))
