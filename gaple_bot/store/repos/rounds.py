"""Rounds: storing each deal and result; the public summaries leave the deal out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ...games.gaple.rules import Deal, EndReason, RoundEnded
from ..errors import RoundNotFound
from ..models import Round
from ..records import RoundSummary
from ..types import utc_now
from ._sql import rowcount

_PUBLIC_COLUMNS = (
    Round.game_id,
    Round.number,
    Round.leader,
    Round.result,
    Round.started_at,
    Round.ended_at,
)


def result_to_dict(result: RoundEnded) -> dict[str, Any]:
    """A round's result as plain JSON values."""
    return {
        "reason": result.reason.value,
        "winner": result.winner,
        "counts": list(result.counts),
        "points": list(result.points),
    }


def result_from_dict(data: dict[str, Any]) -> RoundEnded:
    """The result stored by `result_to_dict`."""
    return RoundEnded(
        EndReason(data["reason"]),
        int(data["winner"]),
        tuple(int(c) for c in data["counts"]),
        tuple(int(p) for p in data["points"]),
    )


def _summary(row: Sequence[Any]) -> RoundSummary:
    game_id, number, leader, result, started_at, ended_at = row
    parsed = None if result is None else result_from_dict(result)
    return RoundSummary(game_id, number, leader, parsed, started_at, ended_at)


class RoundRepository:
    """Writes `rounds`; reads only their public part (deals: see engine_state)."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def add(
        self, game_id: int, number: int, deal: Deal, *, now: datetime | None = None
    ) -> None:
        """Store round `number`'s deal (1 for the first round)."""
        await self._session.execute(
            insert(Round).values(
                game_id=game_id,
                number=number,
                deal=deal.to_dict(),
                leader=deal.leader,
                started_at=now or utc_now(),
            )
        )

    async def set_result(
        self, game_id: int, number: int, result: RoundEnded, *, now: datetime | None = None
    ) -> None:
        """Store how round `number` ended."""
        stmt = (
            update(Round)
            .where(Round.game_id == game_id, Round.number == number)
            .values(result=result_to_dict(result), ended_at=now or utc_now())
            .execution_options(synchronize_session=False)
        )
        if not await rowcount(self._session, stmt):
            raise RoundNotFound(f"game {game_id} has no round {number}")

    async def summaries(self, game_id: int) -> list[RoundSummary]:
        """The game's rounds in order, without their deals (safe to render)."""
        stmt = select(*_PUBLIC_COLUMNS).where(Round.game_id == game_id).order_by(Round.number)
        return [_summary(row) for row in await self._session.execute(stmt)]
