"""The Store: one async engine, its session factories and the units of work the service uses."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from .changes import GameChanges, NotifiedChanges
from .database import (
    BUSY_TIMEOUT_MS,
    inline_write_engine,
    make_engine,
    snapshot_engine,
    sqlite_checkpoint,
    write_engine,
)
from .errors import DatabaseUnavailable
from .game_locks import GameLocks, game_locks
from .inline import InlineWriter
from .migrate import upgrade_to_head
from .play_state import load_play
from .private_paces import PrivatePaces
from .rating import new_model
from .records import StoredPlay
from .tenancy import Tenancy
from .unit import Transaction


class Store:
    """Opens units of work on one database. Create it at start-up; `close()` at shutdown."""

    def __init__(self, engine: AsyncEngine, tenancy: Tenancy | None = None) -> None:
        self.engine = engine
        self.tenancy = tenancy or Tenancy(alone=engine.dialect.name != "postgresql")
        """Whether this process works alone on the database (by default on PostgreSQL it
        works beside other workers, as if it were one of them)."""
        self._writer = async_sessionmaker(write_engine(engine), expire_on_commit=False)
        self._reader = async_sessionmaker(snapshot_engine(engine), expire_on_commit=False)
        self._model = new_model()
        # SQLite has one writer at a time: this process's writers queue here, in order, rather
        # than in SQLite's busy handler, which polls with sleeps of up to 100 ms.
        self._write_turn = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        inline = inline_write_engine(engine)
        self._inline = (
            InlineWriter(inline, BUSY_TIMEOUT_MS / 1000, lambda: sqlite_checkpoint(engine))
            if inline is not None
            else None
        )
        """SQLite's writers, in this thread (None: on the async engine)."""
        self.game_locks: GameLocks = game_locks(engine, alone=self.tenancy.alone)
        """Serialise the work on a game across the processes sharing this database."""
        self.private_paces: PrivatePaces | None = (
            PrivatePaces(engine) if self.game_locks.shared else None
        )
        """Each private chat's pace across the workers (None: this process is alone)."""
        self.changes: GameChanges = (
            NotifiedChanges(engine, self.game_locks.worker_id)
            if self.game_locks.shared
            else GameChanges()
        )
        """Which games changed, told to and heard from the other workers."""

    @classmethod
    def open(cls, url: str, **engine_options: Any) -> Store:
        """A store on the database at `url` (the schema must be current: see `start`)."""
        return cls(make_engine(url, **engine_options))

    @classmethod
    async def start(
        cls, url: str, *, alone_if_possible: bool = False, **engine_options: Any
    ) -> Store:
        """Upgrade the database at `url` to the newest schema, then open a store on it, working
        alone on it if it may and can (see `Tenancy.take`; on a database workers share, this
        worker shows as live from then on)."""
        try:
            await upgrade_to_head(url)
            engine = make_engine(url, **engine_options)
            try:
                tenancy = await Tenancy.take(engine, alone_if_possible=alone_if_possible)
            except BaseException:
                await engine.dispose()
                raise
            store = cls(engine, tenancy)
        except (OSError, DBAPIError, TimeoutError) as exc:
            shown = make_url(url).render_as_string(hide_password=True)
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise DatabaseUnavailable(f"cannot open the database at {shown}: {reason}") from exc
        await store.game_locks.live_workers()
        return store

    @asynccontextmanager
    async def transaction(self, *, bulk: bool = False) -> AsyncIterator[Transaction]:
        """A unit of work that commits when the block ends and rolls back if it raises.

        On SQLite it holds the write lock from its start, so units of work run one at a time,
        and its statements run in this thread (`inline_write_engine`), but for a `bulk` one
        (a rare one that may scan whole tables: forgetting a person, moving a chat, pruning):
        that one runs in the driver's thread, so the loop runs on meanwhile.
        """
        turn = self._write_turn if self._write_turn is not None else contextlib.nullcontext()
        async with turn:
            if self._inline is not None and not bulk:
                async with self._inline.transaction() as inline:
                    yield Transaction(inline, self._model)
                return
            async with self._writer() as session, session.begin():
                yield Transaction(session, self._model)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Transaction]:
        """A unit of work for queries: one consistent snapshot, never committed."""
        async with self._reader() as session:
            # The first query begins the transaction; closing the session rolls it back.
            yield Transaction(session, self._model)

    async def load_play(self, game_id: int) -> StoredPlay:
        """The game's kind, config and stored deals and move codes, for the kind to replay
        (`registry.get(kind).replay(config, rounds)`; its GameDataError means CorruptGame).

        Hidden information: feed it to the kind and to per-seat views, never to a group
        message (use `tx.games.get` and `tx.rounds.summaries` for those).
        """
        async with self.read() as tx:
            return await load_play(tx.session, game_id)

    async def close(self) -> None:
        """Release the game locks and the database, and close every pooled connection."""
        await self.changes.close()
        await self.game_locks.close()
        await self.tenancy.close()
        if self._inline is not None:
            await self._inline.close()
        await self.engine.dispose()
