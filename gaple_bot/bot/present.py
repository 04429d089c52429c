"""Showing what changed: the group's table and results, and each person's private hand."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from telegram import Message
from telegram.constants import ParseMode
from telegram.ext import ExtBot

from ..i18n import Translators
from ..service.progress import GameOver, Progress, RoundOver, RoundStarted
from ..service.runtime import GameService
from ..service.views import GameStatus, HandView, LobbyView, TableView
from .outbox import GroupOutbox, MessageHandle
from .pacing import Withdrawable
from .played import PlayedMove, PlayedMoves
from .playing_along import PlayingAlong
from .private import PrivateSender, message_kwargs
from .render.common import Rendered
from .render.game_messages import JOIN_PREFIX, GameMessages
from .render.page_links import PageLinks
from .results import show_game_end, show_round_end
from .shown import ShownMessages, TurnMessage
from .table_pace import TablePace

log = logging.getLogger(__name__)
RETIRE_WAIT_SECONDS = 30.0
"""The longest a hand shown in place waits for an edit of the same message already on its way
(its answer is usually a matter of milliseconds; this only bounds a stuck request)."""

__all__ = ["JOIN_PREFIX", "Presenter", "TurnMessage"]


class Presenter:
    """Turns the service's results into Telegram messages: rendered by `render`, group ones
    through the outbox, private ones through `private`, each game's messages kept in
    `shown`."""

    def __init__(
        self,
        bot: ExtBot[Withdrawable],
        outbox: GroupOutbox,
        translators: Translators,
        service: GameService,
        clock: Callable[[], datetime],
        page: PageLinks | None = None,
        *,
        hold_seconds: float = 0.0,
        table_edit_seconds: float = 0.0,
        backlog: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.bot = bot
        self.outbox = outbox
        self.service = service
        self.render = GameMessages(translators, service.registry, clock, page)
        self.private = PrivateSender(bot)
        self.along = PlayingAlong(clock)
        """Who plays along in their private chat (their next hand edits the last in place)."""
        self.played = PlayedMoves()
        """Each person's last tapped move (a second tap on that hand is told it)."""
        self.shown = ShownMessages()
        self.pace = TablePace(
            service.pages,
            self._edit_table_now,
            chat_interval=table_edit_seconds,
            backlog=backlog,
        )
        """Table edits held back a few seconds (half a minute while everyone at a table plays
        in the page), the moves meanwhile shown in one."""
        self._pending: set[asyncio.Task[None]] = set()
        self._hold_seconds = hold_seconds
        """How long a tapped hand's buttons may wait for the person's next hand (in place)."""
        self._hurry = asyncio.Event()
        """Set at shutdown: held edits go now."""
        self._retiring: dict[tuple[int, int], tuple[Withdrawable, asyncio.Task[None]]] = {}
        """The edits taking a tapped hand's buttons off that have not gone yet, by (person,
        message): the person's next hand in that message takes their place."""
        self._tables_shown: dict[int, tuple[int, str, str | None]] = {}
        """What each game's table message was last edited to show (its handle's id, text and
        buttons)."""

    # The lobby -------------------------------------------------------------------------------

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

    # The group -------------------------------------------------------------------------------

    def group_notice(self, table: TableView[Any], text: str) -> None:
        """A short message to the table's group (or topic)."""
        self.outbox.send(
            table.chat_id, message_thread_id=table.thread_id, text=text, parse_mode=ParseMode.HTML
        )

    def _send_table(self, table: TableView[Any]) -> None:
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
        the table plays in the page) unless `at_once` (beside other workers always at once: a
        held edit could land after another worker's newer one)."""
        self.pace.show(table, at_once=at_once or self.outbox.shared)

    def _paced(self, table: TableView[Any]) -> bool:
        """Whether the table's edits go at the page's pace (everyone seated plays there)."""
        return not self.outbox.shared and self.pace.all_in_page(table.game_id, table.seats)

    def _edit_table_now(self, table: TableView[Any]) -> None:
        handle = self.shown.tables.get(table.game_id)
        if (
            handle is None
            and (table.message_id is not None or self.outbox.shared)
            and not self.shown.table_retired(table.game_id)
        ):
            self.adopt_table(table.game_id, table.chat_id, table.message_id, table.thread_id)
            handle = self.shown.tables[table.game_id]
        if handle is None:
            self._send_table(table)
            return
        rendered = self.render.table(table)
        markup = None if rendered.markup is None else rendered.markup.to_json()
        shown = (id(handle), rendered.text, markup)
        if self._tables_shown.get(table.game_id) == shown:
            return  # Telegram refuses an edit that changes nothing ("not modified")
        self._tables_shown[table.game_id] = shown
        self.outbox.edit(handle, **message_kwargs(rendered))

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

    # Progress --------------------------------------------------------------------------------

    async def progress(self, progress: Progress) -> list[int]:
        """Show everything in `progress`; returns the people the bot could not reach privately."""
        return await self.deliver(self.stage(progress))

    def stage(self, progress: Progress) -> Staged:
        """The group's part of `progress` (into the outbox, in order) and this worker's view
        of the game's messages; what goes to private chats is returned, to be delivered."""
        staged = Staged(progress.game_id, retired=self._retire_turn(progress))
        final = progress.table
        last_start = max(
            (i for i, s in enumerate(progress.steps) if isinstance(s, RoundStarted)), default=-1
        )
        for index, step in enumerate(progress.steps):
            if isinstance(step, RoundOver):
                # The round's end reaches the group at once as its own message (the picture,
                # or its text): while everyone plays in the page the table follows at its pace.
                self.edit_table(step.table, at_once=not self._paced(step.table))
                show_round_end(self.outbox, self.render, step)
            elif isinstance(step, RoundStarted):
                shown = step.table
                if index == last_start and final and final.round_number == shown.round_number:
                    shown, final = final, None
                if self._paced(shown) and shown.game_id in self.shown.tables:
                    # Nobody needs the new round's table at the bottom of the chat: the one
                    # table message goes on, edited at its pace.
                    self.edit_table(shown)
                else:
                    self._send_table(shown)
                turn_seat = progress.turn.seat if progress.turn and index == last_start else None
                staged.hands.extend(hand for hand in step.hands if hand.seat != turn_seat)
            elif isinstance(step, GameOver):
                show_game_end(self.outbox, self.render, step)
                self.pace.flush(step.table.game_id)
                self.shown.game_over(step.table.game_id)
                self._tables_shown.pop(step.table.game_id, None)
                # No next hand is to come: a tap on a held hand is simply out of date.
                staged.game_over = True
                staged.done_playing.extend(
                    seat.user_id for seat in step.table.seats if seat.user_id is not None
                )
        if final is not None:
            self.edit_table(final)
        staged.offer_table = any_table(progress)
        if staged.offer_table is not None:
            staged.offers.extend(progress.autoplay_started)
        turn = progress.turn
        if turn is not None and self._turn_key(turn) is None:
            staged.turn = turn
        if staged.retired is not None:
            user_id, message_id, _rendered = staged.retired
            along = self.along.hand_to_edit(user_id, progress.game_id) == message_id
            staged.hold_retired = along and not staged.game_over
        return staged

    async def deliver(self, staged: Staged) -> list[int]:
        """What `stage` left for private chats, in order: the new round's hands, the seats
        offered back, the next person's hand, the tapped hand's buttons taken off; returns
        the people the bot could not reach privately."""
        unreachable: list[int] = []
        placed: set[tuple[int, int]] = set()
        """The (person, message) pairs whose hand was shown in place here."""
        for hand in staged.hands:
            await self._send_hand(hand, unreachable, placed, live=False)
        if staged.offer_table is not None:
            for seat_number in staged.offers:
                await self._offer_seat_back(staged.offer_table, seat_number, unreachable)
        if staged.turn is not None:
            await self._send_hand(staged.turn, unreachable, placed, live=True)
        if staged.retired is not None and staged.retired[:2] not in placed:
            # Last and in the background: the next person's hand must not wait on the mover's
            # private chat (one message a second there). (A hand shown in the same message
            # since took its place.) Held while the person plays along and the game goes on:
            # their next hand may take the edit's place.
            user_id, message_id, rendered = staged.retired
            self._retire_later(user_id, message_id, rendered, held=staged.hold_retired)
        for user_id in staged.done_playing:
            self.along.forget(user_id)
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
        delivery = await self.private.send(seat.user_id, self.render.seat_offer(table, seat))
        if delivery.unreachable:
            unreachable.append(seat.user_id)

    def _turn_key(self, turn: HandView[Any, Any]) -> TurnMessage | None:
        """The live message that already shows this turn, if there is one."""
        old = self.shown.turn(turn.game_id)
        if old is not None and old.seat == turn.seat and old.version == turn.version:
            return old
        return None

    async def adopt_turn(self, turn: HandView[Any, Any], message_id: int) -> None:
        """After a restart: give the stored hand message of the person to move live buttons."""
        seat = turn.table.seats[turn.seat]
        if seat.user_id is None:
            return
        t = self.render.private_t(seat, turn.table.language)
        if (await self.private.edit(seat.user_id, message_id, self.render.hand(t, turn))).shown:
            await self.service.hands.turn_shown(turn.game_id, turn.version)
        self.shown.set_turn(
            turn.game_id, TurnMessage(turn.seat, seat.user_id, message_id, turn.version)
        )

    async def end_game_messages(self, table: TableView[Any], notice: str | None = None) -> None:
        """A game that stopped before its end: the table says so (then the group is told
        `notice`) and is not edited again, and the live buttons of the turn go (the note
        that the game stopped takes their place)."""
        turn = self.stage_end(table, notice)
        if turn is not None:
            await self.deliver_end(table, turn)

    def stage_end(self, table: TableView[Any], notice: str | None = None) -> TurnMessage | None:
        """The group's part of a game that stopped (see `end_game_messages`); the message
        of the turn's live buttons, if one is to lose them."""
        self.edit_table(table, at_once=True)
        if notice is not None:
            self.group_notice(table, notice)
        self.forget_table(table.game_id, table.chat_id)
        return self.shown.pop_turn(table.game_id)

    async def deliver_end(self, table: TableView[Any], turn: TurnMessage) -> None:
        """The note that the game stopped, in place of the turn's live buttons."""
        stopped = self.render.stopped(table.seats[turn.seat], table)
        await self.private.edit(turn.user_id, turn.message_id, stopped)

    async def show_abandoned(self, table: TableView[Any]) -> None:
        """Nobody is left to play: the table says the game stopped, live buttons go, and the
        group is told why."""
        await self.end_game_messages(table, self.render.abandoned(table))

    def _retire_turn(self, progress: Progress) -> tuple[int, int, Rendered] | None:
        """The edit (chat, message, text) that leaves the previous live-buttons message with
        no stale buttons, if there is one."""
        old = self.shown.pop_turn(progress.game_id)
        if old is None:
            return None
        turn = progress.turn
        if turn is not None and turn.seat == old.seat and turn.version == old.version:
            self.shown.set_turn(progress.game_id, old)
            return None
        seat_view = progress.hands.get(old.seat)
        table = seat_view.table if seat_view else any_table(progress)
        if table is None:
            return None
        _t, rendered = self.render.after_turn(progress, old.seat, table)
        return old.user_id, old.message_id, rendered

    def _retire_later(
        self, user_id: int, message_id: int, rendered: Rendered, *, held: bool
    ) -> None:
        """Take the live buttons off a hand when the pace allows, after every other kind of
        message (and, if `held`, once the hold is over): the person's next hand, shown in the
        same message before then, takes the edit's place."""
        key = (user_id, message_id)
        earlier = self._retiring.get(key)
        if earlier is not None:
            earlier[0].withdraw()
        if self.outbox.shared:
            # Beside other workers another may show the person's next hand in this message
            # (and the chat's shared lease must not wait behind a held edit): at once, as any
            # private message.
            self._later(self._retire(user_id, message_id, rendered, None, 0.0))
            return
        ticket = Withdrawable()
        hold = self._hold_seconds if held else 0.0
        task = self._later(self._retire(user_id, message_id, rendered, ticket, hold))
        self._retiring[key] = (ticket, task)

    async def _retire(
        self,
        user_id: int,
        message_id: int,
        rendered: Rendered,
        ticket: Withdrawable | None,
        hold: float,
    ) -> None:
        """Take the live buttons off a hand after `hold` seconds (sooner at shutdown); someone
        who blocked the bot meanwhile is marked unreachable (their next hand then goes to the
        computer)."""
        key = (user_id, message_id)
        try:
            if hold > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hurry.wait(), hold)
            if ticket is not None and ticket.withdrawn:
                return  # the person's next hand came in the message meanwhile
            delivery = await self.private.edit(user_id, message_id, rendered, ticket)
            if delivery.unreachable:
                await self.service.players.unreachable(user_id)
        except Exception:
            log.exception("the edit that ends a turn for %s failed", user_id)
        finally:
            if ticket is not None and self._retiring.get(key, (None,))[0] is ticket:
                del self._retiring[key]

    def _later(self, delivery: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Deliver a private edit nobody waits on; `settle` waits for what is still out."""
        task = asyncio.create_task(delivery)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)
        return task

    def next_hand_here(self, user_id: int, game_id: int, message_id: int) -> bool:
        """Whether the person's next hand of the game is to come in this message (they tapped
        a move on it lately, and it does not show their turn now: a tap on its old buttons is
        of a turn that is over)."""
        if self._shows_turn(user_id, game_id, message_id):
            return False
        return self._along(user_id, game_id) == message_id

    def played_here(
        self, user_id: int, game_id: int, message_id: int, version: int
    ) -> PlayedMove | None:
        """The move the person tapped on this hand (message and version), if the message does
        not show their turn now: its buttons are of a turn that is over."""
        if self._shows_turn(user_id, game_id, message_id):
            return None
        return self.played.on(user_id, game_id, message_id, version)

    def _shows_turn(self, user_id: int, game_id: int, message_id: int) -> bool:
        """Whether this private message holds the game's live turn buttons now."""
        turn = self.shown.turn(game_id)
        return turn is not None and (turn.user_id, turn.message_id) == (user_id, message_id)

    def _along(self, user_id: int, game_id: int) -> int | None:
        """The message the person's next hand of the game is to come in, if they play along
        (beside other workers never: another may have written in their chat since)."""
        return None if self.outbox.shared else self.along.hand_to_edit(user_id, game_id)

    async def settle(self) -> None:
        """Wait for the private edits still on their way, held ones sent now, and send the
        table edits held back (the caller bounds the wait)."""
        self._hurry.set()
        self.pace.flush_all()
        if self._pending:
            await asyncio.wait(set(self._pending))

    async def _send_hand(
        self,
        hand: HandView[Any, Any],
        unreachable: list[int],
        placed: set[tuple[int, int]],
        *,
        live: bool,
    ) -> None:
        seat = hand.table.seats[hand.seat]
        user_id = seat.user_id
        if user_id is None or user_id in unreachable:
            return
        if self.service.pages.is_open(hand.game_id, user_id):
            # The page shows the hand (and the turn): a private message would only ring.
            return
        t = self.render.private_t(seat, hand.table.language)
        message_id = await self._show_hand(
            user_id, hand.game_id, self.render.hand(t, hand), unreachable, placed
        )
        if message_id is None:
            return
        turn = live and bool(hand.legal)
        await self.service.hands.remember_hand_message(
            hand.game_id, hand.seat, message_id, turn_version=hand.version if turn else None
        )
        if turn:
            self.shown.set_turn(
                hand.game_id, TurnMessage(hand.seat, user_id, message_id, hand.version)
            )

    async def _show_hand(
        self,
        user_id: int,
        game_id: int,
        rendered: Rendered,
        unreachable: list[int],
        placed: set[tuple[int, int]],
    ) -> int | None:
        """Show a hand privately: in place of the last one while the person plays along (no
        ring, and the edit still waiting to take that hand's buttons off is taken back), else
        as a new message; the message's id, None if it could not be shown."""
        in_place = self._along(user_id, game_id)
        if in_place is not None:
            key = (user_id, in_place)
            waiting = self._retiring.pop(key, None)
            if waiting is not None and not waiting[0].withdraw():
                # Its turn came already: it lands first, whatever the private chat's pace.
                await asyncio.wait({waiting[1]}, timeout=RETIRE_WAIT_SECONDS)
            delivery = await self.private.edit(user_id, in_place, rendered)
            if delivery.unreachable:
                unreachable.append(user_id)
                return None
            if delivery.shown:
                placed.add(key)
                return in_place
            self.along.forget(user_id)  # the message is gone, or cannot be edited
        delivery = await self.private.send(user_id, rendered)
        if delivery.unreachable:
            unreachable.append(user_id)
        if delivery.message is None:
            return None
        return delivery.message.message_id

    # Private messages -------------------------------------------------------------------------

    async def send_private(self, user_id: int, rendered: Rendered) -> bool:
        """Send a private message; False if the person cannot be reached."""
        return (await self.private.send(user_id, rendered)).message is not None

    async def edit_private(self, user_id: int, message_id: int, rendered: Rendered) -> None:
        """Edit a private message, ignoring 'not modified' and unreachable people."""
        await self.private.edit(user_id, message_id, rendered)


@dataclass
class Staged:
    """What is left to deliver of a game's progress once its group part is in the outbox:
    the messages to private chats, in the order they go."""

    game_id: int
    retired: tuple[int, int, Rendered] | None = None
    """The edit (person, message, text) that takes the live buttons off the last turn's hand."""
    hold_retired: bool = False
    """Whether that edit waits for the person's next hand (they play along)."""
    hands: list[HandView[Any, Any]] = field(default_factory=list)
    """A new round's hands (each person's but the one to move)."""
    offer_table: TableView[Any] | None = None
    offers: list[int] = field(default_factory=list)
    """Seats the computer took over, each offered back to its person."""
    turn: HandView[Any, Any] | None = None
    """The hand of the person to move, with its move buttons (None: shown already)."""
    game_over: bool = False
    done_playing: list[int] = field(default_factory=list)
    """The people of a game that ended (no next hand comes to them)."""


def any_table(progress: Progress) -> TableView[Any] | None:
    """The table as `progress` leaves it, else the last step's."""
    if progress.table is not None:
        return progress.table
    for step in reversed(progress.steps):
        return step.table
    return None
