"""The service's commands and questions: each command holds its game, runs, persists, lets go.

A front end sends a command and applies the frozen Outcome it gets back (the same one every
subscriber of the feed receives); it never sees the game's lock, its cached copy, or a held
game. Questions ask first what a command would refuse (pokerkit's verify-then-do), so no front
end writes a rule of the game's flow again.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from ..store import GameStatus
from .errors import GameNotRunning, NotSeated, ServiceError, StaleButton
from .facts import GameFacts, facts_of
from .live import LiveGame
from .outcome import (
    CHAT,
    PRIVATE_EFFECTS,
    ClosedWithChat,
    Effect,
    LobbyChanged,
    LobbyExpired,
    NextGame,
    Outcome,
    Paused,
    Reminded,
    Stopped,
    TableChanged,
    TurnSeen,
)
from .progress import Progress
from .seen import hand_view, private_view, step_view, table_view, turn_view
from .snapshot import GameSnapshot, snapshot_of
from .views import HandView, LobbyView, Person, TableView

if TYPE_CHECKING:
    from .runtime import GameService

T = TypeVar("T")


Recorder = Callable[[Outcome], Awaitable[None]]
"""What a front end records of each outcome while the game is still held, so that it goes out
in the game's order beside other workers (the group's messages into their stored queue). It
may write to the database; it never calls Telegram nor writes to a socket."""


class Recorders:
    """The recorders every command runs before it lets its game go (shared by the front
    ends' facades)."""

    def __init__(self) -> None:
        self._recorders: list[Recorder] = []

    def add(self, recorder: Recorder) -> None:
        """Run `recorder` on every outcome from now on."""
        self._recorders.append(recorder)

    def remove(self, recorder: Recorder) -> None:
        """Stop running `recorder`."""
        if recorder in self._recorders:
            self._recorders.remove(recorder)

    async def record(self, outcome: Outcome) -> None:
        """Every recorder's part of `outcome`, in the order they were added."""
        for recorder in self._recorders:
            await recorder(outcome)


class GameCommands:
    """Commands and questions on games, for one front end (named in the outcomes)."""

    def __init__(self, service: GameService, by: str = CHAT) -> None:
        self._service = service
        self.by = by

    # Running one command -------------------------------------------------------------------

    async def _run(self, game_id: int, use_case: Callable[[], Awaitable[Outcome]]) -> Outcome:
        """Hold the game while `use_case` runs and persists, let the recorders record its
        outcome, publish it to every subscriber (still in the game's order), let the game
        go, and return the outcome."""
        service = self._service
        async with service.cache.lock(game_id):
            try:
                outcome = await use_case()
            except BaseException as error:
                if not isinstance(error, ServiceError):
                    # Anything unexpected leaves the copy unknown: read afresh next time.
                    service.cache.drop(game_id)
                raise
            outcome = await self._with_snapshot(outcome)
            await self._finish(outcome)
        return outcome

    async def _with_snapshot(self, outcome: Outcome) -> Outcome:
        """`outcome` with the game as it stands now, while a page of the game is open on
        this worker (its viewers' states come from it: no second hold, no read per page)."""
        service = self._service
        if not service.pages.any_open(outcome.game_id):
            return outcome
        if all(isinstance(effect, TurnSeen | Reminded) for effect in outcome.effects):
            return outcome  # nothing a page shows
        live = await service.cache.get(outcome.game_id)
        return dataclasses.replace(outcome, snapshot=snapshot_of(live, service.lobbies))

    async def _finish(self, outcome: Outcome) -> None:
        """Let the recorders record `outcome` and publish it (its game still held)."""
        service = self._service
        try:
            await service.recorders.record(outcome)
        finally:
            # The change is stored: whatever a recorder did, everyone hears of it.
            service.feed.publish(outcome)
            service.announce(outcome.game_id)

    def _outcome(self, game_id: int, *effects: Effect) -> Outcome:
        return Outcome(game_id, effects, self.by)

    def _progressed(self, progress: Progress | None, game_id: int) -> Outcome:
        if progress is None:
            return self._outcome(game_id)
        return Outcome.of_progress(progress, self.by)

    # The lobby -----------------------------------------------------------------------------

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

    # The table -----------------------------------------------------------------------------

    async def move(self, game_id: int, user_id: int, version: int, code: int) -> Outcome:
        """A person's move, stored, and every move after it that needs no person (the
        computers'), up to where the game waits for someone."""
        tables = self._service.tables

        async def run() -> Outcome:
            progress = await tables.move(game_id, user_id, version, code)
            return Outcome.of_progress(await tables.advance_game(game_id, progress), self.by)

        return await self._run(game_id, run)

    async def timeout(self, game_id: int, version: int) -> Outcome:
        """The turn at `version` ran out: the computer moves (no effect: the game moved on)."""
        tables = self._service.tables

        async def run() -> Outcome:
            return self._progressed(await tables.timeout(game_id, version), game_id)

        return await self._run(game_id, run)

    async def remind(self, game_id: int, version: int) -> Outcome:
        """The half-time reminder of the turn at `version`, taken for this worker to send
        (no effect: another took it, or the game moved on)."""
        hands = self._service.hands

        async def run() -> Outcome:
            due = await hands.take_reminder(game_id, version)
            if due is None:
                return self._outcome(game_id)
            live, seat = due
            assert live.deadline is not None
            table = table_view(live)
            return self._outcome(game_id, Reminded(table, table.seats[seat], live.deadline))

        return await self._run(game_id, run)

    async def owed_hand(self, game_id: int, version: int) -> Outcome:
        """Where the game stands, if the person to move at `version` is owed their hand (no
        effect: it went out, or the game moved on)."""
        hands = self._service.hands

        async def run() -> Outcome:
            return self._progressed(await hands.owed_turn(game_id, version), game_id)

        return await self._run(game_id, run)

    async def turn_seen(self, game_id: int, version: int) -> Outcome:
        """The person to move at `version` sees their turn in the page: their hand is not
        owed to their private chat (no effect: it was not owed)."""
        hands = self._service.hands

        async def run() -> Outcome:
            if not await hands.turn_shown(game_id, version):
                return self._outcome(game_id)
            return self._outcome(game_id, TurnSeen(version))

        return await self._run(game_id, run)

    async def hand_over(self, game_id: int, user_id: int) -> Outcome:
        """The computer plays the person's seat from now on (nobody can reach them)."""
        tables = self._service.tables

        async def run() -> Outcome:
            return Outcome.of_progress(await tables.set_autoplay(game_id, user_id, True), self.by)

        return await self._run(game_id, run)

    async def take_back(self, game_id: int, user_id: int) -> Outcome:
        """The person takes their seat back from the computer. NotSeated if they sit at no
        seat; StaleButton if they play it already (a second tap, or a forged button)."""
        service = self._service

        async def run() -> Outcome:
            seat = facts_of(await service.cache.get(game_id)).seat_of(user_id)
            if seat is None:
                raise NotSeated(f"user {user_id} does not sit at game {game_id}")
            if not seat.autoplay:
                raise StaleButton(f"user {user_id} already plays their seat at game {game_id}")
            progress = await service.tables.set_autoplay(game_id, user_id, False)
            return Outcome.of_progress(progress, self.by)

        return await self._run(game_id, run)

    async def play_on(self, game_id: int) -> Outcome:
        """A game waiting for nobody plays on to the next person's turn (no effect: it waits
        for someone after all)."""
        tables = self._service.tables

        async def run() -> Outcome:
            return self._progressed(await tables.play_on(game_id), game_id)

        return await self._run(game_id, run)

    async def resume(self, game_id: int) -> Outcome:
        """After a restart: finish the automatic moves a crash interrupted."""
        tables = self._service.tables

        async def run() -> Outcome:
            return Outcome.of_progress(await tables.resume(game_id), self.by)

        return await self._run(game_id, run)

    async def stop(self, game_id: int, user_id: int, is_admin: bool) -> Outcome:
        """/stop: the game ends with no results (its last table; a lobby closes)."""
        service = self._service

        async def run() -> Outcome:
            table = await service.tables.stop(game_id, user_id, is_admin)
            if table is not None:
                return self._outcome(game_id, Stopped(table))
            lobby = service.lobbies.view(await service.cache.get(game_id))
            return self._outcome(game_id, Stopped(None), LobbyChanged(lobby))

        return await self._run(game_id, run)

    async def redraw(self, game_id: int) -> Outcome:
        """Nothing changes: the game is shown again as it stands (its open lobby, or its
        running table; no effect once it is over), in its order with the changes around it."""
        service = self._service

        async def run() -> Outcome:
            live = await service.cache.get(game_id)
            if live.status is GameStatus.LOBBY:
                return self._outcome(game_id, LobbyChanged(service.lobbies.view(live)))
            if live.status is GameStatus.RUNNING and live.match is not None:
                return self._outcome(game_id, TableChanged(table_view(live)))
            return self._outcome(game_id)

        return await self._run(game_id, run)

    # The chat's changes --------------------------------------------------------------------

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

    # Questions -------------------------------------------------------------------------------

    async def _ask(self, game_id: int, question: Callable[[LiveGame], T]) -> T:
        """`question` answered on the game as it stands (read under its lock: beside other
        workers the copy is checked against the database first)."""
        cache = self._service.cache
        async with cache.lock(game_id):
            return question(await cache.get(game_id))

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
