"""SQLite's units of work that write run in the loop's thread: no turn of the loop between their
statements, and a file locked by another connection is waited for without holding up the loop."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

from gaple_bot.store import Store
from gaple_bot.store.database import inline_write_engine
from gaple_bot.store.inline import InlineWriter

pytestmark = pytest.mark.sqlite_only

PEOPLE = range(1_000, 1_020)


class Turns:
    """Counts the turns the event loop gives other tasks."""

    def __init__(self) -> None:
        self.count = 0

    async def run(self) -> None:
        while True:
            self.count += 1
            await asyncio.sleep(0)


@asynccontextmanager
async def counting_turns() -> AsyncIterator[Turns]:
    turns = Turns()
    task = asyncio.create_task(turns.run())
    await asyncio.sleep(0)
    try:
        yield turns
    finally:
        task.cancel()


@contextmanager
def write_lock_held_elsewhere(path: Path) -> Iterator[sqlite3.Connection]:
    """Another connection (as another process's would) holds the file's write lock."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield other
    finally:
        other.close()


async def test_a_unit_of_work_gives_the_loop_no_turn_between_its_statements(
    store: Store,
) -> None:
    async with counting_turns() as turns, store.transaction() as tx:
        before = turns.count
        for user_id in PEOPLE:
            await tx.users.upsert(user_id, f"Person {user_id}")
            assert await tx.users.get(user_id) is not None
        assert turns.count == before, "a statement let other tasks run mid-transaction"
    # Committed, and the readers (the async engine's connections) see it.
    async with store.read() as tx:
        assert set(await tx.users.many(PEOPLE)) == set(PEOPLE)


async def test_a_unit_of_work_that_raises_writes_nothing(store: Store) -> None:
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.users.upsert(1_000, "Ana")
            raise RuntimeError("the use case failed")
    async with store.read() as tx:
        assert await tx.users.get(1_000) is None
    async with store.transaction() as tx:
        await tx.users.upsert(1_001, "Bea")
    async with store.read() as tx:
        assert await tx.users.get(1_001) is not None


async def test_a_locked_file_is_waited_for_while_the_loop_runs_on(
    store: Store, db_path: Path
) -> None:
    with write_lock_held_elsewhere(db_path) as other:
        async with counting_turns() as turns:

            async def write() -> None:
                async with store.transaction() as tx:
                    await tx.users.upsert(1_000, "Ana")

            writing = asyncio.create_task(write())
            await asyncio.sleep(0.2)
            assert not writing.done(), "the unit of work wrote while another held the lock"
            assert turns.count > 1, "the loop was held up while the unit of work waited"
            other.execute("COMMIT")
            await asyncio.wait_for(writing, 30)
    async with store.read() as tx:
        assert await tx.users.get(1_000) is not None


async def test_a_lock_held_too_long_is_database_locked(store: Store, db_path: Path) -> None:
    engine = inline_write_engine(store.engine)
    assert engine is not None
    writer = InlineWriter(engine, busy_seconds=0.1)
    try:
        with write_lock_held_elsewhere(db_path), pytest.raises(OperationalError, match="locked"):
            async with writer.transaction():
                pass
        # Once the lock is free the same writer writes.
        async with writer.transaction() as session:
            assert await session.scalar(text("SELECT 1")) == 1
    finally:
        writer.close()


async def test_a_database_in_memory_is_written_on_the_async_engine() -> None:
    opened = Store.open("sqlite+aiosqlite:///:memory:")
    try:
        assert inline_write_engine(opened.engine) is None
    finally:
        await opened.close()
