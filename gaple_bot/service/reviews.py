"""Finished games for replays and /games, and their reviews analysed in the background.

A finished game's review is worked out once, after the game ends, in the computer players'
pool at low priority (one decision at a time, each only while no live decision waits), then
stored and read by the replay page and /review. A game that ended while the bot was down, or
whose analysis was cut short by a stop, is analysed when the bot starts again.

Workers sharing a database may each be asked for the same game (the game ended on one, a
/review or the replay page reached another): the one that claims the game in the store
analyses it, the others look at the store now and then until its review is there (or its
claim has gone stale: its worker died, and one of them takes the claim over).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from ..games.registry import Registry
from ..games.review import REVIEW_VERSION, GameReview, assemble, decisions
from ..games.seam import AnyGameKind
from ..games.views import SeatInfo
from ..store import GameStatus, Store, is_former_player
from ..store.records import GameRecord, GameResult, SeatRecord, StoredPlay, UserRecord
from .computer import ComputerPlayers
from .errors import NoSuchGame
from .feed import OutcomeFeed, Subscription
from .outcome import GameEnded
from .review_claims import RETRY_AFTER, Claimed, ReviewClaims, TakenOver

log = logging.getLogger(__name__)
OWED_FOR = timedelta(days=7)
"""How far back a starting bot looks for finished games still owed their review."""
CLAIM_POLL = 3.0
"""Seconds between looks at the store while another worker analyses a game this one was asked
for: whether its review is stored, or its claim has gone stale."""
SOON, OWED = 0, 1
"""The queue's priorities: a game that just ended or that someone asks about comes before
the games a restart found still owed their review."""
JSON = dict[str, Any]


class _Done(Enum):
    """How one game's turn in the queue ended."""

    STORED = "stored"
    """The game has its review (analysed here, or stored by another worker)."""
    NONE = "none"
    """The game has none (it is not a finished game)."""
    ELSEWHERE = "elsewhere"
    """Another worker holds a live claim on it: wait for its review."""


@dataclass(frozen=True, slots=True)
class FinishedSeat:
    """One seat of a finished game: who sat there (as the renderers name seats) and how it
    ended."""

    info: SeatInfo
    place: int
    points: int

    @property
    def seat(self) -> int:
        """The seat's number."""
        return self.info.number

    @property
    def name(self) -> str:
        """The person's name ("" for a computer, or for a former player: the front end
        names them in the reader's language)."""
        return self.info.name

    @property
    def user_id(self) -> int | None:
        """The person seated (None for a computer player's own seat or a former player)."""
        return self.info.user_id

    @property
    def is_person(self) -> bool:
        """A person sat here (a former player too): their decisions are reviewed."""
        return self.info.user_id is not None or self.info.former


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game as its replay and the chat's list of games show it."""

    game_id: int
    chat_id: int
    thread_id: int | None
    kind: str
    config: JSON
    finished_at: datetime
    replay_token: str
    seats: tuple[FinishedSeat, ...]

    @property
    def people(self) -> tuple[int, ...]:
        """The seats where people sat: the seats a review covers."""
        return tuple(s.seat for s in self.seats if s.is_person)


