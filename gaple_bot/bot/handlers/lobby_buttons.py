"""Lobby buttons in the group: join, leave, add a computer, start, cancel, play again."""

from __future__ import annotations

import html

from telegram import CallbackQuery, Update

from ...games.views import PrivateNote
from ...i18n import Translator
from ...service.errors import PrivateChatNeeded, ServiceError
from ...service.outcome import LobbyChanged, Outcome
from ..callback_data import Action, Callback
from ..deps import Deps, GapleContext
from ..doors import DoorClosed, check_button_chat
from ..refusals import door_text, refusal_text
from ..render.common import Rendered
from ..taps import answer_tap
from ..timers import job_queue, recovering
from .common import is_admin, person_of, user_of, user_t


async def on_lobby_button(update: Update, context: GapleContext, callback: Callback) -> None:
    """Change the lobby as the button says and show it again."""
    query = update.callback_query
    assert query is not None
    user = user_of(update)
    deps = context.deps
    t = await user_t(context, user)
    game_id = callback.field("game")
    # Taking a seat asks Telegram afresh; the other buttons may trust a recent answer.
    if not await _let_in(deps, query, t, game_id, fresh=callback.action is Action.JOIN):
        return
    commands = deps.service.commands
    # The lobby is shown with each command's outcome (a start's hands once the block ends).
    async with recovering(deps, job_queue(context), game_id), deps.outcomes.issuing():
        try:
            if callback.action is Action.JOIN:
                outcome = await commands.join(game_id, person_of(update))
                note = deps.presenter.render.private_note(t, _kind(outcome), PrivateNote.JOINED)
            elif callback.action is Action.LEAVE:
                await commands.leave(game_id, user.id)
                note = t.gettext("You left the table.")
            elif callback.action is Action.ADD_COMPUTER:
                facts = await commands.facts(game_id)
                seated = facts.seat_of(user.id) is not None
                admin = not seated and await is_admin(context, facts.chat_id, user.id)
                await commands.add_computer(game_id, user.id, admin)
                note = t.gettext("A computer player sat down.")
            elif callback.action is Action.CANCEL:
                admin = await _admin_unless_opener(context, game_id, user.id)
                await commands.cancel(game_id, user.id, admin)
                note = t.gettext("The table is closed.")
            else:
                admin = await _admin_unless_opener(context, game_id, user.id)
                await commands.start(game_id, user.id, admin)
                await answer_tap(context.deps, query, t.gettext("Let's play!"))
                return
        except PrivateChatNeeded:
            # Someone who started the bot before it kept records can still be reached: try.
            facts = await commands.facts(game_id)
            chat = html.escape(facts.chat_title)
            probe = deps.presenter.render.private_note(t, facts.kind, PrivateNote.PROBE, chat)
            if not await deps.presenter.hands.send_private(user.id, Rendered(probe)):
                await _offer_private_chat(deps, query, t, game_id)
                return
            await deps.service.players.private_chat_opened(person_of(update))
            try:
                outcome = await commands.join(game_id, person_of(update))
            except ServiceError as error:
                await answer_tap(context.deps, query, refusal_text(t, error), show_alert=True)
                return
            note = deps.presenter.render.private_note(t, _kind(outcome), PrivateNote.JOINED)
        except ServiceError as error:
            await answer_tap(context.deps, query, refusal_text(t, error), show_alert=True)
            return
    await answer_tap(context.deps, query, note)


def _kind(outcome: Outcome) -> str:
    """The kind of the game whose lobby the outcome shows."""
    changed = outcome.first(LobbyChanged)
    assert changed is not None
    return changed.lobby.kind


async def on_play_again(update: Update, context: GapleContext, callback: Callback) -> None:
    """Open a new lobby with the finished game's players seated."""
    query = update.callback_query
    assert query is not None
    user = user_of(update)
    deps = context.deps
    t = await user_t(context, user)
    if not await _let_in(deps, query, t, callback.field("game"), fresh=True):
        return
    try:
        # The new lobby is shown with the outcome, its expiry timer armed.
        await deps.service.commands.play_again(callback.field("game"), person_of(update))
    except ServiceError as error:
        await answer_tap(context.deps, query, refusal_text(t, error), show_alert=True)
        return
    await answer_tap(context.deps, query, t.gettext("A new table is open."))


async def _offer_private_chat(
    deps: Deps, query: CallbackQuery, t: Translator, game_id: int
) -> None:
    """Open the private chat in one tap; /start there completes the join."""
    lobby = await deps.service.commands.lobby(game_id)
    link = deps.presenter.render.lobby_link(lobby, deps.bot_username)
    if link is None:
        await answer_tap(deps, query, refusal_text(t, PrivateChatNeeded()), show_alert=True)
        return
    deps.presenter.shown.ask_for_join_link(game_id)
    # The lobby shows the button from now on: shown again, in its order with other changes.
    await deps.service.commands.redraw(game_id)
    await answer_tap(deps, query, url=link)


async def _let_in(
    deps: Deps, query: CallbackQuery, t: Translator, game_id: int, *, fresh: bool
) -> bool:
    """Whether the presser may use this game's button: it was pressed in the game's own chat
    and topic, and the presser belongs to that group. If not, the presser gets a short alert
    and nothing changes."""
    try:
        facts = await deps.service.commands.facts(game_id)
        check_button_chat(query.message, facts)
        # Telegram is asked outside the game's lock, so a slow answer holds up nobody else.
        await deps.members.admit(facts.chat_id, query.from_user.id, fresh=fresh)
    except ServiceError as error:
        await answer_tap(deps, query, refusal_text(t, error), show_alert=True)
        return False
    except DoorClosed as error:
        await answer_tap(deps, query, door_text(t, error), show_alert=True)
        return False
    return True


async def _admin_unless_opener(context: GapleContext, game_id: int, user_id: int) -> bool:
    facts = await context.deps.service.commands.facts(game_id)
    if facts.opener_id == user_id:
        return False
    return await is_admin(context, facts.chat_id, user_id)
