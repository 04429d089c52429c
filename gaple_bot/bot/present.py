"""Showing what changed: a game's progress staged in its group, then delivered privately."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from telegram.ext import ExtBot

from ..i18n import Translators
from ..service.progress import GameOver, Progress, RoundOver, RoundStarted
from ..service.runtime import GameService
from ..service.views import HandView, TableView
from .group_messages import GroupMessages
from .outbox import GroupOutbox
from .pacing.withdrawable import Withdrawable
from .private import PrivateSender
from .private_hands import PrivateHands, any_table
from .render.common import Rendered
from .render.game_messages import JOIN_PREFIX, GameMessages
from .render.page_links import PageLinks
from .results import show_game_end, show_round_end
from .shown import ShownMessages, TurnMessage

__all__ = ["JOIN_PREFIX", "Presenter", "TurnMessage"]


class Presenter:
    """Turns the service's results into Telegram messages, rendered by `render`: the group's
    lobby and table through `group` (the outbox), each person's hands through `hands`; each
    game's messages on this worker kept in `shown`."""

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
        self.shown = ShownMessages()
        self.group = GroupMessages(
            outbox,
            self.render,
            self.shown,
            service,
            table_edit_seconds=table_edit_seconds,
            backlog=backlog,
        )
        self.hands = PrivateHands(
            PrivateSender(bot),
            self.render,
            self.shown,
            service,
            outbox,
            clock,
            hold_seconds=hold_seconds,
        )

    def stage(self, progress: Progress, replay_token: str | None = None) -> Staged:
        """The group's part of `progress` (into the outbox, in order) and this worker's view
        of the game's messages; what goes to private chats is returned, to be delivered.
        `replay_token`: the replay link's token of the game `progress` ends."""
        staged = Staged(progress.game_id, retired=self.hands.retire_turn(progress))
        final = progress.table
        last_start = max(
            (i for i, s in enumerate(progress.steps) if isinstance(s, RoundStarted)), default=-1
        )
        for index, step in enumerate(progress.steps):
            if isinstance(step, RoundOver):
                # The round's end reaches the group at once as its own message (the picture,
                # or its text): while everyone plays in the page the table follows at its pace.
                self.group.edit_table(step.table, at_once=not self.group.paced(step.table))
                show_round_end(self.outbox, self.render, step)
            elif isinstance(step, RoundStarted):
                shown = step.table
                if index == last_start and final and final.round_number == shown.round_number:
                    shown, final = final, None
                if self.group.paced(shown) and shown.game_id in self.shown.tables:
                    # Nobody needs the new round's table at the bottom of the chat: the one
                    # table message goes on, edited at its pace.
                    self.group.edit_table(shown)
                else:
                    self.group.send_table(shown)
                turn_seat = progress.turn.seat if progress.turn and index == last_start else None
                staged.hands.extend(hand for hand in step.hands if hand.seat != turn_seat)
            elif isinstance(step, GameOver):
                show_game_end(self.outbox, self.render, step, replay_token)
                self.group.game_over(step.table.game_id)
                # No next hand is to come: a tap on a held hand is simply out of date.
                staged.game_over = True
                staged.done_playing.extend(
                    seat.user_id for seat in step.table.seats if seat.user_id is not None
                )
        if final is not None:
            # A game's last table goes with its standings, not at the table's pace.
            self.group.edit_table(final, at_once=staged.game_over)
        staged.offer_table = any_table(progress)
        if staged.offer_table is not None:
            staged.offers.extend(progress.autoplay_started)
        turn = progress.turn
        if turn is not None and self.hands.turn_key(turn) is None:
            staged.turn = turn
        if staged.retired is not None:
            user_id, message_id, _rendered = staged.retired
            along = self.hands.along.hand_to_edit(user_id, progress.game_id) == message_id
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
            await self.hands.send_hand(hand, unreachable, placed, live=False)
        if staged.offer_table is not None:
            for seat_number in staged.offers:
                await self.hands.offer_seat_back_to(staged.offer_table, seat_number, unreachable)
        if staged.turn is not None and not self.hands.turn_shown(staged.turn):
            # (A delivery before this one may have shown it, or a later turn, meanwhile.)
            await self.hands.send_hand(staged.turn, unreachable, placed, live=True)
        if staged.retired is not None and staged.retired[:2] not in placed:
            # Last and in the background: the next person's hand must not wait on the mover's
            # private chat (one message a second there). (A hand shown in the same message
            # since took its place.) Held while the person plays along and the game goes on:
            # their next hand may take the edit's place.
            user_id, message_id, rendered = staged.retired
            self.hands.retired.later(user_id, message_id, rendered, held=staged.hold_retired)
        for user_id in staged.done_playing:
            self.hands.along.forget(user_id)
        return unreachable

    async def settle(self) -> None:
        """Wait for the private edits still on their way, held ones sent now, and send the
        table edits held back (the caller bounds the wait)."""
        self.group.pace.flush_all()
        await self.hands.retired.settle()


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
