"""What every command shares: its game held while it runs, its outcome recorded, published
and returned; and the recorders the front ends add."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from .errors import ServiceError
from .live import LiveGame
from .outcome import (
    CHAT,
    Effect,
    Outcome,
    Reminded,
    TurnSeen,
)
from .progress import Progress
from .snapshot import snapshot_of

if TYPE_CHECKING:
    from .runtime import GameService

T = TypeVar("T")


Recorder = Callable[[Outcome], Awaitable[None]]
"""What a front end records of each outcome while the game is still held, so that it goes out
in the game's order beside other workers (the group's messages into their stored queue). It
may write to the database; it never calls Telegram nor writes to a socket."""


class Recorders:
    """The recorders every command runs before it lets its game go (shared by the front
    ends' facades)."""

    def __init__(self) -> None:
        self._recorders: list[Recorder] = []

    def add(self, recorder: Recorder) -> None:
        """Run `recorder` on every outcome from now on."""
        self._recorders.append(recorder)

    def remove(self, recorder: Recorder) -> None:
        """Stop running `recorder`."""
        if recorder in self._recorders:
            self._recorders.remove(recorder)

    async def record(self, outcome: Outcome) -> None:
        """Every recorder's part of `outcome`, in the order they were added."""
        for recorder in self._recorders:
            await recorder(outcome)


class CommandBase:
    """Runs one command or question on a game, for one front end (named in the outcomes)."""

    def __init__(self, service: GameService, by: str = CHAT) -> None:
        self._service = service
        self.by = by

    # Running one command -------------------------------------------------------------------

    async def _run(self, game_id: int, use_case: Callable[[], Awaitable[Outcome]]) -> Outcome:
        """Hold the game while `use_case` runs and persists, let the recorders record its
        outcome, publish it to every subscriber (still in the game's order), let the game
        go, and return the outcome."""
        service = self._service
        async with service.cache.lock(game_id):
            try:
                outcome = await use_case()
            except BaseException as error:
                if not isinstance(error, ServiceError):
                    # Anything unexpected leaves the copy unknown: read afresh next time.
                    service.cache.drop(game_id)
                raise
            outcome = await self._with_snapshot(outcome)
            await self._finish(outcome)
        return outcome

    async def _with_snapshot(self, outcome: Outcome) -> Outcome:
        """`outcome` with the game as it stands now, while a page of the game is open on
        this worker (its viewers' states come from it: no second hold, no read per page)."""
        service = self._service
        if not service.pages.any_open(outcome.game_id):
            return outcome
        if all(isinstance(effect, TurnSeen | Reminded) for effect in outcome.effects):
            return outcome  # nothing a page shows
        live = await service.cache.get(outcome.game_id)
        return dataclasses.replace(outcome, snapshot=snapshot_of(live, service.lobbies))

    async def _finish(self, outcome: Outcome) -> None:
        """Let the recorders record `outcome` and publish it (its game still held)."""
        service = self._service
        try:
            await service.recorders.record(outcome)
        finally:
            # The change is stored: whatever a recorder did, everyone hears of it.
            service.feed.publish(outcome)
            service.announce(outcome.game_id)

    def _outcome(self, game_id: int, *effects: Effect) -> Outcome:
        return Outcome(game_id, effects, self.by)

    def _progressed(self, progress: Progress | None, game_id: int) -> Outcome:
        if progress is None:
            return self._outcome(game_id)
        return Outcome.of_progress(progress, self.by)

    async def _ask(self, game_id: int, question: Callable[[LiveGame], T]) -> T:
        """`question` answered on the game as it stands (read under its lock: beside other
        workers the copy is checked against the database first)."""
        cache = self._service.cache
        async with cache.lock(game_id):
            return question(await cache.get(game_id))
