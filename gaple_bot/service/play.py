"""Playing a running game: people's moves, computer moves, timeouts, rounds and the game's end."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from ..store import GameStatus, Store
from .breaks import RoundBreak, ended_round
from .computer import ComputerPlayers
from .dealer import Dealer, ShuffledDeals
from .errors import (
    BetweenRounds,
    GameNotRunning,
    NotAllowed,
    NotSeated,
    StaleButton,
)
from .live import LiveCache, LiveGame
from .pages import OpenPages
from .progress import GameOver, Play, Progress, RoundOver, RoundStarted
from .seen import people_hands, running_match, table_view, turn_seat, where_it_stands
from .tally import Tally, Uncounted
from .views import RoundReveal, TableView

REMINDER_MIN_SECONDS = 2
"""A turn this short or shorter gets no half-time reminder."""
ROUND_BREAK = timedelta(seconds=8)
"""How long everyone looks at a round that ended before the next one is played, unless told
otherwise (the setting ROUND_BREAK_SECONDS)."""


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
        pages: OpenPages | None = None,
        round_break: timedelta = ROUND_BREAK,
    ) -> None:
        self.store = store
        self.cache = cache
        self.computer = computer
        self.rng = rng
        self.clock = clock
        self.tally: Tally = tally if tally is not None else Uncounted()
        self.dealer: Dealer = dealer or ShuffledDeals()
        """Deals every round, the first one too (Lobbies.start asks it)."""
        self.pages = pages if pages is not None else OpenPages()
        """Who has a game's page open on this worker (their turn is shown there)."""
        self.round_break = round_break
        """The pause after a round's end, before the next one is played (none: zero)."""

    # Use cases -----------------------------------------------------------------------------

    async def play(self, game_id: int, user_id: int, version: int, code: int) -> Progress:
        """A person's move from a button and every move that follows it without a person."""
        return await self.advance_game(game_id, await self.move(game_id, user_id, version, code))

    async def move(self, game_id: int, user_id: int, version: int, code: int) -> Progress:
        """A person's move from a button, checked against the seat, the version and the rules,
        and stored; the moves that follow it are `advance_game`'s."""
        live = await self.cache.get(game_id)
        match = running_match(live)
        seat = turn_seat(live, user_id, version)
        if code not in match.legal_codes():
            # The bot shows only legal moves as move buttons: any other is from an old state.
            raise StaleButton(f"move {code} is not legal now")
        progress = Progress(game_id)
        if live.round_break is not None:
            if self.clock() < live.round_break.until:
                raise BetweenRounds(f"game {game_id} is between rounds")
            # The break is over, its timer not run yet: the move begins the round.
            await self.end_round_break(live, progress)
        await self._commit(
            live,
            seat.seat,
            code,
            progress,
            timeouts=0 if seat.timeouts else None,
            by_person=True,
        )
        return progress

    async def advance_game(self, game_id: int, progress: Progress) -> Progress:
        """Every move after `progress` that needs no person, and where the game stands then."""
        live = await self.cache.get(game_id)
        await self.advance(live, progress)
        return where_it_stands(live, progress)

    async def timeout(self, game_id: int, version: int) -> Progress | None:
        """The turn ran out: the computer moves for the seat; two in a row hand it over.

        None when the game moved on since the timer was set (a stale timer)."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.version != version or live.paused:
            return None
        seat = running_match(live).to_move
        if seat is None or live.computer_moves(seat):
            return None
        progress = Progress(game_id, timed_out=[seat])
        if live.round_break is not None:
            # A turn runs from the break's end: a turn that ran out ended the break.
            await self.end_round_break(live, progress)
        record = live.seats[seat]
        # A turn whose hand never went out (its worker died, the send failed) is not the
        # person's fault: the computer moves, and the turn is not counted against them.
        timeouts = record.timeouts + (0 if await self._hand_owed(live) else 1)
        autoplay = timeouts >= 2
        if autoplay and self._everyone_else_away(live, seat):
            return await self._abandon(live, progress)
        code = await self._computer_move(live, seat)
        if autoplay:
            progress.autoplay_started.append(seat)
        await self._commit(
            live, seat, code, progress, timeouts=timeouts, autoplay=True if autoplay else None
        )
        await self.advance(live, progress)
        return where_it_stands(live, progress)

    async def set_autoplay(self, game_id: int, user_id: int, autoplay: bool) -> Progress:
        """Hand a person's seat to the computer (the bot cannot reach them) or give it back."""
        live = await self.cache.get(game_id)
        running_match(live)
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
        return where_it_stands(live, progress)

    async def advance(self, live: LiveGame, progress: Progress) -> None:
        """Play every move that needs no person: computer seats, moves nobody has to choose
        (Gaple's forced pass, C9), new rounds; stop at a person's turn, during the break
        after a round's end, or at the game's end. A paused game does not move."""
        while live.status is GameStatus.RUNNING and not live.paused:
            match = live.match
            assert match is not None
            seat = match.to_move
            if seat is None:
                if match.is_over:
                    return
                await self._deal_next(live, progress)
                continue
            if live.round_break is not None:
                if self.clock() < live.round_break.until:
                    # Nobody moves during the break; a person's turn runs from its end.
                    if live.deadline is None and self._deadline(live) is not None:
                        await self._set_deadline(live)
                    return
                await self.end_round_break(live, progress)
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

    def _deadline(self, live: LiveGame) -> datetime | None:
        """When the turn now starting runs out; None when no person has to move."""
        match = live.match
        assert match is not None
        seat = match.to_move
        if seat is None or live.computer_moves(seat) or match.automatic_code() is not None:
            return None
        # The first turn of a round after a break runs from the break's end.
        start = self.clock() if live.round_break is None else live.round_break.until
        return start + timedelta(seconds=live.turn_seconds)

    def turn_timing(self, live: LiveGame, deadline: datetime | None) -> dict[str, Any]:
        """The stored times of the turn that runs out at `deadline` (None: no person's turn):
        the deadline, the half-time reminder, and since when the person is owed their hand
        (never, while they have the game's page open on this worker: it shows their turn), by
        this worker."""
        owed = deadline is not None and not self._in_page(live)
        return {
            "turn_deadline": deadline,
            "remind_at": self.remind_at(live, deadline),
            "hand_due": self.clock() if owed else None,
            "hand_owner": self.store.game_locks.worker_id if owed else None,
        }

    async def _hand_owed(self, live: LiveGame) -> bool:
        """Whether the person to move is still owed their hand. Beside other workers it is
        read from the database: the worker that sent the hand recorded it without the game's
        lock (it changes nothing a copy plays by, so a copy is not read again for it)."""
        if not self.store.game_locks.shared:
            return live.hand_due is not None
        async with self.store.read() as tx:
            return (await tx.games.get(live.game_id)).hand_due is not None

    def _in_page(self, live: LiveGame) -> bool:
        """Whether the person to move has the game's page open on this worker."""
        seat = live.match.to_move if live.match is not None else None
        user_id = live.seats[seat].user_id if seat is not None else None
        return user_id is not None and self.pages.is_open(live.game_id, user_id)

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
            timing["hand_due"] = timing["hand_owner"] = None
        try:
            async with self.store.transaction() as tx:
                live.version = await tx.games.bump_version(live.game_id, live.version, **timing)
        except BaseException:
            self.cache.drop(live.game_id)
            raise
        live.deadline, live.hand_due = deadline, timing["hand_due"]
        live.hand_owner = timing["hand_owner"]

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
        by_person: bool = False,
    ) -> None:
        """Apply a legal move and store it in one transaction with everything it ended
        (`by_person`: the person seated chose it; any other move is the computer's)."""
        match = live.match
        assert match is not None
        round_number = match.round_number
        # The cached match moves first; if the write fails the cache is dropped and reloaded.
        events = match.apply(seat, code)
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
                    by_computer=not by_person,
                    **timing,
                )
                if timeouts is not None:
                    await tx.seats.set_timeouts(live.game_id, seat, timeouts)
                if autoplay is not None:
                    await tx.seats.set_autoplay(live.game_id, seat, autoplay)
                if result is not None:
                    await tx.rounds.set_result(live.game_id, round_number, result)
                if match.is_over:
                    await tx.finish_game(
                        live.game_id, live.kind, match.outcomes(), now=self.clock()
                    )
        except BaseException:
            self.cache.drop(live.game_id)
            raise
        live.version, live.deadline, live.hand_due = version, deadline, timing["hand_due"]
        live.hand_owner = timing["hand_owner"]
        self.tally.moved(live.kind.name)
        record = live.seats[seat]
        live.seats[seat] = dataclasses.replace(
            record,
            timeouts=record.timeouts if timeouts is None else timeouts,
            autoplay=record.autoplay if autoplay is None else autoplay,
        )
        progress.plays.append(Play(round_number, seat, code, events))
        if record.user_id is not None:
            progress.moved.append((round_number, seat, code))
        if result is not None:
            table = table_view(live)
            reveal = RoundReveal(table, match.revealed())
            progress.steps.append(RoundOver(table, reveal))
        if match.is_over:
            live.status = GameStatus.FINISHED
            progress.steps.append(GameOver(table_view(live), match.totals_by_round()))
            self.cache.drop(live.game_id)

    async def _deal_next(self, live: LiveGame, progress: Progress) -> None:
        """Deal the next round (Gaple's C5/D2: the last winner leads) and store the deal."""
        match = live.match
        assert match is not None
        ended = ended_round(table_view(live), match)
        deal = self.dealer.next(match, self.rng)
        match.start_round(deal)
        leader = match.to_move
        assert leader is not None
        if self.round_break > timedelta(0):
            # Everyone looks at the round that ended before anyone moves in this one.
            live.round_break = RoundBreak(self.clock() + self.round_break, frozenset(), ended)
        deadline = self._deadline(live)
        timing = self.turn_timing(live, deadline)
        try:
            async with self.store.transaction() as tx:
                version = await tx.games.bump_version(live.game_id, live.version, **timing)
                await tx.rounds.add(live.game_id, match.round_number, deal, leader)
                if live.round_break is not None:
                    await tx.games.set_round_break(live.game_id, live.round_break.until)
        except BaseException:
            self.cache.drop(live.game_id)
            raise
        live.version, live.deadline, live.hand_due = version, deadline, timing["hand_due"]
        live.hand_owner = timing["hand_owner"]
        table = table_view(live)
        hands = tuple(people_hands(live, table).values())
        progress.steps.append(RoundStarted(table, hands))

    async def end_round_break(self, live: LiveGame, progress: Progress) -> None:
        """The break after a round's end is over: the round may be played. The first turn's
        time runs from the break's end as set; from now when the break ended sooner
        (everyone said Next), so the turn keeps its whole time and no more."""
        assert live.round_break is not None
        unused = live.round_break.until - self.clock()
        restarted = (
            live.deadline - unused if live.deadline is not None and unused > timedelta(0) else None
        )
        try:
            async with self.store.transaction() as tx:
                await tx.games.set_round_break(live.game_id, None)
                if restarted is not None:
                    remind = self.remind_at(live, restarted)
                    await tx.games.set_turn_times(live.game_id, restarted, remind)
        except BaseException:
            self.cache.drop(live.game_id)
            raise
        live.round_break = None
        if restarted is not None:
            live.deadline = restarted
            progress.clock_restarted = True
        assert live.match is not None
        progress.break_ended = live.match.round_number

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
        progress.abandoned = table_view(live)
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
        table = table_view(live) if live.match is not None else None
        self.cache.drop(game_id)
        return table

    async def play_on(self, game_id: int) -> Progress | None:
        """A game that waits for nobody (its worker died while the computers moved): play
        on to the next person's turn. None if it waits for someone after all (nothing to
        show: the worker that moved it last shows it)."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.RUNNING or live.match is None or live.paused:
            return None
        if live.deadline is not None:
            return None
        if live.round_break is not None and self.clock() < live.round_break.until:
            return None  # the break's timer plays on when it ends
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
        return where_it_stands(live, progress)
