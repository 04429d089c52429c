"""Locks on games shared by every worker: PostgreSQL advisory locks held on one connection."""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import Executable, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

log = logging.getLogger(__name__)

GAME_LOCK_SPACE = 0x67616D65
"""The first key of every game's advisory lock (the game id is the second), so they never
meet another application's locks on the same server (nor the migration lock, a single key)."""
GROUP_SPACE = 0x67727570
"""The first key of a group's sending lock (the second: `group_key(chat_id)`)."""
SENIOR_SPACE = 0x73656E69
"""The lock of the senior worker (second key 0): the one that resumes the games at start."""
WORKER_SPACE = 0x776B6572
"""The first key of each worker's own lock (its id is the second): held for as long as the
worker lives, so the others can tell which workers are alive."""
OWN_LOCK_TRIES = 16
OWN_LOCK_WAIT = 0.5
"""On a new lock connection, how long the worker waits for its own lock while the session of
its old connection ends on the server (until then the worker would look dead)."""
FIRST_WAIT = 0.002
LONGEST_WAIT = 0.05
"""Seconds between tries while another worker holds the lock (doubling from the first)."""

STATEMENT_SECONDS = 10.0
"""How long one statement on the lock connection may take before the connection is given up
(a database that does not answer must not hold every game of the worker forever)."""
TRIES = 3
"""Attempts at a try-lock statement that fails (a broken connection is replaced in between)."""

_TRY = text("SELECT pg_try_advisory_lock(:space, :game)")
_UNLOCK = text("SELECT pg_advisory_unlock(:space, :game)")
_UNLOCK_ALL = text("SELECT pg_advisory_unlock_all()")
THIS_DATABASE = " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
"""A condition on pg_locks: the server lists the locks of every database, and only this
one's processes count."""
_LIVE = text(
    "SELECT objid FROM pg_locks WHERE locktype = 'advisory' AND granted"
    " AND classid = :space AND objsubid = 2" + THIS_DATABASE
)
_REVISIONS = (
    "g.revision, c.revision, COALESCE(("
    " SELECT SUM(u.revision) FROM seats s JOIN users u ON u.id = s.user_id"
    " WHERE s.game_id = g.id), 0)"
)
"""A game's revisions (`Revision`'s fields) from its row `g` and its chat's `c`."""
_UNLOCK_READING = text(
    f"SELECT pg_advisory_unlock(:space, :game), {_REVISIONS}"
    " FROM (SELECT 1) AS one LEFT JOIN games g ON g.id = :game"
    " LEFT JOIN chats c ON c.id = g.chat_id"
)
"""Release a game's lock and read its revisions in one statement: its snapshot is taken
before the lock goes, so nobody else can have changed the game in it."""
_REVISION = text(
    f"SELECT {_REVISIONS} FROM games g JOIN chats c ON c.id = g.chat_id WHERE g.id = :game"
)


@dataclass(frozen=True)
class Revision:
    """What a game's cached copy shows, as stored: the game's own revision (changed only under
    its lock), its chat's, and the sum of its seated people's (changed with no game locked)."""

    game: int
    chat: int
    people: int

    def with_game(self, game: int) -> Revision:
        """The same outside counters with another game revision."""
        return Revision(game, self.chat, self.people)

    @property
    def outside(self) -> tuple[int, int]:
        """The counters of what changes without the game's lock: its chat's and its seated
        people's."""
        return (self.chat, self.people)


def group_key(chat_id: int) -> int:
    """A chat id folded into an advisory lock's 32-bit key (two chats that share one only
    wait for each other now and then)."""
    key = chat_id & 0xFFFFFFFF
    return key - (1 << 32) if key >= 1 << 31 else key


Hold = int
"""A token for a lock taken: the lock connection's generation it was taken on."""


class LockLost(Exception):
    """A lock taken earlier went with its connection before it was released."""


