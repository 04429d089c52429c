"""Each person's private messages of a game: their hand (in place while they play along), its
buttons taken off once the turn is over, their seat offered back, notes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from datetime import datetime
from typing import Any

from ..service.progress import Progress
from ..service.runtime import GameService
from ..service.views import HandView, TableView
from .outbox import GroupOutbox
from .pacing.withdrawable import Withdrawable
from .played import PlayedMove, PlayedMoves
from .playing_along import PlayingAlong
from .private import PrivateSender
from .render.common import Rendered
from .render.game_messages import GameMessages
from .shown import ShownMessages, TurnMessage

log = logging.getLogger(__name__)
RETIRE_WAIT_SECONDS = 30.0
"""The longest a hand shown in place waits for an edit of the same message already on its way
(its answer is usually a matter of milliseconds; this only bounds a stuck request)."""


class PrivateHands:
    """The private chats' side of every game on this worker: hands sent or edited in place,
    turn buttons taken off, seats offered back (each a call to Telegram, never made while a
    game is held)."""

    def __init__(
        self,
        private: PrivateSender,
        render: GameMessages,
        shown: ShownMessages,
        service: GameService,
        outbox: GroupOutbox,
        clock: Callable[[], datetime],
        *,
        hold_seconds: float = 0.0,
    ) -> None:
        self.private = private
        self.render = render
        self.shown = shown
        self.service = service
        self.outbox = outbox
        self.along = PlayingAlong(clock)
        """Who plays along in their private chat (their next hand edits the last in place)."""
        self.played = PlayedMoves()
        """Each person's last tapped move (a second tap on that hand is told it)."""
        self._pending: set[asyncio.Task[None]] = set()
        self._hold_seconds = hold_seconds
        """How long a tapped hand's buttons may wait for the person's next hand (in place)."""
        self._hurry = asyncio.Event()
        """Set at shutdown: held edits go now."""
        self._retiring: dict[tuple[int, int], tuple[Withdrawable, asyncio.Task[None]]] = {}
        """The edits taking a tapped hand's buttons off that have not gone yet, by (person,
        message): the person's next hand in that message takes their place."""

    async def offer_seat_back(self, table: TableView[Any], seat_number: int) -> None:
        """Offer a person who can be reached again the seat the computer plays for them."""
        await self.offer_seat_back_to(table, seat_number, [])

    async def offer_seat_back_to(
        self, table: TableView[Any], seat_number: int, unreachable: list[int]
    ) -> None:
        """Tell a person the computer now plays their seat, with the button to take it back."""
        seat = table.seats[seat_number]
        if seat.user_id is None or seat.user_id in unreachable:
            return
        delivery = await self.private.send(seat.user_id, self.render.seat_offer(table, seat))
        if delivery.unreachable:
            unreachable.append(seat.user_id)

    def turn_key(self, turn: HandView[Any, Any]) -> TurnMessage | None:
        """The live message that already shows this turn, if there is one."""
        old = self.shown.turn(turn.game_id)
        if old is not None and old.seat == turn.seat and old.version == turn.version:
            return old
        return None

    def turn_shown(self, turn: HandView[Any, Any], *, later_only: bool = False) -> bool:
        """Whether this turn, or a later one of its game, holds the live buttons already
        (`later_only`: a later one)."""
        shown = self.shown.turn(turn.game_id)
        if shown is None:
            return False
        return shown.version > turn.version if later_only else shown.version >= turn.version

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

    async def deliver_end(self, table: TableView[Any], turn: TurnMessage) -> None:
        """The note that the game stopped, in place of the turn's live buttons."""
        stopped = self.render.stopped(table.seats[turn.seat], table)
        await self.private.edit(turn.user_id, turn.message_id, stopped)

    def retire_turn(self, progress: Progress) -> tuple[int, int, Rendered] | None:
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

    def retire_later(
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

    async def send_hand(
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
            # The page shows the hand (and the turn): a private message would only ring. A
            # turn is no longer owed to the private chat (the page opened since it began).
            if live and hand.legal:
                await self.service.hands.turn_shown(hand.game_id, hand.version)
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

    async def send_private(self, user_id: int, rendered: Rendered) -> bool:
        """Send a private message; False if the person cannot be reached."""
        return (await self.private.send(user_id, rendered)).message is not None

    async def edit_private(self, user_id: int, message_id: int, rendered: Rendered) -> None:
        """Edit a private message, ignoring 'not modified' and unreachable people."""
        await self.private.edit(user_id, message_id, rendered)

    async def settle(self) -> None:
        """Wait for the private edits still on their way, held ones sent now (the caller
        bounds the wait)."""
        self._hurry.set()
        if self._pending:
            await asyncio.wait(set(self._pending))


def any_table(progress: Progress) -> TableView[Any] | None:
    """The table as `progress` leaves it, else the last step's."""
    if progress.table is not None:
        return progress.table
    for step in reversed(progress.steps):
        return step.table
    return None
