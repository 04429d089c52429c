"""Buttons of a running game: tiles and ends in the private chat, 'My hand' on the table."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update

from ...games.views import PrivateNote
from ...i18n import Translator
from ...service.errors import PickHasNoMove, ServiceError, StaleButton
from ...service.outcome import Outcome, Played
from ...service.views import TableView
from ..callback_data import Action, Callback
from ..deps import Deps, GapleContext
from ..doors import DoorClosed, check_button_chat
from ..handover import progress_table
from ..played import PlayedMove
from ..refusals import door_text, refusal_text
from ..render.common import Rendered
from ..shown import TurnMessage
from ..taps import answer_tap
from ..timers import job_queue, recovering
from .common import seated_t, user_of, user_t

log = logging.getLogger(__name__)


async def on_move_button(update: Update, context: GapleContext, callback: Callback) -> None:
    """A tile (or an end) was tapped in the private hand message."""
    query = update.callback_query
    assert query is not None and query.message is not None
    user = user_of(update)
    deps = context.deps
    if query.message.chat.id != user.id:
        # Hand buttons live only in the player's private chat.
        wrong_chat_t = await user_t(context, user)
        await answer_tap(
            deps, query, wrong_chat_t.gettext("That button is not valid."), show_alert=True
        )
        return
    game_id, version = callback.field("game"), callback.field("version")
    message_id = query.message.message_id
    commands = deps.service.commands
    t: Translator | None = None
    async with recovering(deps, job_queue(context), game_id):
        try:
            # A move is sent at once (the game held once a tap); a pick or a hand asks first.
            code: int | None = callback.field("code") if callback.action is Action.MOVE else None
            if code is None:
                facts = await commands.facts(game_id)
                t = await seated_t(context, user, facts.languages)
                kind = facts.kind
                if callback.action is Action.PICK:
                    view, choices = await commands.step_view(
                        game_id, user.id, version, callback.field("step")
                    )
                    code = choices[0] if len(choices) == 1 else None
            if code is not None:

                def tapped(outcome: Outcome) -> None:
                    # Tapped on this message: the person's next hands may come in it, in
                    # place; and the move was the turn's (the outcome's first play), so the
                    # message is the turn's (another worker, or this one before a restart,
                    # may have sent it): it loses its buttons once the move is shown.
                    deps.presenter.hands.along.tapped(user.id, game_id, message_id)
                    moved = outcome.first(Played)
                    if moved is not None:
                        deps.presenter.shown.adopt_turn(
                            game_id, TurnMessage(moved.seat, user.id, message_id, version)
                        )

                async with deps.outcomes.issuing(before_stage=tapped):
                    outcome = await commands.move(game_id, user.id, version, code)
                    # The move's table tells the game and the language the person reads.
                    assert outcome.progress is not None
                    table = progress_table(outcome.progress)
                    assert table is not None
                    kind = table.kind
                    t = await seated_t(context, user, _languages(table))
                    played = PlayedMove(game_id, message_id, version, kind, code)
                    deps.presenter.hands.played.remember(user.id, played)
                    # The answer first: what the move shows goes out when the block ends.
                    await answer_tap(deps, query, deps.presenter.render.you_moved(t, kind, code))
                return
            if callback.action is Action.PICK:
                picked: int | None = callback.field("step")
            else:
                view = await commands.turn_view(game_id, user.id, version)
                picked = None
        except PickHasNoMove:
            assert t is not None  # the game was found
            text = deps.presenter.render.presentation(kind).no_move_for_pick(t)
            await answer_tap(deps, query, text, show_alert=True)
            return
        except ServiceError as error:
            t = t or await user_t(context, user)
            said = None
            if isinstance(error, StaleButton):
                said = _played_text(deps, t, user.id, game_id, message_id, version)
            text = said or refusal_text(t, error)
            # A double tap finds the version moved on: a toast, not an alarming alert.
            await answer_tap(deps, query, text, show_alert=not _quiet(error))
            return
    assert t is not None  # asked with the game's facts (no move was sent)
    # The answer first: the edit may wait its turn in the private chat's one a second.
    await answer_tap(deps, query)
    rendered = deps.presenter.render.hand(t, view, picked)
    await deps.presenter.hands.edit_private(user.id, message_id, rendered)
    if view.legal and not deps.presenter.hands.turn_shown(view, later_only=True):
        # (Unless a later turn holds the live buttons: the game moved on meanwhile.)
        deps.presenter.shown.set_turn(
            game_id, TurnMessage(view.seat, user.id, message_id, view.version)
        )


async def on_take_back(update: Update, context: GapleContext, callback: Callback) -> None:
    """The person takes their seat back from the computer."""
    query = update.callback_query
    assert query is not None and query.message is not None
    user = user_of(update)
    deps = context.deps
    t = await user_t(context, user)
    message_id = query.message.message_id
    if query.message.chat.id != user.id:
        # The seat is offered back only in the person's private chat.
        await answer_tap(deps, query, t.gettext("That button is not valid."), show_alert=True)
        return
    game_id = callback.field("game")
    commands = deps.service.commands
    async with recovering(deps, job_queue(context), game_id), deps.outcomes.issuing():
        try:
            facts = await commands.facts(game_id)
            # Nothing to take back (a second tap, or a forged button on the hand message)
            # leaves the message as it is.
            await commands.take_back(game_id, user.id)
        except ServiceError as error:
            await answer_tap(deps, query, refusal_text(t, error), show_alert=True)
            return
        # The answer and the note first: the hand, if it is their turn, when the block ends.
        await answer_tap(deps, query)
        await deps.presenter.hands.edit_private(
            user.id,
            message_id,
            Rendered(deps.presenter.render.private_note(t, facts.kind, PrivateNote.SEAT_BACK)),
        )


async def on_show_hand(update: Update, context: GapleContext, callback: Callback) -> None:
    """'My hand' on the table: the tapper's own tiles in an alert only they see."""
    query = update.callback_query
    assert query is not None
    user = user_of(update)
    deps = context.deps
    t = await user_t(context, user)
    game_id = callback.field("game")
    questions = deps.service.commands
    try:
        facts = await questions.facts(game_id)
        # Only the table's own message shows a hand: a payload from elsewhere is forged.
        check_button_chat(query.message, facts)
        hand = await questions.private(game_id, user.id)
    except ServiceError as error:
        await answer_tap(deps, query, refusal_text(t, error), show_alert=True)
        return
    except DoorClosed as error:
        await answer_tap(deps, query, door_text(t, error), show_alert=True)
        return
    alert = deps.presenter.render.presentation(facts.kind).hand_alert(t, hand)
    await answer_tap(deps, query, alert, show_alert=True)


def _played_text(
    deps: Deps, t: Translator, user_id: int, game_id: int, message_id: int, version: int
) -> str | None:
    """What a tap on a hand already played is told, if it is one (its buttons not gone yet):
    where the person's next hand comes, or else the move they made."""
    if deps.presenter.hands.next_hand_here(user_id, game_id, message_id):
        return t.gettext("You have played: your next hand comes in this message.")
    played = deps.presenter.hands.played_here(user_id, game_id, message_id, version)
    if played is None:
        return None
    return deps.presenter.render.you_moved(t, played.kind, played.code)


def _quiet(error: ServiceError) -> bool:
    return isinstance(error, StaleButton)


def _languages(table: TableView[Any]) -> dict[int, str | None]:
    """Each seated person's own language, by user id (as the game's facts say it)."""
    return {seat.user_id: seat.language for seat in table.seats if seat.user_id is not None}
