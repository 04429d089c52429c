"""The group's messages of a game: its lobby, its table (edited at the table's pace), notices."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Message
from telegram.constants import ParseMode

from ..service.progress import Progress
from ..service.runtime import GameService
from ..service.views import GameStatus, LobbyView, TableView
from .outbox import GroupOutbox, MessageHandle
from .pacing.table_pace import TablePace
from .private import message_kwargs
from .render.common import Rendered
from .render.game_messages import GameMessages
from .shown import ShownMessages, TurnMessage


class GroupMessages:
    """Each game's lobby and table messages in its group, through the outbox (no call to
    Telegram is made here: the outbox sends them at the group's pace)."""

    def __init__(
        self,
        outbox: GroupOutbox,
        render: GameMessages,
        shown: ShownMessages,
        service: GameService,
        *,
        table_edit_seconds: float = 0.0,
        backlog: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.outbox = outbox
        self.render = render
        self.shown = shown
        self.service = service
        self.pace = TablePace(
            service.pages,
            self._edit_table_now,
            chat_interval=table_edit_seconds,
            backlog=backlog,
        )
        """Table edits held back a few seconds (half a minute while everyone at a table plays
        in the page), the moves meanwhile shown in one."""
        self._tables_shown: dict[int, tuple[int, str, str | None]] = {}
        """What each game's table message was last edited to show (its handle's id, text and
        buttons)."""

    def show_lobby(self, lobby: LobbyView, rendered: Rendered, *, new: bool = False) -> None:
        """Send (or edit) the lobby message in the group (the stored one, if another worker
        showed it)."""
        handle = None if new else self.shown.lobbies.get(lobby.game_id)
        if handle is None and not new and (lobby.message_id is not None or self.outbox.shared):
            self.adopt_lobby(lobby.game_id, lobby.chat_id, lobby.message_id, lobby.thread_id)
            handle = self.shown.lobbies[lobby.game_id]
        kwargs = message_kwargs(rendered)
        if handle is None:
            self.shown.lobbies[lobby.game_id] = self.outbox.send(
                lobby.chat_id,
                on_sent=self._remember(lobby.game_id),
                game_id=lobby.game_id,
                message_thread_id=lobby.thread_id,
                **kwargs,
            )
        else:
            self.outbox.edit(handle, **kwargs)
        if lobby.status is not GameStatus.LOBBY:
            self.shown.lobby_closed(lobby.game_id)

    def show_lobby_as_it_is(self, lobby: LobbyView, bot_username: str) -> None:
        """The lobby shown again as it stands (with the private chat's button if someone
        needed it)."""
        link = self.shown.needs_join_link(lobby.game_id)
        self.show_lobby(lobby, self.render.lobby(lobby, bot_username, link))

    def lobby_becomes_table(self, lobby: LobbyView) -> bool:
        """A lobby that just started while everyone seated plays in the page: its message is
        the game's table from now on (the first round's table edits it, where the lobby's
        last edit and a new table message would be two writes); whether it is."""
        handle = self.shown.lobbies.get(lobby.game_id)
        if handle is None or self.outbox.shared:
            return False
        if not self.pace.all_in_page(lobby.game_id, lobby.seats):
            return False
        self.shown.lobby_closed(lobby.game_id)
        self.shown.new_table(lobby.game_id, handle)
        return True

    def adopt_lobby(
        self, game_id: int, chat_id: int, message_id: int | None, thread_id: int | None = None
    ) -> None:
        """The lobby message sent earlier (before a restart, or by another worker)."""
        self.shown.lobbies[game_id] = self._game_message(game_id, chat_id, message_id, thread_id)

    def adopt_table(
        self, game_id: int, chat_id: int, message_id: int | None, thread_id: int | None = None
    ) -> None:
        """The table message sent earlier (before a restart, or by another worker)."""
        self.shown.tables[game_id] = self._game_message(game_id, chat_id, message_id, thread_id)

    def _game_message(
        self, game_id: int, chat_id: int, message_id: int | None, thread_id: int | None
    ) -> MessageHandle:
        """The game's lobby or table message: the one with this id, or beside other workers
        whichever the game stores when an edit's turn comes (perhaps one being sent now)."""
        if self.outbox.shared or message_id is None:
            return self.outbox.game_message(chat_id, game_id, thread_id=thread_id)
        return self.outbox.existing(
            chat_id, message_id, thread_id=thread_id, on_sent=self._remember(game_id)
        )

    def _remember(self, game_id: int) -> Callable[[Message], Awaitable[None]]:
        """Store the id of the game's group message once it exists (a fresh one replaces a
        message an admin deleted)."""
        return lambda m: self.service.hands.remember_table_message(game_id, m.message_id)

    def group_notice(self, table: TableView[Any], text: str) -> None:
        """A short message to the table's group (or topic)."""
        self.outbox.send(
            table.chat_id, message_thread_id=table.thread_id, text=text, parse_mode=ParseMode.HTML
        )

    def send_table(self, table: TableView[Any]) -> None:
        handle = self.outbox.send(
            table.chat_id,
            on_sent=self._remember(table.game_id),
            game_id=table.game_id,
            message_thread_id=table.thread_id,
            **message_kwargs(self.render.table(table)),
        )
        self.shown.new_table(table.game_id, handle)
        self.pace.sent(table.game_id)

    def edit_table(self, table: TableView[Any], *, at_once: bool = False) -> None:
        """Edit the game's table message (the stored one, if another worker showed it), or
        send one if there is none; at most every few seconds (half a minute while everyone at
        the table plays in the page) unless `at_once`. Beside other workers it is queued at
        once, marked `paced` unless `at_once`: a held edit here could land after another
        worker's newer one, so the table's pace is kept where the group's queue is sent."""
        if self.outbox.shared:
            self._edit_table_now(table, paced=not at_once)
            return
        self.pace.show(table, at_once=at_once)

    def paced(self, table: TableView[Any]) -> bool:
        """Whether the table's edits go at the page's pace (everyone seated plays there)."""
        return not self.outbox.shared and self.pace.all_in_page(table.game_id, table.seats)

    def _edit_table_now(self, table: TableView[Any], *, paced: bool = False) -> None:
        handle = self.shown.tables.get(table.game_id)
        if (
            handle is None
            and (table.message_id is not None or self.outbox.shared)
            and not self.shown.table_retired(table.game_id)
        ):
            self.adopt_table(table.game_id, table.chat_id, table.message_id, table.thread_id)
            handle = self.shown.tables[table.game_id]
        if handle is None:
            self.send_table(table)
            return
        rendered = self.render.table(table)
        markup = None if rendered.markup is None else rendered.markup.to_json()
        shown = (id(handle), rendered.text, markup)
        if self._tables_shown.get(table.game_id) == shown:
            return  # Telegram refuses an edit that changes nothing ("not modified")
        self._tables_shown[table.game_id] = shown
        self.outbox.edit(handle, paced=paced, **message_kwargs(rendered))

    def forget_table(self, game_id: int, chat_id: int) -> None:
        """Its table message will not be edited again (the game is over, or paused: a fresh
        table is posted when it goes on), by any worker."""
        self.outbox.forget_game_message(chat_id, game_id)
        self.shown.retire_table(game_id)
        self._tables_shown.pop(game_id, None)
        self.pace.forget(game_id)

    def timeout_notices(self, progress: Progress, table: TableView[Any]) -> None:
        """Tell the group whose time ran out and whose seat the computer now plays."""
        for seat in progress.timed_out:
            handed_over = seat in progress.autoplay_started
            self.group_notice(table, self.render.timed_out(table, seat, handed_over))

    def stage_end(self, table: TableView[Any], notice: str | None = None) -> TurnMessage | None:
        """A game that stopped before its end: the table says so (then the group is told
        `notice`) and is not edited again; the message of the turn's live buttons, if one is
        to lose them (`PrivateHands.deliver_end` puts the note in their place)."""
        self.edit_table(table, at_once=True)
        if notice is not None:
            self.group_notice(table, notice)
        self.forget_table(table.game_id, table.chat_id)
        return self.shown.pop_turn(table.game_id)

    def game_over(self, game_id: int) -> None:
        """The game ended: its held table edits go now, and its table is not edited again."""
        self.pace.flush(game_id)
        self.shown.game_over(game_id)
        self._tables_shown.pop(game_id, None)
