"""Where each round's deal comes from: the rules' own shuffle of the service's generator."""

from __future__ import annotations

import random
from typing import Protocol

from ..games.seam import JSON, AnyGameKind, AnyMatch


class Dealer(Protocol):
    """Deals a game's rounds: the first when a table starts, each next one when a round ends.
    A test passes its own to play hand-made deals through the service."""

    def first(self, kind: AnyGameKind, config: JSON, rng: random.Random) -> tuple[AnyMatch, JSON]:
        """A new match of `kind` with its first round dealt, and that deal."""

    def next(self, match: AnyMatch, rng: random.Random) -> JSON:
        """The next round's deal for `match`, whose current round is over."""


class ShuffledDeals:
    """The rules' deals drawn from `rng` (Gaple's C3/C4/C5, D1/D2; Gap's G3/G6)."""

    def first(self, kind: AnyGameKind, config: JSON, rng: random.Random) -> tuple[AnyMatch, JSON]:
        """The kind's new match, dealt from `rng`."""
        return kind.new_match(config, rng)

    def next(self, match: AnyMatch, rng: random.Random) -> JSON:
        """The match's next deal, drawn from `rng`."""
        return match.next_deal(rng)
