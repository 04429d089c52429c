"""Words every game's messages share: seat names, computer levels, points and seconds."""

from __future__ import annotations

import html

from ..i18n import Translator
from .views import SeatInfo


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
    """'1 point' / '40 points' in the reader's language."""
    return t.ngettext("{n} point", "{n} points", n).format(n=n)


def seconds_count(t: Translator, n: int) -> str:
    """'1 second' / '30 seconds' in the reader's language."""
    return t.ngettext("{n} second", "{n} seconds", n).format(n=n)


def time_left(t: Translator, seconds: float) -> str:
    """The whole seconds left of a turn (never negative), in words."""
    return seconds_count(t, max(0, round(seconds)))
