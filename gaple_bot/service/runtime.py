"""The service layer assembled: one object the bot creates at start-up and closes at shutdown."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Collection
from concurrent.futures import Executor
from datetime import datetime, timedelta

from ..games.registry import Registry, default_registry
from ..store import GameStatus, Store
from ..store.private_paces import PrivatePaces
from ..store.types import utc_now
from .chat_changes import ChatChanges
from .chats import ChatDefaults
from .command_base import Recorders
from .commands import GameCommands
from .computer import ComputerPlayers
from .dealer import Dealer
from .feed import OutcomeFeed
from .forgetting import Forgetting
from .hands import HandMessages
from .live import LiveCache
from .lobby import Lobbies
from .outbox import GroupLedger
from .outcome import CHAT, PAGE
from .pages import OpenPages
from .play import ROUND_BREAK, Tables
from .players import Players
from .reviews import GameReviews
from .round_breaks import RoundBreaks
from .tally import Tally, Uncounted

log = logging.getLogger(__name__)
KEEP_UPDATE_IDS = timedelta(days=1)
"""How long a received update's id is kept: Telegram stops retrying an update within a day
(and an update a worker left that long ago is not handled any more)."""
PRUNE_EVERY = timedelta(hours=1)


class GameService:
    """Lobbies, tables, players and the group outbox's ledger on one store, with one cache of
    live games."""

    def __init__(
        self,
        store: Store,
        *,
        rng: random.Random | None = None,
        executor: Executor | None = None,
        clock: Callable[[], datetime] = utc_now,
        defaults: ChatDefaults | None = None,
        registry: Registry | None = None,
        dealer: Dealer | None = None,
        tally: Tally | None = None,
        round_break: timedelta = ROUND_BREAK,
        spare_computer: bool = False,
    ) -> None:
        self.store = store
        self.registry = registry or default_registry()
        # Deals come from an unpredictable seed unless a test injects its own generator.
        self.rng = rng or random.Random(random.SystemRandom().getrandbits(128))
        defaults = defaults or ChatDefaults()
        self.cache = LiveCache(store, self.registry, defaults)
        self.tally: Tally = tally if tally is not None else Uncounted()
        """Where moves and decisions are counted for monitoring (the bot's /metrics)."""
        # `spare_computer`: the executor has a process more than live decisions need, which
        # the reviews' background work takes.
        self.computer = ComputerPlayers(executor, self.tally, spare=spare_computer)
        # Deals are the rules' own shuffles of `rng` unless a test injects a dealer of its own.
        self.pages = OpenPages()
        """Who has the page open at which game, on this worker (the chat front end sends
        them no private hand meanwhile)."""
        self.tables = Tables(
            store,
            self.cache,
            self.computer,
            self.rng,
            clock,
            self.tally,
            dealer=dealer,
            pages=self.pages,
            round_break=round_break,
        )
        self.breaks = RoundBreaks(store, self.cache, self.tables)
        """The breaks after a round's end: run out, or ended sooner by everyone's Next."""
        self.lobbies = Lobbies(store, self.cache, self.tables, self.rng, clock)
        self.players = Players(store, self.cache)
        self.chat_changes = ChatChanges(store, self.cache, self.tables)
        self.forgetting = Forgetting(store, self.cache, self.lobbies, self.tables)
        self.hands = HandMessages(store, self.cache, clock)
        self.ledger = GroupLedger(store)
        self.feed = OutcomeFeed()
        """Every use case's outcome, for the front ends that subscribe."""
        self.clock = clock
        self.reviews = GameReviews(store, self.registry, self.computer, clock)
        """Finished games, their replays' data and their reviews (analysed once `start_reviews`
        runs)."""
        self.recorders = Recorders()
        """What the front ends record of each command's outcome before its game is let go."""
        self.commands = GameCommands(self, CHAT)
        """The chat front end's commands and questions."""
        self.page_commands = GameCommands(self, PAGE)
        """The page front end's commands and questions."""
        self._pruned_at: datetime | None = None
        self._announcing: set[asyncio.Task[None]] = set()
        self._pages_listen = False
        """Whether a page front end hears other workers' changes here (see announce)."""

    @classmethod
    async def open(
        cls,
        database_url: str,
        *,
        rng: random.Random | None = None,
        executor: Executor | None = None,
        clock: Callable[[], datetime] = utc_now,
        defaults: ChatDefaults | None = None,
        registry: Registry | None = None,
        tally: Tally | None = None,
        alone_if_possible: bool = False,
        round_break: timedelta = ROUND_BREAK,
        spare_computer: bool = False,
    ) -> GameService:
        """The service on the database `database_url`, migrated to the newest schema; working
        alone on it if it may (`alone_if_possible`: not started as one of several workers)
        and no workers are on it (else beside them). `round_break`: the pause after a
        round's end before the next round is played (zero: none). `spare_computer`: the
        executor has one process more than the computer players need, for the reviews."""
        store = await Store.start(database_url, alone_if_possible=alone_if_possible)
        return cls(
            store,
            rng=rng,
            executor=executor,
            clock=clock,
            defaults=defaults,
            registry=registry,
            tally=tally,
            round_break=round_break,
            spare_computer=spare_computer,
        )

    @property
    def shared(self) -> bool:
        """Whether other workers may share the database (so its games, locks and timers)."""
        return self.store.game_locks.shared

    def watch_tenancy(self, on_lost: Callable[[], None]) -> None:
        """Call `on_lost` if this process loses its hold on the database to another kind of
        process (it must stop then; see `Tenancy.watch`)."""
        self.store.tenancy.watch(on_lost)

    @property
    def private_paces(self) -> PrivatePaces | None:
        """The private chats' pace shared with the other workers (None: working alone)."""
        return self.store.private_paces

    async def take_seniority(self) -> bool:
        """Whether this worker is the senior one (a process working alone is): the one that
        resumes the games after a restart of every worker."""
        return await self.store.game_locks.take_seniority()

    async def forget_old_paces(self) -> None:
        """Drop the private chats' paces nobody needs any more (beside other workers)."""
        if self.store.private_paces is not None:
            await self.store.private_paces.forget_old()

    def forget(self, game_id: int) -> None:
        """Drop this worker's copy of the game (after an unexpected failure)."""
        self.cache.drop(game_id)

    def announce(self, game_id: int) -> None:
        """Beside other workers, tell them the game changed (their pages show it); soon, not
        awaited: the change is stored, and whoever hears it reads it under the game's lock.
        Only pages listen, and every worker runs the same front ends: a worker with no page
        of its own (none listening here) has nobody to tell."""
        if not self.store.changes.shared or not self._pages_listen:
            return
        task = asyncio.create_task(self._announce(game_id))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _announce(self, game_id: int) -> None:
        try:
            await self.store.changes.announce(game_id)
        except Exception:
            log.warning("game %s: its change could not be told to the others", game_id)

    async def hear_changes(self, heard: Callable[[int], None]) -> None:
        """Beside other workers, `heard` is told each game another worker changed."""
        worker = self.store.game_locks.worker_id

        def from_another(by: int, game_id: int) -> None:
            if by != worker:
                heard(game_id)

        await self.store.changes.listen(from_another)
        self._pages_listen = True

    async def active_games(self) -> list[int]:
        """The ids of every lobby and running game (to resume them after a restart)."""
        async with self.store.read() as tx:
            return [record.id for record in await tx.games.all_active()]

    async def active_game(self, chat_id: int, thread_id: int | None) -> int | None:
        """The id of the chat's (topic's) lobby or running game, if any."""
        async with self.store.read() as tx:
            record = await tx.games.active(chat_id, thread_id)
        return None if record is None else record.id

    async def first_delivery(self, update_id: int, update_json: str | None = None) -> bool:
        """Record a Telegram update as taken in by this worker, with its JSON (kept until it
        is handled); False if it was already (a webhook post Telegram retried, perhaps to
        another worker): it must not be applied again. Once an hour the ids older than a day,
        which Telegram no longer retries, are forgotten."""
        now = self.clock()
        async with self.store.transaction() as tx:
            first = await tx.updates.first_delivery(
                update_id,
                now=now,
                update_json=update_json,
                taken_by=self.store.game_locks.worker_id,
            )
        await self._prune(now)
        return first

    async def first_answer(self, query_id: str) -> bool:
        """Record that a tap (callback query) is being answered; False if it was already: its
        update is handled again (its worker died, or the process restarted, before marking it
        handled) and Telegram takes one answer per tap."""
        now = self.clock()
        async with self.store.transaction() as tx:
            first = await tx.updates.first_answer(query_id, now=now)
        await self._prune(now)
        return first

    async def _prune(self, now: datetime) -> None:
        """Once an hour, forget the update ids and answered taps older than a day (Telegram
        no longer retries those updates)."""
        if self._pruned_at is None or now - self._pruned_at >= PRUNE_EVERY:
            self._pruned_at = now
            async with self.store.transaction(bulk=True) as tx:
                await tx.updates.forget_before(now - KEEP_UPDATE_IDS)

    async def updates_handled(self, update_ids: Collection[int]) -> None:
        """The handlers are done with these updates: nobody takes them again."""
        async with self.store.transaction() as tx:
            await tx.updates.handled(update_ids, now=self.clock())

    async def left_updates(self) -> list[tuple[int, str]]:
        """Take for this worker the updates that workers no longer alive took in and did not
        handle, received within the day Telegram would have retried them; (id, JSON) in id
        order. Each goes to one worker of those asking at once.

        A process working alone (SQLite) takes every update not handled: it must ask before
        it takes in any update itself, since those of its previous run hold its own id."""
        locks = self.store.game_locks
        since = self.clock() - KEEP_UPDATE_IDS
        dead: set[int] | None = None
        if locks.shared:
            async with self.store.read() as tx:
                takers = await tx.updates.takers(since)
            # Liveness is asked after the takers are read: a worker that took one of them in
            # was live before, so if it is not now, it is gone for good (ids are not reused).
            dead = takers - await locks.live_workers() if takers else set()
            if not dead:
                return []
        async with self.store.transaction() as tx:
            return await tx.updates.claim(locks.worker_id, since=since, of=dead)

    async def overdue(
        self, turns_before: datetime, lobbies_before: datetime
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """The turns that ran out before `turns_before` as (game id, version), and the lobbies
        opened before `lobbies_before`: what a timer should have ended by now."""
        async with self.store.read() as tx:
            turns = await tx.games.overdue_turns(turns_before)
            lobbies = await tx.games.lobbies_opened_before(lobbies_before)
        return turns, lobbies

    async def round_breaks_over(self, before: datetime) -> list[tuple[int, int]]:
        """(game id, version) of the games whose break after a round's end ran out by
        `before`: what a timer should have ended by now."""
        async with self.store.read() as tx:
            return await tx.games.round_breaks_over(before)

    async def hands_owed(self, before: datetime) -> list[tuple[int, int]]:
        """(game id, version) of the turns whose person has been owed their hand since
        before `before` and that are this worker's to send: owed by it (its send failed) or
        by a worker that is gone (see `HandMessages.owed_turn`)."""
        async with self.store.read() as tx:
            owed = await tx.games.hands_owed(before)
        locks = self.store.game_locks
        others = {owner for _, _, owner in owed if owner is not None and owner != locks.worker_id}
        live = await locks.live_workers() if others else set()
        me = locks.worker_id
        return [
            (game_id, version)
            for game_id, version, owner in owed
            if owner is None or owner == me or owner not in live
        ]

    async def reminders_due(self, before: datetime) -> list[tuple[int, int]]:
        """(game id, version) of the turns whose half-time reminder was due before `before`
        and not sent, and that still run."""
        async with self.store.read() as tx:
            return await tx.games.reminders_due(before, self.clock())

    async def stalled(self) -> list[int]:
        """The running games that wait for nobody (see `games.without_deadline`)."""
        async with self.store.read() as tx:
            return await tx.games.without_deadline()

    async def running_games(self) -> int:
        """How many games are being played (not lobbies), on every worker."""
        async with self.store.read() as tx:
            return await tx.games.count(GameStatus.RUNNING)

    async def start_reviews(self, owed: bool = True) -> None:
        """Analyse every game that ends from now on in the background and, if `owed` (one
        worker of several: the senior one), the recent games a stop left without a review."""
        self.reviews.start(self.feed)
        if owed:
            await self.reviews.resume_owed()

    async def close(self) -> None:
        """Stop the reviews, the computer players' workers and close the database."""
        await self.reviews.stop()
        self.computer.close()
        await self.store.close()
