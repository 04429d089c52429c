"""Gap's rules in a few lines, its lobby title, and its option as /settings shows it."""

from __future__ import annotations

from ....i18n import Translator
from ..rules import GapConfig


def render_rules(t: Translator, config: GapConfig) -> list[str]:
    """G1-G6 in a few lines."""
    return [
        t.gettext("<b>Gap rules here</b>: first to {target} points.").format(target=config.target),
        t.gettext("• Colour cards 0–9; six cards each (five with five or six players)."),
        t.gettext("• Four cards lie face up in the middle; hands are never refilled."),
        t.gettext("• Play a card: if the middle has its value, take all of those."),
        t.gettext(
            "• Otherwise take one card of each neighbour value (0 and 9 are neighbours); "
            "if none is there, your card joins the middle."
        ),
        t.gettext("• Taken cards and your card go to your collection."),
        t.gettext(
            "• When the hands are empty, a collection scores its largest colour counts minus "
            "its smallest: collect unevenly!"
        ),
    ]


def lobby_title(t: Translator, config: GapConfig) -> str:
    """The lobby's first line: the game and its target."""
    return t.gettext("<b>Gap</b> · first to {target}").format(target=config.target)


def option_line(t: Translator, config: GapConfig) -> str:
    """The /settings line of Gap's own option, the target."""
    return t.gettext("Target: {target} points").format(target=config.target)
