"""Which chat messages show each game on this worker: its lobby, its table, its turn's hand.

What must outlive this worker is stored as well (the game's group message and each seat's
hand message, through the service); this is the worker's own view of them, adopted from the
stored ids after a restart or when another worker showed the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from .outbox import MessageHandle

RETIRED_TABLES_KEPT = 4096
"""How many games' retired table messages are remembered (a bound on the memory)."""


@dataclass(frozen=True, slots=True)
class TurnMessage:
    """The private message that holds a person's live move buttons."""

    seat: int
    user_id: int
    message_id: int
    version: int


class ShownMessages:
    """Each game's lobby and table message handles, its live turn message, and the lobbies
    that show the button to open a private chat."""

    def __init__(self) -> None:
        self.tables: dict[int, MessageHandle] = {}
        self.lobbies: dict[int, MessageHandle] = {}
        self._retired: dict[int, None] = {}
        """Games whose stored table message is not to be edited again (the next table goes
        out as a fresh message: after a pause, the old one is far up the chat)."""
        self._turns: dict[int, TurnMessage] = {}
        self._join_links: set[int] = set()

    # Tables --------------------------------------------------------------------------------

    def table_retired(self, game_id: int) -> bool:
        """Whether the game's stored table message is not to be edited again."""
        return game_id in self._retired

    def new_table(self, game_id: int, handle: MessageHandle) -> None:
        """A fresh table message is on its way for the game."""
        self._retired.pop(game_id, None)
        self.tables[game_id] = handle

    def retire_table(self, game_id: int) -> None:
        """The game's table message will not be edited again."""
        self.tables.pop(game_id, None)
        self._retired[game_id] = None
        if len(self._retired) > RETIRED_TABLES_KEPT:
            # The oldest are of games long over (a paused game is rare and soon goes on).
            del self._retired[next(iter(self._retired))]

    # Lobbies -------------------------------------------------------------------------------

    def lobby_closed(self, game_id: int) -> None:
        """The lobby message is final: nothing will edit it again."""
        self.lobbies.pop(game_id, None)
        self._join_links.discard(game_id)

    def ask_for_join_link(self, game_id: int) -> None:
        """From now on the lobby shows the button that opens the private chat."""
        self._join_links.add(game_id)

    def needs_join_link(self, game_id: int) -> bool:
        """Whether someone failed to join for want of a private chat."""
        return game_id in self._join_links

    # Turns ---------------------------------------------------------------------------------

    def turn(self, game_id: int) -> TurnMessage | None:
        """The game's live-buttons message, if any."""
        return self._turns.get(game_id)

    def set_turn(self, game_id: int, turn: TurnMessage) -> None:
        """The game's live buttons are on this message now."""
        self._turns[game_id] = turn

    def pop_turn(self, game_id: int) -> TurnMessage | None:
        """The game's live-buttons message, forgotten (its buttons are to go)."""
        return self._turns.pop(game_id, None)

    def adopt_turn(self, game_id: int, turn: TurnMessage) -> None:
        """The message that holds this turn's live buttons, as the database or a tap shows
        it: kept in place of one remembered for another turn (shown on another worker since,
        its buttons already gone), but not of this worker's own for the same turn."""
        known = self._turns.get(game_id)
        if known is None or (known.seat, known.version) != (turn.seat, turn.version):
            self._turns[game_id] = turn

    def game_over(self, game_id: int) -> None:
        """The game ended: no table edit and no live buttons any more."""
        self.tables.pop(game_id, None)
        self._turns.pop(game_id, None)
