"""/deletemydata: a person leaves every open table, then the store forgets them."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..store import GameStatus, Store
from .live import LiveCache
from .lobby import Lobbies
from .play import Tables
from .progress import Progress, RoundStarted
from .views import LobbyView


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What forgetting a person changed: the running games whose tables now show a former
    player instead of them."""

    running_games: tuple[int, ...]


class Forgetting:
    """The use cases of deleting a person's data. Callers hold `cache.lock(game_id)` around
    `leave`, and the locks of every game still in `open_games` around `forget`."""

    def __init__(self, store: Store, cache: LiveCache, lobbies: Lobbies, tables: Tables) -> None:
        self.store = store
        self.cache = cache
        self.lobbies = lobbies
        self.tables = tables

    async def open_games(self, user_id: int) -> list[int]:
        """The lobbies and running games the person sits at or opened."""
        async with self.store.read() as tx:
            return await tx.games.active_of_user(user_id)

    async def leave(self, game_id: int, user_id: int) -> LobbyView | Progress | None:
        """Take the person out of one open game: a lobby they opened closes, a lobby seat is
        freed, a seat at a running game goes to the computer (the table plays on). Returns
        what the group must be shown (None: nothing changed)."""
        live = await self.cache.get(game_id)
        if live.status is GameStatus.LOBBY:
            lobby = None
            if live.seat_of(user_id) is not None:
                lobby = await self.lobbies.leave(game_id, user_id)
            if live.opener_id == user_id:
                # Nobody else may start it: it closes (without them on its last message).
                lobby = await self.lobbies.cancel(game_id, user_id, False)
            return lobby
        seat = live.seat_of(user_id)
        if live.status is not GameStatus.RUNNING or seat is None or seat.autoplay:
            return None
        progress = await self.tables.set_autoplay(game_id, user_id, True)
        # The seat is not theirs to take back, nor are its next hands theirs to see: it is
        # about to belong to a former player.
        progress.autoplay_started.clear()
        progress.steps = [
            dataclasses.replace(step, hands=tuple(h for h in step.hands if h.seat != seat.seat))
            if isinstance(step, RoundStarted)
            else step
            for step in progress.steps
        ]
        return progress

    async def forget(self, user_id: int) -> Forgotten:
        """Delete the person's data (see store.forget); cached games reload without them."""
        async with self.store.transaction(bulk=True) as tx:
            running = await tx.seats.running_for_user(user_id)
            await tx.forget_user(user_id)
        for game_id in list(self.cache.games):
            live = self.cache.games.get(game_id)
            if live is not None and (
                live.opener_id == user_id or live.seat_of(user_id) is not None
            ):
                self.cache.drop(game_id)
        return Forgotten(tuple(seat.game_id for seat in running))
