"""Drawing pictures off the event loop, so a move never waits on one."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor

from ..games.pictures import Picture
from ..games.pictures.render import render

log = logging.getLogger(__name__)


class Painter:
    """Draws pictures in an executor: the computer players' process pool when the bot has one
    (a picture is CPU work, like a decision), else the loop's threads."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor

    async def __call__(self, picture: Picture) -> bytes | None:
        """The picture's PNG bytes, or None if it could not be drawn (the text goes instead)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, render, picture)
        except Exception:
            log.exception("a %s picture could not be drawn", picture.drawer)
            return None
