"""Drawing the hidden tiles into their places so that every known constraint holds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

_CHUNK_BITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(7 * k + i for i in range(7) if bits >> i & 1) for bits in range(128))
    for k in range(4)
)
FAST_TRIES = 12
"""Failed fast draws in a row before the sampler switches to the matching for good."""
MIX_SWAPS = 60
"""Random swaps applied to each matching to move it away from the matching's own bias."""


def bits_of(mask: int) -> list[int]:
    """The set bit positions of a mask below 2**28, lowest first."""
    chunks = _CHUNK_BITS
    return [
        *chunks[0][mask & 127],
        *chunks[1][mask >> 7 & 127],
        *chunks[2][mask >> 14 & 127],
        *chunks[3][mask >> 21 & 127],
    ]


class SamplerError(ValueError):
    """The constraints admit no deal at all (they cannot come from a real game)."""


class Sampler:
    """Draws masks for places given as (count, allowed): disjoint, covering `unseen` exactly.

    It sees places only as (count, allowed mask) pairs, so it works in any bit order. The fast
    path fills the most constrained places first, each uniformly from the tiles it may hold
    that are still free, and returns the importance weight that makes the draws uniform over
    all consistent deals. When the fast path keeps running into dead ends (tight cases: many
    passes), the sampler switches to a randomised capacitated matching, which always succeeds
    when a consistent deal exists (one does: the real deal), followed by mixing swaps.
    """

    __slots__ = ("_allowed", "_counts", "_fallback", "_free", "_order", "_unseen", "_weights")

    def __init__(self, unseen: int, places: Sequence[tuple[int, int]]) -> None:
        self._unseen = unseen
        self._counts = [count for count, _ in places]
        self._allowed = [allowed & unseen for _, allowed in places]
        if sum(self._counts) != unseen.bit_count():
            raise SamplerError("the places' counts do not add up to the unseen tiles")
        for count, allowed in zip(self._counts, self._allowed, strict=True):
            if count < 0 or allowed.bit_count() < count:
                raise SamplerError("a place may hold fewer tiles than it must")
        indices = range(len(places))
        # Places that accept every unseen tile are filled last from whatever is left; the
        # others go tightest first (fewest spare candidates), which rarely hits a dead end.
        self._free = [i for i in indices if self._allowed[i] == unseen]
        self._order = sorted(
            (i for i in indices if self._allowed[i] != unseen),
            key=lambda i: (self._allowed[i].bit_count() - self._counts[i], i),
        )
        self._fallback = False
        self._weights = 0.0, 0

    @property
    def uses_fallback(self) -> bool:
        """Whether the fast path has been given up for the matching."""
        return self._fallback

    def fast_plan(self) -> tuple[int, list[int], list[int], list[int], list[int]]:
        """What the fast path needs, for a compiled copy of it: the unseen tiles, each place's
        count and allowed tiles, the constrained places tightest first, the free places."""
        return self._unseen, list(self._counts), list(self._allowed), self._order, self._free

    def give_up_fast(self) -> None:
        """Draw by the matching from now on (a compiled fast path kept hitting dead ends)."""
        self._fallback = True

    def sample(self, rng: random.Random) -> tuple[list[int], float]:
        """One consistent assignment (a mask per place, in the given order) and its weight."""
        if not self._fallback:
            for _ in range(FAST_TRIES):
                drawn = self._fast(rng)
                if drawn is not None:
                    total, n = self._weights
                    self._weights = total + drawn[1], n + 1
                    return drawn
            self._fallback = True
        total, n = self._weights
        # A mixed matching is close to uniform, so it counts as much as an average fast draw.
        return self._matched(rng), total / n if n else 1.0

    def _fast(self, rng: random.Random) -> tuple[list[int], float] | None:
        counts, allowed = self._counts, self._allowed
        out = [0] * len(counts)
        remaining = self._unseen
        weight = 1.0
        for i in self._order:
            count = counts[i]
            avail = remaining & allowed[i]
            n = avail.bit_count()
            if n < count:
                return None
            if n == count:
                pick = avail
            else:
                # This place had comb(n, count) equally likely fillings given the places before.
                weight *= comb(n, count)
                pick = 0
                for b in rng.sample(bits_of(avail), count):
                    pick |= 1 << b
            out[i] = pick
            remaining ^= pick
        if self._free:
            rest = bits_of(remaining)
            rng.shuffle(rest)
            start = 0
            for i in self._free:
                pick = 0
                for b in rest[start : start + counts[i]]:
                    pick |= 1 << b
                out[i] = pick
                start += counts[i]
        return out, weight

    def _matched(self, rng: random.Random) -> list[int]:
        """A random complete capacitated matching of tiles to places, then random swaps."""
        counts, allowed = self._counts, self._allowed
        tiles = bits_of(self._unseen)
        rng.shuffle(tiles)
        choices = {t: [i for i in range(len(counts)) if allowed[i] >> t & 1] for t in tiles}
        for options in choices.values():
            rng.shuffle(options)
        members: list[list[int]] = [[] for _ in counts]
        where: dict[int, int] = {}

        def augment(tile: int, visited: set[int]) -> bool:
            # Kuhn's augmenting path with capacities: take a free slot, or evict a tile that
            # can move on elsewhere.
            for p in choices[tile]:
                if p in visited:
                    continue
                visited.add(p)
                if len(members[p]) < counts[p]:
                    members[p].append(tile)
                    where[tile] = p
                    return True
                for other in list(members[p]):
                    if augment(other, visited):
                        members[p].remove(other)
                        members[p].append(tile)
                        where[tile] = p
                        return True
            return False

        for tile in tiles:
            # The moved tile is re-homed inside `augment`; only `where` needs the final word.
            if not augment(tile, set()):
                raise SamplerError("no deal matches the constraints")
        placed = list(where)
        for _ in range(MIX_SWAPS if len(placed) > 1 else 0):
            a, b = rng.sample(placed, 2)
            pa, pb = where[a], where[b]
            if pa != pb and allowed[pb] >> a & 1 and allowed[pa] >> b & 1:
                where[a], where[b] = pb, pa
        out = [0] * len(counts)
        for tile, p in where.items():
            out[p] |= 1 << tile
        return out
