"""Each person's private messages of a game: their hand (in place while they play along), their
seat offered back, notes (retired_hands.py takes a finished turn's buttons off)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..service.progress import Progress
from ..service.runtime import GameService
from ..service.views import HandView, TableView
from .outbox import GroupOutbox
from .played import PlayedMove, PlayedMoves
from .playing_along import PlayingAlong
from .private import PrivateSender
from .render.common import Rendered
from .render.game_messages import GameMessages
from .retired_hands import RetiredHands
from .shown import ShownMessages, TurnMessage


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
        self.retired = RetiredHands(private, service, outbox, hold_seconds=hold_seconds)
        """The edits on their way that take a finished turn's buttons off a hand."""

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
            await self.retired.take_back(user_id, in_place)
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


def any_table(progress: Progress) -> TableView[Any] | None:
    """The table as `progress` leaves it, else the last step's."""
    if progress.table is not None:
        return progress.table
    for step in reversed(progress.steps):
        return step.table
    return None
