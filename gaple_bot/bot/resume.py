"""After a restart: show every open lobby and running game again and re-arm their timers."""

from __future__ import annotations

import logging

from telegram.ext import JobQueue

from ..service.api import GameStatus, StoreError
from ..service.errors import ServiceError
from ..service.session import GameSession
from .deps import Deps, GapleContext
from .flow import show_progress
from .held import hold
from .timers import arm_lobby_expiry

log = logging.getLogger(__name__)


async def resume_games(deps: Deps, job_queue: JobQueue[GapleContext]) -> None:
    """Rebuild each active game from the database and show it as it stands: by the senior
    worker only (a process working alone is), so workers restarted together resume each game
    once, and a worker started beside a live senior leaves the games to the live workers,
    which hold their messages and timers (the sweep ends the turns of a worker that died)."""
    if not await deps.service.take_seniority():
        log.info("a senior worker is live: the games are the live workers' to show")
        return
    for game_id in await deps.service.active_games():
        try:
            async with hold(deps, game_id) as game:
                await _resume(deps, job_queue, game)
        except (ServiceError, StoreError):
            log.exception("game %s could not be resumed", game_id)


async def _resume(deps: Deps, job_queue: JobQueue[GapleContext], game: GameSession) -> None:
    facts = await game.facts()
    game_id = facts.game_id
    presenter = deps.presenter
    if facts.status is GameStatus.LOBBY:
        if facts.message_id is not None:
            presenter.adopt_lobby(game_id, facts.chat_id, facts.message_id, facts.thread_id)
        lobby = await game.lobby()
        presenter.show_lobby(lobby, presenter.render.lobby(lobby, deps.bot_username, False))
        # The lobby keeps the time it had left before the restart.
        age = (deps.clock() - facts.created_at).total_seconds()
        arm_lobby_expiry(job_queue, game_id, max(1.0, deps.settings.lobby_timeout_seconds - age))
        return
    if facts.message_id is not None:
        presenter.adopt_table(game_id, facts.chat_id, facts.message_id, facts.thread_id)
    progress = await game.resume()
    turn = progress.turn
    if turn is not None:
        message_id = facts.hand_messages[turn.seat]
        if message_id is not None:
            # The turn message sent before the restart gets fresh buttons instead of a twin.
            await presenter.adopt_turn(turn, message_id)
    if facts.paused:
        # The bot may not write in the group: no table edit, no timer until it may again.
        presenter.forget_table(game_id, facts.chat_id)
        return
    await show_progress(deps, job_queue, progress)
