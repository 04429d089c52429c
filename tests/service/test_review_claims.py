"""Workers sharing a database analyse a game's review once: the first to claim it in the store
does the work, the others wait for its stored review; a dead worker's claim goes stale."""

from __future__ import annotations

import asyncio
import functools
import random
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from gaple_bot.games.review import GameReview, decisions
from gaple_bot.service.computer import ComputerPlayers
from gaple_bot.service.feed import OutcomeFeed
from gaple_bot.service.review_claims import RETRY_AFTER
from gaple_bot.service.reviews import GameReviews
from gaple_bot.service.runtime import GameService
from gaple_bot.store import Store
from tests.clock import TestClock

from .conftest import SEED, sqlite_url
from .kit import ScriptedDeals, Table
from .test_reviews import WAIT, finished_game

POLL = 0.01
"""Seconds between a waiting worker's looks at the store in these tests."""
DEAD = 77
"""The claim token of a worker that died mid-analysis."""


class Ticks:
    """The test's clock, counting how often it is read (each look of a waiting worker at a
    claim reads it: the test waits for looks, not for time), and setting `changed` at each
    read and each review a worker is told of: what the tests wait for changes only then."""

    def __init__(self, clock: TestClock) -> None:
        self.clock = clock
        self.reads = 0
        self.changed = asyncio.Event()

    def __call__(self) -> datetime:
        self.reads += 1
        self.changed.set()
        return self.clock()


class Counted:
    """The computer players' pool as one worker's reviews use it: counts the analyses begun
    (each begins by listing the game's decisions) and the pieces run, and holds each piece
    until `go` is set."""

    def __init__(self, computer: ComputerPlayers, *, go: bool = True) -> None:
        self._computer = computer
        self.go = asyncio.Event()
        if go:
            self.go.set()
        self.begun = asyncio.Event()
        self.analyses = 0
        self.pieces = 0

    async def in_background(self, work: Callable[[], Any]) -> Any:
        if isinstance(work, functools.partial) and work.func is decisions:
            self.analyses += 1
            self.begun.set()
        await self.go.wait()
        self.pieces += 1
        return await self._computer.in_background(work)


