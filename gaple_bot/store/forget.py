"""Forgetting a person: their games stay, handed to an anonymous former player; the rest goes."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func, insert, select, update

from .enums import FIRST_FORMER_PLAYER_ID
from .models import Game, PlayerExtra, PlayerTotal, Rating, RatingChange, Result, Seat, User
from .statements import Statements
from .types import utc_now


async def forget_user(
    session: Statements, user_id: int, *, now: datetime | None = None
) -> int | None:
    """Delete the person's user row, ratings and rating history; their seats, results,
    totals and the games they opened move to a fresh anonymous former player, so other
    people's records stay as they were. Returns the former player's id (None if the person
    had nothing to hand over, or was never stored).

    The caller frees the person's lobby seats first; a seat at a running game goes on as a
    computer-played seat (autoplay) of the former player.
    """
    if await session.scalar(select(User.id).where(User.id == user_id)) is None:
        return None
    former = await _former_player(session, user_id, now or utc_now())
    if former is not None:
        await session.execute(
            update(Game).where(Game.opener_id == user_id).values(opener_id=former)
        )
        await session.execute(
            update(Seat)
            .where(Seat.user_id == user_id)
            .values(user_id=former, autoplay=True, hand_message_id=None)
            .execution_options(synchronize_session=False)
        )
        await session.execute(
            update(Result).where(Result.player_id == user_id).values(player_id=former)
        )
        for totals in (PlayerTotal, PlayerExtra):
            await session.execute(
                update(totals).where(totals.player_id == user_id).values(player_id=former)
            )
    # Explicit, though ON DELETE CASCADE would do it: a backend without enforced foreign
    # keys must not keep them either.
    await session.execute(delete(RatingChange).where(RatingChange.player_id == user_id))
    await session.execute(delete(Rating).where(Rating.player_id == user_id))
    await session.execute(delete(User).where(User.id == user_id))
    return former


async def _former_player(session: Statements, user_id: int, now: datetime) -> int | None:
    """A new anonymous user row for the person's games, if they have any to keep."""
    linked = [
        select(Game.id).where(Game.opener_id == user_id).limit(1),
        select(Seat.game_id).where(Seat.user_id == user_id).limit(1),
        select(Result.game_id).where(Result.player_id == user_id).limit(1),
        select(PlayerTotal.scope).where(PlayerTotal.player_id == user_id).limit(1),
        select(PlayerExtra.scope).where(PlayerExtra.player_id == user_id).limit(1),
    ]
    for query in linked:
        if await session.scalar(query) is not None:
            break
    else:
        return None
    lowest = await session.scalar(select(func.min(User.id)))
    former = min(FIRST_FORMER_PLAYER_ID, (lowest or 0) - 1)
    await session.execute(
        insert(User).values(
            id=former,
            display_name="",
            language=None,
            telegram_language=None,
            can_message=False,
            is_computer=False,
            created_at=now,
            updated_at=now,
        )
    )
    return former
