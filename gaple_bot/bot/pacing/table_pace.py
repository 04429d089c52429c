"""The pace of the group's table edits: at most every few seconds, and every half minute while
everyone at the table plays in the page, so that moves spend little of the group's budget and
the token's (the moves made meanwhile show in one edit)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ...service.pages import OpenPages
from ...service.views import SeatInfo, TableView

PAGE_TABLE_EDIT_SECONDS = 30.0
"""Least time between two edits of a table whose every player is in the page (a round's end
and a game's end are shown at once, whatever the time)."""
CHAT_TABLE_EDIT_SECONDS = 5.0
"""Least time between two edits of a table played in chat: each person sees their own moves
at once in their private chat; the group sees a person's move with the computers' replies."""


@dataclass
class _Held:
    table: TableView[Any]
    timer: asyncio.TimerHandle


class TablePace:
    """Decides whether a table edit goes now or waits, and sends the newest one when its time
    comes (`edit` sends it); one process's tables."""

    def __init__(
        self,
        pages: OpenPages,
        edit: Callable[[TableView[Any]], None],
        interval: float = PAGE_TABLE_EDIT_SECONDS,
        chat_interval: float = CHAT_TABLE_EDIT_SECONDS,
        backlog: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self._pages = pages
        self._edit = edit
        self._interval = interval
        self._chat_interval = chat_interval
        self._backlog = backlog
        """Seconds the bot's messages already wait for their turn: a chat table's pace
        widens by as much (an edit made now would only wait in that queue, where no later
        move can merge with it; held here, the moves made meanwhile show in one edit)."""
        self._last: dict[int, float] = {}
        self._held: dict[int, _Held] = {}

    def show(self, table: TableView[Any], *, at_once: bool = False) -> None:
        """Edit the table now, or hold the edit back while the last one is recent (a newer
        table replaces a held one)."""
        game_id = table.game_id
        loop = asyncio.get_running_loop()
        now = loop.time()
        in_page = self.all_in_page(game_id, table.seats)
        interval = self._interval if in_page else self._chat_interval
        if at_once or interval <= 0:
            self._edit_now(table, now)
            return
        if not in_page:
            interval += self._backlog()
        held = self._held.get(game_id)
        if held is not None:
            held.table = table
            return
        due = self._last.get(game_id, now - interval) + interval
        if due <= now:
            self._edit_now(table, now)
            return
        self._held[game_id] = _Held(table, loop.call_later(due - now, self._release, game_id))

    def all_in_page(self, game_id: int, seats: Iterable[SeatInfo]) -> bool:
        """Whether every person who plays their own seat has the game's page open."""
        people = [s.user_id for s in seats if s.user_id is not None and not s.autoplay]
        return all(self._pages.is_open(game_id, user_id) for user_id in people)

    def sent(self, game_id: int) -> None:
        """A new table message went out (a round began): what was held back is older."""
        self._unhold(game_id)
        self._last[game_id] = asyncio.get_running_loop().time()

    def flush(self, game_id: int) -> None:
        """The game ended: the edit held back goes now (the table's last state), and the
        game's table is forgotten."""
        held = self._unhold(game_id)
        if held is not None:
            self._edit(held.table)
        self._last.pop(game_id, None)

    def flush_all(self) -> None:
        """Shutting down: every edit held back goes now."""
        for game_id in list(self._held):
            held = self._unhold(game_id)
            if held is not None:
                self._edit(held.table)

    def forget(self, game_id: int) -> None:
        """The game's table is not edited any more: drop what was held back."""
        self._unhold(game_id)
        self._last.pop(game_id, None)

    def _unhold(self, game_id: int) -> _Held | None:
        """Take back the edit held for the game, if any (its timer no longer fires)."""
        held = self._held.pop(game_id, None)
        if held is not None:
            held.timer.cancel()
        return held

    def _edit_now(self, table: TableView[Any], now: float) -> None:
        self._unhold(table.game_id)
        self._last[table.game_id] = now
        self._edit(table)

    def _release(self, game_id: int) -> None:
        held = self._held.pop(game_id, None)
        if held is not None:
            self._last[game_id] = asyncio.get_running_loop().time()
            self._edit(held.table)
