"""What people did in the table page, shown in chat: the group's lobby and table, the next
person's hand and the turn's timers, as the chat button that did the same would show them."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from telegram.ext import JobQueue

from ..service.feed import Subscription
from ..service.outcome import PAGE, LobbyChanged, NextGame, Outcome
from ..service.views import GameStatus
from .deps import Deps, GapleContext
from .flow import show_progress
from .held import hold
from .timers import arm_lobby_expiry, cancel_lobby_expiry

log = logging.getLogger(__name__)


class PageChanges:
    """Follows the outcomes of the page's use cases on this worker and shows them in chat (the
    chat's own use cases show theirs as they happen)."""

    def __init__(self, deps: Deps, job_queue: JobQueue[GapleContext]) -> None:
        self._deps = deps
        self._job_queue = job_queue
        self._task: asyncio.Task[None] | None = None
        self._new_lobbies: set[int] = set()
        """Lobbies Play again opened from the page, not shown in the group yet."""

    def start(self) -> None:
        """Follow the page's outcomes from now on."""
        subscription = self._deps.service.feed.subscribe()
        self._task = asyncio.create_task(self._follow(subscription))

    async def stop(self) -> None:
        """Stop following them."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _follow(self, subscription: Subscription) -> None:
        try:
            while True:
                outcome = await subscription.next()
                if subscription.missed:
                    log.warning("%s page changes were not shown in chat", subscription.missed)
                    subscription.missed = 0
                if outcome.by != PAGE or not _shown_in_chat(outcome):
                    continue
                try:
                    await self.show(outcome)
                except Exception:
                    log.exception("game %s: a page's change was not shown in chat", outcome.game_id)
        finally:
            subscription.close()

    async def show(self, outcome: Outcome) -> None:
        """Show one outcome of the page in chat, holding its game as a handler would (so it
        goes out in order with the chat's own changes)."""
        deps = self._deps
        for effect in outcome.effects:
            if isinstance(effect, NextGame):
                self._new_lobbies.add(effect.game_id)
        async with hold(deps, outcome.game_id):
            for effect in outcome.effects:
                if isinstance(effect, LobbyChanged):
                    self._show_lobby(effect)
            if outcome.progress is not None:
                await show_progress(deps, self._job_queue, outcome.progress)

    def _show_lobby(self, effect: LobbyChanged) -> None:
        deps = self._deps
        lobby = effect.lobby
        if lobby.game_id in self._new_lobbies:
            self._new_lobbies.discard(lobby.game_id)
            rendered = deps.presenter.render.lobby(lobby, deps.bot_username, link=False)
            deps.presenter.show_lobby(lobby, rendered, new=True)
            arm_lobby_expiry(self._job_queue, lobby.game_id, deps.settings.lobby_timeout_seconds)
            return
        if lobby.status is not GameStatus.LOBBY:
            cancel_lobby_expiry(self._job_queue, lobby.game_id)
            if lobby.status is GameStatus.RUNNING and deps.presenter.lobby_becomes_table(lobby):
                return
        deps.presenter.show_lobby_as_it_is(lobby, deps.bot_username)


def _shown_in_chat(outcome: Outcome) -> bool:
    """Whether the chat shows anything of a page's outcome: a lobby, a next game, or play."""
    lobby = any(isinstance(e, LobbyChanged | NextGame) for e in outcome.effects)
    return lobby or outcome.progress is not None
