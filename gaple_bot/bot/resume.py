"""After a restart: show every open lobby and running game again and re-arm their timers."""

from __future__ import annotations

import logging
from typing import Any

from telegram.ext import JobQueue

from ..service.api import GameStatus, StoreError
from ..service.errors import ServiceError
from ..service.outcome import Outcome
from ..service.views import HandView
from .deps import Deps, GapleContext
from .shown import TurnMessage
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
            await _resume(deps, job_queue, game_id)
        except (ServiceError, StoreError):
            log.exception("game %s could not be resumed", game_id)


async def _resume(deps: Deps, job_queue: JobQueue[GapleContext], game_id: int) -> None:
    commands = deps.service.commands
    presenter = deps.presenter
    facts = await commands.facts(game_id)
    if facts.status is GameStatus.LOBBY:
        if facts.message_id is not None:
            presenter.group.adopt_lobby(game_id, facts.chat_id, facts.message_id, facts.thread_id)
        # Shown again with the outcome, in the message it had.
        await commands.redraw(game_id)
        # The lobby keeps the time it had left before the restart.
        age = (deps.clock() - facts.created_at).total_seconds()
        arm_lobby_expiry(job_queue, game_id, max(1.0, deps.settings.lobby_timeout_seconds - age))
        return
    if facts.message_id is not None:
        presenter.group.adopt_table(game_id, facts.chat_id, facts.message_id, facts.thread_id)
    if facts.paused:
        # The bot may not write in the group: no table edit, no timer until it may again.
        presenter.group.forget_table(game_id, facts.chat_id)
        # Its stored turn message is this worker's to retire when the game goes on, as if
        # it had sent it: no hand is left behind with stale buttons.
        table = await commands.table(game_id)
        stored = await commands.stored_turn(game_id, table.version)
        if stored is not None:
            seat, user_id, message_id = stored
            presenter.shown.set_turn(game_id, TurnMessage(seat, user_id, message_id, table.version))
        return
    adopted: list[tuple[HandView[Any, Any], int]] = []

    def adopt(outcome: Outcome) -> None:
        # The turn message sent before the restart gets fresh buttons instead of a twin.
        turn = outcome.progress.turn if outcome.progress is not None else None
        message_id = facts.hand_messages[turn.seat] if turn is not None else None
        if turn is None or message_id is None:
            return
        user_id = turn.table.seats[turn.seat].user_id
        if user_id is not None:
            presenter.shown.set_turn(
                game_id, TurnMessage(turn.seat, user_id, message_id, turn.version)
            )
            adopted.append((turn, message_id))

    async with deps.outcomes.issuing(before_stage=adopt):
        await commands.resume(game_id)
        for turn, message_id in adopted:
            await presenter.hands.adopt_turn(turn, message_id)
