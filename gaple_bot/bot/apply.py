"""The service's outcomes applied in chat: the group's part while the game is held, each private
chat's part after it is let go, in the game's order.

Every command of the service (the chat's and the page's alike) hands its outcome to `record`
before it lets its game go. `record` puts what the group is shown into the outbox (beside other
workers, into its stored queue, so the next holder's messages come after), re-arms the turn's
timers, and queues the rest (hands, seats offered back, buttons taken off) for delivery once
the game is let go: no Telegram call is made while a game is held. A handler that sends a
command within `issuing()` answers its tap first; its deliveries go when the block ends.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import Context, ContextVar
from dataclasses import dataclass, field
from typing import Any

from telegram.ext import JobQueue

from ..service.api import StoreError
from ..service.errors import ServiceError
from ..service.outcome import (
    LobbyChanged,
    LobbyExpired,
    NextGame,
    Outcome,
    Reminded,
    SeatHandedOver,
    Stopped,
    TableChanged,
)
from ..service.progress import GameOver, Progress
from ..service.views import GameStatus, LobbyView, SeatInfo, TableView
from .deps import Deps, GapleContext
from .handover import MAX_HANDOVERS, announce_unreachable, newly_unreachable, progress_table
from .present import Staged
from .render.lobby import render_lobby_expired
from .shown import TurnMessage
from .timers import (
    Recovery,
    arm_lobby_expiry,
    arm_turn_timers,
    cancel_lobby_expiry,
    cancel_turn_timers,
    schedule_recovery,
)

log = logging.getLogger(__name__)
STOP_SECONDS = 30.0
"""The longest a stop waits for the deliveries still on their way."""


@dataclass
class Issue:
    """Commands a handler sends within `issuing()`: their deliveries wait for the block's end
    (the tap is answered first), and `before_stage` runs on each outcome before it is shown.
    Only the handler's own task issues them: a task it started (an outbox's worker) inherits
    the context variable, not the issue."""

    task: asyncio.Task[Any] | None
    before_stage: Callable[[Outcome], None] | None = None
    go: asyncio.Event = field(default_factory=asyncio.Event)
    deliveries: list[asyncio.Task[None]] = field(default_factory=list)

    def current(self) -> bool:
        """Whether the command being recorded is this issue's (its task's, its block open)."""
        return not self.go.is_set() and asyncio.current_task() is self.task


@dataclass(frozen=True, slots=True)
class HandOver:
    """A delivery's hand-over of a seat whose person the bot cannot reach: the group is told
    with the outcome, and the chain of hand-overs is bounded."""

    task: asyncio.Task[Any] | None
    table: TableView[Any]
    seat: SeatInfo
    left: int


@dataclass
class Delivery:
    """What is left of one outcome to show privately, once its game is let go."""

    game_id: int
    table: TableView[Any] | None
    staged: Staged | None = None
    """A progress's private messages (None: none)."""
    ended: TurnMessage | None = None
    """The live buttons of a game that stopped, to be replaced by a note (with `table`)."""
    handovers_left: int = MAX_HANDOVERS
    """How many more seats a chain of deliveries may hand over (each may find another person
    the bot cannot reach)."""


_ISSUE: ContextVar[Issue | None] = ContextVar("gaple_issue", default=None)
_HAND_OVER: ContextVar[HandOver | None] = ContextVar("gaple_hand_over", default=None)


