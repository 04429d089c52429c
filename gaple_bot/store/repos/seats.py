"""Seats: who sits where, computer levels, autoplay, timeouts and private hand messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..enums import ComputerLevel, GameStatus
from ..errors import SeatNotFound, SeatTaken
from ..models import Game, Seat
from ..records import SeatRecord
from ..statements import Statements
from ._sql import rowcount

_COLUMNS = (
    Seat.game_id,
    Seat.seat,
    Seat.user_id,
    Seat.computer_level,
    Seat.autoplay,
    Seat.timeouts,
    Seat.hand_message_id,
)


def _record(row: Sequence[Any]) -> SeatRecord:
    return SeatRecord(*row)


class SeatRepository:
    """Reads and writes `seats`."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def add(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None = None,
        computer_level: ComputerLevel | None = None,
    ) -> SeatRecord:
        """Seat a person or a computer level; raises SeatTaken if the seat is occupied or the
        person already sits at this game."""
        if (user_id is None) == (computer_level is None):
            raise ValueError("a seat holds a user or a computer level")
        stmt = insert(Seat).values(
            game_id=game_id,
            seat=seat,
            user_id=user_id,
            computer_level=computer_level,
            autoplay=False,
            timeouts=0,
        )
        try:
            async with self._session.begin_nested():
                await self._session.execute(stmt)
        except IntegrityError:
            taken = await self._session.scalar(
                select(Seat.seat).where(
                    Seat.game_id == game_id, (Seat.seat == seat) | (Seat.user_id == user_id)
                )
            )
            if taken is not None:
                raise SeatTaken(f"seat {seat} of game {game_id} is taken") from None
            raise
        return SeatRecord(game_id, seat, user_id, computer_level, False, 0, None)

    async def remove(self, game_id: int, seat: int) -> None:
        """Empty a seat (in the lobby)."""
        await self._session.execute(delete(Seat).where(Seat.game_id == game_id, Seat.seat == seat))

    async def of_game(self, game_id: int) -> list[SeatRecord]:
        """The game's seats in seat order."""
        stmt = select(*_COLUMNS).where(Seat.game_id == game_id).order_by(Seat.seat)
        return [_record(row) for row in await self._session.execute(stmt)]

    async def running_for_user(self, user_id: int) -> list[SeatRecord]:
        """The user's seats at running games (to refresh their private hand messages)."""
        stmt = (
            select(*_COLUMNS)
            .join(Game, Game.id == Seat.game_id)
            .where(Seat.user_id == user_id, Game.status == GameStatus.RUNNING)
            .order_by(Seat.game_id)
        )
        return [_record(row) for row in await self._session.execute(stmt)]

    async def set_autoplay(self, game_id: int, seat: int, autoplay: bool) -> None:
        """Hand a person's seat to the computer (or give it back)."""
        await self._set(game_id, seat, autoplay=autoplay)

    async def set_timeouts(self, game_id: int, seat: int, timeouts: int) -> None:
        """Record the seat's count of consecutive timed-out turns."""
        await self._set(game_id, seat, timeouts=timeouts)

    async def set_hand_message(self, game_id: int, seat: int, message_id: int | None) -> None:
        """Remember the private message showing this seat its hand."""
        await self._set(game_id, seat, hand_message_id=message_id)

    async def _set(self, game_id: int, seat: int, **values: object) -> None:
        stmt = (
            update(Seat)
            .where(Seat.game_id == game_id, Seat.seat == seat)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if not await rowcount(self._session, stmt):
            raise SeatNotFound(f"game {game_id} has no seat {seat}")
