"""Exact search of a determinised endgame: every seat picks the move best for itself (max^n)."""

from __future__ import annotations

from ..rules import MoveKind, Side
from .playout import NUM, SUM, Rules, finish, step
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

    def _played(
        self,
        hands: tuple[int, ...],
        discs: tuple[int, ...],
        left: int,
        right: int,
        seat: int,
        in_hands: int,
    ) -> tuple[float, ...]:
        """Every seat's value once `seat` has played to leave `hands` and ends (left, right);
        `in_hands` is every tile still held."""
        if not hands[seat]:
            return self._value.of(finish(self._rules, hands, discs, seat))  # C10
        if not in_hands & (NUM[left] | NUM[right]):
            return self._value.of(finish(self._rules, hands, discs, -1))  # blocked
        follower = seat + 1 if seat + 1 < self._rules.seats else 0
        return self.solve(hands, discs, left, right, follower)

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
        num = NUM
        h = hands[seat]
        at_left, at_right = num[left], num[right]
        fit = h & (at_left | at_right)
        follower = seat + 1 if seat + 1 < rules.seats else 0
        best: tuple[float, ...] | None = None
        if fit:
            # Moves in the order of the bits, the right end first (C7: a tile fitting two
            # different ends may go at either); the first of equal values is kept.
            others = 0
            for other, held in enumerate(hands):
                if other != seat:
                    others |= held
            head, tail = hands[:seat], hands[seat + 1 :]
            while fit:
                low = fit & -fit
                fit ^= low
                total = SUM[low.bit_length() - 1]
                rest = h ^ low
                after = (*head, rest, *tail)
                if low & at_right:
                    values = self._played(after, discs, left, total - right, seat, others | rest)
                    if best is None or values[seat] > best[seat]:
                        best = values
                if left != right and low & at_left:
                    values = self._played(after, discs, total - left, right, seat, others | rest)
                    if best is None or values[seat] > best[seat]:
                        best = values
        elif rules.discards:
            rest = h
            while rest:
                low = rest & -rest
                rest ^= low
                after = (*hands[:seat], h ^ low, *hands[seat + 1 :])
                thrown = (*discs[:seat], discs[seat] | low, *discs[seat + 1 :])
                if h ^ low:
                    values = self.solve(after, thrown, left, right, follower)
                else:
                    values = self._value.of(finish(rules, after, thrown, -1))  # D5
                if best is None or values[seat] > best[seat]:
                    best = values
        else:
            best = self.solve(hands, discs, left, right, follower)
        assert best is not None
        self._memo[key] = best
        return best
