"""The chat's changes as commands: a person forgotten, a group moved to a new id, the bot
gone from the chat, or unable to write in it for a while."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ..store import GameStatus
from .command_base import CommandBase
from .facts import facts_of
from .outcome import (
    PRIVATE_EFFECTS,
    ClosedWithChat,
    LobbyChanged,
    Outcome,
    Paused,
    TableChanged,
)
from .progress import Progress
from .seen import table_view


class ChatCommands(CommandBase):
    """Commands that follow what happened to the chat or to a person."""

    async def leave_for_good(self, game_id: int, user_id: int) -> Outcome:
        """The person, who asked to be forgotten, leaves the game: their lobby seat goes, a
        running game's seat is the computer's (no effect: nothing changed)."""
        service = self._service
        forgetting = service.forgetting

        async def run() -> Outcome:
            seat = facts_of(await service.cache.get(game_id)).seat_of(user_id)
            shown = await forgetting.leave(game_id, user_id)
            if shown is None:
                return self._outcome(game_id)
            if not isinstance(shown, Progress):
                return Outcome.of_lobby(shown, self.by)
            outcome = Outcome.of_progress(shown, self.by)
            if seat is None:
                return outcome
            # Their seat's hand is no longer theirs to see: it is a former player's now.
            kept = tuple(
                e
                for e in outcome.effects
                if not isinstance(e, PRIVATE_EFFECTS) or e.hand.seat != seat.number
            )
            return Outcome(game_id, kept, self.by, outcome.progress)

        return await self._run(game_id, run)

    async def forget_person(self, user_id: int) -> list[Outcome]:
        """Delete the person's data (after `leave_for_good` at each of their games), every
        game they were still at held meanwhile; one outcome per running game whose table now
        shows a former player in their seat (its table as it stands)."""
        service = self._service
        game_ids = await service.forgetting.open_games(user_id)
        outcomes: list[Outcome] = []
        async with service.cache.lock_all(game_ids):
            forgotten = await service.forgetting.forget(user_id)
            for game_id in forgotten.running_games:
                if game_id not in game_ids:
                    continue
                live = await service.cache.get(game_id)
                if live.status is not GameStatus.RUNNING or live.match is None:
                    continue
                outcome = self._outcome(game_id, TableChanged(table_view(live)))
                await self._finish(outcome)
                outcomes.append(outcome)
        return outcomes

    async def move_chat(
        self, old_id: int, new_id: int, moved: Callable[[list[int]], Awaitable[None]]
    ) -> list[Outcome]:
        """The group became a supergroup: its settings, boards, ratings and games follow to
        the new id, every active game held meanwhile; `moved` is told the games moved while
        they are still held (a front end moves what it queued for the old chat). One outcome
        per game moved: its lobby as it stands, or where its play stands (a paused game's
        none: it is shown when it goes on)."""
        service = self._service
        game_ids = await service.chat_changes.active_in(old_id)
        outcomes: list[Outcome] = []
        async with service.cache.lock_all(game_ids):
            moved_ids = await service.chat_changes.move(old_id, new_id)
            await moved(moved_ids)
            for game_id in moved_ids:
                live = await service.cache.get(game_id)
                if live.status is GameStatus.LOBBY:
                    outcome = self._outcome(game_id, LobbyChanged(service.lobbies.view(live)))
                elif live.status is GameStatus.RUNNING and not live.paused:
                    outcome = Outcome.of_progress(await service.tables.resume(game_id), self.by)
                else:
                    outcome = self._outcome(game_id)
                await self._finish(outcome)
                outcomes.append(outcome)
        return outcomes

    async def end_with_chat(self, game_id: int) -> Outcome:
        """The bot left the chat: the game ends as aborted (no effect: it was over)."""
        chat_changes = self._service.chat_changes

        async def run() -> Outcome:
            facts = await chat_changes.end(game_id)
            if facts is None:
                return self._outcome(game_id)
            return self._outcome(game_id, ClosedWithChat(facts))

        return await self._run(game_id, run)

    async def pause(self, game_id: int) -> Outcome:
        """The bot may not write in the chat: the game waits (no effect: it was not
        running)."""
        chat_changes = self._service.chat_changes

        async def run() -> Outcome:
            facts = await chat_changes.pause(game_id)
            return (
                self._outcome(game_id) if facts is None else self._outcome(game_id, Paused(facts))
            )

        return await self._run(game_id, run)

    async def go_on(self, game_id: int) -> Outcome:
        """The bot may write again: a paused game goes on (no effect: it was not paused)."""
        chat_changes = self._service.chat_changes

        async def run() -> Outcome:
            return self._progressed(await chat_changes.resume(game_id), game_id)

        return await self._run(game_id, run)
