"""A paced request that may be taken back while it waits for its turn."""

from __future__ import annotations

import asyncio


class Withdrawn(Exception):
    """The request was taken back before its turn came: it was never made."""


class Withdrawable:
    """A paced request that may be taken back while it waits for its turn (pass it as the
    request's `rate_limit_args`); it goes after every other kind of request."""

    def __init__(self) -> None:
        self.withdrawn = False
        self._granted: asyncio.Future[None] | None = None

    def withdraw(self) -> bool:
        """Take the request back; False if its turn came already (it is made, or being made;
        it is not tried again after a 429 all the same)."""
        self.withdrawn = True
        granted = self._granted
        if was_granted(granted):
            return False
        if granted is not None and not granted.done():
            granted.set_exception(Withdrawn())
        return True

    def _waits_on(self, granted: asyncio.Future[None]) -> None:
        self._granted = granted


def was_granted(granted: asyncio.Future[None] | None) -> bool:
    """Whether a waiter's turn came (its future holds a result, not a cancel or Withdrawn)."""
    return (
        granted is not None
        and granted.done()
        and not granted.cancelled()
        and granted.exception() is None
    )
