"""The use cases of the break after a round's end: it runs out, or every person seated says
Next and it ends sooner."""

from __future__ import annotations

from ..store import GameStatus, Store, is_former_player
from .breaks import seat_bits
from .errors import GamePaused, NoRoundBreak, NotSeated
from .live import LiveCache, LiveGame
from .play import Tables
from .progress import Progress
from .seen import running_match, where_it_stands


class RoundBreaks:
    """Ends a game's break. Callers hold `cache.lock(game_id)` around each call."""

    def __init__(self, store: Store, cache: LiveCache, tables: Tables) -> None:
        self.store = store
        self.cache = cache
        self.tables = tables

    async def run_out(self, game_id: int, version: int) -> Progress | None:
        """The break the game had at `version` ran out: the round is played on (the
        computers move up to a person's turn). None if no break runs at that version any
        more (it ended sooner, the game moved on or waits paused)."""
        live = await self.cache.get(game_id)
        if (
            live.status is not GameStatus.RUNNING
            or live.round_break is None
            or live.version != version
            or live.paused
        ):
            return None
        return await self._end(live)

    async def next(self, game_id: int, user_id: int) -> Progress | None:
        """The person says Next: once every person seated has (not the computers, nor a
        seat the computer plays for someone absent), or the break's time is up, the round
        is played on. None while the break goes on, waiting for others."""
        live = await self.cache.get(game_id)
        running_match(live)
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotSeated(f"user {user_id} does not sit at game {game_id}")
        if live.paused:
            raise GamePaused(f"game {game_id} is paused")
        round_break = live.round_break
        if round_break is None:
            raise NoRoundBreak(f"game {game_id} is not between rounds")
        if round_break.until <= self.tables.clock() or _waits_for(live) <= (
            round_break.ready | {seat.seat}
        ):
            return await self._end(live)
        if seat.seat in round_break.ready:
            return None
        ready = round_break.with_ready(seat.seat)
        try:
            async with self.store.transaction() as tx:
                await tx.games.set_round_break(game_id, ready.until, seat_bits(ready.ready))
        except BaseException:
            self.cache.drop(game_id)
            raise
        live.round_break = ready
        return None

    async def _end(self, live: LiveGame) -> Progress:
        progress = Progress(live.game_id)
        await self.tables.end_round_break(live, progress)
        await self.tables.advance(live, progress)
        return where_it_stands(live, progress)


def _waits_for(live: LiveGame) -> frozenset[int]:
    """The seats whose person's Next the break waits for: each person's seat they play."""
    return frozenset(
        seat.seat
        for seat in live.seats
        if seat.user_id is not None and not is_former_player(seat.user_id) and not seat.autoplay
    )