class GameLocks:
    """No-op locks for a database one process serves alone (SQLite)."""

    shared = False
    """Whether other processes may work on the same games."""
    worker_id = 0
    """This process's id among the workers (0: it works alone)."""

    async def acquire(self, game_id: int, space: int = GAME_LOCK_SPACE) -> Hold:
        """Wait until no other process works on the game, or on the thing `game_id` names in
        another `space` (a caller holds at most one task per thing at a time: this process's
        own tasks queue on an asyncio lock first)."""
        return 0

    async def try_acquire(self, game_id: int, space: int = GAME_LOCK_SPACE) -> Hold | None:
        """Take the lock if no other process holds it now (None: one does; never waits)."""
        return 0

    def holds(self, hold: Hold) -> bool:
        """Whether a lock taken with `hold` is still held (its connection did not go)."""
        return True

    async def release(self, game_id: int, hold: Hold, space: int = GAME_LOCK_SPACE) -> None:
        """Let other processes work on the game."""

    async def revision(self, game_id: int) -> Revision | None:
        """The game's stored revisions (None: no such game), read while holding its lock."""
        return None

    async def release_reading(self, game_id: int, hold: Hold) -> Revision | None:
        """Let other processes work on the game, returning its stored revisions as they were
        while this process still held it (None: no such game)."""
        await self.release(game_id, hold)
        return await self.revision(game_id)

    async def live_workers(self) -> set[int]:
        """The ids of the workers alive now, this one among them."""
        return {self.worker_id}

    async def take_seniority(self) -> bool:
        """Become the senior worker, the one that resumes the games at start, unless a live
        worker is already (a process working alone always is)."""
        return True

    async def close(self) -> None:
        """Release every lock and close the connection."""


