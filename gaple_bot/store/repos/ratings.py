"""Ratings per kind, player and scope, and the log of every rating change."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime

from sqlalchemy import insert, select

from ..models import Rating, RatingChange
from ..rating import Skill
from ..statements import Statements
from ._sql import upsert_insert


class RatingRepository:
    """Reads and writes `ratings` and appends to `rating_changes`."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def current(
        self, kind: str, scope: int, player_ids: Collection[int], default: Skill
    ) -> dict[int, Skill]:
        """The players' ratings at `kind` in `scope` (`default` for those not rated there
        yet), locked for update where the backend supports it."""
        stmt = (
            select(Rating.player_id, Rating.mu, Rating.sigma)
            .where(
                Rating.kind == kind,
                Rating.scope == scope,
                Rating.player_id.in_(list(player_ids)),
            )
            .with_for_update()
        )
        skills = dict.fromkeys(player_ids, default)
        for player_id, mu, sigma in await self._session.execute(stmt):
            skills[player_id] = Skill(mu, sigma)
        return skills

    async def get(self, kind: str, scope: int, player_id: int) -> Skill | None:
        """The player's rating at `kind` in `scope`, or None if they have no rated game of
        that kind there."""
        row = (
            await self._session.execute(
                select(Rating.mu, Rating.sigma).where(
                    Rating.kind == kind, Rating.scope == scope, Rating.player_id == player_id
                )
            )
        ).first()
        return None if row is None else Skill(row.mu, row.sigma)

    async def save(
        self,
        game_id: int,
        kind: str,
        scope: int,
        before: Mapping[int, Skill],
        after: Mapping[int, Skill],
        at: datetime,
    ) -> None:
        """Store the new ratings from one game (each player's game count grows by one) and
        log each change."""
        stmt = upsert_insert(self._session, Rating)
        new = stmt.excluded
        stmt = stmt.on_conflict_do_update(
            index_elements=["kind", "scope", "player_id"],
            set_={
                "mu": new.mu,
                "sigma": new.sigma,
                "ordinal": new.ordinal,
                "games": Rating.games + 1,
                "updated_at": new.updated_at,
            },
        )
        rows = [
            {
                "kind": kind,
                "scope": scope,
                "player_id": player_id,
                "mu": skill.mu,
                "sigma": skill.sigma,
                "ordinal": skill.ordinal,
                "games": 1,
                "updated_at": at,
            }
            for player_id, skill in after.items()
        ]
        await self._session.execute(stmt, rows)
        await self._session.execute(
            insert(RatingChange),
            [
                {
                    "game_id": game_id,
                    "kind": kind,
                    "scope": scope,
                    "player_id": player_id,
                    "mu_before": before[player_id].mu,
                    "sigma_before": before[player_id].sigma,
                    "mu_after": skill.mu,
                    "sigma_after": skill.sigma,
                    "delta": skill.ordinal - before[player_id].ordinal,
                    "at": at,
                }
                for player_id, skill in after.items()
            ],
        )
