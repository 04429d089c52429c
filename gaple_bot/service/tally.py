"""What the service counts for monitoring: moves stored, and how long computers take to decide."""

from __future__ import annotations

from typing import Protocol


class Tally(Protocol):
    """Where the service counts, as it happens (the chat front end's /metrics)."""

    def moved(self, kind: str) -> None:
        """A move of game `kind` was stored (a person's or a computer's)."""
        ...

    def decided(self, kind: str, level: str, seconds: float) -> None:
        """A computer player of `level` took `seconds` to choose a move."""
        ...


class Uncounted:
    """A Tally that keeps nothing: a service nobody monitors (tests, tools)."""

    def moved(self, kind: str) -> None:
        """Not counted."""

    def decided(self, kind: str, level: str, seconds: float) -> None:
        """Not counted."""