class AdvisoryLocks(GameLocks):
    """Session advisory locks on one connection of this process. A lock held by a process that
    dies goes with its connection, so a killed worker never leaves a game locked.

    Waiting uses `pg_try_advisory_lock` and short sleeps rather than `pg_advisory_lock`: the
    connection carries every game's lock, and one blocked statement would hold up the rest.
    Each statement runs to its end even if its caller is cancelled: one cut off half-way would
    cost the connection, and with it every lock this process holds. When the connection is
    lost anyway, its generation moves on, and every lock taken on it reads as no longer held.
    """

    shared = True

    def __init__(self, engine: AsyncEngine, worker_id: int | None = None) -> None:
        self.worker_id = worker_id if worker_id is not None else 1 + secrets.randbelow(2**31 - 1)
        self._engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._connection: AsyncConnection | None = None
        self._generation = 0
        """Counts the connections given up: a lock taken on an earlier one is gone."""
        self._talk = asyncio.Lock()
        """One statement at a time on the connection."""
        self._running: set[asyncio.Task[Any]] = set()
        """Statements under way, kept until done (a cancelled caller no longer awaits them)."""

    async def acquire(self, game_id: int, space: int = GAME_LOCK_SPACE) -> Hold:
        wait = FIRST_WAIT
        failures = 0
        while True:
            try:
                hold = await self.try_acquire(game_id, space)
            except Exception:
                # The connection is gone, and with it any lock this try took: try on a new one.
                failures += 1
                if failures >= TRIES:
                    raise
                hold = None
            if hold is not None:
                return hold
            await asyncio.sleep(wait)
            wait = min(wait * 2, LONGEST_WAIT)

    async def try_acquire(self, game_id: int, space: int = GAME_LOCK_SPACE) -> Hold | None:
        asking = self._start(_TRY, space=space, game=game_id)
        try:
            taken, hold = await asyncio.shield(asking)
        except asyncio.CancelledError:
            asking.add_done_callback(partial(self._give_back, space, game_id))
            raise
        return int(hold) if taken else None

    def holds(self, hold: Hold) -> bool:
        return hold == self._generation

    async def release(self, game_id: int, hold: Hold, space: int = GAME_LOCK_SPACE) -> None:
        if not self.holds(hold):
            return  # the lock went with its connection
        released, _ = await asyncio.shield(self._start(_UNLOCK, space=space, game=game_id))
        if not released:
            log.warning("lock %x/%d was not held on this worker's lock connection", space, game_id)

    async def revision(self, game_id: int) -> Revision | None:
        row, _ = await asyncio.shield(self._start(_REVISION, game=game_id, one_row=True))
        return None if row is None else Revision(*(int(value) for value in row))

    async def release_reading(self, game_id: int, hold: Hold) -> Revision | None:
        if not self.holds(hold):
            raise LockLost(f"the lock of game {game_id} went with its connection")
        row, generation = await asyncio.shield(
            self._start(_UNLOCK_READING, space=GAME_LOCK_SPACE, game=game_id, one_row=True)
        )
        released, *revisions = row
        if not released or generation != hold:
            # Read on a connection that did not hold the game: another worker may have
            # changed it meanwhile.
            raise LockLost(f"game {game_id} was not locked on this worker's lock connection")
        if revisions[0] is None:
            return None
        return Revision(*(int(value) for value in revisions))

    async def live_workers(self) -> set[int]:
        # Asking makes sure this worker's own lock is taken (on its first connection).
        ids, _ = await asyncio.shield(self._start(_LIVE, space=WORKER_SPACE, every_row=True))
        return {int(row[0]) for row in ids}

    async def take_seniority(self) -> bool:
        taken, _ = await asyncio.shield(self._start(_TRY, space=SENIOR_SPACE, game=0))
        return bool(taken)

    async def close(self) -> None:
        if self._running:
            await asyncio.wait(set(self._running), timeout=STATEMENT_SECONDS)
        async with self._talk:
            connection, self._connection = self._connection, None
            if connection is None:
                return
            self._generation += 1
            try:
                async with asyncio.timeout(STATEMENT_SECONDS):
                    await connection.execute(_UNLOCK_ALL)
            except Exception:
                log.debug("releasing the game locks at close failed", exc_info=True)
            # Not back to the pool, which would keep the session (and any lock left) alive.
            await close_for_good(connection)

    def _give_back(self, space: int, game_id: int, asking: asyncio.Task[Any]) -> None:
        """After a try whose caller was cancelled: if it took the lock, release it."""
        if asking.cancelled() or asking.exception() is not None:
            return
        taken, hold = asking.result()
        if taken and self.holds(hold):
            self._start(_UNLOCK, space=space, game=game_id)

    def _start(
        self,
        statement: Executable,
        *,
        one_row: bool = False,
        every_row: bool = False,
        **params: int,
    ) -> asyncio.Task[tuple[Any, Hold]]:
        rows = "one" if one_row else "every" if every_row else ""
        task = asyncio.create_task(self._say(statement, params, rows))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        return task

    async def _say(
        self, statement: Executable, params: dict[str, int], rows: str
    ) -> tuple[Any, Hold]:
        """The statement's value (its first row or every row, as `rows` says) and the
        generation of the connection it ran on."""
        async with self._talk:
            connection = self._connection
            try:
                async with asyncio.timeout(STATEMENT_SECONDS):
                    if connection is None:
                        connection = self._connection = await self._connect()
                    if rows:
                        result = await connection.execute(statement, params)
                        value = result.first() if rows == "one" else result.all()
                        return value, self._generation
                    return await connection.scalar(statement, params), self._generation
            except Exception:
                if connection is not None:
                    await self._lose(connection)
                raise

    async def _connect(self) -> AsyncConnection:
        """A new lock connection, holding this worker's own lock from its first moment."""
        connection = await self._engine.connect()
        try:
            for _ in range(OWN_LOCK_TRIES):
                key = {"space": WORKER_SPACE, "game": self.worker_id}
                if await connection.scalar(_TRY, key):
                    return connection
                # The old connection's session has not ended on the server yet.
                await asyncio.sleep(OWN_LOCK_WAIT)
        except BaseException:
            await close_for_good(connection)
            raise
        log.error("worker %d: its own lock is held elsewhere; it may look dead", self.worker_id)
        return connection

    async def _lose(self, connection: AsyncConnection) -> None:
        """Give up a connection whose state is unknown after an error: closing it releases
        every lock it held, which the database has done anyway if the connection broke."""
        self._connection = None
        self._generation += 1
        log.warning("the game lock connection failed; its locks are released")
        await close_for_good(connection)


async def close_for_good(connection: AsyncConnection) -> None:
    """Close a connection holding session locks for good: its session ends on the server,
    and its locks with it (back in the pool the session, and its locks, would live on)."""
    try:
        async with asyncio.timeout(STATEMENT_SECONDS):
            await connection.invalidate()
    except Exception:
        log.debug("invalidating a lock connection failed", exc_info=True)
    try:
        await connection.close()
    except Exception:
        log.debug("closing a lock connection failed", exc_info=True)


def game_locks(engine: AsyncEngine, *, alone: bool) -> GameLocks:
    """No-ops for a process working alone on its database (SQLite always is); advisory locks
    for workers sharing a PostgreSQL database."""
    if alone or engine.dialect.name != "postgresql":
        return GameLocks()
    return AdvisoryLocks(engine)
