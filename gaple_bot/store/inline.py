"""SQLite's units of work that write, run in the event loop's own thread: their statements go
to the file at once, not through a driver thread and a turn of the loop each."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from sqlalchemy import Connection, Engine, Result, ScalarResult
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql import Executable


class InlineSession:
    """A unit of work's statements on a synchronous session: each runs when it is awaited,
    without giving the loop a turn (see `Statements`)."""

    def __init__(self, session: Session) -> None:
        self._session = session

    async def execute(self, statement: Executable, params: Any = None) -> Result[*tuple[Any, ...]]:
        """Run the statement now."""
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


class InlineWriter:
    """Units of work that write, on the one connection of a synchronous engine. The caller
    runs one at a time (the store's write turn): they share that connection.

    Its connection never waits in SQLite's busy handler, which would hold up the whole loop
    while another connection writes (in another process, or a unit of work of another store
    in this loop that awaits something meanwhile): a unit of work that finds the write lock
    taken tries again after a pause, letting the loop run, for up to `busy_seconds`."""

    def __init__(self, engine: Engine, busy_seconds: float) -> None:
        self.engine = engine
        self.busy_seconds = busy_seconds
        self._sessions = sessionmaker(engine, expire_on_commit=False)

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
            session.commit()

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

    def close(self) -> None:
        """Close the connection."""
        self.engine.dispose()


def _locked(error: OperationalError) -> bool:
    """Whether SQLite refused because another connection holds the write lock."""
    code: object = getattr(error.orig, "sqlite_errorcode", None)
    return code == sqlite3.SQLITE_BUSY
