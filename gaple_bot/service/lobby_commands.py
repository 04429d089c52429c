"""The lobby's commands: join, leave, a computer seated, cancel, expire, start, play again."""

from __future__ import annotations

from .command_base import CommandBase
from .outcome import (
    LobbyChanged,
    LobbyExpired,
    NextGame,
    Outcome,
)
from .views import Person


class LobbyCommands(CommandBase):
    """Commands on a game's lobby."""

    async def join(self, game_id: int, person: Person, *, private_chat: bool = True) -> Outcome:
        """The person takes the next free seat (`private_chat` False: from the page, where
        their hand lives, so no private chat with the bot is needed)."""
        lobbies = self._service.lobbies

        async def run() -> Outcome:
            return Outcome.of_lobby(
                await lobbies.join(game_id, person, private_chat=private_chat), self.by
            )

        return await self._run(game_id, run)

    async def leave(self, game_id: int, user_id: int) -> Outcome:
        """The person gets up from the lobby."""
        lobbies = self._service.lobbies

        async def run() -> Outcome:
            return Outcome.of_lobby(await lobbies.leave(game_id, user_id), self.by)

        return await self._run(game_id, run)

    async def add_computer(self, game_id: int, user_id: int, is_admin: bool) -> Outcome:
        """A computer player takes the next free seat."""
        lobbies = self._service.lobbies

        async def run() -> Outcome:
            return Outcome.of_lobby(await lobbies.add_computer(game_id, user_id, is_admin), self.by)

        return await self._run(game_id, run)

    async def cancel(self, game_id: int, user_id: int, is_admin: bool) -> Outcome:
        """The lobby closes without a game."""
        lobbies = self._service.lobbies

        async def run() -> Outcome:
            return Outcome.of_lobby(await lobbies.cancel(game_id, user_id, is_admin), self.by)

        return await self._run(game_id, run)

    async def expire(self, game_id: int) -> Outcome:
        """Nobody started the lobby in time: it closes (no effect: it started or closed
        meanwhile)."""
        lobbies = self._service.lobbies

        async def run() -> Outcome:
            lobby = await lobbies.expire(game_id)
            if lobby is None:
                return self._outcome(game_id)
            return self._outcome(game_id, LobbyExpired(lobby))

        return await self._run(game_id, run)

    async def start(self, game_id: int, user_id: int, is_admin: bool) -> Outcome:
        """The first round is dealt; computers fill the empty seats if the chat wants; the
        computers play on to the first person's turn."""
        lobbies = self._service.lobbies

        async def run() -> Outcome:
            lobby, progress = await lobbies.start(game_id, user_id, is_admin)
            played = Outcome.of_progress(progress, self.by)
            return Outcome(
                game_id, (LobbyChanged(lobby), *played.effects), self.by, played.progress
            )

        return await self._run(game_id, run)

    async def play_again(self, game_id: int, person: Person) -> Outcome:
        """A new lobby with this finished game's players seated: the outcome is this game's
        (those watching it are told where the next one is), with the new lobby."""
        lobbies = self._service.lobbies

        async def run() -> Outcome:
            lobby = await lobbies.play_again(game_id, person)
            return self._outcome(
                game_id, NextGame(lobby.game_id, lobby.join_token), LobbyChanged(lobby)
            )

        return await self._run(game_id, run)
