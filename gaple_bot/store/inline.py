"""SQLite's units of work that write, run in the event loop's own thread: their statements go
to the file at once, not through a driver thread and a turn of the loop each."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from sqlalchemy import Connection, Engine, Result, ScalarResult
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql import Executable

log = logging.getLogger(__name__)


class InlineSession:
    """A unit of work's statements on a synchronous session: each runs when it is awaited,
    without giving the loop a turn (see `Statements`)."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def execute(self, statement: Executable, params: Any = None) -> Result[*tuple[Any, ...]]:
        """Run the statement now. Its rows come from the cursor as they are read (the async
        session reads them all at once): read a RETURNING statement's to the end within the
        unit of work, or SQLite refuses its COMMIT with the statement still running."""
        return self._session.execute(statement, params)

    async def scalar(self, statement: Executable, params: Any = None) -> Any:
        """Run the statement now: its first row's first column."""
        return self._session.scalar(statement, params)

    async def scalars(self, statement: Executable, params: Any = None) -> ScalarResult[Any]:
        """Run the statement now: its rows' first columns."""
        return self._session.scalars(statement, params)

    def get_bind(self) -> Engine | Connection:
        """The engine the statements run on."""
        return self._session.get_bind()

    def begin_nested(self) -> AbstractAsyncContextManager[None]:
        """A savepoint: what runs inside rolls back alone if it raises."""
        return self._savepoint()

    @asynccontextmanager
    async def _savepoint(self) -> AsyncIterator[None]:
        with self._session.begin_nested():
            yield


FIRST_PAUSE_SECONDS = 0.001
LONGEST_PAUSE_SECONDS = 0.05
CHECKPOINT_COMMITS = 200
"""Units of work between two checkpoints: a few pages each, so the WAL stays near SQLite's own
default of 1,000 pages between them."""


class InlineWriter:
    """Units of work that write, on the one connection of a synchronous engine. The caller
    runs one at a time (the store's write turn): they share that connection.

    Its connection never waits in SQLite's busy handler, which would hold up the whole loop
    while another connection writes (in another process, or a unit of work of another store
    in this loop that awaits something meanwhile): a unit of work that finds the write lock
    taken tries again after a pause, letting the loop run, for up to `busy_seconds`.

    Nor does it checkpoint (copy the WAL's pages into the file and sync it, which can take a
    slow disk tens of milliseconds): every `checkpoint_every` units of work, `checkpoint`
    runs in the background, in another thread."""

    def __init__(
        self,
        engine: Engine,
        busy_seconds: float,
        checkpoint: Callable[[], Awaitable[None]],
        checkpoint_every: int = CHECKPOINT_COMMITS,
    ) -> None:
        self.engine = engine
        self.busy_seconds = busy_seconds
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        self._checkpoint = checkpoint
        self._checkpoint_every = checkpoint_every
        self._commits = 0
        self._checkpointing: asyncio.Task[None] | None = None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[InlineSession]:
        """A unit of work that commits when the block ends and rolls back if it raises."""
        with self._sessions() as session:
            await self._take_write_lock(session)
            try:
                yield InlineSession(session)
            except BaseException:
                session.rollback()
                raise
            try:
                session.commit()
            except BaseException:
                # SQLite may keep the transaction open after a COMMIT it refused (a deferred
                # constraint, a full disk): the connection would refuse every later unit of
                # work and keep the file's write lock. A new connection starts clean.
                session.close()
                self.engine.dispose()
                raise
        self._commits += 1
        if self._commits >= self._checkpoint_every and self._checkpointing is None:
            self._commits = 0
            self._checkpointing = asyncio.create_task(self._checkpoint_now())

    async def _checkpoint_now(self) -> None:
        try:
            await self._checkpoint()
        except Exception:
            # The next one copies what this one could not; SQLite keeps the WAL meanwhile.
            log.warning("the database's checkpoint failed", exc_info=True)
        finally:
            self._checkpointing = None

    async def _take_write_lock(self, session: Session) -> None:
        """Begin the session's transaction (BEGIN IMMEDIATE: it takes the write lock)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.busy_seconds
        pause = FIRST_PAUSE_SECONDS
        while True:
            try:
                session.connection()
                return
            except OperationalError as error:
                session.rollback()
                if not _locked(error) or loop.time() + pause > deadline:
                    raise
            await asyncio.sleep(pause)
            pause = min(2 * pause, LONGEST_PAUSE_SECONDS)

    async def close(self) -> None:
        """Wait for a checkpoint under way, then close the connection."""
        if self._checkpointing is not None:
            await self._checkpointing
        self.engine.dispose()


def _locked(error: OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the write lock."""
    code: object = getattr(error.orig, "sqlite_errorcode", None)
    # An extended code (SQLITE_BUSY_RECOVERY, …) has the primary one in its low byte.
    return isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_BUSY
