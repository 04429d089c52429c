"""The chat messages of a game, rendered from its views: lobby, table, hands, notices, ends.

Pure: views and a translator in, rendered messages out (no Telegram call, no database).
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Callable
from datetime import datetime
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...games.registry import Registry
from ...games.seam import AnyPresentation
from ...games.texts import seat_name, short_name
from ...games.views import PrivateNote
from ...i18n import Translator, Translators
from ...service.progress import Progress
from ...service.views import HandView, LobbyView, SeatInfo, TableView
from ..callback_data import Action, encode
from .common import Rendered
from .game import from_game
from .lobby import render_lobby
from .page_links import PageLinks
from .reviews import replay_button

JOIN_PREFIX = "join_"
"""Deep-link payloads that join a lobby: this prefix and the lobby's join token."""


class GameMessages:
    """Renders a game's chat messages in the right language, from the service's views."""

    def __init__(
        self,
        translators: Translators,
        registry: Registry,
        clock: Callable[[], datetime],
        page: PageLinks | None = None,
    ) -> None:
        self.translators = translators
        self.registry = registry
        self.clock = clock
        self.page = page
        """Where the table page lives (None: no page, no Open table button)."""

    # Languages and kinds ----------------------------------------------------------------------

    def group_t(self, language: str | None) -> Translator:
        """The translator for a group's messages."""
        return self.translators.get(language)

    def private_t(self, seat: SeatInfo, chat_language: str | None) -> Translator:
        """The translator for a person's private messages."""
        return self.translators.get(seat.language or chat_language)

    def presentation(self, kind: str) -> AnyPresentation:
        """The messages of game kind `kind`."""
        return self.registry.get(kind).presentation

    # The lobby ---------------------------------------------------------------------------------

    @staticmethod
    def lobby_link(lobby: LobbyView, bot_username: str) -> str | None:
        """The t.me deep link that opens the private chat and completes a join: it carries
        the lobby's secret, never its id (ids are easy to guess). None if it has none."""
        if lobby.join_token is None:
            return None
        return f"https://t.me/{bot_username}?start={JOIN_PREFIX}{lobby.join_token}"

    def lobby(self, lobby: LobbyView, bot_username: str, link: bool) -> Rendered:
        """The lobby in the chat's language (`link`: with the button that opens the private
        chat, for someone who could not join without it)."""
        join_link = self.lobby_link(lobby, bot_username) if link else None
        t = self.group_t(lobby.language)
        open_table = None
        if self.page is not None and lobby.join_token is not None:
            open_table = self.page.group_button(t, lobby.join_token)
        return render_lobby(t, self.presentation(lobby.kind), lobby, join_link, open_table)

    # The table and the hands -----------------------------------------------------------------

    def table(self, table: TableView[Any]) -> Rendered:
        """The table message in the chat's language, with 'My hand' while a round is played."""
        t = self.group_t(table.language)
        message = self.presentation(table.kind).table(t, table, self.clock())
        text = message.text
        if table.aborted:
            text = "\n\n".join([text, t.gettext("This game was stopped.")])
        elif table.round_over:
            text = "\n\n".join([text, t.gettext("This round is over.")])
        extra: tuple[InlineKeyboardButton, ...] = ()
        if not table.round_over and not table.aborted:
            label = self.presentation(table.kind).my_hand_label(t)
            my_hand = InlineKeyboardButton(
                label, callback_data=encode(Action.SHOW_HAND, table.game_id)
            )
            extra = (my_hand,)
        if _page_open(table) and self.page is not None and table.page_token is not None:
            extra = (*extra, self.page.group_button(t, table.page_token))
        return from_game(
            dataclasses.replace(message, text=text), table.game_id, table.version, extra
        )

    def hand(self, t: Translator, view: HandView[Any, Any], step: int | None = None) -> Rendered:
        """A person's hand, with its move buttons on their turn (`step`: their first pick)."""
        message = self.presentation(view.table.kind).hand(t, view, self.clock(), step)
        extra: tuple[InlineKeyboardButton, ...] = ()
        table = view.table
        if _page_open(table) and self.page is not None and table.page_token is not None:
            extra = (self.page.private_button(t, table.page_token),)
        return from_game(message, view.game_id, view.version, extra)

    def played(self, t: Translator, view: HandView[Any, Any], code: int) -> Rendered:
        """A person's hand right after their move `code`."""
        return Rendered(self.presentation(view.table.kind).played(t, view, code).text)

    def private_note(self, t: Translator, kind: str, note: PrivateNote, chat: str = "") -> str:
        """A short private note of game `kind` about where and when the hand comes."""
        return self.presentation(kind).private_note(t, note, chat)

    def you_moved(self, t: Translator, kind: str, code: int) -> str:
        """Move `code` in one sentence to the person who made it."""
        return self.presentation(kind).you_moved(t, code)

    def after_turn(
        self, progress: Progress, seat_number: int, table: TableView[Any]
    ) -> tuple[Translator, Rendered]:
        """What a turn's hand message says once the turn is over (its buttons gone): the move
        made, by the person or by the computer for them, and whose turn it is now; or the hand
        as it is now."""
        seat = table.seats[seat_number]
        t = self.private_t(seat, table.language)
        moves = [(r, code) for r, s, code in progress.moved if s == seat_number]
        seat_view = progress.hands.get(seat_number)
        if moves:
            round_number, code = moves[0]
            if seat_view is not None and seat_view.table.round_number == round_number:
                text = self.played(t, seat_view, code).text
            else:
                text = self.you_moved(t, table.kind, code)
            if seat_number in progress.timed_out:
                computer = self.presentation(table.kind).computer_moved_for_you(t, code)
                text = "\n".join([computer, text])
            now = progress.table
            if now is not None and now.to_move is not None and now.to_move != seat_number:
                # Nothing in the hand says it is the person's turn: whose it is, then.
                turn = t.gettext("⏳ Now it is {name}'s turn.")
                name = seat_name(t, now.seats[now.to_move], now.seats)
                text = "\n".join([text, turn.format(name=name)])
        elif seat_view is not None:
            text = self.hand(t, seat_view).text
        else:
            text = t.gettext("This game is over.")
        return t, Rendered(text)

    # The game's end ----------------------------------------------------------------------------

    def game_end(self, table: TableView[Any], replay_token: str | None = None) -> Rendered:
        """The final standings, a button that opens a new lobby with the same players, and
        one that opens the game's replay in the page (with the page, and `replay_token`)."""
        t = self.group_t(table.language)
        message = self.presentation(table.kind).game_end(t, table)
        again = InlineKeyboardButton(
            t.gettext("🔁 Play again"),
            callback_data=encode(Action.PLAY_AGAIN, table.game_id),
            style="success",
        )
        extra: tuple[InlineKeyboardButton, ...] = (again,)
        if self.page is not None and replay_token is not None:
            extra = (again, replay_button(t, self.page, replay_token))
        return from_game(message, table.game_id, table.version, extra)

    def abandoned(self, table: TableView[Any]) -> str:
        """Why the game stopped when nobody was left to play it."""
        t = self.group_t(table.language)
        return t.gettext(
            "⏸ Everyone at the table is away, so I stopped the game. It counts as "
            "abandoned: no results, no rating changes. Type /{command} for a new one."
        ).format(command=table.kind)

    def stopped(self, seat: SeatInfo, table: TableView[Any]) -> Rendered:
        """What a stopped game's live hand message says in place of its buttons."""
        return Rendered(self.private_t(seat, table.language).gettext("This game was stopped."))

    # Notices -----------------------------------------------------------------------------------

    def timed_out(self, table: TableView[Any], seat: int, handed_over: bool) -> str:
        """The group is told whose time ran out (and, twice in a row, that the computer plays
        their seat now)."""
        t = self.group_t(table.language)
        name = seat_name(t, table.seats[seat], table.seats)
        if handed_over:
            text = t.gettext(
                "⏰ {name} ran out of time twice, so the computer plays their seat now. "
                "They can take it back from their private chat with me."
            )
        else:
            text = t.gettext("⏰ {name} ran out of time: the computer played for them.")
        return text.format(name=name)

    def unreachable(self, table: TableView[Any], seat: SeatInfo) -> str:
        """The group is told the computer plays the seat of someone the bot cannot reach."""
        t = self.group_t(table.language)
        return t.gettext(
            "📵 I can't reach {name} in a private chat, so the computer plays their "
            "seat. Open a private chat with me to take it back."
        ).format(name=html.escape(short_name(seat.name)))

    def seat_offer(self, table: TableView[Any], seat: SeatInfo) -> Rendered:
        """A person's note that the computer plays their seat, with the button to take it."""
        t = self.private_t(seat, table.language)
        text = t.gettext(
            "🤖 The computer plays your seat in {chat} now. Tap below when you are back."
        ).format(chat=html.escape(table.chat_title))
        return Rendered(text, self.take_back_markup(t, table.game_id))

    @staticmethod
    def take_back_markup(t: Translator, game_id: int) -> InlineKeyboardMarkup:
        """The one button that gives a person their seat back from the computer."""
        button = InlineKeyboardButton(
            t.gettext("🙋 Take my seat back"),
            callback_data=encode(Action.TAKE_BACK_SEAT, game_id),
            style="primary",
        )
        return InlineKeyboardMarkup([[button]])


def _page_open(table: TableView[Any]) -> bool:
    """Whether the game's page still opens: its token is useless once the game is over."""
    return table.winner is None and not table.aborted
