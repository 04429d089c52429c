"""Membership changes: a person blocking (or unblocking) the bot in their private chat."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType

from ..deps import GapleContext
from ..flow import (
    announce_unreachable,
    job_queue,
    offer_seats_back,
    progress_table,
    recovering,
    show_progress,
)
from .common import person_of


async def on_my_chat_member(update: Update, context: GapleContext) -> None:
    """A blocked bot cannot send tiles: that person's seats go to the computer."""
    change = update.my_chat_member
    if change is None or change.chat.type != ChatType.PRIVATE:
        return
    user = change.from_user
    deps = context.deps
    if change.new_chat_member.status == ChatMemberStatus.MEMBER:
        await deps.service.players.private_chat_opened(person_of(update))
        await offer_seats_back(deps, user.id)
        return
    if change.new_chat_member.status not in (ChatMemberStatus.BANNED, ChatMemberStatus.LEFT):
        return
    for seat in await deps.service.players.unreachable(user.id):
        async with (
            deps.service.cache.lock(seat.game_id),
            recovering(deps, job_queue(context), seat.game_id),
        ):
            progress = await deps.service.tables.set_autoplay(seat.game_id, user.id, True)
            table = progress_table(progress)
            if seat.seat in progress.autoplay_started and table is not None:
                announce_unreachable(deps, table, table.seats[seat.seat])
            await show_progress(deps, job_queue(context), progress)
