"""What the service counts for monitoring: moves stored, and how long computers take to decide."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

DECISION_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Upper bounds (seconds) of the decision-time histogram's buckets."""


@dataclass
class Durations:
    """A histogram of durations: how many fell at or under each bucket's bound, their sum."""

    buckets: list[int] = field(default_factory=lambda: [0] * len(DECISION_BUCKETS))
    count: int = 0
    total: float = 0.0

    def add(self, seconds: float) -> None:
        """Count one duration."""
        self.count += 1
        self.total += seconds
        for index, bound in enumerate(DECISION_BUCKETS):
            if seconds <= bound:
                self.buckets[index] += 1


@dataclass
class Tally:
    """This process's counts since it started (each worker keeps its own)."""

    moves: Counter[str] = field(default_factory=Counter)
    """Moves stored, by game kind (people's and computers')."""
    decisions: dict[tuple[str, str], Durations] = field(default_factory=dict)
    """Computer decision times, by game kind and level."""

    def moved(self, kind: str) -> None:
        """A move of game `kind` was stored."""
        self.moves[kind] += 1

    def decided(self, kind: str, level: str, seconds: float) -> None:
        """A computer player of `level` took `seconds` to choose a move."""
        self.decisions.setdefault((kind, level), Durations()).add(seconds)
