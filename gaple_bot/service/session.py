"""A game held for a front end: the use cases it runs on the game while the service holds it.

A front end asks the service to hold a game (`GameService.hold`), runs use cases on the
session it gets and shows their results before the block ends; the lock, the cached copy and
its checks against the database stay inside the service. What the front end may know of the
game comes as frozen views and facts, never the cached copy itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from .errors import GameNotRunning, NotSeated, StaleButton
from .facts import GameFacts, facts_of
from .live import LiveGame
from .outcome import CHAT, LobbyChanged, NextGame, Outcome, TableChanged
from .progress import Progress
from .seen import hand_view, private_view, step_view, table_view, turn_view
from .views import HandView, LobbyView, Person, SeatInfo, TableView

if TYPE_CHECKING:
    from .runtime import GameService


@dataclass(frozen=True, slots=True)
class ReminderDue:
    """A person owed their half-time reminder, taken so that no other worker sends it."""

    table: TableView[Any]
    seat: SeatInfo
    deadline: datetime


class GameSession:
    """The use cases of one game, run while the service holds it (see `GameService.hold`)."""

    def __init__(self, service: GameService, game_id: int, by: str = CHAT) -> None:
        self._service = service
        self.game_id = game_id
        self.by = by
        """The front end running the use cases (their outcomes say so)."""

    async def _live(self) -> LiveGame:
        return await self._service.cache.get(self.game_id)

    # What the front end may know --------------------------------------------------------------

    async def facts(self) -> GameFacts:
        """Where the game is and who sits at it (raises NoSuchGame)."""
        return facts_of(await self._live())

    async def table(self) -> TableView[Any]:
        """The public table of the round being played (raises GameNotRunning before one)."""
        live = await self._live()
        if live.match is None:
            raise GameNotRunning(f"game {self.game_id} has no table yet")
        return table_view(live)

    async def lobby(self) -> LobbyView:
        """The lobby as it stands."""
        return self._service.lobbies.view(await self._live())

    async def hand(self, user_id: int) -> HandView[Any, Any]:
        """The person's own view, with their legal moves on their turn (raises NotSeated)."""
        live = await self._live()
        seat = live.seat_of(user_id)
        if seat is None or live.match is None:
            raise NotSeated(f"user {user_id} is not at game {self.game_id}")
        return hand_view(live, seat.seat)

    async def private(self, user_id: int) -> object:
        """What the person's own seat alone may see now (raises NotSeated)."""
        live = await self._live()
        seat = live.seat_of(user_id)
        if seat is None or live.match is None:
            raise NotSeated(f"user {user_id} is not at game {self.game_id}")
        return private_view(live, seat.seat)

    def _progressed(self, progress: Progress) -> Progress:
        """`progress`, published as an Outcome to the front ends that subscribe."""
        if self._service.feed.listened:
            self._service.feed.publish(Outcome.of_progress(progress, self.by))
        self._service.announce(self.game_id)
        return progress

    def _changed(self, lobby: LobbyView) -> LobbyView:
        """The lobby as a use case left it, published."""
        if self._service.feed.listened:
            self._service.feed.publish(Outcome.of_lobby(lobby, self.by))
        self._service.announce(self.game_id)
        return lobby

    def forget(self) -> None:
        """Drop this worker's copy (after an unexpected failure): read afresh next time."""
        self._service.cache.drop(self.game_id)

    # The lobby -----------------------------------------------------------------------------

    async def join(self, person: Person, *, private_chat: bool = True) -> LobbyView:
        """The person takes the next free seat (`private_chat` False: from the page, where
        their hand lives, so no private chat with the bot is needed)."""
        return self._changed(
            await self._service.lobbies.join(self.game_id, person, private_chat=private_chat)
        )

    async def leave(self, user_id: int) -> LobbyView:
        """The person gets up from the lobby."""
        return self._changed(await self._service.lobbies.leave(self.game_id, user_id))

    async def add_computer(self, user_id: int, is_admin: bool) -> LobbyView:
        """A computer player takes the next free seat."""
        return self._changed(
            await self._service.lobbies.add_computer(self.game_id, user_id, is_admin)
        )

    async def cancel(self, user_id: int, is_admin: bool) -> LobbyView:
        """The lobby closes without a game."""
        return self._changed(await self._service.lobbies.cancel(self.game_id, user_id, is_admin))

    async def expire(self) -> LobbyView | None:
        """Nobody started the lobby in time (None: it started or closed meanwhile)."""
        lobby = await self._service.lobbies.expire(self.game_id)
        return None if lobby is None else self._changed(lobby)

    async def start(self, user_id: int, is_admin: bool) -> tuple[LobbyView, Progress]:
        """The first round is dealt; computers fill the empty seats if the chat wants."""
        lobby, progress = await self._service.lobbies.start(self.game_id, user_id, is_admin)
        return self._changed(lobby), self._progressed(progress)

    async def leave_for_good(self, user_id: int) -> LobbyView | Progress | None:
        """The person, who asked to be forgotten, leaves the game: their lobby seat goes, a
        running game's seat is the computer's (see `Forgetting.leave`)."""
        return await self._service.forgetting.leave(self.game_id, user_id)

    async def end_with_chat(self) -> GameFacts | None:
        """The bot left the chat: the game ends as aborted (None: it was over already)."""
        return await self._service.chat_changes.end(self.game_id)

    async def pause(self) -> GameFacts | None:
        """The bot may not write in the chat: the game waits (None: it was not running)."""
        return await self._service.chat_changes.pause(self.game_id)

    async def go_on(self) -> Progress | None:
        """The bot may write again: a paused game goes on (None: it was not paused)."""
        progress = await self._service.chat_changes.resume(self.game_id)
        return None if progress is None else self._progressed(progress)

    async def play_again(self, person: Person) -> LobbyView:
        """A new lobby with this finished game's players seated."""
        lobby = await self._service.lobbies.play_again(self.game_id, person)
        if self._service.feed.listened:
            # The new lobby is another game: those watching this one are told where it is.
            self._service.feed.publish(
                Outcome(self.game_id, (NextGame(lobby.game_id, lobby.join_token),), self.by)
            )
            self._service.feed.publish(Outcome.of_lobby(lobby, self.by))
        self._service.announce(self.game_id)
        return lobby

    # The table -----------------------------------------------------------------------------

    async def move(self, user_id: int, version: int, code: int) -> Progress:
        """A person's move from a button, stored; the moves that follow it (the computers')
        are made by `advance`, so the person's tap can be answered in between."""
        return await self._service.tables.move(self.game_id, user_id, version, code)

    async def advance(self, progress: Progress) -> Progress:
        """Every move that needs no person after `progress`, and where the game stands then."""
        return self._progressed(await self._service.tables.advance_game(self.game_id, progress))

    async def turn_view(self, user_id: int, version: int) -> HandView[Any, Any]:
        """The person's view on their own turn (raises unless the button is current)."""
        return turn_view(await self._live(), user_id, version)

    async def step_view(
        self, user_id: int, version: int, step: int
    ) -> tuple[HandView[Any, Any], tuple[int, ...]]:
        """The person's view once they take first pick `step`, and the moves it leads to."""
        return step_view(await self._live(), user_id, version, step)

    async def timeout(self, version: int) -> Progress | None:
        """The turn at `version` ran out: the computer moves (None: the game moved on)."""
        progress = await self._service.tables.timeout(self.game_id, version)
        return None if progress is None else self._progressed(progress)

    async def take_reminder(self, version: int) -> ReminderDue | None:
        """The half-time reminder of the turn at `version`, taken for this worker to send."""
        due = await self._service.hands.take_reminder(self.game_id, version)
        if due is None:
            return None
        live, seat = due
        assert live.deadline is not None
        table = table_view(live)
        return ReminderDue(table, table.seats[seat], live.deadline)

    async def shown_in_page(self, version: int) -> None:
        """The person to move at `version` sees their turn in the page: their hand is not
        owed to their private chat."""
        await self._service.hands.turn_shown(self.game_id, version)

    async def stored_turn(self, version: int) -> tuple[int, int, int] | None:
        """(seat, user, message) of the stored hand message of the turn at `version`."""
        return await self._service.hands.stored_turn(self.game_id, version)

    async def owed_turn(self, version: int) -> Progress | None:
        """Where the game stands, if the person to move at `version` is owed their hand."""
        progress = await self._service.hands.owed_turn(self.game_id, version)
        return None if progress is None else self._progressed(progress)

    async def set_autoplay(self, user_id: int, autoplay: bool) -> Progress:
        """Hand the person's seat to the computer, or give it back."""
        return self._progressed(
            await self._service.tables.set_autoplay(self.game_id, user_id, autoplay)
        )

    async def can_take_back(self, user_id: int) -> bool:
        """Whether the person may take their seat back: they sit at the table and the
        computer plays their seat."""
        seat = (await self.facts()).seat_of(user_id)
        return seat is not None and seat.autoplay

    async def take_back(self, user_id: int) -> Progress:
        """The person takes their seat back from the computer. NotSeated if they sit at no
        seat; StaleButton if they play it already (a second tap, or a forged button)."""
        seat = (await self.facts()).seat_of(user_id)
        if seat is None:
            raise NotSeated(f"user {user_id} does not sit at game {self.game_id}")
        if not seat.autoplay:
            raise StaleButton(f"user {user_id} already plays their seat at game {self.game_id}")
        return await self.set_autoplay(user_id, False)

    async def play_on(self) -> Progress | None:
        """A game waiting for nobody plays on to the next person's turn."""
        progress = await self._service.tables.play_on(self.game_id)
        return None if progress is None else self._progressed(progress)

    async def resume(self) -> Progress:
        """After a restart: finish the automatic moves a crash interrupted."""
        return self._progressed(await self._service.tables.resume(self.game_id))

    async def stop(self, user_id: int, is_admin: bool) -> TableView[Any] | None:
        """/stop: abort the game; its last table (None if it was a lobby)."""
        table = await self._service.tables.stop(self.game_id, user_id, is_admin)
        if self._service.feed.listened:
            effect = TableChanged(table) if table is not None else LobbyChanged(await self.lobby())
            self._service.feed.publish(Outcome(self.game_id, (effect,), self.by))
        self._service.announce(self.game_id)
        return table
