"""Locks on games shared by every worker: PostgreSQL advisory locks held on one connection."""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import Any

from sqlalchemy import Executable, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

log = logging.getLogger(__name__)

GAME_LOCK_SPACE = 0x67616D65
"""The first key of every game's advisory lock (the game id is the second), so they never
meet another application's locks on the same server (nor the migration lock, a single key)."""
FIRST_WAIT = 0.002
LONGEST_WAIT = 0.05
"""Seconds between tries while another worker holds the lock (doubling from the first)."""

_TRY = text("SELECT pg_try_advisory_lock(:space, :game)")
_UNLOCK = text("SELECT pg_advisory_unlock(:space, :game)")
_REVISION = text("SELECT revision FROM games WHERE id = :game")


class GameLocks:
    """No-op locks for a database one process serves alone (SQLite)."""

    shared = False
    """Whether other processes may work on the same games."""

    async def acquire(self, game_id: int) -> None:
        """Wait until no other process works on the game (a caller holds at most one task per
        game at a time: this process's own tasks queue on an asyncio lock first)."""

    async def release(self, game_id: int) -> None:
        """Let other processes work on the game."""

    async def revision(self, game_id: int) -> int | None:
        """The game's stored revision (None: no such game), read while holding its lock."""
        return None

    async def close(self) -> None:
        """Release every lock and close the connection."""


class AdvisoryLocks(GameLocks):
    """Session advisory locks on one connection of this process. A lock held by a process that
    dies goes with its connection, so a killed worker never leaves a game locked.

    Waiting uses `pg_try_advisory_lock` and short sleeps rather than `pg_advisory_lock`: the
    connection carries every game's lock, and one blocked statement would hold up the rest.
    Each statement runs to its end even if its caller is cancelled: one cut off half-way would
    cost the connection, and with it every lock this process holds.
    """

    shared = True

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._connection: AsyncConnection | None = None
        self._talk = asyncio.Lock()
        """One statement at a time on the connection."""
        self._running: set[asyncio.Task[Any]] = set()
        """Statements under way, kept until done (a cancelled caller no longer awaits them)."""

    async def acquire(self, game_id: int) -> None:
        wait = FIRST_WAIT
        while True:
            asking = self._start(_TRY, space=GAME_LOCK_SPACE, game=game_id)
            try:
                if await asyncio.shield(asking):
                    return
            except asyncio.CancelledError:
                asking.add_done_callback(partial(self._give_back, game_id))
                raise
            await asyncio.sleep(wait)
            wait = min(wait * 2, LONGEST_WAIT)

    async def release(self, game_id: int) -> None:
        if not await asyncio.shield(self._start(_UNLOCK, space=GAME_LOCK_SPACE, game=game_id)):
            # The connection was replaced while the lock was held: the lock went with it.
            log.warning("game %d was not locked on this worker's lock connection", game_id)

    async def revision(self, game_id: int) -> int | None:
        revision: int | None = await asyncio.shield(self._start(_REVISION, game=game_id))
        return revision

    async def close(self) -> None:
        async with self._talk:
            if self._connection is not None:
                await self._connection.close()
                self._connection = None

    def _give_back(self, game_id: int, asking: asyncio.Task[Any]) -> None:
        """After a try whose caller was cancelled: if it took the lock, release it."""
        if not asking.cancelled() and asking.exception() is None and asking.result():
            self._start(_UNLOCK, space=GAME_LOCK_SPACE, game=game_id)

    def _start(self, statement: Executable, **params: int) -> asyncio.Task[Any]:
        task = asyncio.create_task(self._say(statement, params))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return task

    async def _say(self, statement: Executable, params: dict[str, int]) -> Any:
        async with self._talk:
            if self._connection is None:
                self._connection = await self._engine.connect()
            connection = self._connection
            try:
                return await connection.scalar(statement, params)
            except Exception:
                await self._lose(connection)
                raise

    async def _lose(self, connection: AsyncConnection) -> None:
        """Give up a connection whose state is unknown after an error: closing it releases
        every lock it held, which the database has done anyway if the connection broke."""
        self._connection = None
        log.warning("the game lock connection failed; its locks are released")
        try:
            await connection.invalidate()
        except Exception:
            log.debug("invalidating the lock connection failed", exc_info=True)


def game_locks(engine: AsyncEngine) -> GameLocks:
    """Advisory locks on PostgreSQL, which several workers may share; no-ops on SQLite."""
    if engine.dialect.name == "postgresql":
        return AdvisoryLocks(engine)
    return GameLocks()