class ChatOutcomes:
    """Applies every outcome of the service in chat, in each game's order."""

    def __init__(self, deps: Deps, job_queue: JobQueue[GapleContext]) -> None:
        self._deps = deps
        self._job_queue = job_queue
        self._tails: dict[int, asyncio.Task[None]] = {}
        """Each game's last delivery: the next one waits for it."""
        self._pending: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Record every command's outcome from now on."""
        self._deps.service.recorders.add(self.record)

    async def stop(self) -> None:
        """Wait (a while) for the deliveries still on their way and those they lead to (a seat
        handed over to the computer is shown like any other change), then record no more."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + STOP_SECONDS
        while self._pending and (left := deadline - loop.time()) > 0:
            await asyncio.wait(set(self._pending), timeout=left)
        self._deps.service.recorders.remove(self.record)

    def delivering(self, game_id: int) -> bool:
        """Whether something of the game is still on its way to a private chat here."""
        return game_id in self._tails

    async def delivered(self, game_id: int) -> None:
        """Wait until what was queued for the game's private chats so far has gone."""
        tail = self._tails.get(game_id)
        if tail is not None and tail is not asyncio.current_task():
            await asyncio.wait({tail})

    @property
    def busy(self) -> bool:
        """Whether a delivery is still on its way."""
        return bool(self._pending)

    @asynccontextmanager
    async def issuing(
        self, before_stage: Callable[[Outcome], None] | None = None
    ) -> AsyncIterator[None]:
        """Commands sent within the block are delivered when it ends (and waited for)."""
        issue = Issue(asyncio.current_task(), before_stage)
        token = _ISSUE.set(issue)
        try:
            yield
        finally:
            _ISSUE.reset(token)
            issue.go.set()
            if issue.deliveries:
                # The handler's update is done when its outcomes are shown, as before.
                await asyncio.shield(asyncio.wait(set(issue.deliveries)))

    # Under the game's lock ---------------------------------------------------------------

    async def record(self, outcome: Outcome) -> None:
        """The group's part of `outcome` and the turn's timers, now (the game is held); the
        private part queued for delivery once it is let go."""
        issue = _ISSUE.get()
        if issue is not None and not issue.current():
            issue = None
        if issue is not None and issue.before_stage is not None and outcome.effects:
            issue.before_stage(outcome)
        hand_over = _HAND_OVER.get()
        if hand_over is not None and hand_over.task is not asyncio.current_task():
            hand_over = None
        if hand_over is not None and outcome.first(SeatHandedOver) is not None:
            # Told with the hand-over itself, in the game's order.
            announce_unreachable(self._deps, hand_over.table, hand_over.seat)
        replay_token = await self._replay_token(outcome)
        delivery = self._stage(outcome, replay_token)
        if self._deps.service.shared:
            # The next holder of the game, perhaps on another worker, queues after this.
            await self._deps.outbox.flush()
        if delivery is None:
            return
        if hand_over is not None:
            delivery.handovers_left = hand_over.left
        previous = self._tails.get(outcome.game_id)
        gate = issue.go if issue is not None else None
        # A context of its own: the handler's issue must not follow into the delivery (a
        # hand-over it makes is no command of the handler's).
        task = asyncio.create_task(self._deliver_after(previous, gate, delivery), context=Context())
        self._tails[outcome.game_id] = task
        self._pending.add(task)
        task.add_done_callback(lambda done: self._finished(outcome.game_id, done))
        if issue is not None:
            issue.deliveries.append(task)

    def _finished(self, game_id: int, task: asyncio.Task[None]) -> None:
        self._pending.discard(task)
        if self._tails.get(game_id) is task:
            del self._tails[game_id]

    async def _replay_token(self, outcome: Outcome) -> str | None:
        """The replay link's token of a game that `outcome` ends (None: it ends no game, or
        the token cannot be read: the end message goes without its Replay button)."""
        progress = outcome.progress
        if progress is None or not any(isinstance(s, GameOver) for s in progress.steps):
            return None
        if self._deps.presenter.render.page is None:
            return None
        try:
            return (await self._deps.service.reviews.game(outcome.game_id)).replay_token
        except (ServiceError, StoreError):
            log.warning("game %s: its replay token could not be read", outcome.game_id)
            return None

    def _stage(self, outcome: Outcome, replay_token: str | None = None) -> Delivery | None:
        deps = self._deps
        presenter = deps.presenter
        # Play again: the new lobby comes in the same outcome as the game that names it.
        new_lobbies = {e.game_id for e in outcome.effects if isinstance(e, NextGame)}
        progress = outcome.progress
        for effect in outcome.effects:
            if isinstance(effect, LobbyChanged):
                if effect.lobby.game_id in new_lobbies:
                    self.show_new_lobby(effect.lobby)
                else:
                    self._show_lobby(effect.lobby)
            elif isinstance(effect, Reminded):
                # One table edit with the time left; the outbox merges it if the group is busy.
                presenter.group.edit_table(effect.table)
            elif isinstance(effect, TableChanged) and progress is None:
                presenter.group.edit_table(effect.table)
            elif isinstance(effect, LobbyExpired):
                cancel_lobby_expiry(self._job_queue, outcome.game_id)
                lobby = effect.lobby
                t = presenter.render.group_t(lobby.language)
                minutes = max(1, round(self._deps.settings.lobby_timeout_seconds / 60))
                presenter.group.show_lobby(lobby, render_lobby_expired(t, lobby, minutes))
            elif isinstance(effect, Stopped):
                cancel_turn_timers(self._job_queue, outcome.game_id)
                cancel_lobby_expiry(self._job_queue, outcome.game_id)
                if effect.table is not None:
                    turn = presenter.group.stage_end(effect.table)
                    return Delivery(outcome.game_id, effect.table, ended=turn)
        if progress is None:
            return None
        return self._stage_progress(progress, replay_token)

    def _stage_progress(self, progress: Progress, replay_token: str | None) -> Delivery:
        deps = self._deps
        presenter = deps.presenter
        if progress.abandoned is not None:
            cancel_turn_timers(self._job_queue, progress.game_id)
            last = progress.abandoned
            turn = presenter.group.stage_end(last, presenter.render.abandoned(last))
            return Delivery(progress.game_id, last, ended=turn)
        table = progress_table(progress)
        if table is not None:
            presenter.group.timeout_notices(progress, table)
        staged = presenter.stage(progress, replay_token)
        arm_turn_timers(deps, self._job_queue, progress)
        return Delivery(progress.game_id, table, staged)

    def show_new_lobby(self, lobby: LobbyView) -> None:
        """Send a freshly opened lobby to its group and start its expiry timer."""
        deps = self._deps
        rendered = deps.presenter.render.lobby(lobby, deps.bot_username, link=False)
        deps.presenter.group.show_lobby(lobby, rendered, new=True)
        arm_lobby_expiry(self._job_queue, lobby.game_id, deps.settings.lobby_timeout_seconds)

    def _show_lobby(self, lobby: LobbyView) -> None:
        deps = self._deps
        if lobby.status is not GameStatus.LOBBY:
            cancel_lobby_expiry(self._job_queue, lobby.game_id)
            if lobby.status is GameStatus.RUNNING and deps.presenter.group.lobby_becomes_table(
                lobby
            ):
                return
        deps.presenter.group.show_lobby_as_it_is(lobby, deps.bot_username)

    # After the lock ------------------------------------------------------------------------

    async def _deliver_after(
        self,
        previous: asyncio.Task[None] | None,
        gate: asyncio.Event | None,
        delivery: Delivery,
    ) -> None:
        if previous is not None:
            await asyncio.wait({previous})
        if gate is not None:
            await gate.wait()
        try:
            await self._deliver(delivery)
        except Exception:
            log.exception("game %s: a change was not shown; it will be resumed", delivery.game_id)
            self._deps.service.forget(delivery.game_id)
            schedule_recovery(self._job_queue, Recovery(delivery.game_id, 0))

    async def _deliver(self, delivery: Delivery) -> None:
        """Send `delivery`'s private messages; the computer takes the seat of anyone the bot
        could not reach (its outcome is delivered after this one, like any other, up to a
        bound on the chain)."""
        deps = self._deps
        presenter = deps.presenter
        if delivery.table is not None and delivery.ended is not None:
            await presenter.hands.deliver_end(delivery.table, delivery.ended)
        if delivery.staged is None:
            return
        unreachable = await presenter.deliver(delivery.staged)
        table = delivery.table
        seat = await newly_unreachable(deps, delivery.game_id, table, unreachable)
        if seat is None or table is None:
            return
        if delivery.handovers_left <= 0:
            log.warning("game %s: stopped handing seats over", delivery.game_id)
            return
        assert seat.user_id is not None
        left = delivery.handovers_left - 1
        token = _HAND_OVER.set(HandOver(asyncio.current_task(), table, seat, left))
        try:
            await deps.service.commands.hand_over(delivery.game_id, seat.user_id)
        except ServiceError as error:
            # The game ended, or the seat changed hands, meanwhile: nothing to hand over.
            log.info("game %s: no seat handed over: %s", delivery.game_id, error)
        finally:
            _HAND_OVER.reset(token)