class GameReviews:
    """Finished games and their reviews (`start` runs the background analysis)."""

    def __init__(
        self,
        store: Store,
        registry: Registry,
        computer: ComputerPlayers,
        clock: Callable[[], datetime],
        *,
        poll: float = CLAIM_POLL,
    ) -> None:
        self._store = store
        self._registry = registry
        self._computer = computer
        self._clock = clock
        self._queue: asyncio.PriorityQueue[tuple[int, int, int]] = asyncio.PriorityQueue()
        self._queued: set[int] = set()
        self._order = 0
        self._failed: dict[int, datetime] = {}
        """Games whose analysis failed, with when: not tried again before RETRY_AFTER."""
        self._reviewed: dict[int, asyncio.Event] = {}
        self._task: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._ready: list[Callable[[int], None]] = []
        self._claims = ReviewClaims(store, clock)
        self._poll = poll
        self._elsewhere: dict[int, asyncio.Task[None]] = {}
        """The games analysed by another worker that this one waits for, each with its
        watcher."""

    # Finished games --------------------------------------------------------------------------

    async def by_replay_token(self, token: str) -> FinishedGame:
        """The finished game this replay link's token opens; NoSuchGame if none (a live
        table's token never opens one)."""
        async with self._store.read() as tx:
            record = await tx.games.by_replay_token(token) if token else None
            if record is None or record.status is not GameStatus.FINISHED:
                raise NoSuchGame("no finished game has this replay token")
            return await self._finished(tx, record)

    async def game(self, game_id: int) -> FinishedGame:
        """A finished game by its id; NoSuchGame if there is none (or it is not finished)."""
        async with self._store.read() as tx:
            try:
                record = await tx.games.get(game_id)
            except LookupError:
                raise NoSuchGame(f"no game {game_id}") from None
            if record.status is not GameStatus.FINISHED:
                raise NoSuchGame(f"game {game_id} is not finished")
            return await self._finished(tx, record)

    async def finished(self, chat_id: int, limit: int = 10) -> list[FinishedGame]:
        """The chat's finished games, the latest first."""
        async with self._store.read() as tx:
            records = await tx.games.finished_in_chat(chat_id, limit)
            return [await self._finished(tx, record) for record in records]

    async def history(self, game_id: int) -> list[tuple[JSON, list[int]]]:
        """Every round's deal and move codes of a finished game, oldest first (hidden
        information: for a replay, where every round is over)."""
        async with self._store.read() as tx:
            record = await tx.games.get(game_id)
            if record.status is not GameStatus.FINISHED:
                raise NoSuchGame(f"game {game_id} is not finished")
            play = await tx.load_play(game_id, record)
        return [(dict(deal), list(codes)) for deal, codes in play.rounds]

    async def _finished(self, tx: Any, record: GameRecord) -> FinishedGame:
        seats: list[SeatRecord] = await tx.seats.of_game(record.id)
        results: dict[int, GameResult] = {r.seat: r for r in await tx.results.of_game(record.id)}
        people = [s.user_id for s in seats if s.user_id is not None]
        users: dict[int, UserRecord] = await tx.users.many(people)
        if record.finished_at is None or record.replay_token is None:
            # Finished by a worker of the version before replays, while this one upgraded.
            raise NoSuchGame(f"game {record.id} has no replay")
        return FinishedGame(
            game_id=record.id,
            chat_id=record.chat_id,
            thread_id=record.thread_id,
            kind=record.kind,
            config=dict(record.config),
            finished_at=record.finished_at,
            replay_token=record.replay_token,
            seats=tuple(
                FinishedSeat(
                    _seat_info(seat, users),
                    results[seat.seat].place if seat.seat in results else 0,
                    results[seat.seat].points if seat.seat in results else 0,
                )
                for seat in seats
            ),
        )

    # Reviews ---------------------------------------------------------------------------------

    async def review_json(self, game_id: int) -> JSON | None:
        """The finished game's stored review as JSON, or None while it is being prepared
        (asking queues it)."""
        async with self._store.read() as tx:
            stored = await tx.reviews.get(game_id, REVIEW_VERSION)
        if stored is None:
            self.queue(game_id)
        return stored

    async def review(self, game_id: int) -> GameReview | None:
        """The finished game's review, or None while it is being prepared (asking queues
        it)."""
        stored = await self.review_json(game_id)
        return None if stored is None else GameReview.from_json(stored)

    def when_ready(self, ready: Callable[[int], None]) -> None:
        """Call `ready(game_id)` each time a game's review is stored here."""
        self._ready.append(ready)

    def queue(self, game_id: int, priority: int = SOON) -> None:
        """Analyse the game when the pool has time (once; nothing if the analysis is not
        running in this process, or failed for this game less than RETRY_AFTER ago)."""
        if self._task is None or game_id in self._queued:
            return
        failed = self._failed.get(game_id)
        if failed is not None and self._clock() - failed < RETRY_AFTER:
            return
        self._queued.add(game_id)
        self._order += 1
        self._queue.put_nowait((priority, self._order, game_id))

    @property
    def waiting(self) -> frozenset[int]:
        """The games this worker was asked for that another worker is analysing: it waits
        for their stored review."""
        return frozenset(self._elsewhere)

    async def reviewed(self, game_id: int) -> GameReview:
        """The game's review, waiting for its analysis if it is not stored yet (the caller
        bounds the wait)."""
        while True:
            event = self._reviewed.setdefault(game_id, asyncio.Event())
            review = await self.review(game_id)
            if review is not None:
                return review
            await event.wait()

    def start(self, feed: OutcomeFeed) -> None:
        """Analyse every game that ends from now on (heard on `feed`), one at a time."""
        if self._task is not None:
            return
        self._task = asyncio.create_task(self._run(), name="reviews")
        self._listener = asyncio.create_task(self._hear(feed.subscribe()), name="reviews-feed")

    async def resume_owed(self) -> int:
        """Queue the finished games of the last week still owed their review (after a
        restart); returns how many."""
        since = self._clock() - OWED_FOR
        async with self._store.read() as tx:
            owed = await tx.reviews.missing(REVIEW_VERSION, since)
        for game_id in owed:
            self.queue(game_id, OWED)
        return len(owed)

    async def stop(self) -> None:
        """Stop analysing (a game cut short is analysed again after the next start; its
        claim is given up)."""
        for task in (self._listener, self._task):
            if task is not None:
                await _cancelled(task)
        self._task = self._listener = None
        # Only once the loop that starts the watchers has stopped: none starts after these.
        while self._elsewhere:
            game_id, task = next(iter(self._elsewhere.items()))
            await _cancelled(task)
            self._elsewhere.pop(game_id, None)

    async def _hear(self, subscription: Subscription) -> None:
        try:
            while True:
                outcome = await subscription.next()
                if outcome.first(GameEnded) is not None:
                    self.queue(outcome.game_id)
        finally:
            subscription.close()

    async def _run(self) -> None:
        while True:
            priority, _, game_id = await self._queue.get()
            try:
                done = await self._analyse(game_id)
            except asyncio.CancelledError:
                self._settle(game_id)
                raise
            except Exception:
                log.exception("game %s: its review failed", game_id)
                self._failed[game_id] = self._clock()
                self._settle(game_id)
            else:
                if done is _Done.ELSEWHERE:
                    self._elsewhere[game_id] = asyncio.create_task(
                        self._wait_elsewhere(game_id, priority), name=f"review-{game_id}"
                    )
                    continue
                self._failed.pop(game_id, None)
                # Also when another worker had stored it: whoever waits here is told.
                self._settle(game_id, stored=done is _Done.STORED)

    def _settle(self, game_id: int, *, stored: bool = False) -> None:
        """The game's turn is over: tell the listeners if it has its review, and wake
        whoever waits in `reviewed`."""
        for ready in self._ready if stored else ():
            try:
                ready(game_id)
            except Exception:
                log.exception("game %s: a review's listener failed", game_id)
        self._queued.discard(game_id)
        event = self._reviewed.pop(game_id, None)
        if event is not None:
            event.set()

    async def _wait_elsewhere(self, game_id: int, priority: int) -> None:
        """Look at the store every `poll` seconds until the game's review is stored there
        (then tell whoever waits here) or no live claim is left on it (then queue it
        again, to claim it)."""
        try:
            while True:
                await asyncio.sleep(self._poll)
                looked = await self._claims.look(game_id)
                if looked is Claimed.STORED:
                    self._settle(game_id, stored=True)
                    return
                if looked is Claimed.FREE:
                    self._order += 1
                    self._queue.put_nowait((priority, self._order, game_id))
                    return
        except asyncio.CancelledError:
            self._settle(game_id)
            raise
        except Exception:
            log.exception("game %s: waiting for its review failed", game_id)
            self._failed[game_id] = self._clock()
            self._settle(game_id)
        finally:
            self._elsewhere.pop(game_id, None)

    async def _analyse(self, game_id: int) -> _Done:
        """Work out and store one game's review, each step in the pool when it is free,
        under this worker's claim on it; how its turn ended (another worker may have stored
        its review, or hold a live claim on it)."""
        async with self._store.read() as tx:
            if await tx.reviews.get(game_id, REVIEW_VERSION) is not None:
                return _Done.STORED
            record = await tx.games.get(game_id)
            if record.status is not GameStatus.FINISHED:
                return _Done.NONE
            seats = await tx.seats.of_game(game_id)
            play = await tx.load_play(game_id, record)
            by_computer = await tx.moves.by_computer(game_id)
        try:
            # Inside the try: a stop that lands while the claim commits still gives it up.
            claimed = await self._claims.take(game_id)
            if claimed is not Claimed.OURS:
                # Stored by the claim's last holder since the read above, or analysed elsewhere.
                return _Done.STORED if claimed is Claimed.STORED else _Done.ELSEWHERE
            review = await _work_out(
                self._computer,
                functools.partial(self._claims.renew, game_id),
                self._registry.get(record.kind),
                record,
                [seat.seat for seat in seats if seat.user_id is not None],
                play,
                by_computer,
            )
            async with self._store.transaction() as tx:
                await tx.reviews.put(game_id, REVIEW_VERSION, review.to_json(), now=self._clock())
        except TakenOver:
            log.warning("game %s: its analysis was taken over by another worker", game_id)
            return _Done.ELSEWHERE
        except asyncio.CancelledError:
            await self._claims.let_go(game_id)
            raise
        log.info("game %s: reviewed (%d moves judged)", game_id, len(review.moves))
        return _Done.STORED


