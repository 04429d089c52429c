"""Which games changed, told to the other workers: PostgreSQL's NOTIFY on one channel, heard by
each worker's LISTEN on a connection of its own. Alone (SQLite) nothing needs telling."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

log = logging.getLogger(__name__)
CHANNEL = "gaple_game_changes"
RECONNECT_SECONDS = 2.0
"""After the listening connection is lost, before listening again (a change missed meanwhile
is caught when a page resyncs)."""
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")

Heard = Callable[[int, int], None]
"""Told (worker id, game id) for every change another worker announced."""


class GameChanges:
    """Announces this worker's changes and hears the others' (no-ops when alone)."""

    shared = False

    async def announce(self, game_id: int) -> None:
        """Tell the other workers that the game changed."""

    async def listen(self, heard: Heard) -> None:
        """Hear the other workers' changes from now on."""

    async def close(self) -> None:
        """Stop listening."""


class NotifiedChanges(GameChanges):
    """Changes told through PostgreSQL's LISTEN/NOTIFY."""

    shared = True

    def __init__(self, engine: AsyncEngine, worker_id: int) -> None:
        self._engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._worker_id = worker_id
        self._listening: asyncio.Task[None] | None = None

    async def announce(self, game_id: int) -> None:
        async with self._engine.connect() as connection:
            await connection.execute(
                _NOTIFY, {"channel": CHANNEL, "payload": f"{self._worker_id}:{game_id}"}
            )

    async def listen(self, heard: Heard) -> None:
        if self._listening is None:
            ready = asyncio.Event()
            self._listening = asyncio.create_task(self._keep_listening(heard, ready))
            await ready.wait()

    async def close(self) -> None:
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listening
            self._listening = None

    async def _keep_listening(self, heard: Heard, ready: asyncio.Event) -> None:
        """Listen on a connection of its own, again on a new one whenever it is lost."""

        def on_notice(_connection: Any, _pid: int, _channel: str, payload: str) -> None:
            worker, _, game = payload.partition(":")
            try:
                heard(int(worker), int(game))
            except ValueError:
                log.warning("a game change that is not one: %r", payload)

        while True:
            connection: AsyncConnection | None = None
            try:
                connection = await self._engine.connect()
                raw = (await connection.get_raw_connection()).driver_connection
                assert raw is not None
                lost = asyncio.Event()
                raw.add_termination_listener(lambda _connection, lost=lost: lost.set())
                await raw.add_listener(CHANNEL, on_notice)
                ready.set()
                await lost.wait()
                log.warning("the connection hearing the other workers' changes was lost")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("cannot hear the other workers' changes", exc_info=True)
                ready.set()
            finally:
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.invalidate()
                    with contextlib.suppress(Exception):
                        await connection.close()
            await asyncio.sleep(RECONNECT_SECONDS)
