"""SQLite runs as a service needs it, and rolled-back work (savepoints too) leaves nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from gaple_bot.store import Store


class Boom(Exception):
    """Raised on purpose to roll a unit of work back."""


NOW = datetime(2026, 5, 1, tzinfo=UTC)


async def _user_ids(store: Store) -> set[int]:
    async with store.read() as tx:
        rows = await tx.session.execute(text("SELECT id FROM users WHERE id > 0"))
        return {row[0] for row in rows}


@pytest.mark.sqlite_only
async def test_connections_use_wal_a_busy_timeout_and_foreign_keys(store: Store) -> None:
    async with store.read() as tx:
        pragma = {
            name: (await tx.session.execute(text(f"PRAGMA {name}"))).scalar_one()
            for name in ("journal_mode", "busy_timeout", "foreign_keys", "synchronous")
        }
    assert pragma == {
        "journal_mode": "wal",
        "busy_timeout": 10_000,
        "foreign_keys": 1,
        "synchronous": 1,
    }


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(IntegrityError):
        async with store.transaction() as tx:
            await tx.session.execute(
                text("INSERT INTO seats (game_id, seat, user_id) VALUES (999, 0, 1)")
            )


async def test_a_rolled_back_transaction_leaves_nothing(store: Store) -> None:
    with pytest.raises(Boom):
        async with store.transaction() as tx:
            await tx.users.upsert(1, "Ana", now=NOW)
            await tx.chats.ensure(-100, "Group", now=NOW)
            raise Boom
    assert await _user_ids(store) == set()
    async with store.read() as tx:
        assert await tx.chats.get(-100) is None


async def test_a_rolled_back_savepoint_leaves_nothing_and_the_rest_commits(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.users.upsert(1, "Ana", now=NOW)
        with pytest.raises(Boom):
            async with tx.savepoint():
                await tx.users.upsert(2, "Budi", now=NOW)
                raise Boom
        await tx.users.upsert(3, "Citra", now=NOW)
    assert await _user_ids(store) == {1, 3}


async def test_a_released_savepoint_rolls_back_with_its_transaction(store: Store) -> None:
    """The savepoint is the transaction's first statement: in sqlite3's legacy mode it would
    run outside any transaction and survive the rollback."""
    with pytest.raises(Boom):
        async with store.transaction() as tx:
            async with tx.savepoint():
                await tx.users.upsert(2, "Budi", now=NOW)
            raise Boom
    assert await _user_ids(store) == set()


async def test_ddl_rolls_back_too(store: Store) -> None:
    with pytest.raises(Boom):
        async with store.transaction() as tx:
            await tx.session.execute(text("CREATE TABLE scratch (x INTEGER)"))
            raise Boom
    async with store.read() as tx:
        found = await tx.session.run_sync(
            lambda session: inspect(session.connection()).has_table("scratch")
        )
        assert not found


@pytest.mark.sqlite_only
async def test_without_the_remedy_the_driver_loses_the_savepoint_rollback(db_url: str) -> None:
    """Control: a plain aiosqlite engine (legacy transaction control, Python < 3.16) keeps a
    released savepoint's insert after the transaction rolls back, so the tests above can see
    the difference."""
    engine = create_async_engine(db_url)
    try:
        async with engine.connect() as connection:
            transaction = await connection.begin()
            nested = await connection.begin_nested()
            await connection.execute(
                text(
                    "INSERT INTO users (id, display_name, created_at, updated_at) "
                    "VALUES (7, 'Ghost', '2026-01-01', '2026-01-01')"
                )
            )
            await nested.commit()
            await transaction.rollback()
        async with engine.connect() as connection:
            ghost = (await connection.execute(text("SELECT id FROM users WHERE id = 7"))).first()
    finally:
        await engine.dispose()
    assert ghost is not None


async def test_a_read_sees_one_snapshot_while_a_writer_commits(store: Store) -> None:
    """A read unit of work sees the database as at its first query, to its end, even when
    another unit commits in between (PostgreSQL's readers are repeatable-read for this)."""
    before = await _user_ids(store)
    async with store.read() as tx:
        first = {row[0] for row in await tx.session.execute(text("SELECT id FROM users"))}
        async with store.transaction() as writer:
            await writer.users.upsert(4242, "Late", now=NOW)
        second = {row[0] for row in await tx.session.execute(text("SELECT id FROM users"))}
    assert first == second
    assert await _user_ids(store) == before | {4242}
