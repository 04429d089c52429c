"""How likely the opponents' plays were under a model of play, as a weight on each deal."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..rules import Played, SeatView
from .playout import BIT_OF, NUM, SUM


@dataclass(frozen=True, slots=True)
class PlayModel:
    """Each play by another seat as evidence about its hand then: a seat picks among the tiles
    fitting the line with odds exp(`beta` x the tile's pips), so a hand that held more (and
    heavier) fitting tiles made the tile it played less likely."""

    odds: tuple[float, ...]
    """Bit -> exp(beta x pips)."""
    evidence: tuple[tuple[int, int, float], ...]
    """Per play: (seat, the tiles fitting the line then, in simulation bits, the summed odds of
    the fitting tiles known to have been in that hand then: the one played and the ones it
    played later)."""

    @classmethod
    def of(cls, view: SeatView, beta: float) -> PlayModel:
        """The evidence in `view`'s record, seen from `view.seat`."""
        odds = tuple(math.exp(beta * pips) for pips in SUM)
        plays = [
            (e.seat, BIT_OF[e.tile], e.ends)
            for e in view.events
            if isinstance(e, Played) and e.seat != view.seat
        ]
        evidence: list[tuple[int, int, float]] = []
        for index, (seat, _, ends) in enumerate(plays):
            if ends is None:
                continue  # a lead: any tile fits
            fit = NUM[ends[0]] | NUM[ends[1]]
            known = sum(odds[b] for s, b, _ in plays[index:] if s == seat and fit >> b & 1)
            evidence.append((seat, fit, known))
        return cls(odds, tuple(evidence))

    def weight(self, hands: Sequence[int]) -> float:
        """The likelihood of the recorded plays given the seats' hidden `hands` now (in
        simulation bits), up to a factor that is the same for every deal."""
        odds = self.odds
        weight = 1.0
        for seat, fit, known in self.evidence:
            rest = hands[seat] & fit
            total = known
            while rest:
                low = rest & -rest
                rest ^= low
                total += odds[low.bit_length() - 1]
            weight *= known / total
        return weight
