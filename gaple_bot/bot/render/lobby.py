"""The lobby message: rule set, target, seats, and the buttons to join and start."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...games.seam import AnyPresentation
from ...games.texts import seat_name
from ...i18n import Translator
from ...service.views import GameStatus, LobbyView
from ..callback_data import Action, encode
from .common import Rendered


def render_lobby(
    t: Translator,
    presentation: AnyPresentation,
    lobby: LobbyView,
    join_link: str | None,
    open_table: InlineKeyboardButton | None = None,
) -> Rendered:
    """The lobby while it is open; `join_link` is a t.me deep link for players who never
    opened a private chat with the bot (shown as a button); `open_table` opens the table's
    page, where anyone in the group can join without a private chat."""
    lines = [
        presentation.lobby_title(t, lobby.config),
        t.gettext("Seats taken: {taken} of {capacity}").format(
            taken=len(lobby.seats), capacity=lobby.capacity
        ),
    ]
    lines.extend(f"{seat.number + 1}. {seat_name(t, seat, lobby.seats)}" for seat in lobby.seats)
    if lobby.status is GameStatus.ABORTED:
        lines.append("")
        lines.append(t.gettext("This table was closed."))
        return Rendered("\n".join(lines))
    if lobby.status is not GameStatus.LOBBY:
        lines.append("")
        lines.append(t.gettext("The game has started."))
        return Rendered("\n".join(lines))
    lines.append("")
    lines.append(presentation.lobby_invite(t, lobby.computers_fill))
    gid = lobby.game_id
    rows = [
        [
            InlineKeyboardButton(t.gettext("✋ Join"), callback_data=encode(Action.JOIN, gid)),
            InlineKeyboardButton(t.gettext("🚪 Leave"), callback_data=encode(Action.LEAVE, gid)),
        ],
        [
            InlineKeyboardButton(
                t.gettext("🤖 Add computer"), callback_data=encode(Action.ADD_COMPUTER, gid)
            )
        ],
        [
            InlineKeyboardButton(
                t.gettext("▶️ Start"), callback_data=encode(Action.START, gid), style="success"
            ),
            InlineKeyboardButton(
                t.gettext("✖️ Cancel"), callback_data=encode(Action.CANCEL, gid), style="danger"
            ),
        ],
    ]
    if open_table is not None:
        rows.append([open_table])
    if join_link:
        rows.append([InlineKeyboardButton(t.gettext("💬 Open my private chat"), url=join_link)])
    return Rendered("\n".join(lines), InlineKeyboardMarkup(rows))


def render_lobby_expired(t: Translator, lobby: LobbyView, minutes: int) -> Rendered:
    """The lobby after nobody started it in time."""
    text = t.ngettext(
        "Nobody started this table within {n} minute, so it was closed. "
        "Type /{command} to open a new one.",
        "Nobody started this table within {n} minutes, so it was closed. "
        "Type /{command} to open a new one.",
        minutes,
    ).format(n=minutes, command=lobby.kind)
    return Rendered(text)