class Worker:
    """One worker's reviews on its own store, with a counted pool."""

    def __init__(self, service: GameService, store: Store, clock: Ticks, *, go: bool) -> None:
        self.store = store
        self.pool = Counted(service.computer, go=go)
        self.reviews = GameReviews(
            store,
            service.registry,
            self.pool,  # type: ignore[arg-type]
            clock,
            poll=POLL,
        )
        self.told: list[int] = []

        def told(game_id: int) -> None:
            self.told.append(game_id)
            clock.changed.set()

        self.reviews.when_ready(told)
        self.reviews.start(OutcomeFeed())


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_url(request: pytest.FixtureRequest, migrated_template: Path, tmp_path: Path) -> str:
    """The URL of a database at the newest schema: a copy of the migrated SQLite file, or a
    new PostgreSQL database."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    path = tmp_path / "shared.sqlite3"
    shutil.copyfile(migrated_template, path)
    return sqlite_url(path)


@pytest.fixture
async def two_stores(shared_url: str) -> AsyncIterator[tuple[Store, Store]]:
    """Two stores on one database (one SQLite file, or one PostgreSQL database), as two
    workers' (the first is the service's: the service closes it)."""
    first, second = Store.open(shared_url), Store.open(shared_url)
    try:
        yield first, second
    finally:
        await second.close()


@pytest.fixture
async def shared(
    two_stores: tuple[Store, Store], clock: TestClock, dealer: ScriptedDeals
) -> AsyncIterator[tuple[GameService, Store, Ticks]]:
    """The service on the first store (it plays the game), the second store, and a clock
    that counts its reads."""
    first, second = two_stores
    service = GameService(
        first, rng=random.Random(SEED), clock=clock, dealer=dealer, round_break=timedelta(0)
    )
    try:
        yield service, second, Ticks(clock)
    finally:
        await service.close()


async def until(ticks: Ticks, condition: Callable[[], bool]) -> None:
    """Wait until `condition` holds, looking again at each change `ticks` hears of (a clock
    read, a review told; a waiting worker reads the clock at each look); WAIT bounds it."""

    async def look() -> None:
        while not condition():
            ticks.changed.clear()
            await ticks.changed.wait()

    await asyncio.wait_for(look(), WAIT)


async def at_most(waited: Awaitable[GameReview]) -> GameReview:
    return await asyncio.wait_for(waited, WAIT)


async def test_two_workers_asked_for_one_game_analyse_it_once(
    shared: tuple[GameService, Store, Ticks], dealer: ScriptedDeals
) -> None:
    service, other_store, ticks = shared
    gaple, _ = await finished_game(lambda kind: Table(service, dealer, kind))
    game_id = gaple.game_id
    first = Worker(service, service.store, ticks, go=False)
    second = Worker(service, other_store, ticks, go=True)
    try:
        # The game ends on the first worker: it claims the game and begins.
        first.reviews.queue(game_id)
        await asyncio.wait_for(first.pool.begun.wait(), WAIT)
        # A /review reaches the second meanwhile: it finds the claim and waits.
        second.reviews.queue(game_id)
        await until(ticks, lambda: game_id in second.reviews.waiting)
        waiting_there = asyncio.create_task(second.reviews.reviewed(game_id))
        async with other_store.read() as tx:
            claim = await tx.reviews.claimed(game_id)
        assert claim is not None and claim[0] == first.reviews._claims.owner
        assert second.pool.analyses == 0 and not waiting_there.done()
        first.pool.go.set()
        review = await at_most(first.reviews.reviewed(game_id))
        # The second ends with the stored review, told to its listeners, and analysed nothing.
        assert await at_most(waiting_there) == review
        assert (first.pool.analyses, second.pool.analyses, second.pool.pieces) == (1, 0, 0)
        await until(ticks, lambda: first.told == [game_id])
        assert second.told == [game_id]
        assert second.reviews.waiting == frozenset()
        assert review.moves and await second.reviews.review(game_id) == review
        async with other_store.read() as tx:
            assert await tx.reviews.claimed(game_id) is None  # the stored review ended it
    finally:
        await first.reviews.stop()
        await second.reviews.stop()


async def test_a_stop_ends_the_watch_on_a_game_another_worker_holds(
    shared: tuple[GameService, Store, Ticks], dealer: ScriptedDeals
) -> None:
    service, other_store, ticks = shared
    gaple, _ = await finished_game(lambda kind: Table(service, dealer, kind))
    game_id = gaple.game_id
    first = Worker(service, service.store, ticks, go=False)
    second = Worker(service, other_store, ticks, go=True)
    try:
        first.reviews.queue(game_id)
        await asyncio.wait_for(first.pool.begun.wait(), WAIT)
        second.reviews.queue(game_id)
        await until(ticks, lambda: game_id in second.reviews.waiting)
        watchers = [t for t in asyncio.all_tasks() if t.get_name() == f"review-{game_id}"]
        assert len(watchers) == 1
        await second.reviews.stop()
        # Nothing of the second worker is left looking at the store after its stop.
        assert second.reviews.waiting == frozenset()
        assert watchers[0].done()
        assert second.pool.analyses == 0
    finally:
        first.pool.go.set()
        await first.reviews.stop()
        await second.reviews.stop()


async def test_a_dead_worker_s_claim_is_taken_over_once_stale(
    shared: tuple[GameService, Store, Ticks], clock: TestClock, dealer: ScriptedDeals
) -> None:
    service, other_store, ticks = shared
    gaple, _ = await finished_game(lambda kind: Table(service, dealer, kind))
    game_id = gaple.game_id
    async with service.store.transaction() as tx:
        # A worker claimed the game, then was killed mid-analysis.
        assert await tx.reviews.claim(game_id, DEAD, clock(), clock() - RETRY_AFTER)
    worker = Worker(service, other_store, ticks, go=True)
    try:
        worker.reviews.queue(game_id)
        await until(ticks, lambda: game_id in worker.reviews.waiting)
        # Short of the bound, the claim stands: look after look, the worker only waits.
        clock.advance(RETRY_AFTER.total_seconds() - 1)
        reads = ticks.reads
        await until(ticks, lambda: ticks.reads >= reads + 3)
        assert game_id in worker.reviews.waiting and worker.pool.analyses == 0
        # Past it, the claim is stale: the worker takes it over and analyses the game.
        clock.advance(2)
        review = await at_most(worker.reviews.reviewed(game_id))
        assert review.moves and worker.pool.analyses == 1
        await until(ticks, lambda: worker.told == [game_id])
        async with other_store.read() as tx:
            assert await tx.reviews.claimed(game_id) is None
    finally:
        await worker.reviews.stop()


async def test_a_stale_analysis_taken_over_gives_way_and_gets_the_stored_review(
    shared: tuple[GameService, Store, Ticks], clock: TestClock, dealer: ScriptedDeals
) -> None:
    service, other_store, ticks = shared
    gaple, _ = await finished_game(lambda kind: Table(service, dealer, kind))
    game_id = gaple.game_id
    stalled = Worker(service, service.store, ticks, go=False)
    other = Worker(service, other_store, ticks, go=True)
    try:
        stalled.reviews.queue(game_id)
        await asyncio.wait_for(stalled.pool.begun.wait(), WAIT)
        # The first worker stalls past the bound without renewing: the other takes over.
        clock.advance(RETRY_AFTER.total_seconds() + 1)
        review = await at_most(other.reviews.reviewed(game_id))
        assert other.pool.analyses == 1
        # The stalled worker goes on: at its claim's renewal it finds the review stored,
        # stops its own analysis and tells whoever waits there.
        stalled.pool.go.set()
        assert await at_most(stalled.reviews.reviewed(game_id)) == review
        await until(ticks, lambda: stalled.told == [game_id])
        assert (stalled.pool.analyses, stalled.pool.pieces) == (1, 1)
        assert stalled.reviews.waiting == frozenset()
    finally:
        await stalled.reviews.stop()
        await other.reviews.stop()


async def test_a_stop_mid_analysis_gives_the_claim_up_at_once(
    shared: tuple[GameService, Store, Ticks], dealer: ScriptedDeals
) -> None:
    service, other_store, ticks = shared
    gaple, _ = await finished_game(lambda kind: Table(service, dealer, kind))
    game_id = gaple.game_id
    stopping = Worker(service, service.store, ticks, go=False)
    stopped = False
    try:
        stopping.reviews.queue(game_id)
        await asyncio.wait_for(stopping.pool.begun.wait(), WAIT)
        await stopping.reviews.stop()
        stopped = True
        async with other_store.read() as tx:
            assert await tx.reviews.claimed(game_id) is None
        # Another worker need not wait for the claim to go stale: it analyses the game now.
        other = Worker(service, other_store, ticks, go=True)
        try:
            other.reviews.queue(game_id)
            review = await at_most(other.reviews.reviewed(game_id))
            assert review.moves and other.pool.analyses == 1
            assert other.reviews.waiting == frozenset()
        finally:
            await other.reviews.stop()
    finally:
        if not stopped:
            await stopping.reviews.stop()
