"""Membership changes: a person blocking (or unblocking) the bot in their private chat, and the
bot removed, muted or let back in a group."""

from __future__ import annotations

from telegram import ChatMember, ChatMemberRestricted, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError

from ...service.outcome import Outcome
from ..chat_changes import chat_migrated, chat_muted, chat_removed, chat_writable
from ..deps import GapleContext
from ..handover import announce_unreachable, offer_seats_back, progress_table
from ..timers import job_queue, recovering
from .common import is_group, person_of


async def on_my_chat_member(update: Update, context: GapleContext) -> None:
    """A blocked bot cannot send tiles: that person's seats go to the computer. In a group,
    the bot's own membership decides whether its game goes on, waits or ends."""
    change = update.my_chat_member
    if change is None:
        return
    if is_group(change.chat):
        await _group_membership(context, change.chat.id, change.new_chat_member)
        return
    if change.chat.type != ChatType.PRIVATE:
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

        def announce(outcome: Outcome, seat_number: int = seat.seat) -> None:
            progress = outcome.progress
            table = progress_table(progress) if progress is not None else None
            if progress is not None and seat_number in progress.autoplay_started and table:
                announce_unreachable(deps, table, table.seats[seat_number])

        async with (
            recovering(deps, job_queue(context), seat.game_id),
            deps.outcomes.issuing(before_stage=announce),
        ):
            await deps.service.commands.hand_over(seat.game_id, user.id)


async def _group_membership(context: GapleContext, chat_id: int, member: ChatMember) -> None:
    deps, queue = context.deps, job_queue(context)
    if member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        await chat_removed(deps, queue, chat_id)
    elif isinstance(member, ChatMemberRestricted):
        if not member.is_member:
            await chat_removed(deps, queue, chat_id)
        elif not member.can_send_messages:
            await chat_muted(deps, queue, chat_id)
        else:
            await chat_writable(deps, queue, chat_id)
    elif member.status == ChatMemberStatus.MEMBER and not await _members_may_send(context, chat_id):
        # A plain member is bound by the group's default permissions.
        await chat_muted(deps, queue, chat_id)
    else:
        await chat_writable(deps, queue, chat_id)


async def _members_may_send(context: GapleContext, chat_id: int) -> bool:
    """Whether the group's default permissions let members send messages (yes if unknown)."""
    try:
        chat = await context.bot.get_chat(chat_id)
    except TelegramError:
        return True
    return chat.permissions is None or chat.permissions.can_send_messages is not False


async def on_migrate(update: Update, context: GapleContext) -> None:
    """A group became a supergroup: Telegram says so in the old chat (migrate_to_chat_id) and
    in the new one (migrate_from_chat_id); whichever comes first moves the games."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id is not None:
        old_id, new_id = message.chat_id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id is not None:
        old_id, new_id = message.migrate_from_chat_id, message.chat_id
    else:
        return
    await chat_migrated(context.deps, job_queue(context), old_id, new_id)
