"""Holding a game for a handler: the service holds it, and the group messages the handler
queued for it are stored in order before another worker may hold it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from ..service.session import GameSession
from .deps import Deps


@asynccontextmanager
async def hold(deps: Deps, game_id: int) -> AsyncIterator[GameSession]:
    """The game held for the block; beside other workers, what the block queued for the
    group is in the shared queue before the game goes to another worker."""
    async with deps.service.hold(game_id) as game:
        yield game
        await _stored_before_release(deps)


@asynccontextmanager
async def hold_all(deps: Deps, game_ids: Iterable[int]) -> AsyncIterator[dict[int, GameSession]]:
    """Several games held for the block (see `hold`)."""
    async with deps.service.hold_all(game_ids) as games:
        yield games
        await _stored_before_release(deps)


async def _stored_before_release(deps: Deps) -> None:
    """Beside other workers, wait until the database holds what this worker queued for the
    groups (the next holder sends it in order); a process alone need not wait on its writer."""
    if deps.service.shared:
        await deps.outbox.flush()
