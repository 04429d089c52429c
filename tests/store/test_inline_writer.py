"""SQLite's units of work that write run in the loop's thread: no turn of the loop between their
statements, and a file locked by another connection is waited for without holding up the loop."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError, OperationalError

from gaple_bot.store import Store
from gaple_bot.store.database import inline_write_engine, sqlite_checkpoint
from gaple_bot.store.inline import InlineWriter
from gaple_bot.store.repos import UserRepository

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


async def test_a_commit_refused_leaves_no_transaction_behind(store: Store) -> None:
    # A constraint checked at COMMIT: SQLite refuses the COMMIT and keeps the transaction open.
    with pytest.raises(IntegrityError):
        async with store.transaction() as tx:
            await tx.session.execute(text("PRAGMA defer_foreign_keys=ON"))
            await tx.session.execute(
                text(
                    "INSERT INTO moves (game_id, round_number, ply, seat, code, created_at)"
                    " VALUES (424242, 1, 0, 0, 0, '2026-12-05')"
                )
            )
    # The next unit of work starts on a clean connection, and nothing of the refused one stayed.
    async with store.transaction() as tx:
        await tx.users.upsert(1_000, "Ana")
    async with store.read() as tx:
        assert await tx.users.get(1_000) is not None
        count = await tx.session.scalar(text("SELECT count(*) FROM moves"))
    assert count == 0


async def test_a_bulk_unit_of_work_lets_the_loop_run_between_its_statements(
    store: Store,
) -> None:
    async with counting_turns() as turns, store.transaction(bulk=True) as tx:
        before = turns.count
        for user_id in PEOPLE:
            await tx.users.upsert(user_id, f"Person {user_id}")
        assert turns.count > before, "a bulk unit of work held the loop"
    async with store.read() as tx:
        assert set(await tx.users.many(PEOPLE)) == set(PEOPLE)


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
    writer = InlineWriter(engine, busy_seconds=0.1, checkpoint=nothing)
    try:
        with write_lock_held_elsewhere(db_path), pytest.raises(OperationalError, match="locked"):
            async with writer.transaction():
                pass
        # Once the lock is free the same writer writes.
        async with writer.transaction() as session:
            assert await session.scalar(text("SELECT 1")) == 1
    finally:
        await writer.close()


async def nothing() -> None:
    """No checkpoint."""


async def test_the_writer_checkpoints_in_the_background_every_so_many_units_of_work(
    store: Store, db_path: Path
) -> None:
    engine = inline_write_engine(store.engine)
    assert engine is not None
    checkpoints: list[int] = []
    done = asyncio.Event()

    async def checkpoint() -> None:
        checkpoints.append(1)
        await sqlite_checkpoint(store.engine)
        done.set()

    writer = InlineWriter(engine, busy_seconds=10, checkpoint=checkpoint, checkpoint_every=5)
    try:
        for user_id in range(1_000, 1_004):
            async with writer.transaction() as session:
                # A commit never checkpoints in the loop's thread.
                assert await session.scalar(text("PRAGMA wal_autocheckpoint")) == 0
                await UserRepository(session).upsert(user_id, f"Person {user_id}")
        assert checkpoints == []
        assert names_in_the_file(db_path) == {}, "a commit copied the WAL into the file"
        async with writer.transaction() as session:
            await UserRepository(session).upsert(1_000, "Ana")
        await asyncio.wait_for(done.wait(), 30)
        assert checkpoints == [1]
    finally:
        await writer.close()
    # What the WAL held is in the file itself now.
    names = names_in_the_file(db_path)
    assert names[1_000] == "Ana" and names[1_003] == "Person 1003"


def names_in_the_file(path: Path) -> dict[int, str]:
    """The people's names in the database file itself, not counting its WAL."""
    with closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as reader:
        rows = reader.execute("SELECT id, display_name FROM users WHERE id >= 1000").fetchall()
    return dict(rows)


async def test_a_database_in_memory_is_written_on_the_async_engine() -> None:
    opened = Store.open("sqlite+aiosqlite:///:memory:")
    try:
        assert inline_write_engine(opened.engine) is None
    finally:
        await opened.close()
