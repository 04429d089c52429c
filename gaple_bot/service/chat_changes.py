"""When Telegram changes the chat under a game: the bot removed, muted, or the group upgraded."""

from __future__ import annotations

from ..store import GameStatus, Store
from ..store.types import utc_now
from .facts import GameFacts, facts_of
from .live import LiveCache
from .play import Tables
from .progress import Progress
from .seen import where_it_stands


class ChatChanges:
    """Ending, pausing, resuming and moving a chat's games. Callers hold each game's lock."""

    def __init__(self, store: Store, cache: LiveCache, tables: Tables) -> None:
        self.store = store
        self.cache = cache
        self.tables = tables

    async def active_in(self, chat_id: int) -> list[int]:
        """The ids of the chat's lobbies and running games (every topic)."""
        async with self.store.read() as tx:
            return [record.id for record in await tx.games.active_in_chat(chat_id)]

    async def end(self, game_id: int) -> GameFacts | None:
        """The bot left the chat: abort the lobby or game (no results, no rating changes).
        Returns the game as it ended, or None if it was not active any more."""
        live = await self.cache.get(game_id)
        if live.status not in (GameStatus.LOBBY, GameStatus.RUNNING):
            return None
        try:
            async with self.store.transaction() as tx:
                await tx.games.abort(game_id)
        finally:
            self.cache.drop(game_id)
        live.status = GameStatus.ABORTED
        live.deadline = None
        return facts_of(live)

    async def pause(self, game_id: int) -> GameFacts | None:
        """The bot may not write in the chat: the running game waits, with no turn deadline.
        Returns the paused game, or None if it was not running or already paused."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.paused:
            return None
        try:
            async with self.store.transaction() as tx:
                await tx.games.set_paused(game_id, True)
                await tx.games.set_deadline(game_id, None)
        except BaseException:
            self.cache.drop(game_id)
            raise
        live.paused = True
        live.deadline = None
        return facts_of(live)

    async def resume(self, game_id: int) -> Progress | None:
        """The bot may write again: the game goes on, the person to move with a whole turn.
        None if the game was not paused."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or not live.paused:
            return None
        try:
            async with self.store.transaction() as tx:
                await tx.games.set_paused(game_id, False)
        except BaseException:
            self.cache.drop(game_id)
            raise
        live.paused = False
        live.deadline = None
        progress = Progress(game_id)
        await self.tables.advance(live, progress)
        return where_it_stands(live, progress)

    async def move(self, old_id: int, new_id: int) -> list[int]:
        """The group became a supergroup: settings, boards, ratings and games follow to the
        new id in one transaction (a repeat changes nothing). Returns the active games moved;
        their cached copies are dropped so they are read again under the new id."""
        async with self.store.transaction(bulk=True) as tx:
            moved = await tx.move_chat(old_id, new_id, now=utc_now())
        for game_id, live in list(self.cache.games.items()):
            if live.chat_id == old_id:
                self.cache.drop(game_id)
        return moved
