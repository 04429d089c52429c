"""One line per public event for the table's 'last moves' list."""

from __future__ import annotations

from ....i18n import Translator
from ...texts import seat_name
from ...views import SeatInfo
from ..rules import Discarded, Event, Passed, Played, Side, tile_text


def event_line(t: Translator, seats: tuple[SeatInfo, ...], event: Event) -> str | None:
    """The event as a sentence; None for events the table shows elsewhere (round end)."""
    if isinstance(event, Played):
        name = seat_name(t, seats[event.seat], seats)
        tile = tile_text(event.tile)
        if event.ends is None:
            return t.gettext("{name} led {tile}").format(name=name, tile=tile)
        if event.side is Side.LEFT:
            return t.gettext("{name} played {tile} on the left ({end})").format(
                name=name, tile=tile, end=event.ends[0]
            )
        return t.gettext("{name} played {tile} on the right ({end})").format(
            name=name, tile=tile, end=event.ends[1]
        )
    if isinstance(event, Passed):
        name = seat_name(t, seats[event.seat], seats)
        left, right = event.ends
        if left == right:
            return t.gettext("{name} passed: nothing fits {end}").format(name=name, end=left)
        return t.gettext("{name} passed: nothing fits {left} or {right}").format(
            name=name, left=left, right=right
        )
    if isinstance(event, Discarded):
        return t.gettext("{name} could not play and discarded a tile face down").format(
            name=seat_name(t, seats[event.seat], seats)
        )
    return None


def recent_lines(
    t: Translator, seats: tuple[SeatInfo, ...], events: tuple[Event, ...], count: int
) -> list[str]:
    """The last `count` public moves as sentences, oldest first."""
    lines = [line for e in events if (line := event_line(t, seats, e)) is not None]
    return lines[-count:]
