"""Words and lines every game's messages share: seat names, levels, points, seconds, the
seat rows and last moves of a table, totals and final standings."""

from __future__ import annotations

import html
import unicodedata
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ..i18n import Translator
from .views import GameMessage, SeatInfo, TableView

NAME_LIMIT = 16
"""The most characters of a person's name shown anywhere (the chat, the pictures, the page):
a longer one is cut to this many, its last an ellipsis."""
ELLIPSIS = "…"
ZERO_WIDTH_JOINER = "\u200d"


def short_name(name: str) -> str:
    """`name` as every text, picture and page shows it: cut with an ellipsis to NAME_LIMIT
    characters when longer, never inside a letter's accents or an emoji's sequence."""
    if len(name) <= NAME_LIMIT:
        return name
    cut = NAME_LIMIT - len(ELLIPSIS)
    while cut > 0 and (_joins_previous(name[cut]) or name[cut - 1] == ZERO_WIDTH_JOINER):
        cut -= 1
    # A flag is a pair of regional indicators: an odd run before the cut ends in half of one.
    run = 0
    while run < cut and _regional_indicator(name[cut - 1 - run]):
        run += 1
    cut -= run % 2
    return name[:cut].rstrip() + ELLIPSIS


def _joins_previous(char: str) -> bool:
    """Whether `char` belongs to the character before it: an accent or other mark, a
    variation selector, a skin tone, an emoji's tag or a zero-width joiner."""
    code = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or char == ZERO_WIDTH_JOINER
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
    )


def _regional_indicator(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def seat_name(t: Translator, seat: SeatInfo, seats: Sequence[SeatInfo]) -> str:
    """The seat's display name, HTML-escaped, among the table's `seats`: a person's name cut
    to NAME_LIMIT, a computer player's level (numbered when several share it)."""
    if seat.former:
        return t.gettext("{name} 🤖").format(name=former_player_name(t))
    if seat.is_computer:
        return html.escape(computer_name(t, _level(seat), computer_number(seat, seats)))
    name = html.escape(short_name(seat.name))
    if seat.autoplay:
        return t.gettext("{name} 🤖").format(name=name)
    return name


def computer_number(seat: SeatInfo, seats: Sequence[SeatInfo]) -> int | None:
    """The computer's number among the table's computers of its level, in seat order, so
    that they can be told apart (None when it is the only one of its level)."""
    same = sorted(
        other.number
        for other in seats
        if other.is_computer and not other.former and _level(other) == _level(seat)
    )
    return same.index(seat.number) + 1 if len(same) > 1 and seat.number in same else None


def _level(seat: SeatInfo) -> str:
    return seat.computer_level or "normal"


def computer_name(t: Translator, level: str, number: int | None = None) -> str:
    """'🤖 Hard', or '🤖 Hard 2' for the second of a table's computers of that level."""
    names = {
        "easy": t.pgettext("computer name", "Easy"),
        "normal": t.pgettext("computer name", "Normal"),
        "hard": t.pgettext("computer name", "Hard"),
    }
    name = names.get(level, level)
    if number is None:
        return t.gettext("🤖 {level}").format(level=name)
    return t.gettext("🤖 {level} {number}").format(level=name, number=number)


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
        name=seat_name(t, seat, table.seats), details=" · ".join(details)
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
    name = seat_name(t, table.seats[table.to_move], table.seats)
    return t.gettext("Waiting for {name}.").format(name=name)


TOTALS_SEPARATOR = " · "
"""Between the seats of the totals line."""


def total_item(t: Translator, table: TableView[Any], seat: SeatInfo) -> str:
    """'Ana 40': one seat of the totals line."""
    name = seat_name(t, seat, table.seats)
    return t.gettext("{name} {points}").format(name=name, points=table.scores[seat.number])


def totals_template(t: Translator) -> str:
    """'Totals: {totals}', for the seats joined by TOTALS_SEPARATOR."""
    return t.gettext("Totals: {totals}")


def totals_line(t: Translator, table: TableView[Any]) -> str:
    """'Totals: Ana 40 · Budi 12' after a round."""
    totals = TOTALS_SEPARATOR.join(total_item(t, table, s) for s in table.seats)
    return totals_template(t).format(totals=totals)


def game_won_line(t: Translator, table: TableView[Any]) -> str:
    """'🏆 Ana wins the game with 105 points!', once the game is won."""
    assert table.winner is not None
    return t.gettext("🏆 <b>{name}</b> wins the game with {points}!").format(
        name=seat_name(t, table.seats[table.winner], table.seats),
        points=points_count(t, table.scores[table.winner]),
    )


def standings(t: Translator, table: TableView[Any]) -> GameMessage:
    """The game's winner and the final totals, best first (the bot adds Play again)."""
    lines = [game_won_line(t, table), ""]
    order = sorted(table.seats, key=lambda s: table.scores[s.number], reverse=True)
    for place, seat in enumerate(order, start=1):
        name = seat_name(t, seat, table.seats)
        lines.append(f"{place}. {name} — {table.scores[seat.number]}")
    return GameMessage("\n".join(lines))
