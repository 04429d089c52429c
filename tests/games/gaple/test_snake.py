"""The page's snake: over whole lines grown tile by tile, no placed tile ever moves, no two
tiles overlap, neighbours join end to end at their matching halves, doubles lie crosswise."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gaple_bot.games.gaple.present.snake import LONG, NARROW, SHORT, WIDE, End, Placed, lay_out

Line = tuple[tuple[int, int], ...]
Rect = tuple[float, float, float, float]
ALL_TILES = [(high, low) for high in range(7) for low in range(high + 1)]


def grow(seed: int, length: int) -> list[tuple[Line, int]]:
    """A line grown by legal plays (each tile matching the end it joins), every state of it."""
    rng = random.Random(seed)
    stock = ALL_TILES[:]
    rng.shuffle(stock)
    first = stock.pop()
    line: list[tuple[int, int]] = [first]
    origin = 0
    states: list[tuple[Line, int]] = [(tuple(line), origin)]
    while len(line) < length:
        left, right = line[0][0], line[-1][1]
        fits = [(tile, "L") for tile in stock if left in tile]
        fits += [(tile, "R") for tile in stock if right in tile]
        if not fits:
            break
        (high, low), side = rng.choice(fits)
        stock.remove((high, low))
        if side == "L":
            line.insert(0, (high, low) if low == left else (low, high))
            origin += 1
        else:
            line.append((high, low) if high == right else (low, high))
        states.append((tuple(line), origin))
    return states


def box(tile: Placed) -> Rect:
    return tile.x, tile.y, tile.x + tile.width, tile.y + tile.height


def halves(tile: Placed) -> tuple[Rect, Rect]:
    """The squares of its `a` and `b` halves."""
    x0, y0, x1, y1 = box(tile)
    if tile.upright:
        return (x0, y0, x1, y0 + SHORT), (x0, y0 + SHORT, x1, y1)
    return (x0, y0, x0 + SHORT, y1), (x0 + SHORT, y0, x1, y1)


def overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def shared_edge(a: Rect, b: Rect) -> tuple[str, float, float, float] | None:
    """The segment two boxes share (x or y, where, from, to), if of positive length."""
    for mine, theirs in ((a, b), (b, a)):
        if mine[2] == theirs[0] and min(mine[3], theirs[3]) > max(mine[1], theirs[1]):
            return "x", mine[2], max(mine[1], theirs[1]), min(mine[3], theirs[3])
        if mine[3] == theirs[1] and min(mine[2], theirs[2]) > max(mine[0], theirs[0]):
            return "y", mine[3], max(mine[0], theirs[0]), min(mine[2], theirs[2])
    return None


def on_short_end(tile: Placed, edge: tuple[str, float, float, float]) -> bool:
    """Whether the segment lies on one of the tile's short ends."""
    axis, where, _, _ = edge
    x0, y0, x1, y1 = box(tile)
    if tile.upright:
        return axis == "y" and where in (y0, y1)
    return axis == "x" and where in (x0, x1)


def matching_half(tile: Placed, number: int) -> Rect:
    """The part of the tile that shows `number` where it joins (all of a double)."""
    if tile.a == tile.b:
        return box(tile)
    first, second = halves(tile)
    return first if tile.a == number else second


def in_line_order(line: Line, origin: int, tiles: tuple[Placed, ...]) -> list[Placed]:
    """The placed tiles in the line's order, left to right."""
    rights = [t for t in tiles if t.end is End.RIGHT]
    lefts = [t for t in tiles if t.end is End.LEFT]
    firsts = [t for t in tiles if t.end is End.FIRST]
    assert len(firsts) == 1 and len(lefts) == origin and len(rights) == len(line) - origin - 1
    return list(reversed(lefts)) + firsts + rights


def check_state(line: Line, origin: int, reach: float) -> list[Placed]:
    snake = lay_out(line, origin, reach)
    ordered = in_line_order(line, origin, snake.tiles)
    for (left, right), tile in zip(line, ordered, strict=True):
        assert {tile.a, tile.b} == {left, right}
        if left == right:
            assert (tile.width, tile.height) in ((SHORT, LONG), (LONG, SHORT))
    for i, one in enumerate(ordered):
        for other in ordered[i + 1 :]:
            assert not overlap(box(one), box(other)), (one, other)
    for (number_left, number), before, after in zip(line, ordered, ordered[1:], strict=False):
        del number_left
        edge = shared_edge(matching_half(before, number), matching_half(after, number))
        assert edge is not None, (before, after)
        # End to end: never a long side along a long side.
        assert on_short_end(before, edge) or on_short_end(after, edge), (before, after)
        if before.a == before.b:
            assert not on_short_end(before, edge), "a double joins by its long side"
        if after.a == after.b:
            assert not on_short_end(after, edge), "a double joins by its long side"
    return ordered


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    length=st.integers(1, 28),
    reach=st.sampled_from([NARROW, WIDE]),
)
def test_a_placed_tile_never_moves_and_joins_hold(seed: int, length: int, reach: float) -> None:
    placed: dict[frozenset[int], Placed] = {}
    for line, origin in grow(seed, length):
        for tile in check_state(line, origin, reach):
            key = frozenset((tile.a, tile.b))
            if key in placed:
                assert placed[key] == tile, "a tile moved"
            placed[key] = tile


def test_the_first_tile_is_the_anchor_at_the_origin() -> None:
    snake = lay_out(((3, 5),), 0)
    (first,) = snake.tiles
    assert (first.x + first.width / 2, first.y + first.height / 2) == (0.0, 0.0)
    assert (first.a, first.b, first.upright) == (3, 5, False)
    double = lay_out(((4, 4),), 0).tiles[0]
    assert double.upright


def test_left_grows_left_and_right_grows_right_until_the_edge() -> None:
    line = ((1, 2), (2, 3), (3, 4), (4, 5))
    snake = lay_out(line, 1)
    left = next(t for t in snake.tiles if t.end is End.LEFT)
    rights = [t for t in snake.tiles if t.end is End.RIGHT]
    assert left.x + left.width <= -SHORT
    assert all(t.x >= SHORT for t in rights)
    assert (left.a, left.b) == (1, 2), "read left to right as the line reads"
    assert [(t.a, t.b) for t in rights] == [(3, 4), (4, 5)]
    assert snake.ends[0].dx == -1 and snake.ends[1].dx == 1


def test_a_row_turns_down_on_the_right_and_up_on_the_left() -> None:
    chain = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 0)]
    snake = lay_out(tuple(chain), 0)
    rights = [t for t in snake.tiles if t.end is End.RIGHT]
    assert max(t.x + t.width for t in rights) <= WIDE + LONG
    turned = [t for t in rights if t.upright]
    assert turned, "the right row turned"
    assert all(t.y + t.height / 2 > 0 for t in turned), "down"
    mirrored = lay_out(tuple((b, a) for a, b in reversed(chain)), len(chain) - 1)
    lefts = [t for t in mirrored.tiles if t.end is End.LEFT]
    assert any(t.upright and t.y + t.height / 2 < 0 for t in lefts), "the left row turned up"
