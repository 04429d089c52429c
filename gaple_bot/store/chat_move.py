"""Moving everything a chat owns to its new id (a group upgraded to a supergroup)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, exists, insert, select, text, update
from sqlalchemy.orm import aliased

from .enums import GameStatus
from .models import (
    ACTIVE_GAME,
    Chat,
    ChatOption,
    Game,
    PlayerExtra,
    PlayerTotal,
    Rating,
    RatingChange,
    Result,
)
from .repos.results import add_to_extras, add_to_totals
from .statements import Statements

_SETTINGS = (Chat.title, Chat.language)


async def move_chat(session: Statements, old_id: int, new_id: int, now: datetime) -> list[int]:
    """Give `new_id` the settings (every kind's options), games, results, totals and ratings
    of `old_id`, and forget `old_id`. Idempotent: once moved, the old chat is gone and a
    repeat changes nothing. Returns the ids of the lobbies and running games that moved."""
    if old_id == new_id:
        return []
    old = (await session.execute(select(*_SETTINGS).where(Chat.id == old_id))).first()
    if old is None:
        return []
    settings = {column.key: value for column, value in zip(_SETTINGS, old, strict=True)}
    exists = await session.scalar(select(Chat.id).where(Chat.id == new_id))
    if exists is None:
        await session.execute(
            insert(Chat).values(id=new_id, created_at=now, updated_at=now, **settings)
        )
    else:
        # The new id may have been seen a moment before the move; the admins' choices win.
        await session.execute(
            update(Chat).where(Chat.id == new_id).values(updated_at=now, **settings)
        )
        await session.execute(delete(ChatOption).where(ChatOption.chat_id == new_id))
    await session.execute(
        update(ChatOption).where(ChatOption.chat_id == old_id).values(chat_id=new_id)
    )
    moved = await _move_games(session, old_id, new_id, now)
    await session.execute(update(Result).where(Result.chat_id == old_id).values(chat_id=new_id))
    await session.execute(
        update(RatingChange).where(RatingChange.scope == old_id).values(scope=new_id)
    )
    await _move_ratings(session, old_id, new_id)
    await _move_totals(session, old_id, new_id)
    await session.execute(delete(Chat).where(Chat.id == old_id))
    return moved


async def _move_games(session: Statements, old_id: int, new_id: int, now: datetime) -> list[int]:
    """Every game follows; an active one whose place the new chat already filled is aborted
    (one active game per chat or topic)."""
    active_rows = await session.execute(
        select(Game.id, Game.thread_id).where(Game.chat_id == old_id, text(ACTIVE_GAME))
    )
    moved: list[int] = []
    for game_id, thread_id in active_rows.all():
        same_place = Game.thread_id.is_(None) if thread_id is None else Game.thread_id == thread_id
        taken = await session.scalar(
            select(Game.id).where(Game.chat_id == new_id, same_place, text(ACTIVE_GAME))
        )
        if taken is None:
            moved.append(game_id)
        else:
            await session.execute(
                update(Game)
                .where(Game.id == game_id)
                .values(
                    status=GameStatus.ABORTED,
                    finished_at=now,
                    turn_deadline=None,
                    turn_remind_at=None,
                    turn_hand_due=None,
                )
            )
    await session.execute(update(Game).where(Game.chat_id == old_id).values(chat_id=new_id))
    return moved


async def _move_ratings(session: Statements, old_id: int, new_id: int) -> None:
    """A rating already made in the new chat (at the same kind) is the newer one and stays;
    the others move."""
    newer = aliased(Rating)
    already = exists().where(
        newer.scope == new_id, newer.kind == Rating.kind, newer.player_id == Rating.player_id
    )
    await session.execute(
        update(Rating).where(Rating.scope == old_id, ~already).values(scope=new_id)
    )
    await session.execute(delete(Rating).where(Rating.scope == old_id))


async def _move_totals(session: Statements, old_id: int, new_id: int) -> None:
    """Totals and extras add up with any the new chat already has (a 'max' extra keeps the
    larger)."""
    columns = (
        PlayerTotal.kind,
        PlayerTotal.player_id,
        PlayerTotal.games,
        PlayerTotal.wins,
        PlayerTotal.points,
        PlayerTotal.rounds_won,
        PlayerTotal.updated_at,
    )
    rows = [
        {"scope": new_id, **{c.key: v for c, v in zip(columns, row, strict=True)}}
        for row in await session.execute(select(*columns).where(PlayerTotal.scope == old_id))
    ]
    if rows:
        await session.execute(add_to_totals(session), rows)
        await session.execute(delete(PlayerTotal).where(PlayerTotal.scope == old_id))
    extra_columns = (
        PlayerExtra.kind,
        PlayerExtra.player_id,
        PlayerExtra.name,
        PlayerExtra.aggregate,
        PlayerExtra.value,
    )
    extras = [
        {"scope": new_id, **{c.key: v for c, v in zip(extra_columns, row, strict=True)}}
        for row in await session.execute(select(*extra_columns).where(PlayerExtra.scope == old_id))
    ]
    if extras:
        await session.execute(add_to_extras(session), extras)
        await session.execute(delete(PlayerExtra).where(PlayerExtra.scope == old_id))
