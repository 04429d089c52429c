"""Playing a running game: people's moves, computer moves, timeouts, rounds and the game's end."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from ..games.seam import AnyMatch
from ..store import GameStatus, SeatRecord, Store
from .computer import ComputerPlayers
from .dealer import Dealer, ShuffledDeals
from .errors import (
    GameNotRunning,
    GamePaused,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    PickHasNoMove,
    StaleButton,
)
from .live import LiveCache, LiveGame
from .progress import GameOver, Progress, RoundOver, RoundStarted
from .tally import Tally
from .views import HandView, RoundReveal, TableView

REMINDER_MIN_SECONDS = 2
"""A turn this short or shorter gets no half-time reminder."""


class Tables:
    """The use cases of a running game. Callers hold `cache.lock(game_id)` around each call."""

    def __init__(
        self,
        store: Store,
        cache: LiveCache,
        computer: ComputerPlayers,
        rng: random.Random,
        clock: Callable[[], datetime],
        tally: Tally | None = None,
        dealer: Dealer | None = None,
    ) -> None:
        self.store = store
        self.cache = cache
        self.computer = computer
        self.rng = rng
        self.clock = clock
        self.tally = tally or Tally()
        self.dealer: Dealer = dealer or ShuffledDeals()
        """Deals every round, the first one too (Lobbies.start asks it)."""

    # Views ---------------------------------------------------------------------------------

    def table(self, live: LiveGame) -> TableView[Any]:
        """The public table of the game's current round."""
        match = live.match
        assert match is not None
        return TableView(
            game_id=live.game_id,
            version=live.version,
            chat_id=live.chat_id,
            thread_id=live.thread_id,
            kind=live.kind.name,
            config=match.config,
            round_number=match.round_number,
            seats=live.seat_infos(),
            scores=match.scores,
            to_move=match.to_move,
            deadline=live.deadline,
            winner=match.winner,
            board=match.board(),
            language=live.chat.language,
            chat_title=live.chat.title or "",
            round_over=match.round_over,
            aborted=live.status is GameStatus.ABORTED,
            pictures=live.options["pictures"] == "on",
            message_id=live.message_id,
        )

    def hand(
        self, live: LiveGame, seat: int, table: TableView[Any] | None = None
    ) -> HandView[Any, Any]:
        """A person's private view; legal moves only when they are to move themselves."""
        match = live.match
        assert match is not None
        legal: tuple[int, ...] = ()
        if match.to_move == seat and not live.computer_moves(seat):
            legal = match.legal_codes()
        return HandView(
            game_id=live.game_id,
            version=live.version,
            seat=seat,
            legal=legal,
            private=match.private(seat),
            table=table or self.table(live),
        )

    def private(self, live: LiveGame, seat: int) -> object:
        """What seat `seat` alone may see now (its hand)."""
        assert live.match is not None
        return live.match.private(seat)

    def _people_hands(self, live: LiveGame, table: TableView[Any]) -> dict[int, HandView[Any, Any]]:
        return {s.seat: self.hand(live, s.seat, table) for s in live.seats if s.user_id is not None}

    def finish(self, live: LiveGame, progress: Progress) -> Progress:
        """Fill in where the game stands now."""
        match = live.match
        if match is None or live.status is not GameStatus.RUNNING or match.to_move is None:
            return progress
        table = self.table(live)
        progress.table = table
        progress.hands = self._people_hands(live, table)
        seat = match.to_move
        if not live.computer_moves(seat):
            progress.turn = progress.hands[seat]
        return progress

    # Use cases -----------------------------------------------------------------------------

    async def play(
        self,
        game_id: int,
        user_id: int,
        version: int,
        code: int,
        committed: Callable[[], Awaitable[object]] | None = None,
    ) -> Progress:
        """A person's move from a button: checked against the seat, the version and the rules.
        `committed` runs once the move is stored, before the moves that follow it (the
        computers'): the person's tap can be answered without waiting for them."""
        live = await self.cache.get(game_id)
        match = self._running(live)
        seat = self._turn_seat(live, user_id, version)
        if code not in match.legal_codes():
            # The bot shows only legal moves as move buttons: any other is from an old state.
            raise StaleButton(f"move {code} is not legal now")
        progress = Progress(game_id)
        await self._commit(live, seat.seat, code, progress, timeouts=0 if seat.timeouts else None)
        if committed is not None:
            await committed()
        await self.advance(live, progress)
        return self.finish(live, progress)

    def _turn_seat(self, live: LiveGame, user_id: int, version: int) -> SeatRecord:
        """The person's seat, if the button is current and they are to move; raises if not."""
        match = self._running(live)
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotSeated(f"user {user_id} does not sit at game {live.game_id}")
        if live.paused:
            raise GamePaused(f"game {live.game_id} is paused")
        if version != live.version:
            raise StaleButton(f"game {live.game_id} is at version {live.version}, not {version}")
        if match.to_move != seat.seat or live.computer_moves(seat.seat):
            raise NotYourTurn(f"seat {seat.seat} is not to move")
        return seat

    def turn_view(self, live: LiveGame, user_id: int, version: int) -> HandView[Any, Any]:
        """The person's view on their own turn (raises unless the button is current)."""
        return self.hand(live, self._turn_seat(live, user_id, version).seat)

    def step_view(
        self, live: LiveGame, user_id: int, version: int, step: int
    ) -> tuple[HandView[Any, Any], tuple[int, ...]]:
        """The seat's view when it takes first pick `step` (a tile, a card), and the moves
        that pick leads to: raises unless it leads to at least one legal move now."""
        view = self.turn_view(live, user_id, version)
        assert live.match is not None
        codes = live.match.step_codes(step)
        if not codes:
            raise PickHasNoMove(f"pick {step} has no legal move")
        return view, codes

    async def stored_turn(self, game_id: int, version: int) -> tuple[int, int, int] | None:
        """(seat, user, message) of the stored hand message of the person whose turn the game
        is at `version` (any worker may have sent it), or None: no person's turn then, or no
        message stored."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.match is None or live.version != version:
            return None
        seat = live.match.to_move
        if seat is None or live.computer_moves(seat):
            return None
        record = live.seats[seat]
        if record.user_id is None or record.hand_message_id is None:
            return None
        return seat, record.user_id, record.hand_message_id

    async def take_reminder(self, game_id: int, version: int) -> tuple[LiveGame, int] | None:
        """The game and the seat of the person whose turn the game is at `version`, once they
        are due their half-time reminder, with the reminder taken in the database so that one
        worker sends it; None if it was taken already, or the game moved on or is paused."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.version != version or live.paused:
            return None
        match = live.match
        if match is None or live.deadline is None:
            return None
        seat = match.to_move
        if seat is None or live.computer_moves(seat) or live.seats[seat].user_id is None:
            return None
        async with self.store.transaction() as tx:
            if not await tx.games.claim_reminder(game_id, version):
                return None
        return live, seat

    async def timeout(self, game_id: int, version: int) -> Progress | None:
        """The turn ran out: the computer moves for the seat; two in a row hand it over.

        None when the game moved on since the timer was set (a stale timer)."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.version != version or live.paused:
            return None
        seat = self._running(live).to_move
        if seat is None or live.computer_moves(seat):
            return None
        record = live.seats[seat]
        # A turn whose hand never went out (its worker died, the send failed) is not the
        # person's fault: the computer moves, and the turn is not counted against them.
        timeouts = record.timeouts + (1 if live.hand_due is None else 0)
        autoplay = timeouts >= 2
        progress = Progress(game_id, timed_out=[seat])
        if autoplay and self._everyone_else_away(live, seat):
            return await self._abandon(live, progress)
        code = await self._computer_move(live, seat)
        if autoplay:
            progress.autoplay_started.append(seat)
        await self._commit(
            live, seat, code, progress, timeouts=timeouts, autoplay=True if autoplay else None
        )
        await self.advance(live, progress)
        return self.finish(live, progress)

    async def set_autoplay(self, game_id: int, user_id: int, autoplay: bool) -> Progress:
        """Hand a person's seat to the computer (the bot cannot reach them) or give it back."""
        live = await self.cache.get(game_id)
        self._running(live)
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotSeated(f"user {user_id} does not sit at game {game_id}")
        progress = Progress(game_id)
        if autoplay and self._everyone_else_away(live, seat.seat):
            return await self._abandon(live, progress)
        if seat.autoplay != autoplay:
            try:
                async with self.store.transaction() as tx:
                    await tx.seats.set_autoplay(game_id, seat.seat, autoplay)
                    await tx.seats.set_timeouts(game_id, seat.seat, 0)
            except BaseException:
                self.cache.drop(game_id)
                raise
            live.seats[seat.seat] = dataclasses.replace(seat, autoplay=autoplay, timeouts=0)
            if autoplay:
                progress.autoplay_started.append(seat.seat)
        await self.advance(live, progress)
        return self.finish(live, progress)

    async def advance(self, live: LiveGame, progress: Progress) -> None:
        """Play every move that needs no person: computer seats, moves nobody has to choose
        (Gaple's forced pass, C9), new rounds; stop at a person's turn or the game's end.
        A paused game does not move."""
        while live.status is GameStatus.RUNNING and not live.paused:
            match = live.match
            assert match is not None
            seat = match.to_move
            if seat is None:
                if match.is_over:
                    return
                await self._deal_next(live, progress)
                continue
            automatic = match.automatic_code()
            if automatic is not None:
                await self._commit(live, seat, automatic, progress)
            elif live.computer_moves(seat):
                await self._commit(live, seat, await self._computer_move(live, seat), progress)
            else:
                if live.deadline is None:
                    await self._set_deadline(live)
                return

    # Writing -------------------------------------------------------------------------------

    def _running(self, live: LiveGame) -> AnyMatch:
        if live.status is not GameStatus.RUNNING or live.match is None:
            raise GameNotRunning(f"game {live.game_id} is {live.status.value}")
        return live.match

    def _deadline(self, live: LiveGame) -> datetime | None:
        """When the turn now starting runs out; None when no person has to move."""
        match = live.match
        assert match is not None
        seat = match.to_move
        if seat is None or live.computer_moves(seat) or match.automatic_code() is not None:
            return None
        return self.clock() + timedelta(seconds=live.turn_seconds)

    def turn_timing(self, live: LiveGame, deadline: datetime | None) -> dict[str, datetime | None]:
        """The stored times of the turn that runs out at `deadline` (None: no person's turn):
        the deadline, the half-time reminder, and since when the person is owed their hand."""
        return {
            "turn_deadline": deadline,
            "remind_at": self.remind_at(live, deadline),
            "hand_due": None if deadline is None else self.clock(),
        }

    @staticmethod
    def remind_at(live: LiveGame, deadline: datetime | None) -> datetime | None:
        """When the person whose turn runs out at `deadline` is reminded: at half time (none
        for a turn of two seconds or less)."""
        if deadline is None or live.turn_seconds <= REMINDER_MIN_SECONDS:
            return None
        return deadline - timedelta(seconds=live.turn_seconds / 2)

    async def _set_deadline(self, live: LiveGame, *, hand_owed: bool = True) -> None:
        """A whole turn for the person to move from now (`hand_owed`: their hand is yet to go
        out, else whoever calls sends it and nobody else need)."""
        deadline = self._deadline(live)
        timing = self.turn_timing(live, deadline)
        if not hand_owed:
            timing["hand_due"] = None
        try:
            async with self.store.transaction() as tx:
                live.version = await tx.games.bump_version(live.game_id, live.version, **timing)
        except BaseException:
            self.cache.drop(live.game_id)
            raise
        live.deadline, live.hand_due = deadline, timing["hand_due"]

    async def _computer_move(self, live: LiveGame, seat: int) -> int:
        match = live.match
        assert match is not None
        # A seed from the game's position: the same position always gets the same decision.
        rng = random.Random(f"{live.game_id}/{match.round_number}/{match.ply}")
        view = match.computer_view(seat)
        return await self.computer.choose(live.kind, live.computer_level(seat), view, rng)

    async def _commit(
        self,
        live: LiveGame,
        seat: int,
        code: int,
        progress: Progress,
        *,
        timeouts: int | None = None,
        autoplay: bool | None = None,
    ) -> None:
        """Apply a legal move and store it in one transaction with everything it ended."""
        match = live.match
        assert match is not None
        round_number = match.round_number
        # The cached match moves first; if the write fails the cache is dropped and reloaded.
        match.apply(seat, code)
        result = match.round_result()
        deadline = self._deadline(live)
        timing = self.turn_timing(live, deadline)
        try:
            async with self.store.transaction() as tx:
                version = await tx.record_move(
                    live.game_id,
                    live.version,
                    round_number,
                    match.ply - 1,
                    seat,
                    code,
                    **timing,
                )
                if timeouts is not None:
                    await tx.seats.set_timeouts(live.game_id, seat, timeouts)
                if autoplay is not None:
                    await tx.seats.set_autoplay(live.game_id, seat, autoplay)
                if result is not None:
                    await tx.rounds.set_result(live.game_id, round_number, result)
                if match.is_over:
                    await tx.finish_game(live.game_id, live.kind, match.outcomes())
        except BaseException:
            self.cache.drop(live.game_id)
            raise
        live.version, live.deadline, live.hand_due = version, deadline, timing["hand_due"]
        self.tally.moved(live.kind.name)
        record = live.seats[seat]
        live.seats[seat] = dataclasses.replace(
            record,
            timeouts=record.timeouts if timeouts is None else timeouts,
            autoplay=record.autoplay if autoplay is None else autoplay,
        )
        if record.user_id is not None:
            progress.moved.append((round_number, seat, code))
        if result is not None:
            table = self.table(live)
            reveal = RoundReveal(table, match.revealed())
            progress.steps.append(RoundOver(table, reveal))
        if match.is_over:
            live.status = GameStatus.FINISHED
            progress.steps.append(GameOver(self.table(live), match.totals_by_round()))
            self.cache.drop(live.game_id)

    async def _deal_next(self, live: LiveGame, progress: Progress) -> None:
        """Deal the next round (Gaple's C5/D2: the last winner leads) and store the deal."""
        match = live.match
        assert match is not None
        deal = self.dealer.next(match, self.rng)
        match.start_round(deal)
        leader = match.to_move
        assert leader is not None
        deadline = self._deadline(live)
        timing = self.turn_timing(live, deadline)
        try:
            async with self.store.transaction() as tx:
                version = await tx.games.bump_version(live.game_id, live.version, **timing)
                await tx.rounds.add(live.game_id, match.round_number, deal, leader)
        except BaseException:
            self.cache.drop(live.game_id)
            raise
        live.version, live.deadline, live.hand_due = version, deadline, timing["hand_due"]
        table = self.table(live)
        hands = tuple(self._people_hands(live, table).values())
        progress.steps.append(RoundStarted(table, hands))

    @staticmethod
    def _everyone_else_away(live: LiveGame, seat: int) -> bool:
        """Whether every other person's seat is already played by the computer."""
        return all(s.autoplay for s in live.seats if s.user_id is not None and s.seat != seat)

    async def _abandon(self, live: LiveGame, progress: Progress) -> Progress:
        """Nobody is left to play: abort the game (no results, no rating changes) rather than
        let the computer finish it in the people's names."""
        try:
            async with self.store.transaction() as tx:
                await tx.games.abort(live.game_id)
        except BaseException:
            self.cache.drop(live.game_id)
            raise
        live.status = GameStatus.ABORTED
        live.deadline = None
        progress.abandoned = self.table(live)
        progress.timed_out.clear()
        self.cache.drop(live.game_id)
        return progress

    async def stop(self, game_id: int, user_id: int, is_admin: bool) -> TableView[Any] | None:
        """/stop: abort the game (whoever opened it, or an admin); no rating changes.

        Returns the last table, or None if the game was still a lobby."""
        live = await self.cache.get(game_id)
        if live.status not in (GameStatus.LOBBY, GameStatus.RUNNING):
            raise GameNotRunning(f"game {game_id} is {live.status.value}")
        if user_id != live.opener_id and not is_admin:
            raise NotAllowed("only the opener or an admin may stop the game")
        async with self.store.transaction() as tx:
            await tx.games.abort(game_id)
        live.status = GameStatus.ABORTED
        live.deadline = None
        table = self.table(live) if live.match is not None else None
        self.cache.drop(game_id)
        return table

    async def remember_table_message(self, game_id: int, message_id: int) -> None:
        """Store which group message shows the game (to edit it again after a restart)."""
        async with self.store.transaction() as tx:
            await tx.games.set_message(game_id, message_id)
        live = self.cache.games.get(game_id)
        if live is not None:
            live.message_id = message_id

    async def remember_hand_message(
        self, game_id: int, seat: int, message_id: int | None, *, turn_version: int | None = None
    ) -> None:
        """Store which private message shows a seat its hand; `turn_version`: it holds the
        move buttons of the seat's turn at that version, so its hand is no longer owed."""
        async with self.store.transaction() as tx:
            await tx.seats.set_hand_message(game_id, seat, message_id)
            if turn_version is not None:
                await tx.games.hand_shown(game_id, turn_version)
        live = self.cache.games.get(game_id)
        if live is not None:
            live.seats[seat] = dataclasses.replace(live.seats[seat], hand_message_id=message_id)
            if turn_version is not None and live.version == turn_version:
                live.hand_due = None

    async def turn_shown(self, game_id: int, version: int) -> None:
        """The turn at `version` is shown to its person by a message stored already (edited
        with its buttons after a restart): its hand is no longer owed."""
        async with self.store.transaction() as tx:
            await tx.games.hand_shown(game_id, version)
        live = self.cache.games.get(game_id)
        if live is not None and live.version == version:
            live.hand_due = None

    async def owed_turn(self, game_id: int, version: int) -> Progress | None:
        """Where the game stands, if the person whose turn it is at `version` is still owed
        their hand: the worker that started the turn sends it under the game's lock, so one
        still owed when another holds the lock was lost (that worker died, or the send
        failed) and is to be sent now. None if it went out, or the game moved on."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.version != version or live.paused:
            return None
        if live.hand_due is None or live.match is None:
            return None
        seat = live.match.to_move
        if seat is None or live.computer_moves(seat):
            return None
        return self.finish(live, Progress(game_id))

    async def play_on(self, game_id: int) -> Progress | None:
        """A game that waits for nobody (its worker died while the computers moved): play
        on to the next person's turn. None if it waits for someone after all (nothing to
        show: the worker that moved it last shows it)."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.match is None or live.paused:
            return None
        if live.deadline is not None:
            return None
        return await self.resume(game_id)

    async def resume(self, game_id: int) -> Progress:
        """After a restart: finish any automatic moves the crash interrupted."""
        live = await self.cache.get(game_id)
        progress = Progress(game_id)
        if live.status is GameStatus.RUNNING and live.match is not None and not live.paused:
            await self.advance(live, progress)
            if live.deadline is not None and live.deadline <= self.clock():
                # The turn ran out while the bot was down: the person gets a whole turn again.
                await self._set_deadline(live)
        return self.finish(live, progress)
