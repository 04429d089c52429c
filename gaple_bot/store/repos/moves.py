"""Moves: the append-only log. It is never read back here (see play_state)."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, insert

from ..models import Move
from ..statements import Statements
from ..types import utc_now

_APPEND = insert(cast(Table, Move.__table__))
"""A Core INSERT (no ORM bookkeeping): it runs for every move."""


class MoveRepository:
    """Appends to `moves`."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def append(
        self,
        game_id: int,
        round_number: int,
        ply: int,
        seat: int,
        code: int,
        *,
        now: datetime | None = None,
    ) -> None:
        """Append one move; (game, round, ply) is unique, so a replayed write cannot double."""
        await self._session.execute(
            _APPEND,
            {
                "game_id": game_id,
                "round_number": round_number,
                "ply": ply,
                "seat": seat,
                "code": code,
                "created_at": now or utc_now(),
            },
        )
