"""One worker at a time analyses a game's review: its claim on the game, kept in the store.

Workers sharing a database may each be asked for the same finished game's review. Before
analysing it a worker claims the game (a row of `review_claims`, taken in one statement, so
two racing workers cannot both win); the others wait for the stored review. The holder renews
its claim while it works and the stored review ends it; a stop gives it up. A claim older
than RETRY_AFTER (its worker died mid-analysis) may be taken over; a failed analysis leaves
its claim to go stale, so no worker tries the game again sooner.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from enum import Enum

from ..games.review import REVIEW_VERSION
from ..store import Store, Transaction

log = logging.getLogger(__name__)
RETRY_AFTER = timedelta(minutes=10)
"""How long a game whose analysis failed is left before it is tried again; also how old a
worker's claim on a game must be (taken, or last renewed) for another to take it over."""
RENEW_EVERY = RETRY_AFTER / 3
"""How often a worker analysing a game renews its claim, between two pieces of the work (a
long analysis on a busy worker is not taken for a dead worker's)."""
LET_GO_SECONDS = 5.0
"""How long a stopping worker tries to give up the claim of the game it was analysing."""


class Claimed(Enum):
    """What a worker finds when it claims a game, or looks at it while another has it."""

    OURS = "ours"
    """This worker holds the claim: it analyses the game."""
    STORED = "stored"
    """The game has its review stored: nothing to analyse."""
    ELSEWHERE = "elsewhere"
    """Another worker holds a live claim: wait for its review."""
    FREE = "free"
    """No review and no live claim (its holder stopped or died): claim it."""


class TakenOver(Exception):
    """This worker's claim went stale mid-analysis and another worker took it over."""


class ReviewClaims:
    """This worker's claims on the games it analyses (one at a time), under its own token."""

    def __init__(self, store: Store, clock: Callable[[], datetime]) -> None:
        self._store = store
        self._clock = clock
        self.owner = 1 + secrets.randbelow(2**62)
        """This worker's token in the claims (a new one each time the process starts)."""
        self._renewed = datetime.min.replace(tzinfo=UTC)
        """When the claim on the game being analysed was taken or last renewed."""

    async def take(self, game_id: int) -> Claimed:
        """Claim the game (OURS), unless another worker's live claim stands (ELSEWHERE) or
        its review is stored by now (STORED: the claim's last holder finished)."""
        async with self._store.transaction() as tx:
            if not await self._claim(tx, game_id):
                return Claimed.ELSEWHERE
            if await tx.reviews.get(game_id, REVIEW_VERSION) is not None:
                await tx.reviews.release(game_id, self.owner)
                return Claimed.STORED
        return Claimed.OURS

    async def renew(self, game_id: int) -> None:
        """Renew the claim on the game being analysed if RENEW_EVERY has passed since it was;
        TakenOver if another worker holds it now, or took it over and stored the review."""
        if self._clock() - self._renewed < RENEW_EVERY:
            return
        if await self.take(game_id) is not Claimed.OURS:
            raise TakenOver(f"game {game_id}")

    async def let_go(self, game_id: int) -> None:
        """Give up the claim of a game whose analysis was cut short (another worker, or this
        one after its next start, may analyse it at once rather than after RETRY_AFTER)."""
        try:
            async with asyncio.timeout(LET_GO_SECONDS):
                async with self._store.transaction() as tx:
                    await tx.reviews.release(game_id, self.owner)
        except Exception:
            log.warning("game %s: its review's claim could not be given up", game_id)

    async def look(self, game_id: int) -> Claimed:
        """How a game another worker was analysing stands now: STORED, still ELSEWHERE, or
        FREE to claim (its claim was given up, or is older than RETRY_AFTER)."""
        async with self._store.read() as tx:
            if await tx.reviews.get(game_id, REVIEW_VERSION) is not None:
                return Claimed.STORED
            claim = await tx.reviews.claimed(game_id)
        if claim is None or claim[1] < self._clock() - RETRY_AFTER:
            return Claimed.FREE
        return Claimed.ELSEWHERE

    async def _claim(self, tx: Transaction, game_id: int) -> bool:
        now = self._clock()
        taken = await tx.reviews.claim(game_id, self.owner, now, now - RETRY_AFTER)
        if taken:
            self._renewed = now
        return taken
