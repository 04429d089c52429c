"""Whether a process works alone on a PostgreSQL database or beside other workers: one lock says."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from sqlalchemy import TextClause, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .game_locks import STATEMENT_SECONDS, THIS_DATABASE, close_for_good

log = logging.getLogger(__name__)

TENANCY_SPACE = 0x736F6C65
"""The first key of the tenancy lock (the second is 0): held exclusively by a process that
works alone, shared by workers that work together."""
WAIT_SECONDS = 1.0
"""Between tries while the other kind of process holds the database (a process working alone
still stopping while its successor starts, or workers still running)."""
WATCH_SECONDS = 10.0
"""How often the tenancy connection is checked: a lost connection loses the lock with it."""
RETAKE_TRIES = 16
RETAKE_WAIT = 0.5
"""After the connection was lost: how many refusals of the lock, this long apart, while the
old session ends on the server, before the process gives up (tries that cannot reach the
database do not count)."""

_TRY_ALONE = text("SELECT pg_try_advisory_lock(:space, 0)")
_TRY_SHARED = text("SELECT pg_try_advisory_lock_shared(:space, 0)")
_UNLOCK_SHARED = text("SELECT pg_advisory_unlock_shared(:space, 0)")
_ALIVE = text("SELECT 1")
_SESSION = text("SELECT pg_backend_pid()")
_END_OLD_SESSION = text(
    "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND classid = :space AND objid = 0 AND objsubid = 2 AND pid = :pid" + THIS_DATABASE
)


class Tenancy:
    """This process's hold on the database: alone (no other process may work on it, so games
    need no locks across processes and group messages no shared queue) or shared with other
    workers. SQLite is always worked on alone; see `take` for PostgreSQL."""

    def __init__(
        self,
        alone: bool,
        engine: AsyncEngine | None = None,
        connection: AsyncConnection | None = None,
    ) -> None:
        self.alone = alone
        self._engine = engine
        self._connection = connection
        self._session: int | None = None
        """The server process of the session holding the lock (to end it if the connection
        half-closed: the server would keep the lock for as long as it thinks it is open)."""
        self._watching: asyncio.Task[None] | None = None

    @classmethod
    async def take(cls, engine: AsyncEngine, *, alone_if_possible: bool) -> Tenancy:
        """The tenancy of `engine`'s database. A process that may work alone
        (`alone_if_possible`: nothing started it as one of several workers) works alone unless
        workers are on the database, whom it joins; a worker works beside the others. Either
        waits while a process working alone holds the database (a restart's overlap)."""
        if engine.dialect.name != "postgresql":
            return cls(alone=True)
        engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        connection = await engine.connect()
        try:
            waited = False
            while True:
                alone = alone_if_possible and await _try(connection, _TRY_ALONE)
                if not alone and await _try(connection, _TRY_SHARED):
                    # The process working alone may have stopped between the two tries. Held
                    # shared, the lock is taken alone if no other session holds it (a session
                    # never conflicts with itself), so a restart is not left sharing by chance.
                    if alone_if_possible and await _try(connection, _TRY_ALONE):
                        await _try(connection, _UNLOCK_SHARED)
                        alone = True
                    shared = True
                else:
                    shared = False
                if alone or shared:
                    if waited:
                        log.warning("the process working alone on the database has stopped")
                    tenancy = cls(alone, engine, connection)
                    tenancy._session = await _session_of(connection)
                    return tenancy
                if not waited:
                    log.warning(
                        "another process works alone on the database: waiting for it to stop"
                        " (processes started apart to share it need SHARED_DATABASE=yes)"
                    )
                    waited = True
                await asyncio.sleep(WAIT_SECONDS)
        except BaseException:
            await close_for_good(connection)
            raise

    def watch(self, on_lost: Callable[[], None]) -> None:
        """Check the tenancy connection now and then; when it is lost, take the lock again on
        a new one, and if another kind of process got in meanwhile, call `on_lost` (this
        process must stop: it no longer knows who else works on its games)."""
        if self._engine is None or self._watching is not None:
            return
        self._watching = asyncio.create_task(self._watch(on_lost))

    async def _watch(self, on_lost: Callable[[], None]) -> None:
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            if not await self.check():
                on_lost()
                return

    async def check(self) -> bool:
        """Whether this process still holds the database as it did: its connection answers, or
        a new one took the same kind of hold (False: another kind of process got in)."""
        if self._engine is None or await self._alive():
            return True
        log.warning("the tenancy connection was lost; taking its lock again")
        if await self._retake():
            return True
        log.critical(
            "this process %s the database and lost its hold on it: stopping",
            "worked alone on" if self.alone else "shared",
        )
        return False

    async def _alive(self) -> bool:
        connection = self._connection
        if connection is None:
            return False
        try:
            async with asyncio.timeout(STATEMENT_SECONDS):
                await connection.scalar(_ALIVE)
        except Exception:
            self._connection = None
            await close_for_good(connection)
            return False
        return True

    async def _retake(self) -> bool:
        """Take the same kind of hold on a new connection (True: taken). While the database
        cannot be reached this keeps trying (nothing works without it anyway); False only if
        the lock is refused RETAKE_TRIES times: another kind of process holds it."""
        statement = _TRY_ALONE if self.alone else _TRY_SHARED
        refused = 0
        unreachable = False
        while refused < RETAKE_TRIES:
            try:
                connection = await self._connect()
            except Exception:
                if not unreachable:
                    log.warning("the database cannot be reached; trying again", exc_info=True)
                    unreachable = True
                await asyncio.sleep(RETAKE_WAIT)
                continue
            try:
                taken = await _try(connection, statement)
                if not taken and self._session is not None:
                    # Its old session may hold the lock still (a half-closed connection).
                    await _end_session(connection, self._session)
            except Exception:
                await close_for_good(connection)
                await asyncio.sleep(RETAKE_WAIT)
                continue
            if taken:
                self._connection = connection
                self._session = await _session_of(connection)
                return True
            await close_for_good(connection)
            refused += 1
            await asyncio.sleep(RETAKE_WAIT)
        return False

    async def _connect(self) -> AsyncConnection:
        assert self._engine is not None
        async with asyncio.timeout(STATEMENT_SECONDS):
            return await self._engine.connect()

    async def close(self) -> None:
        """Let go of the database (the next process may take it as it wishes)."""
        if self._watching is not None:
            self._watching.cancel()
            await asyncio.gather(self._watching, return_exceptions=True)
            self._watching = None
        connection, self._connection = self._connection, None
        if connection is not None:
            await close_for_good(connection)


async def _session_of(connection: AsyncConnection) -> int | None:
    """The server process of the connection's session."""
    async with asyncio.timeout(STATEMENT_SECONDS):
        pid = await connection.scalar(_SESSION)
    return None if pid is None else int(pid)


async def _end_session(connection: AsyncConnection, pid: int) -> None:
    """End this process's old session if it still holds the tenancy lock."""
    async with asyncio.timeout(STATEMENT_SECONDS):
        await connection.execute(_END_OLD_SESSION, {"space": TENANCY_SPACE, "pid": pid})


async def _try(connection: AsyncConnection, statement: TextClause) -> bool:
    async with asyncio.timeout(STATEMENT_SECONDS):
        return bool(await connection.scalar(statement, {"space": TENANCY_SPACE}))
