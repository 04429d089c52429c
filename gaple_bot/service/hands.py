"""Which messages show a game's hands: stored so that any worker finds them, the reminders
taken so that one worker sends each, and the hands owed to the person to move."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime

from ..store import GameStatus, Store
from ..store.types import utc_now
from .live import LiveCache, LiveGame
from .progress import Progress
from .seen import where_it_stands


class HandMessages:
    """The private and group messages of a game's turns, kept in the database. Callers hold
    the game (see GameCommands, which hold it around each)."""

    def __init__(
        self, store: Store, cache: LiveCache, clock: Callable[[], datetime] = utc_now
    ) -> None:
        self.store = store
        self.cache = cache
        self.clock = clock

    async def stored_turn(self, game_id: int, version: int) -> tuple[int, int, int] | None:
        """(seat, user, message) of the stored hand message of the person whose turn the game
        is at `version` (any worker may have sent it), or None: no person's turn then, or no
        message stored."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.match is None or live.version != version:
            return None
        seat = live.match.to_move
        if seat is None or live.computer_moves(seat):
            return None
        record = live.seats[seat]
        message_id = record.hand_message_id
        if self.store.game_locks.shared:
            # Recorded without the game's lock, perhaps by another worker (see migration
            # 0020): read from the database.
            async with self.store.read() as tx:
                stored = await tx.seats.of_game(game_id)
            message_id = stored[seat].hand_message_id if seat < len(stored) else None
        if record.user_id is None or message_id is None:
            return None
        return seat, record.user_id, message_id

    async def take_reminder(self, game_id: int, version: int) -> tuple[LiveGame, int] | None:
        """The game and the seat of the person whose turn the game is at `version`, once they
        are due their half-time reminder, with the reminder taken in the database so that one
        worker sends it; None if it was taken already, or the game moved on or is paused."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.version != version or live.paused:
            return None
        match = live.match
        if match is None or live.deadline is None or live.deadline <= self.clock():
            # Past the turn's end (a timer run late): the turn's end comes instead.
            return None
        seat = match.to_move
        if seat is None or live.computer_moves(seat) or live.seats[seat].user_id is None:
            return None
        async with self.store.transaction() as tx:
            if not await tx.games.claim_reminder(game_id, version):
                return None
        return live, seat

    async def remember_table_message(self, game_id: int, message_id: int) -> None:
        """Store which group message shows the game (to edit it again after a restart)."""
        async with self.store.transaction() as tx:
            await tx.games.set_message(game_id, message_id)
        live = self.cache.games.get(game_id)
        if live is not None:
            live.message_id = message_id

    async def remember_hand_message(
        self, game_id: int, seat: int, message_id: int | None, *, turn_version: int | None = None
    ) -> None:
        """Store which private message shows a seat its hand; `turn_version`: it holds the
        move buttons of the seat's turn at that version, so its hand is no longer owed."""
        live = self.cache.games.get(game_id)
        if (
            live is not None
            and live.seats[seat].hand_message_id == message_id
            and self._known_alone(live, turn_version)
        ):
            return  # a hand edited in place: stored already, and owed to nobody
        async with self.store.transaction() as tx:
            await tx.seats.set_hand_message(game_id, seat, message_id)
            if turn_version is not None:
                await tx.games.hand_shown(game_id, turn_version)
        if live is not None:
            live.seats[seat] = dataclasses.replace(live.seats[seat], hand_message_id=message_id)
            if turn_version is not None and live.version == turn_version:
                live.hand_due = None

    async def turn_shown(self, game_id: int, version: int) -> bool:
        """The turn at `version` is shown to its person by a message stored already (edited
        with its buttons after a restart), or in the page: its hand is no longer owed. False
        if it was not owed (it went out, or the game is at another version)."""
        live = self.cache.games.get(game_id)
        if live is not None and self._known_alone(live, version):
            return False  # owed to nobody: a turn the page showed as it began
        async with self.store.transaction() as tx:
            owed = await tx.games.hand_shown(game_id, version)
        if live is not None and live.version == version:
            live.hand_due = None
        return owed

    def _known_alone(self, live: LiveGame, version: int | None) -> bool:
        """Whether the cached copy tells, with no read, that nobody is owed the hand of the
        turn at `version` (None: no turn named): only a process working alone writes which
        message shows a hand and whether it is owed, so its copy has them as stored (beside
        other workers they are written without the game's lock, migration 0020)."""
        if self.store.game_locks.shared:
            return False
        return version is None or version != live.version or live.hand_due is None

    async def owed_turn(self, game_id: int, version: int) -> Progress | None:
        """Where the game stands, if the person whose turn it is at `version` is still owed
        their hand and it is this worker's to send: the worker that started the turn sends it
        once it lets the game go, so one owed by a worker that is gone was lost with it (as
        one owed by this worker whose send failed), and is taken over now. None if it went
        out, the game moved on, or a live worker owes it."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.version != version or live.paused:
            return None
        if live.hand_due is None or live.match is None:
            return None
        seat = live.match.to_move
        if seat is None or live.computer_moves(seat):
            return None
        locks = self.store.game_locks
        me, owner = locks.worker_id, live.hand_owner
        if locks.shared:
            # Whether it is owed, and by whom, is recorded without the game's lock (it does
            # not make a copy out of date, migration 0020): read it as stored.
            async with self.store.read() as tx:
                stored = await tx.games.get(game_id)
            if stored.hand_due is None:
                live.hand_due = None
                return None
            owner = stored.hand_owner
        if owner is not None and owner != me and owner in await locks.live_workers():
            return None
        now = self.clock()
        async with self.store.transaction() as tx:
            if not await tx.games.claim_owed_hand(game_id, version, me, now):
                return None
        # Owed anew by this worker: if this send is lost too, the sweep tries again.
        live.hand_due, live.hand_owner = now, me
        return where_it_stands(live, Progress(game_id))
