"""Golden images: a drawn picture must match its stored PNG within a small pixel tolerance."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).with_name("golden")
"""The stored pictures, one PNG per case (`python -m tests.games.pictures.regenerate` redraws
them)."""
CHANNEL_SLACK = 48
"""A pixel counts as changed when a channel moves by more than this (anti-aliasing, a
FreeType build that rounds a glyph edge differently, stay under it)."""
CHANGED_SHARE = 0.00005
"""At most this share of the pixels may change (about 60 of a 1080 x 1200 picture): one pip
or one digit changes three times as many, a moved tile or a new colour far more."""

Case = Callable[[], bytes]
"""Draws one golden case: the PNG bytes the bot would send."""


def difference(drawn: bytes, golden: bytes) -> float:
    """The share of pixels that changed by more than the slack (1.0 if the sizes differ)."""
    with Image.open(io.BytesIO(drawn)) as a, Image.open(io.BytesIO(golden)) as b:
        if a.size != b.size:
            return 1.0
        diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    worst = diff.convert("L").point(lambda v: 255 if v > CHANNEL_SLACK else 0)
    changed = worst.histogram()[255]
    width, height = worst.size
    return changed / (width * height)


def assert_matches_golden(name: str, drawn: bytes) -> None:
    """The case `name` draws as its golden image does."""
    path = GOLDEN / f"{name}.png"
    assert path.exists(), (
        f"no golden image {path.name}: run python -m tests.games.pictures.regenerate"
    )
    share = difference(drawn, path.read_bytes())
    assert share <= CHANGED_SHARE, (
        f"{name}: {share:.2%} of the pixels differ from {path.name} (at most "
        f"{CHANGED_SHARE:.2%}); if the change is meant, run "
        "python -m tests.games.pictures.regenerate"
    )


def write_golden(cases: Mapping[str, Case]) -> list[Path]:
    """Draw every case and store it as its golden image; returns the files written."""
    GOLDEN.mkdir(exist_ok=True)
    written = []
    for name, case in sorted(cases.items()):
        path = GOLDEN / f"{name}.png"
        path.write_bytes(case())
        written.append(path)
    return written
