"""Rounds: storing each deal and result; the public summaries leave the deal out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update

from ..errors import RoundNotFound
from ..models import Round
from ..records import RoundSummary
from ..statements import Statements
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


def _summary(row: Sequence[Any]) -> RoundSummary:
    return RoundSummary(*row)


class RoundRepository:
    """Writes `rounds`; reads only their public part (deals: see play_state)."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def add(
        self,
        game_id: int,
        number: int,
        deal: dict[str, Any],
        leader: int,
        *,
        now: datetime | None = None,
    ) -> None:
        """Store round `number`'s deal (the kind's JSON; 1 for the first round) and the seat
        that leads it (public)."""
        await self._session.execute(
            insert(Round).values(
                game_id=game_id,
                number=number,
                deal=deal,
                leader=leader,
                started_at=now or utc_now(),
            )
        )

    async def set_result(
        self,
        game_id: int,
        number: int,
        result: dict[str, Any],
        *,
        now: datetime | None = None,
    ) -> None:
        """Store how round `number` ended (the kind's public result as JSON)."""
        stmt = (
            update(Round)
            .where(Round.game_id == game_id, Round.number == number)
            .values(result=result, ended_at=now or utc_now())
            .execution_options(synchronize_session=False)
        )
        if not await rowcount(self._session, stmt):
            raise RoundNotFound(f"game {game_id} has no round {number}")

    async def summaries(self, game_id: int) -> list[RoundSummary]:
        """The game's rounds in order, without their deals (safe to render)."""
        stmt = select(*_PUBLIC_COLUMNS).where(Round.game_id == game_id).order_by(Round.number)
        return [_summary(row) for row in await self._session.execute(stmt)]
