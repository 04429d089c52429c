"""Showing what changed: the group's table and results, and each person's private hand."""

from __future__ import annotations

import asyncio
import dataclasses
import html
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from ..games.pictures.standings import standings_picture
from ..games.seam import AnyPresentation
from ..games.texts import seat_name
from ..games.views import PrivateNote
from ..i18n import Translator, Translators
from ..service.progress import GameOver, Progress, RoundOver, RoundStarted
from ..service.runtime import GameService
from ..service.views import GameStatus, HandView, LobbyView, SeatInfo, TableView
from .callback_data import Action, encode
from .outbox import GroupOutbox, MessageHandle
from .painter import picture_or_none
from .render.common import Rendered
from .render.game import from_game
from .render.lobby import render_lobby

log = logging.getLogger(__name__)
JOIN_PREFIX = "join_"
"""Deep-link payloads that join a lobby: this prefix and the lobby's join token."""


@dataclass(frozen=True, slots=True)
class TurnMessage:
    """The private message that holds a person's live move buttons."""

    seat: int
    user_id: int
    message_id: int
    version: int


RETIRED_TABLES_KEPT = 4096
"""How many games' retired table messages are remembered (a bound on the memory)."""


class Presenter:
    """Turns the service's results into Telegram messages; group ones go through the outbox."""

    def __init__(
        self,
        bot: Bot,
        outbox: GroupOutbox,
        translators: Translators,
        service: GameService,
        clock: Callable[[], datetime],
    ) -> None:
        self.bot = bot
        self.outbox = outbox
        self.translators = translators
        self.service = service
        self.clock = clock
        self._tables: dict[int, MessageHandle] = {}
        self._table_retired: dict[int, None] = {}
        """Games whose stored table message is not to be edited again (the next table goes
        out as a fresh message: after a pause, the old one is far up the chat)."""
        self._lobbies: dict[int, MessageHandle] = {}
        self._turns: dict[int, TurnMessage] = {}
        self._join_links: set[int] = set()
        self._pending: set[asyncio.Task[None]] = set()

    # Languages ------------------------------------------------------------------------------

    def group_t(self, language: str | None) -> Translator:
        """The translator for a group's messages."""
        return self.translators.get(language)

    def private_t(self, seat: SeatInfo, chat_language: str | None) -> Translator:
        """The translator for a person's private messages."""
        return self.translators.get(seat.language or chat_language)

    # Lobby ----------------------------------------------------------------------------------

    def lobby_link(self, lobby: LobbyView, bot_username: str) -> str | None:
        """The t.me deep link that opens the private chat and completes a join: it carries
        the lobby's secret, never its id (ids are easy to guess). None if it has none."""
        if lobby.join_token is None:
            return None
        return f"https://t.me/{bot_username}?start={JOIN_PREFIX}{lobby.join_token}"

    def show_lobby(self, lobby: LobbyView, rendered: Rendered, *, new: bool = False) -> None:
        """Send (or edit) the lobby message in the group (the stored one, if another worker
        showed it)."""
        handle = None if new else self._lobbies.get(lobby.game_id)
        if handle is None and not new and (lobby.message_id is not None or self.outbox.shared):
            self.adopt_lobby(lobby.game_id, lobby.chat_id, lobby.message_id, lobby.thread_id)
            handle = self._lobbies[lobby.game_id]
        kwargs = _message_kwargs(rendered)
        if handle is None:
            self._lobbies[lobby.game_id] = self.outbox.send(
                lobby.chat_id,
                on_sent=self._remember(lobby.game_id),
                game_id=lobby.game_id,
                message_thread_id=lobby.thread_id,
                **kwargs,
            )
        else:
            self.outbox.edit(handle, **kwargs)
        if lobby.status is not GameStatus.LOBBY:
            # The lobby message is final now: nothing will edit it again.
            self._lobbies.pop(lobby.game_id, None)
            self._join_links.discard(lobby.game_id)

    def ask_for_join_link(self, game_id: int) -> None:
        """From now on the lobby shows the button that opens the private chat."""
        self._join_links.add(game_id)

    def needs_join_link(self, game_id: int) -> bool:
        """Whether someone failed to join for want of a private chat."""
        return game_id in self._join_links

    def adopt_lobby(
        self, game_id: int, chat_id: int, message_id: int | None, thread_id: int | None = None
    ) -> None:
        """The lobby message sent earlier (before a restart, or by another worker)."""
        self._lobbies[game_id] = self._game_message(game_id, chat_id, message_id, thread_id)

    def adopt_table(
        self, game_id: int, chat_id: int, message_id: int | None, thread_id: int | None = None
    ) -> None:
        """The table message sent earlier (before a restart, or by another worker)."""
        self._tables[game_id] = self._game_message(game_id, chat_id, message_id, thread_id)

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
        return lambda m: self.service.tables.remember_table_message(game_id, m.message_id)

    def render_lobby(self, lobby: LobbyView, bot_username: str, link: bool) -> Rendered:
        """The lobby in the chat's language."""
        join_link = self.lobby_link(lobby, bot_username) if link else None
        t = self.group_t(lobby.language)
        return render_lobby(t, self.presentation(lobby.kind), lobby, join_link)

    # A game's own messages --------------------------------------------------------------------

    def presentation(self, kind: str) -> AnyPresentation:
        """The messages of game kind `kind`."""
        return self.service.registry.get(kind).presentation

    def render_table(self, table: TableView[Any]) -> Rendered:
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
        return from_game(
            dataclasses.replace(message, text=text), table.game_id, table.version, extra
        )

    def render_hand(
        self, t: Translator, view: HandView[Any, Any], step: int | None = None
    ) -> Rendered:
        """A person's hand, with its move buttons on their turn (`step`: their first pick)."""
        message = self.presentation(view.table.kind).hand(t, view, self.clock(), step)
        return from_game(message, view.game_id, view.version)

    def render_played(self, t: Translator, view: HandView[Any, Any], code: int) -> Rendered:
        """A person's hand right after their move `code`."""
        return Rendered(self.presentation(view.table.kind).played(t, view, code).text)

    def private_note(self, t: Translator, kind: str, note: PrivateNote, chat: str = "") -> str:
        """A short private note of game `kind` about where and when the hand comes."""
        return self.presentation(kind).private_note(t, note, chat)

    def you_moved(self, t: Translator, kind: str, code: int) -> str:
        """Move `code` in one sentence to the person who made it."""
        return self.presentation(kind).you_moved(t, code)

    def render_game_end(self, table: TableView[Any]) -> Rendered:
        """The final standings, and a button that opens a new lobby with the same players."""
        t = self.group_t(table.language)
        message = self.presentation(table.kind).game_end(t, table)
        again = InlineKeyboardButton(
            t.gettext("🔁 Play again"),
            callback_data=encode(Action.PLAY_AGAIN, table.game_id),
            style="success",
        )
        return from_game(message, table.game_id, table.version, (again,))

    def show_round_end(self, step: RoundOver) -> None:
        """Every hand revealed: a picture of the round with the text as its caption, or the
        text alone in a chat that turned pictures off."""
        table = step.table
        t = self.group_t(table.language)
        presentation = self.presentation(table.kind)
        text = presentation.round_end(t, step.reveal).text
        picture = picture_or_none(lambda: presentation.round_end_picture(t, step.reveal))
        if not table.pictures or picture is None:
            self.group_notice(table, text)
            return
        self.outbox.send_photo(
            table.chat_id,
            picture,
            caption=text,
            message_thread_id=table.thread_id,
            parse_mode=ParseMode.HTML,
        )

    def show_game_end(self, step: GameOver) -> None:
        """The final standings with Play again: drawn as a chart of every round's totals
        under the text, or the text alone in a chat that turned pictures off."""
        table = step.table
        rendered = self.render_game_end(table)
        t = self.group_t(table.language)
        picture = None
        if table.pictures and step.history:
            picture = picture_or_none(lambda: standings_picture(t, table, step.history))
        if picture is None:
            self.outbox.send(
                table.chat_id, message_thread_id=table.thread_id, **_message_kwargs(rendered)
            )
            return
        self.outbox.send_photo(
            table.chat_id,
            picture,
            caption=rendered.text,
            message_thread_id=table.thread_id,
            parse_mode=ParseMode.HTML,
            reply_markup=rendered.markup,
        )

    # Group ----------------------------------------------------------------------------------

    def group_notice(self, table: TableView[Any], text: str) -> None:
        """A short message to the table's group (or topic)."""
        self.outbox.send(
            table.chat_id,
            message_thread_id=table.thread_id,
            text=text,
            parse_mode=ParseMode.HTML,
        )

    def _send_table(self, table: TableView[Any]) -> None:
        self._table_retired.pop(table.game_id, None)
        rendered = self.render_table(table)
        self._tables[table.game_id] = self.outbox.send(
            table.chat_id,
            on_sent=self._remember(table.game_id),
            game_id=table.game_id,
            message_thread_id=table.thread_id,
            **_message_kwargs(rendered),
        )

    def edit_table(self, table: TableView[Any]) -> None:
        """Edit the game's table message (the stored one, if another worker showed it), or
        send one if there is none."""
        handle = self._tables.get(table.game_id)
        if (
            handle is None
            and (table.message_id is not None or self.outbox.shared)
            and table.game_id not in self._table_retired
        ):
            self.adopt_table(table.game_id, table.chat_id, table.message_id, table.thread_id)
            handle = self._tables[table.game_id]
        if handle is None:
            self._send_table(table)
            return
        self.outbox.edit(handle, **_message_kwargs(self.render_table(table)))

    # Progress -------------------------------------------------------------------------------

    async def progress(self, progress: Progress) -> list[int]:
        """Show everything in `progress`; returns the people the bot could not reach privately."""
        unreachable: list[int] = []
        retired = self._retire_turn(progress)
        final = progress.table
        last_start = max(
            (i for i, s in enumerate(progress.steps) if isinstance(s, RoundStarted)), default=-1
        )
        for index, step in enumerate(progress.steps):
            if isinstance(step, RoundOver):
                self.edit_table(step.table)
                self.show_round_end(step)
            elif isinstance(step, RoundStarted):
                shown = step.table
                if index == last_start and final and final.round_number == shown.round_number:
                    shown, final = final, None
                self._send_table(shown)
                turn_seat = progress.turn.seat if progress.turn and index == last_start else None
                for hand in step.hands:
                    if hand.seat != turn_seat:
                        await self._send_hand(hand, unreachable, live=False)
            elif isinstance(step, GameOver):
                self.show_game_end(step)
                self._tables.pop(step.table.game_id, None)
                self._turns.pop(step.table.game_id, None)
        if final is not None:
            self.edit_table(final)
        offer_table = _any_table(progress)
        for seat_number in progress.autoplay_started:
            if offer_table is not None:
                await self._offer_seat_back(offer_table, seat_number, unreachable)
        turn = progress.turn
        if turn is not None and self._turn_key(turn) is None:
            await self._send_hand(turn, unreachable, live=True)
        if retired is not None:
            # Last and in the background: the next person's hand must not wait on the mover's
            # private chat (one message a second there), nor the game's lock on this edit.
            self._later(self._retire(*retired))
        return unreachable

    async def offer_seat_back(self, table: TableView[Any], seat_number: int) -> None:
        """Offer a person who can be reached again the seat the computer plays for them."""
        await self._offer_seat_back(table, seat_number, [])

    async def _offer_seat_back(
        self, table: TableView[Any], seat_number: int, unreachable: list[int]
    ) -> None:
        """Tell a person the computer now plays their seat, with the button to take it back."""
        seat = table.seats[seat_number]
        if seat.user_id is None or seat.user_id in unreachable:
            return
        t = self.private_t(seat, table.language)
        text = t.gettext(
            "🤖 The computer plays your seat in {chat} now. Tap below when you are back."
        ).format(chat=html.escape(table.chat_title))
        markup = self.take_back_markup(t, table.game_id)
        await self._send_private(seat.user_id, Rendered(text, markup), unreachable)

    def _turn_key(self, turn: HandView[Any, Any]) -> TurnMessage | None:
        """The live message that already shows this turn, if there is one."""
        old = self._turns.get(turn.game_id)
        if old is not None and old.seat == turn.seat and old.version == turn.version:
            return old
        return None

    async def adopt_turn(self, turn: HandView[Any, Any], message_id: int) -> None:
        """After a restart: give the stored hand message of the person to move live buttons."""
        seat = turn.table.seats[turn.seat]
        if seat.user_id is None:
            return
        t = self.private_t(seat, turn.table.language)
        rendered = self.render_hand(t, turn)
        if await self._edit_private(seat.user_id, message_id, rendered, []):
            await self.service.tables.turn_shown(turn.game_id, turn.version)
        self._turns[turn.game_id] = TurnMessage(turn.seat, seat.user_id, message_id, turn.version)

    async def show_abandoned(self, table: TableView[Any]) -> None:
        """Nobody is left to play: the table says the game stopped, live buttons go, and the
        group is told why."""
        self.edit_table(table)
        t = self.group_t(table.language)
        self.group_notice(
            table,
            t.gettext(
                "⏸ Everyone at the table is away, so I stopped the game. It counts as "
                "abandoned: no results, no rating changes. Type /{command} for a new one."
            ).format(command=table.kind),
        )
        turn = self.forget_turn(table.game_id)
        if turn is not None:
            private_t = self.private_t(table.seats[turn.seat], table.language)
            await self.edit_private(
                turn.user_id, turn.message_id, Rendered(private_t.gettext("This game was stopped."))
            )
        self._tables.pop(table.game_id, None)

    def timeout_notices(self, progress: Progress, table: TableView[Any]) -> None:
        """Tell the group whose time ran out and whose seat the computer now plays."""
        t = self.group_t(table.language)
        for seat in progress.timed_out:
            name = seat_name(t, table.seats[seat])
            if seat in progress.autoplay_started:
                text = t.gettext(
                    "⏰ {name} ran out of time twice, so the computer plays their seat now. "
                    "They can take it back from their private chat with me."
                )
            else:
                text = t.gettext("⏰ {name} ran out of time: the computer played for them.")
            self.group_notice(table, text.format(name=name))

    def _retire_turn(self, progress: Progress) -> tuple[int, int, Rendered] | None:
        """The edit (chat, message, text) that leaves the previous live-buttons message with
        no stale buttons, if there is one."""
        old = self._turns.pop(progress.game_id, None)
        if old is None:
            return None
        turn = progress.turn
        if turn is not None and turn.seat == old.seat and turn.version == old.version:
            self._turns[progress.game_id] = old
            return None
        moves = [(r, code) for r, s, code in progress.moved if s == old.seat]
        seat_view = progress.hands.get(old.seat)
        table = seat_view.table if seat_view else _any_table(progress)
        if table is None:
            return None
        seat = table.seats[old.seat]
        t = self.private_t(seat, table.language)
        if moves:
            round_number, code = moves[0]
            timed_out = old.seat in progress.timed_out
            if seat_view is not None and seat_view.table.round_number == round_number:
                text = self.render_played(t, seat_view, code).text
            else:
                text = self.you_moved(t, table.kind, code)
            if timed_out:
                computer = self.presentation(table.kind).computer_moved_for_you(t, code)
                text = "\n".join([computer, text])
        elif seat_view is not None:
            text = self.render_hand(t, seat_view).text
        else:
            text = t.gettext("This game is over.")
        return old.user_id, old.message_id, Rendered(text)

    async def _retire(self, user_id: int, message_id: int, rendered: Rendered) -> None:
        """Take the live buttons off a hand; someone who blocked the bot meanwhile is marked
        unreachable (their next hand then goes to the computer)."""
        unreachable: list[int] = []
        try:
            await self._edit_private(user_id, message_id, rendered, unreachable)
            if unreachable:
                await self.service.players.unreachable(user_id)
        except Exception:
            log.exception("the edit that ends a turn for %s failed", user_id)

    def _later(self, delivery: Coroutine[Any, Any, None]) -> None:
        """Deliver a private edit nobody waits on; `settle` waits for what is still out."""
        task = asyncio.create_task(delivery)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def settle(self) -> None:
        """Wait for the private edits still on their way (the caller bounds the wait)."""
        if self._pending:
            await asyncio.wait(set(self._pending))

    async def _send_hand(
        self, hand: HandView[Any, Any], unreachable: list[int], *, live: bool
    ) -> None:
        seat = hand.table.seats[hand.seat]
        if seat.user_id is None or seat.user_id in unreachable:
            return
        t = self.private_t(seat, hand.table.language)
        rendered = self.render_hand(t, hand)
        message = await self._send_private(seat.user_id, rendered, unreachable)
        if message is None:
            return
        turn = live and bool(hand.legal)
        await self.service.tables.remember_hand_message(
            hand.game_id,
            hand.seat,
            message.message_id,
            turn_version=hand.version if turn else None,
        )
        if turn:
            self._turns[hand.game_id] = TurnMessage(
                hand.seat, seat.user_id, message.message_id, hand.version
            )

    def forget_table(self, game_id: int, chat_id: int) -> None:
        """Its table message will not be edited again (the game is over, or paused: a fresh
        table is posted when it goes on), by any worker."""
        self.outbox.forget_game_message(chat_id, game_id)
        self._tables.pop(game_id, None)
        self._table_retired[game_id] = None
        if len(self._table_retired) > RETIRED_TABLES_KEPT:
            # The oldest are of games long over (a paused game is rare and soon goes on).
            del self._table_retired[next(iter(self._table_retired))]

    def forget_lobby(self, game_id: int) -> None:
        """The lobby message will not be edited again (the chat went away or moved)."""
        self._lobbies.pop(game_id, None)

    def forget_turn(self, game_id: int) -> TurnMessage | None:
        """The live-buttons message of a game, removed from memory (game stopped)."""
        return self._turns.pop(game_id, None)

    def turn_message(self, game_id: int) -> TurnMessage | None:
        """The live-buttons message of a game, if any."""
        return self._turns.get(game_id)

    def remember_turn(self, game_id: int, turn: TurnMessage) -> None:
        """Record a message that holds live buttons (after a restart)."""
        self._turns[game_id] = turn

    def adopt_turn_message(self, game_id: int, turn: TurnMessage) -> None:
        """The message that holds this turn's live buttons, as the database or a tap shows
        it: kept in place of one remembered for another turn (shown on another worker since,
        its buttons already gone), but not of this worker's own for the same turn."""
        known = self._turns.get(game_id)
        if known is None or (known.seat, known.version) != (turn.seat, turn.version):
            self._turns[game_id] = turn

    def take_back_markup(self, t: Translator, game_id: int) -> InlineKeyboardMarkup:
        """The one button that gives a person their seat back from the computer."""
        button = InlineKeyboardButton(
            t.gettext("🙋 Take my seat back"),
            callback_data=encode(Action.TAKE_BACK_SEAT, game_id),
            style="primary",
        )
        return InlineKeyboardMarkup([[button]])

    # Private messages -------------------------------------------------------------------------

    async def _send_private(
        self, user_id: int, rendered: Rendered, unreachable: list[int]
    ) -> Message | None:
        try:
            return await self.bot.send_message(chat_id=user_id, **_message_kwargs(rendered))
        except Forbidden:
            unreachable.append(user_id)
        except TelegramError as exc:
            log.warning("private message to %s failed: %s", user_id, exc)
        return None

    async def send_private(self, user_id: int, rendered: Rendered) -> bool:
        """Send a private message; False if the person cannot be reached."""
        return await self._send_private(user_id, rendered, []) is not None

    async def _edit_private(
        self, user_id: int, message_id: int, rendered: Rendered, unreachable: list[int]
    ) -> bool:
        """Whether the message shows `rendered` now (edited, or showing it already)."""
        try:
            await self.bot.edit_message_text(
                chat_id=user_id, message_id=message_id, **_message_kwargs(rendered)
            )
        except Forbidden:
            unreachable.append(user_id)
        except BadRequest as exc:
            if "not modified" in exc.message.lower():
                return True
            log.warning("private edit for %s failed: %s", user_id, exc.message)
        except TelegramError as exc:
            log.warning("private edit for %s failed: %s", user_id, exc)
        else:
            return True
        return False

    async def edit_private(self, user_id: int, message_id: int, rendered: Rendered) -> None:
        """Edit a private message, ignoring 'not modified' and unreachable people."""
        await self._edit_private(user_id, message_id, rendered, [])


def _any_table(progress: Progress) -> TableView[Any] | None:
    if progress.table is not None:
        return progress.table
    for step in reversed(progress.steps):
        return step.table
    return None


def _message_kwargs(rendered: Rendered) -> dict[str, Any]:
    """sendMessage/editMessageText arguments for a rendered message (HTML text, buttons)."""
    kwargs: dict[str, Any] = {"text": rendered.text, "parse_mode": ParseMode.HTML}
    if rendered.markup is not None:
        kwargs["reply_markup"] = rendered.markup
    return kwargs
