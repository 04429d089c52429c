"""Whose turn it is to write to a group: this process's alone, or one worker's at a time."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import Protocol

from ...service.outbox import GroupLedger
from ..pacing.budget import Budgets
from .runtime import Pauses

log = logging.getLogger(__name__)


class Turns(Protocol):
    """How a group's requests take their turn and learn the group's budget."""

    async def prepare(self, chat_id: int) -> None:
        """Before a group's queue is sent: its budget as far as it must be known."""

    def hold(self, chat_id: int) -> AbstractAsyncContextManager[None]:
        """One request's turn at the group."""


class Alone:
    """This process alone writes to its groups: a group's recent request times are read from
    the ledger the first time only (a restart); a read before every burst would delay the
    group's messages behind their players' private ones."""

    def __init__(self, budgets: Budgets, pauses: Pauses, ledger: GroupLedger | None) -> None:
        self._budgets = budgets
        self._pauses = pauses
        self._ledger = ledger

    async def prepare(self, chat_id: int) -> None:
        """Read the group's recent request times, the first time."""
        if self._budgets.known(chat_id):
            return
        self._budgets.load(chat_id, ())
        if self._ledger is None:
            return
        try:
            since = self._budgets.since(self._pauses.now())
            self._budgets.load(chat_id, await self._ledger.recent(chat_id, since))
        except Exception:
            log.exception("group %s: its recent requests could not be read", chat_id)

    @asynccontextmanager
    async def hold(self, chat_id: int) -> AsyncIterator[None]:
        """Nothing to wait for."""
        yield


class Flushes(Protocol):
    """What stores request times (they must be stored before another worker's turn)."""

    async def flush(self) -> None:
        """Wait until the database holds every request time."""


class Shared:
    """Beside other workers: a request's turn holds the group's lock, with the budget read
    afresh (their requests count in it) and the request's time stored before the next
    worker's turn."""

    def __init__(
        self, budgets: Budgets, pauses: Pauses, ledger: GroupLedger, writer: Flushes
    ) -> None:
        self._budgets = budgets
        self._pauses = pauses
        self.ledger = ledger
        self._writer = writer

    async def prepare(self, chat_id: int) -> None:
        """Nothing: each turn reads the times afresh."""

    async def reload(self, chat_id: int) -> None:
        """The group's request times as the database has them (every worker's)."""
        since = self._budgets.since(self._pauses.now())
        self._budgets.load(chat_id, await self.ledger.recent(chat_id, since))

    @asynccontextmanager
    async def hold(self, chat_id: int) -> AsyncIterator[None]:
        """The group's lock for one request (if the database answers)."""
        async with AsyncExitStack() as stack:
            try:
                await stack.enter_async_context(self.ledger.group_turn(chat_id))
                await self.reload(chat_id)
            except Exception:
                # The database does not answer: the group's messages still go, on this
                # worker's own count of the budget.
                log.exception("group %s: its turn could not be taken", chat_id)
            yield
            await self._writer.flush()
