"""The async engine: the one place that knows how each database is set up."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///gaple.sqlite3"
BUSY_TIMEOUT_MS = 10_000
WRITE_OPTION = "gaple_write"
"""Execution option marking a connection whose transactions intend to write."""


def database_url(environ: Mapping[str, str] = os.environ) -> str:
    """The DATABASE_URL setting, or an SQLite file in the working directory."""
    return environ.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL


def make_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An async engine for `url`; SQLite connections get the settings a long-running service
    needs (see `_sqlite_connect`), other backends are left as they are."""
    engine = create_async_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_connect)
        event.listen(engine.sync_engine, "begin", _sqlite_begin)
    return engine


def migration_engine(url: str, **kwargs: Any) -> AsyncEngine:
    """An engine for running migrations. On SQLite its connections do not enforce foreign
    keys: batch mode rebuilds a table by copying it and dropping the original, and dropping
    a table with foreign keys on deletes its rows first, cascading into the tables that
    refer to it. The migrations check every foreign key before they commit instead."""
    engine = make_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_foreign_keys_off)
    return engine


def write_engine(engine: AsyncEngine) -> AsyncEngine:
    """The same engine (same pool) with its transactions marked as writers."""
    return engine.execution_options(**{WRITE_OPTION: True})


def inline_write_engine(engine: AsyncEngine) -> Engine | None:
    """The SQLite file of `engine` through the sqlite3 driver itself, for the units of work
    that write, run in the event loop's thread (`inline.InlineWriter`); None for another
    database, or an SQLite database in memory (another connection would see another one).

    An SQLite write is a few dozen microseconds: run in the loop's thread it costs less than
    the driver thread's hand-over, and a unit of work no longer holds the one write lock
    across several turns of a busy loop. Its one connection is made in the thread that first
    writes; the write turn lets one unit of work have it at a time, and WAL lets the readers
    (still the async engine's, in their own threads) read beside it.
    """
    url = engine.url
    if engine.dialect.name != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    # No busy wait even while connecting (the pragmas): `InlineWriter` retries instead.
    sync = create_engine(
        url.set(drivername="sqlite"), poolclass=StaticPool, connect_args={"timeout": 0}
    )
    event.listen(sync, "connect", _sqlite_connect)
    event.listen(sync, "connect", _sqlite_writer_connect)
    event.listen(sync, "begin", _sqlite_begin)
    return sync.execution_options(**{WRITE_OPTION: True})


def snapshot_engine(engine: AsyncEngine) -> AsyncEngine:
    """The same engine with its transactions reading one snapshot from their first query to
    their end. SQLite's read transactions already do; PostgreSQL's default (read committed)
    takes a new snapshot per statement, so readers there are repeatable-read and read-only."""
    if engine.dialect.name != "postgresql":
        return engine
    return engine.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)


def _sqlite_connect(dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry) -> None:
    """Turn off the sqlite3 driver's legacy transaction control, which skips BEGIN before
    SAVEPOINT and DDL (so they would not roll back); `_sqlite_begin` emits BEGIN instead.

    WAL lets readers run beside the writer; `synchronous=NORMAL` is durable across a process
    crash in WAL mode (only an OS crash may lose the last commits), and the busy timeout makes
    a writer wait for the lock instead of failing at once.
    """
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


async def sqlite_checkpoint(engine: AsyncEngine) -> None:
    """Copy SQLite's WAL into the database file as far as no reader still needs it (PASSIVE:
    it waits for nobody), on one of `engine`'s connections, in the driver's thread."""
    async with engine.connect() as connection:
        raw = await connection.get_raw_connection()
        driver = raw.driver_connection
        assert driver is not None
        # The driver's own connection: outside a transaction, which a checkpoint cannot be in.
        cursor = await driver.execute("PRAGMA wal_checkpoint(PASSIVE)")
        await cursor.close()


def _sqlite_writer_connect(dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry) -> None:
    """After `_sqlite_connect`, for the writer in the event loop's thread: a locked database
    is refused at once (SQLite's busy handler would wait in the loop's thread;
    `inline.InlineWriter` waits its turn instead), and a commit never checkpoints (it would
    sync the file in the loop's thread; the writer has it done in another)."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA busy_timeout=0")
        cursor.execute("PRAGMA wal_autocheckpoint=0")
    finally:
        cursor.close()


def _sqlite_foreign_keys_off(
    dbapi_connection: DBAPIConnection, record: ConnectionPoolEntry
) -> None:
    """After `_sqlite_connect`: no foreign key enforcement, nor ON DELETE actions."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys=OFF")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    """Start every transaction ourselves. A writer takes the write lock up front (IMMEDIATE),
    so it waits its turn under the busy timeout instead of failing with "database is locked"
    when it upgrades from reading to writing; readers use a plain (deferred) BEGIN."""
    if connection.get_execution_options().get(WRITE_OPTION):
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN")
