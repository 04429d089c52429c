"""The page's line of play as a snake that never moves a placed tile: the first tile at the
origin, the left end growing left and the right end right, each turning at the edges."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

SHORT = 1.0
"""A tile's short side; its long side is two of them."""
LONG = 2 * SHORT
NARROW = 2 * LONG
WIDE = 4.5 * LONG
"""How far from the first tile's centre a row runs before it turns: narrow for a felt taller
than wide (a phone upright), wide otherwise. A tile's place may only depend on the tiles laid
before it, so a page keeps one reach for a whole round."""


class End(StrEnum):
    """Which part of the line a tile belongs to."""

    FIRST = "first"
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True, slots=True)
class Placed:
    """A tile where it lies: its box (x, y its top left corner), the number on its left (or top)
    half `a` and on its right (or bottom) half `b`, and which part of the line it is in."""

    x: float
    y: float
    width: float
    height: float
    a: int
    b: int
    end: End

    @property
    def upright(self) -> bool:
        return self.height > self.width


@dataclass(frozen=True, slots=True)
class OpenEnd:
    """Where an open end is: the middle of its tile's free edge and the way the line goes on."""

    x: float
    y: float
    dx: int
    dy: int


@dataclass(frozen=True, slots=True)
class Snake:
    """A laid-out line: every tile, and its two open ends (left, right)."""

    tiles: tuple[Placed, ...]
    ends: tuple[OpenEnd, OpenEnd]


@dataclass(slots=True)
class _Branch:
    """One end's growth: where its free edge is, which way it goes, and how it turns."""

    x: float
    y: float
    dx: int
    dy: int
    turn_dy: int
    """The way the rows of this branch follow each other: down on the right, up on the left."""
    reach: float
    after_double: bool = False
    last_across: int = 0
    """The last row's way across (+1 right, -1 left), which the next row reverses."""
    upright_run: int = 0
    """How many lengthwise tiles the branch has laid since it turned off a row."""


def _box(cx: float, cy: float, across_x: bool, length: float) -> tuple[float, float, float, float]:
    """The box of a tile centred at (cx, cy), lying along x or along y."""
    width, height = (length, length / 2) if across_x else (length / 2, length)
    return cx - width / 2, cy - height / 2, width, height


def _drawn(near: int, far: int, ax: int, ay: int) -> tuple[int, int]:
    """The numbers on the left (top) and right (bottom) halves of a tile whose near half (the
    one touching the line) comes first along (ax, ay)."""
    return (near, far) if ax > 0 or ay > 0 else (far, near)


def _must_turn(branch: _Branch, double: bool) -> bool:
    """Rows turn only between two lengthwise tiles: a crosswise double never stands beside a
    tile's long side. A row turns at its edge; a column after one lengthwise tile."""
    if double or branch.after_double:
        return False
    if branch.dy == 0:
        return abs(branch.x + branch.dx * LONG) > branch.reach
    return branch.upright_run >= 1


def _lay(branch: _Branch, near: int, far: int, end: End) -> Placed:
    """Place one tile at the branch's free edge and move the edge past it."""
    x, y, dx, dy = branch.x, branch.y, branch.dx, branch.dy
    if near == far:
        # Crosswise, centred on the line, its long side against the end it matches.
        cx, cy = x + dx * SHORT / 2, y + dy * SHORT / 2
        left, top, width, height = _box(cx, cy, dy != 0, LONG)
        branch.x, branch.y = x + dx * SHORT, y + dy * SHORT
        branch.after_double = True
        return Placed(left, top, width, height, near, far, end)
    if _must_turn(branch, double=False):
        # The turn: the matching half takes the place just past the end, the tile points the
        # new way, so the two halves that match still touch across the end's edge.
        if dy == 0:
            ax, ay = 0, branch.turn_dy
            branch.last_across = dx
        else:
            ax, ay = -branch.last_across, 0
        near_x, near_y = x + dx * SHORT / 2, y + dy * SHORT / 2
        cx, cy = near_x + ax * SHORT / 2, near_y + ay * SHORT / 2
        branch.x, branch.y = near_x + ax * 3 * SHORT / 2, near_y + ay * 3 * SHORT / 2
        branch.dx, branch.dy = ax, ay
        branch.upright_run = 1 if ay != 0 else 0
    else:
        ax, ay = dx, dy
        cx, cy = x + dx * SHORT, y + dy * SHORT
        branch.x, branch.y = x + dx * LONG, y + dy * LONG
        if dy != 0:
            branch.upright_run += 1
    branch.after_double = False
    left, top, width, height = _box(cx, cy, ax != 0, LONG)
    a, b = _drawn(near, far, ax, ay)
    return Placed(left, top, width, height, a, b, end)


def _open_end(branch: _Branch) -> OpenEnd:
    return OpenEnd(branch.x, branch.y, branch.dx, branch.dy)


def lay_out(line: Sequence[tuple[int, int]], origin: int, reach: float = WIDE) -> Snake:
    """The snake of a line (its tiles read left to right, each as (left number, right number))
    that grew from the tile at index `origin`, its rows turning `reach` from the first tile's
    centre. A tile's place depends only on the first tile and the tiles between it and the
    first: later plays never move it."""
    first_a, first_b = line[origin]
    double = first_a == first_b
    left, top, width, height = _box(0.0, 0.0, not double, LONG)
    first = Placed(left, top, width, height, first_a, first_b, End.FIRST)
    half = width / 2
    right = _Branch(half, 0.0, 1, 0, 1, reach, after_double=double, last_across=1)
    leftward = _Branch(-half, 0.0, -1, 0, -1, reach, after_double=double, last_across=-1)
    tiles = [first]
    for tile_left, tile_right in line[origin + 1 :]:
        tiles.append(_lay(right, tile_left, tile_right, End.RIGHT))
    for tile_left, tile_right in reversed(line[:origin]):
        tiles.append(_lay(leftward, tile_right, tile_left, End.LEFT))
    return Snake(tuple(tiles), (_open_end(leftward), _open_end(right)))
