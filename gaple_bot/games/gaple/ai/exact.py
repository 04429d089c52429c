"""Exact search of a determinised endgame: every seat picks the move best for itself (max^n)."""

from __future__ import annotations

from ..rules import MoveKind, Side
from .playout import NUM, Rules, step
from .value import MatchValue

_State = tuple[tuple[int, ...], tuple[int, ...], int, int, int]


class SearchTooLarge(Exception):
    """The search needed more positions than its limit allowed."""


class Solver:
    """Solves positions of one determinised deal, remembering positions already solved."""

    __slots__ = ("_limit", "_memo", "_rules", "_value", "nodes")

    def __init__(self, rules: Rules, value: MatchValue, limit: int = 0) -> None:
        self._rules = rules
        self._value = value
        self._memo: dict[_State, tuple[float, ...]] = {}
        self._limit = limit
        """Positions it may solve before raising `SearchTooLarge` (0: no limit)."""
        self.nodes = 0

    def after(
        self,
        hands: list[int],
        discs: list[int],
        left: int,
        right: int,
        seat: int,
        kind: MoveKind,
        bit: int,
        side: Side,
    ) -> tuple[float, ...]:
        """Every seat's value once `seat` makes the given move and all play on perfectly."""
        hands, discs = list(hands), list(discs)
        nxt = step(self._rules, hands, discs, left, right, seat, kind, bit, side)
        if nxt.points is not None:
            return self._value.of(nxt.points)
        return self.solve(tuple(hands), tuple(discs), nxt.left, nxt.right, nxt.seat)

    def solve(
        self, hands: tuple[int, ...], discs: tuple[int, ...], left: int, right: int, seat: int
    ) -> tuple[float, ...]:
        """Every seat's value of the position with `seat` to move (line not empty, not over)."""
        key = (hands, discs, left, right, seat)
        known = self._memo.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self._limit > 0:
            raise SearchTooLarge(f"more than {self._limit} positions")
        rules = self._rules
        h = hands[seat]
        fit = h & (NUM[left] | NUM[right])
        best: tuple[float, ...] | None = None
        if fit:
            moves: list[tuple[MoveKind, int, Side]] = []
            while fit:
                low = fit & -fit
                fit ^= low
                bit = low.bit_length() - 1
                if low & NUM[right]:
                    moves.append((MoveKind.PLAY, bit, Side.RIGHT))
                # C7: a tile fitting two different ends may go at either.
                if left != right and low & NUM[left]:
                    moves.append((MoveKind.PLAY, bit, Side.LEFT))
        elif rules.discards:
            moves = []
            rest = h
            while rest:
                low = rest & -rest
                rest ^= low
                moves.append((MoveKind.DISCARD, low.bit_length() - 1, Side.RIGHT))
        else:
            moves = [(MoveKind.PASS, -1, Side.RIGHT)]
        for kind, bit, side in moves:
            values = self.after(list(hands), list(discs), left, right, seat, kind, bit, side)
            if best is None or values[seat] > best[seat]:
                best = values
        assert best is not None
        self._memo[key] = best
        return best
