"""Tiles as players read them: a tile, a hand sorted heaviest first, the line of play."""

from __future__ import annotations

from ....i18n import Translator
from ..rules import tile_text, tiles_in
from ..rules.tiles import HIGH, LOW, WEIGHT


def line_text(line: tuple[tuple[int, int], ...]) -> str:
    """The line of play as players read it, left to right: [6|6][6|3][3|1]."""
    return "".join(f"[{a}|{b}]" for a, b in line)


def flipped(tile: int) -> str:
    """A tile written low number first, as it may stand on the line: [3|6]."""
    return f"[{LOW[tile]}|{HIGH[tile]}]"


def by_weight(mask: int) -> list[int]:
    """A hand's tiles, heaviest first, as a player would sort them."""
    return sorted(tiles_in(mask), key=lambda t: (WEIGHT[t], HIGH[t]), reverse=True)


def hand_text(mask: int) -> str:
    """A hand as tile texts separated by spaces (a dash when empty)."""
    return " ".join(tile_text(t) for t in by_weight(mask)) or "—"


def tiles_count(t: Translator, n: int) -> str:
    """'1 tile' / '5 tiles' in the reader's language."""
    return t.ngettext("{n} tile", "{n} tiles", n).format(n=n)
