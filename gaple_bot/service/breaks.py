"""The break after a round's end: until when nobody moves, who said Next, and the round that
ended as everyone may see it (its final table, every hand revealed, the points it gave)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..games.seam import AnyMatch
from .views import RoundReveal, TableView


@dataclass(frozen=True, slots=True)
class EndedRound:
    """The round that just ended, as everyone may see it: its final table and every hand
    revealed (the rules reveal them at a round's end), and each seat's points from it."""

    reveal: RoundReveal[Any, Any]
    points: tuple[int, ...]

    @property
    def table(self) -> TableView[Any]:
        """The round's final table."""
        return self.reveal.table


@dataclass(frozen=True, slots=True)
class RoundBreak:
    """The pause between a round's end and the next round's first move (the next round is
    dealt already): nobody moves before `until`, unless every person seated said Next."""

    until: datetime
    ready: frozenset[int]
    """The seats whose person said Next."""
    ended: EndedRound

    def with_ready(self, seat: int) -> RoundBreak:
        """The break once the person in `seat` said Next too."""
        return RoundBreak(self.until, self.ready | {seat}, self.ended)


def ended_round(table: TableView[Any], match: AnyMatch) -> EndedRound:
    """The round `match` has just ended (`table`: its final table)."""
    totals = match.totals_by_round()
    last = totals[-1] if totals else match.scores
    before = totals[-2] if len(totals) > 1 else (0,) * len(last)
    points = tuple(now - then for now, then in zip(last, before, strict=True))
    return EndedRound(RoundReveal(table, match.revealed()), points)


def seat_bits(seats: Iterable[int]) -> int:
    """Seats as the store keeps them: one bit each, seat 0 the lowest."""
    bits = 0
    for seat in seats:
        bits |= 1 << seat
    return bits


def bit_seats(bits: int) -> frozenset[int]:
    """The seats of stored bits."""
    return frozenset(seat for seat in range(bits.bit_length()) if bits >> seat & 1)
