"""The service layer assembled: one object the bot creates at start-up and closes at shutdown."""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import datetime

from ..games.registry import Registry, default_registry
from ..store import Store
from ..store.types import utc_now
from .chat_changes import ChatChanges
from .chats import ChatDefaults
from .computer import ComputerPlayers
from .forgetting import Forgetting
from .live import LiveCache
from .lobby import Lobbies
from .outbox import GroupLedger
from .play import Tables
from .players import Players


class GameService:
    """Lobbies, tables, players and the group outbox's ledger on one store, with one cache of
    live games."""

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random | None = None,
        executor: Executor | None = None,
        clock: Callable[[], datetime] = utc_now,
        defaults: ChatDefaults | None = None,
        registry: Registry | None = None,
    ) -> None:
        self.store = store
        self.registry = registry or default_registry()
        # Deals come from an unpredictable seed unless a test injects its own generator.
        self.rng = rng or random.Random(random.SystemRandom().getrandbits(128))
        defaults = defaults or ChatDefaults()
        self.cache = LiveCache(store, self.registry, defaults)
        self.computer = ComputerPlayers(executor)
        self.tables = Tables(store, self.cache, self.computer, self.rng, clock)
        self.lobbies = Lobbies(store, self.cache, self.tables, self.rng, clock)
        self.players = Players(store, self.cache)
        self.chat_changes = ChatChanges(store, self.cache, self.tables)
        self.forgetting = Forgetting(store, self.cache, self.lobbies, self.tables)
        self.ledger = GroupLedger(store)

    async def active_games(self) -> list[int]:
        """The ids of every lobby and running game (to resume them after a restart)."""
        async with self.store.read() as tx:
            return [record.id for record in await tx.games.all_active()]

    async def active_game(self, chat_id: int, thread_id: int | None) -> int | None:
        """The id of the chat's (topic's) lobby or running game, if any."""
        async with self.store.read() as tx:
            record = await tx.games.active(chat_id, thread_id)
        return None if record is None else record.id

    async def close(self) -> None:
        """Stop the computer players' workers and close the database."""
        self.computer.close()
        await self.store.close()
