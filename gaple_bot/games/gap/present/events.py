"""One line per public event for the table's 'last moves' list."""

from __future__ import annotations

from ....i18n import Translator
from ...texts import seat_name
from ...views import SeatInfo
from ..rules import Event, Played
from .cards import card_text, cards_text


def event_line(t: Translator, seats: tuple[SeatInfo, ...], event: Event) -> str | None:
    """A play as a sentence; None for refills and the round's end (the table shows those)."""
    if not isinstance(event, Played):
        return None
    name = seat_name(t, seats[event.seat], seats)
    if event.taken:
        return t.gettext("{name} played {card} and took {taken}").format(
            name=name, card=card_text(event.card), taken=cards_text(event.taken)
        )
    return t.gettext("{name} played {card}: it joins the middle").format(
        name=name, card=card_text(event.card)
    )


def recent_lines(
    t: Translator, seats: tuple[SeatInfo, ...], events: tuple[Event, ...], count: int
) -> list[str]:
    """The last `count` plays as sentences, oldest first."""
    lines = [line for e in events if (line := event_line(t, seats, e)) is not None]
    return lines[-count:]
