"""The edits that take a finished turn's buttons off a hand: paced after every other private
message, held while the person plays along (their next hand in the same message takes the
edit's place), and sent at once at shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import Any

from ..service.runtime import GameService
from .outbox import GroupOutbox
from .pacing.withdrawable import Withdrawable
from .private import PrivateSender
from .render.common import Rendered

log = logging.getLogger(__name__)
RETIRE_WAIT_SECONDS = 30.0
"""The longest a hand shown in place waits for an edit of the same message already on its way
(its answer is usually a matter of milliseconds; this only bounds a stuck request)."""


class RetiredHands:
    """The edits on their way that take turn buttons off hands, on this worker."""

    def __init__(
        self,
        private: PrivateSender,
        service: GameService,
        outbox: GroupOutbox,
        *,
        hold_seconds: float = 0.0,
    ) -> None:
        self.private = private
        self.service = service
        self.outbox = outbox
        self._hold_seconds = hold_seconds
        """How long a tapped hand's buttons may wait for the person's next hand (in place)."""
        self._pending: set[asyncio.Task[None]] = set()
        self._hurry = asyncio.Event()
        """Set at shutdown: held edits go now."""
        self._retiring: dict[tuple[int, int], tuple[Withdrawable, asyncio.Task[None]]] = {}
        """The edits not gone yet, by (person, message): the person's next hand in that
        message takes their place."""

    def later(self, user_id: int, message_id: int, rendered: Rendered, *, held: bool) -> None:
        """Take the live buttons off a hand when the pace allows, after every other kind of
        message (and, if `held`, once the hold is over): the person's next hand, shown in the
        same message before then, takes the edit's place."""
        key = (user_id, message_id)
        earlier = self._retiring.get(key)
        if earlier is not None:
            earlier[0].withdraw()
        if self.outbox.shared:
            # Beside other workers another may show the person's next hand in this message
            # (and the chat's shared lease must not wait behind a held edit): at once, as any
            # private message.
            self._later(self._retire(user_id, message_id, rendered, None, 0.0))
            return
        ticket = Withdrawable()
        hold = self._hold_seconds if held else 0.0
        task = self._later(self._retire(user_id, message_id, rendered, ticket, hold))
        self._retiring[key] = (ticket, task)

    async def take_back(self, user_id: int, message_id: int) -> None:
        """The person's next hand goes in this message: the edit still waiting to take its
        buttons off is taken back, or, if its turn came already, waited for (it lands first,
        whatever the private chat's pace)."""
        waiting = self._retiring.pop((user_id, message_id), None)
        if waiting is not None and not waiting[0].withdraw():
            await asyncio.wait({waiting[1]}, timeout=RETIRE_WAIT_SECONDS)

    async def _retire(
        self,
        user_id: int,
        message_id: int,
        rendered: Rendered,
        ticket: Withdrawable | None,
        hold: float,
    ) -> None:
        """Take the live buttons off a hand after `hold` seconds (sooner at shutdown); someone
        who blocked the bot meanwhile is marked unreachable (their next hand then goes to the
        computer)."""
        key = (user_id, message_id)
        try:
            if hold > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._hurry.wait(), hold)
            if ticket is not None and ticket.withdrawn:
                return  # the person's next hand came in the message meanwhile
            delivery = await self.private.edit(user_id, message_id, rendered, ticket)
            if delivery.unreachable:
                await self.service.players.unreachable(user_id)
        except Exception:
            log.exception("the edit that ends a turn for %s failed", user_id)
        finally:
            if ticket is not None and self._retiring.get(key, (None,))[0] is ticket:
                del self._retiring[key]

    def _later(self, delivery: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Deliver a private edit nobody waits on; `settle` waits for what is still out."""
        task = asyncio.create_task(delivery)
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)
        return task

    async def settle(self) -> None:
        """Wait for the edits still on their way, held ones sent now (the caller bounds the
        wait)."""
        self._hurry.set()
        if self._pending:
            await asyncio.wait(set(self._pending))
