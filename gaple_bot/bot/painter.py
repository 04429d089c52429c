"""Drawing pictures off the event loop, so a move never waits on one."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor

from ..games.pictures import Picture
from ..games.pictures.render import render

log = logging.getLogger(__name__)


class Painter:
    """Draws pictures in an executor: the computer players' process pool when the bot has one
    (a picture is CPU work, like a decision), else the loop's threads."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor

    def close(self) -> None:
        """Stop the executor's workers (if it has any); pictures still drawing are dropped."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def __call__(self, picture: Picture) -> bytes | None:
        """The picture's PNG bytes, or None if it could not be drawn (the text goes instead)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, render, picture)
        except Exception:
            log.exception("a %s picture could not be drawn", picture.drawer)
            return None


def picture_or_none(make: Callable[[], Picture]) -> Picture | None:
    """The picture `make` builds, or None if it fails (the text then goes alone: a picture
    must never stop what the game shows next)."""
    try:
        return make()
    except Exception:
        log.exception("a picture's data could not be built")
        return None
