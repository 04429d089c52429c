"""Pieces shared by every rendered message: tiles, lines, names and durations."""

from __future__ import annotations

import html
from dataclasses import dataclass

from telegram import InlineKeyboardMarkup

from ...games.gaple.rules import tile_text, tiles_in
from ...games.gaple.rules.tiles import HIGH, WEIGHT
from ...i18n import Translator
from ...service.views import SeatInfo


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's HTML text and its buttons."""

    text: str
    markup: InlineKeyboardMarkup | None = None


def line_text(line: tuple[tuple[int, int], ...]) -> str:
    """The line of play as players read it, left to right: [6|6][6|3][3|1]."""
    return "".join(f"[{a}|{b}]" for a, b in line)


def by_weight(mask: int) -> list[int]:
    """A hand's tiles, heaviest first, as a player would sort them."""
    return sorted(tiles_in(mask), key=lambda t: (WEIGHT[t], HIGH[t]), reverse=True)


def hand_text(mask: int) -> str:
    """A hand as tile texts separated by spaces (a dash when empty)."""
    return " ".join(tile_text(t) for t in by_weight(mask)) or "—"


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


def tiles_count(t: Translator, n: int) -> str:
    """'1 tile' / '5 tiles' in the reader's language."""
    return t.ngettext("{n} tile", "{n} tiles", n).format(n=n)


def points_count(t: Translator, n: int) -> str:
    """'1 point' / '40 points' in the reader's language."""
    return t.ngettext("{n} point", "{n} points", n).format(n=n)


def seconds_count(t: Translator, n: int) -> str:
    """'1 second' / '30 seconds' in the reader's language."""
    return t.ngettext("{n} second", "{n} seconds", n).format(n=n)
