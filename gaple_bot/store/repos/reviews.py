"""Reviews: each finished game's analysis, stored once and read by the replay and /review, and
the claims that let one worker at a time analyse a game."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, delete, exists, insert, select
from sqlalchemy.exc import IntegrityError

from ..enums import GameStatus
from ..models import Game, Review, ReviewClaim, Seat
from ..statements import Statements
from ..types import utc_now
from ._sql import rowcount, upsert_insert


class ReviewRepository:
    """Reads and writes `reviews` (JSON keyed by seat: no user id is ever stored in one) and
    `review_claims`."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def get(self, game_id: int, version: int) -> dict[str, Any] | None:
        """The game's stored review of this format version, if there is one."""
        row = (
            await self._session.execute(
                select(Review.data).where(Review.game_id == game_id, Review.version == version)
            )
        ).first()
        return None if row is None else dict(row[0])

    async def put(
        self, game_id: int, version: int, data: dict[str, Any], *, now: datetime | None = None
    ) -> None:
        """Store the game's review, replacing one of another format version (two workers
        that analyse the same game write the same review: the second changes nothing, even
        when the first commits while the second writes). The game's claim goes with it: no
        analysis of it is owed any more."""
        await self._session.execute(delete(ReviewClaim).where(ReviewClaim.game_id == game_id))
        if await self.get(game_id, version) is not None:
            return
        await self._session.execute(delete(Review).where(Review.game_id == game_id))
        try:
            # In a savepoint: another worker's write of the same review, committed between
            # the read above and this insert, leaves this unit of work as it was.
            async with self._session.begin_nested():
                await self._session.execute(
                    insert(Review).values(
                        game_id=game_id, version=version, data=data, created_at=now or utc_now()
                    )
                )
        except IntegrityError:
            if await self.get(game_id, version) is None:
                raise

    async def missing(self, version: int, since: datetime, limit: int = 100) -> list[int]:
        """Finished games since `since` with a person seated and no review of this version,
        the latest finished first (what a restart still owes)."""
        reviewed = exists().where(Review.game_id == Game.id, Review.version == version)
        seated = exists().where(and_(Seat.game_id == Game.id, Seat.user_id.is_not(None)))
        stmt = (
            select(Game.id)
            .where(
                Game.status == GameStatus.FINISHED,
                Game.finished_at >= since,
                seated,
                ~reviewed,
            )
            .order_by(Game.finished_at.desc(), Game.id.desc())
            .limit(limit)
        )
        return list((await self._session.scalars(stmt)).all())

    async def claim(self, game_id: int, owner: int, now: datetime, stale_before: datetime) -> bool:
        """Take (or renew) the claim to analyse the game for `owner`: True if it has it now,
        False if another owner's claim taken or renewed since `stale_before` stands.

        One statement (an INSERT that updates the existing claim only if it is this owner's
        or stale), so two workers racing for it cannot both win: on PostgreSQL the second
        waits on the first's row and then sees its claim; SQLite writes one at a time."""
        stmt = upsert_insert(self._session, ReviewClaim).values(
            game_id=game_id, owner=owner, claimed_at=now
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=["game_id"],
            set_={"owner": stmt.excluded.owner, "claimed_at": stmt.excluded.claimed_at},
            where=(ReviewClaim.owner == owner) | (ReviewClaim.claimed_at < stale_before),
        )
        return await rowcount(self._session, stmt) == 1

    async def claimed(self, game_id: int) -> tuple[int, datetime] | None:
        """The game's claim, if one was taken and not released: its owner and when it was
        taken or last renewed."""
        row = (
            await self._session.execute(
                select(ReviewClaim.owner, ReviewClaim.claimed_at).where(
                    ReviewClaim.game_id == game_id
                )
            )
        ).first()
        return None if row is None else (row[0], row[1])

    async def release(self, game_id: int, owner: int) -> bool:
        """Give up `owner`'s claim on the game (False: it had none, e.g. it was taken over)."""
        stmt = delete(ReviewClaim).where(ReviewClaim.game_id == game_id, ReviewClaim.owner == owner)
        return await rowcount(self._session, stmt) == 1
