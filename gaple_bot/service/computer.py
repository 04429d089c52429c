"""Computer players for the service: decisions run off the event loop."""

from __future__ import annotations

import random
from concurrent.futures import Executor

from ..games.gaple.ai.levels import choose_move_async
from ..games.gaple.rules import Move, SeatView


class ComputerPlayers:
    """Chooses computer moves in an executor (a process pool in production, else threads)."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor

    async def choose(self, level: str, view: SeatView, rng: random.Random) -> Move:
        """The move the computer player of `level` makes in `view`."""
        return await choose_move_async(level, view, rng, self._executor)

    def close(self) -> None:
        """Stop the executor's workers (if it has any)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
