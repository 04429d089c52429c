"""The double-six set (C1): tile ids, their numbers and weights, and hands as bitmasks."""

from __future__ import annotations

from collections.abc import Iterator

TILE_COUNT = 28
FULL_SET = (1 << TILE_COUNT) - 1


def _build_tiles() -> tuple[tuple[int, int], ...]:
    """C1: every pair (a, b) with 0 <= a <= b <= 6, in a fixed order."""
    return tuple((a, b) for a in range(7) for b in range(a, 7))


TILES: tuple[tuple[int, int], ...] = _build_tiles()
"""Tile id -> (low, high)."""
LOW: tuple[int, ...] = tuple(t[0] for t in TILES)
HIGH: tuple[int, ...] = tuple(t[1] for t in TILES)
WEIGHT: tuple[int, ...] = tuple(a + b for a, b in TILES)
BIT: tuple[int, ...] = tuple(1 << i for i in range(TILE_COUNT))
NUMBER_MASK: tuple[int, ...] = tuple(
    sum(1 << i for i, (a, b) in enumerate(TILES) if n in (a, b)) for n in range(7)
)
"""Number -> mask of the seven tiles that show it."""
DOUBLES: tuple[int, ...] = tuple(i for i, (a, b) in enumerate(TILES) if a == b)
_ID: dict[tuple[int, int], int] = {t: i for i, t in enumerate(TILES)}


def tile_id(a: int, b: int) -> int:
    """The id of the tile showing a and b, in either order."""
    key = (a, b) if a <= b else (b, a)
    try:
        return _ID[key]
    except KeyError:
        raise ValueError(f"no tile [{a}|{b}] in a double-six set") from None


def tile_text(tile: int) -> str:
    """A tile as players write it, high number first: [6|3]."""
    return f"[{HIGH[tile]}|{LOW[tile]}]"


def other_end(tile: int, number: int) -> int:
    """The number a tile leaves open when its `number` side is matched."""
    return HIGH[tile] if LOW[tile] == number else LOW[tile]


def tiles_in(mask: int) -> Iterator[int]:
    """The tile ids in a mask, lowest id first."""
    while mask:
        low_bit = mask & -mask
        yield low_bit.bit_length() - 1
        mask ^= low_bit


def mask_of(tiles: list[int] | tuple[int, ...]) -> int:
    """The mask holding exactly these tiles."""
    mask = 0
    for tile in tiles:
        mask |= BIT[tile]
    return mask


def pips(mask: int) -> int:
    """The total weight of the tiles in a mask."""
    total = 0
    while mask:
        low_bit = mask & -mask
        total += WEIGHT[low_bit.bit_length() - 1]
        mask ^= low_bit
    return total


def heaviness(tile: int) -> tuple[int, int]:
    """C4: compare tiles by weight, then by the higher end."""
    return (WEIGHT[tile], HIGH[tile])


def lightness(tile: int) -> tuple[int, int]:
    """C11: compare tiles by weight, then by the lower end (smaller is lighter)."""
    return (WEIGHT[tile], LOW[tile])
