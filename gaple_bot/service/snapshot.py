"""A game as it stands, read at once, for a front end to give each viewer their part."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .breaks import RoundBreak
from .facts import GameFacts, facts_of
from .live import LiveGame
from .lobby import Lobbies
from .seen import people_hands, table_view
from .views import HandView, LobbyView, TableView


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """A game as it stands, read at once: its facts, its lobby, and while it is played its
    table and every person's own view (a front end gives each viewer their part only)."""

    facts: GameFacts
    lobby: LobbyView
    table: TableView[Any] | None
    hands: Mapping[int, HandView[Any, Any]] = field(default_factory=dict)
    """Each person's seat's own view, by seat."""
    round_break: RoundBreak | None = None
    """The break after a round's end, while it runs: until when, who said Next, and the
    round that ended (every hand of it revealed, as the rules reveal them)."""

    def hand_of(self, user_id: int) -> HandView[Any, Any] | None:
        """The view of the person's seat, if they sit at the table being played."""
        seat = self.facts.seat_of(user_id)
        return None if seat is None else self.hands.get(seat.number)


def snapshot_of(live: LiveGame, lobbies: Lobbies) -> GameSnapshot:
    """The cached game as it stands (read under its lock)."""
    facts = facts_of(live)
    lobby = lobbies.view(live)
    if live.match is None:
        return GameSnapshot(facts, lobby, None)
    table = table_view(live)
    return GameSnapshot(facts, lobby, table, people_hands(live, table), live.round_break)
