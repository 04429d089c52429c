"""Moves: the append-only log. Its codes are read back only by play_state."""

from __future__ import annotations

from datetime import datetime
from typing import cast

from sqlalchemy import Table, insert, select

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
        by_computer: bool = False,
        now: datetime | None = None,
    ) -> None:
        """Append one move (`by_computer`: the computer chose it); (game, round, ply) is
        unique, so a replayed write cannot double."""
        await self._session.execute(
            _APPEND,
            {
                "game_id": game_id,
                "round_number": round_number,
                "ply": ply,
                "seat": seat,
                "code": code,
                "by_computer": by_computer,
                "created_at": now or utc_now(),
            },
        )

    async def by_computer(self, game_id: int) -> set[tuple[int, int]]:
        """(round, ply) of every move of the game that the computer chose."""
        stmt = select(Move.round_number, Move.ply).where(
            Move.game_id == game_id, Move.by_computer.is_(True)
        )
        return {(int(r), int(p)) for r, p in await self._session.execute(stmt)}
