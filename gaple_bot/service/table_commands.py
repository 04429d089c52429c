"""The table's commands: a move and the computers' replies, a turn's time, hands owed, seats
handed to the computer and taken back, stop, redraw."""

from __future__ import annotations

from ..store import GameStatus
from .command_base import CommandBase
from .errors import NotSeated, StaleButton
from .facts import facts_of
from .outcome import (
    BreakEnded,
    BreakReady,
    LobbyChanged,
    Outcome,
    Reminded,
    Stopped,
    TableChanged,
    TurnSeen,
)
from .progress import Progress
from .seen import table_view


class TableCommands(CommandBase):
    """Commands on a running game."""

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

    async def next_round(self, game_id: int, user_id: int) -> Outcome:
        """The person says Next during the break after a round's end: the break ends once
        every person seated has (or its time is up). NotSeated if they sit at no seat;
        NoRoundBreak if no break runs."""
        service = self._service

        async def run() -> Outcome:
            progress = await service.breaks.next(game_id, user_id)
            if progress is not None:
                return self._break_over(progress)
            round_break = (await service.cache.get(game_id)).round_break
            ready = sorted(round_break.ready) if round_break is not None else []
            return self._outcome(game_id, BreakReady(tuple(ready)))

        return await self._run(game_id, run)

    async def end_break(self, game_id: int, version: int) -> Outcome:
        """The break after a round's end, begun at `version`, ran out: the round is played
        (no effect: it ended sooner, or the game moved on)."""
        breaks = self._service.breaks

        async def run() -> Outcome:
            progress = await breaks.run_out(game_id, version)
            return self._outcome(game_id) if progress is None else self._break_over(progress)

        return await self._run(game_id, run)

    def _break_over(self, progress: Progress) -> Outcome:
        """The outcome of a break's end: the moves that followed it; only its end when
        nobody moved (a person leads the round: the chat shows nothing new, the pages the
        round's table)."""
        if (
            progress.plays
            or progress.steps
            or progress.abandoned is not None
            or progress.clock_restarted
        ):
            # (A restarted clock: the chat arms the turn's timers again for its new end.)
            return Outcome.of_progress(progress, self.by)
        assert progress.break_ended is not None
        return self._outcome(progress.game_id, BreakEnded(progress.break_ended))

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
