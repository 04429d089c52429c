"""The questions a front end asks before a command (pokerkit's verify-then-do) or to show a
game: read on the game as it stands, under its lock, changing nothing."""

from __future__ import annotations

from typing import Any

from ..store import GameStatus
from .command_base import CommandBase
from .errors import GameNotRunning, NotSeated
from .facts import GameFacts, facts_of
from .live import LiveGame
from .progress import GameOver
from .seen import hand_view, private_view, step_view, table_view, turn_view
from .snapshot import GameSnapshot, snapshot_of
from .views import HandView, LobbyView, TableView


class Questions(CommandBase):
    """Questions on games."""

    async def facts(self, game_id: int) -> GameFacts:
        """Where the game is and who sits at it (raises NoSuchGame)."""
        return await self._ask(game_id, facts_of)

    async def lobby(self, game_id: int) -> LobbyView:
        """The lobby as it stands."""
        return await self._ask(game_id, self._service.lobbies.view)

    async def table(self, game_id: int) -> TableView[Any]:
        """The public table of the round being played (raises GameNotRunning before one)."""

        def table(live: LiveGame) -> TableView[Any]:
            if live.match is None:
                raise GameNotRunning(f"game {game_id} has no table yet")
            return table_view(live)

        return await self._ask(game_id, table)

    async def hand(self, game_id: int, user_id: int) -> HandView[Any, Any]:
        """The person's own view, with their legal moves on their turn (raises NotSeated)."""

        return await self._ask(game_id, lambda live: hand_view(live, _seated(live, user_id)))

    async def private(self, game_id: int, user_id: int) -> object:
        """What the person's own seat alone may see now (raises NotSeated)."""

        return await self._ask(game_id, lambda live: private_view(live, _seated(live, user_id)))

    async def turn_view(self, game_id: int, user_id: int, version: int) -> HandView[Any, Any]:
        """The person's view on their own turn (raises unless the button is current)."""
        return await self._ask(game_id, lambda live: turn_view(live, user_id, version))

    async def step_view(
        self, game_id: int, user_id: int, version: int, step: int
    ) -> tuple[HandView[Any, Any], tuple[int, ...]]:
        """The person's view once they take first pick `step`, and the moves it leads to."""
        return await self._ask(game_id, lambda live: step_view(live, user_id, version, step))

    async def stored_turn(self, game_id: int, version: int) -> tuple[int, int, int] | None:
        """(seat, user, message) of the stored hand message of the turn at `version` (any
        worker may have sent it), or None."""
        async with self._service.cache.lock(game_id):
            return await self._service.hands.stored_turn(game_id, version)

    async def can_take_back(self, game_id: int, user_id: int) -> bool:
        """Whether the person may take their seat back: they sit at the table and the
        computer plays their seat."""
        seat = (await self.facts(game_id)).seat_of(user_id)
        return seat is not None and seat.autoplay

    async def final_standings(self, game_id: int) -> GameOver:
        """A finished game's final table and every seat's total after each round, as its end
        showed them (raises GameNotRunning unless the game ended with a winner)."""

        def standings(live: LiveGame) -> GameOver:
            match = live.match
            if live.status is not GameStatus.FINISHED or match is None or match.winner is None:
                raise GameNotRunning(f"game {game_id} did not end with a winner")
            return GameOver(table_view(live), match.totals_by_round())

        return await self._ask(game_id, standings)

    async def snapshot(self, game_id: int) -> GameSnapshot:
        """The game as it stands, with every person's own view (read at once)."""
        lobbies = self._service.lobbies
        return await self._ask(game_id, lambda live: snapshot_of(live, lobbies))


def _seated(live: LiveGame, user_id: int) -> int:
    """The person's seat at the game being played (raises NotSeated)."""
    seat = live.seat_of(user_id)
    if seat is None or live.match is None:
        raise NotSeated(f"user {user_id} is not at game {live.game_id}")
    return seat.seat
