"""Buttons of a running game: tiles and ends in the private chat, 'My hand' on the table."""

from __future__ import annotations

from telegram import Update

from ...games.gaple.rules import Move
from ...service.errors import NotSeated, ServiceError, StaleButton
from ..callback_data import Action, Callback
from ..deps import GapleContext
from ..doors import DoorClosed, check_button_chat
from ..flow import job_queue, recovering, show_progress
from ..present import TurnMessage
from ..refusals import door_text, refusal_text
from ..render.common import Rendered
from ..render.hand import played_line, render_hand
from ..render.table import hand_alert
from .common import user_of, user_t


async def on_move_button(update: Update, context: GapleContext, callback: Callback) -> None:
    """A tile (or an end) was tapped in the private hand message."""
    query = update.callback_query
    assert query is not None and query.message is not None
    user = user_of(update)
    deps = context.deps
    t = await user_t(context, user)
    if query.message.chat.id != user.id:
        # Hand buttons live only in the player's private chat.
        await query.answer(t.gettext("That button is not valid."), show_alert=True)
        return
    game_id, version = callback.field("game"), callback.field("version")
    tables = deps.service.tables
    async with (
        deps.service.cache.lock(game_id),
        recovering(deps, job_queue(context), game_id),
    ):
        try:
            if callback.action is Action.MOVE:
                code = callback.field("code")
                progress = await tables.play(game_id, user.id, version, code)
                # The move is committed: now the player may be told.
                await query.answer(played_line(t, Move.from_code(code)))
                await show_progress(deps, job_queue(context), progress)
                return
            live = await deps.service.cache.get(game_id)
            if callback.action is Action.PICK_TILE:
                tile = callback.field("tile")
                view = tables.legal_for_tile(live, user.id, version, tile)
                choices = [m for m in view.legal if m.tile == tile]
                if len(choices) == 1:
                    progress = await tables.play(game_id, user.id, version, choices[0].code)
                    await query.answer(played_line(t, choices[0]))
                    await show_progress(deps, job_queue(context), progress)
                    return
                picked: int | None = tile
            else:
                view = tables.turn_view(live, user.id, version)
                picked = None
        except ServiceError as error:
            # A double tap finds the version moved on: a toast, not an alarming alert.
            await query.answer(refusal_text(t, error), show_alert=not _quiet(error))
            return
        rendered = render_hand(t, view, view.table.chat_title, deps.presenter.clock(), picked)
        await deps.presenter.edit_private(user.id, query.message.message_id, rendered)
        if view.legal:
            deps.presenter.remember_turn(
                game_id, TurnMessage(view.seat, user.id, query.message.message_id, view.version)
            )
    await query.answer()


async def on_take_back(update: Update, context: GapleContext, callback: Callback) -> None:
    """The person takes their seat back from the computer."""
    query = update.callback_query
    assert query is not None and query.message is not None
    user = user_of(update)
    deps = context.deps
    t = await user_t(context, user)
    if query.message.chat.id != user.id:
        # The seat is offered back only in the person's private chat.
        await query.answer(t.gettext("That button is not valid."), show_alert=True)
        return
    game_id = callback.field("game")
    async with (
        deps.service.cache.lock(game_id),
        recovering(deps, job_queue(context), game_id),
    ):
        try:
            live = await deps.service.cache.get(game_id)
            seat = live.seat_of(user.id)
            if seat is not None and not seat.autoplay:
                # Nothing to take back (a second tap, or a forged button on the hand message):
                # leave the message as it is.
                raise StaleButton(f"user {user.id} already plays their seat at game {game_id}")
            progress = await deps.service.tables.set_autoplay(game_id, user.id, False)
        except ServiceError as error:
            await query.answer(refusal_text(t, error), show_alert=True)
            return
        await deps.presenter.edit_private(
            user.id,
            query.message.message_id,
            Rendered(t.gettext("🙋 Your seat is yours again. Your tiles come on your turn.")),
        )
        await show_progress(deps, job_queue(context), progress)
    await query.answer()


async def on_show_hand(update: Update, context: GapleContext, callback: Callback) -> None:
    """'My hand' on the table: the tapper's own tiles in an alert only they see."""
    query = update.callback_query
    assert query is not None
    user = user_of(update)
    deps = context.deps
    t = await user_t(context, user)
    game_id = callback.field("game")
    async with deps.service.cache.lock(game_id):
        try:
            live = await deps.service.cache.get(game_id)
            # Only the table's own message shows a hand: a payload from elsewhere is forged.
            check_button_chat(query.message, live)
            seat = live.seat_of(user.id)
            if seat is None or live.engine is None:
                raise NotSeated(f"user {user.id} is not at game {live.game_id}")
        except ServiceError as error:
            await query.answer(refusal_text(t, error), show_alert=True)
            return
        except DoorClosed as error:
            await query.answer(door_text(t, error), show_alert=True)
            return
        hand = live.engine.round.hands[seat.seat]
    await query.answer(hand_alert(t, hand), show_alert=True)


def _quiet(error: ServiceError) -> bool:
    return isinstance(error, StaleButton)