async def _cancelled(task: asyncio.Task[None]) -> None:
    """Cancel the task and wait for it to end (a failure it had met is logged)."""
    task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass
    except Exception:
        log.exception("the reviews' %s task had failed", task.get_name())


async def _work_out(
    computer: ComputerPlayers,
    renew: Callable[[], Awaitable[None]],
    kind: AnyGameKind,
    record: GameRecord,
    people: list[int],
    play: StoredPlay,
    by_computer: set[tuple[int, int]],
) -> GameReview:
    """A finished game's review of the seats of `people`, analysed in the pool one piece at
    a time, calling `renew` after each (the claim on the game is kept alive)."""
    rounds: Sequence[tuple[JSON, Sequence[int]]] = [
        (dict(deal), list(codes)) for deal, codes in play.rounds
    ]
    every = await computer.in_background(
        functools.partial(decisions, kind, dict(record.config), rounds, people)
    )
    await renew()
    # A move the computer chose for a person (their turn ran out, their seat was handed
    # over) is not their decision. A decision's ply counts from 1, a stored move's from 0.
    found = [d for d in every if (d.round, d.ply - 1) not in by_computer]
    values = []
    for decision in found:
        work = functools.partial(kind.review_values, decision.view, decision.seed)
        values.append(await computer.in_background(work))
        await renew()
    return assemble(found, values, people)


def _seat_info(seat: SeatRecord, users: dict[int, UserRecord]) -> SeatInfo:
    """A finished game's seat as the renderers name it (a former player's without a name)."""
    if is_former_player(seat.user_id):
        return SeatInfo(seat.seat, None, "", autoplay=True, former=True)
    user = users.get(seat.user_id) if seat.user_id is not None else None
    return SeatInfo(
        number=seat.seat,
        user_id=seat.user_id,
        name=user.display_name if user is not None else "",
        computer_level=seat.computer_level.value if seat.computer_level else None,
        autoplay=seat.autoplay,
        language=user.language if user is not None else None,
    )
