"""The page's golden screenshots: a screenshot must match its stored PNG within a small
tolerance; with GOLDEN_UPDATE=1 (`python -m tests.web.browser.regenerate`) it replaces it."""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image, ImageChops

GOLDEN = Path(__file__).with_name("golden")
CHANNEL_SLACK = 40
"""A pixel counts as changed when a channel moves by more than this: anti-aliasing and a
gradient's dithering stay under it, a glyph or a tile's edge in another place does not."""
CHANGED_SHARE = 0.01
"""At most this share of the pixels may change (3,291 of 390 × 844): a moved tile, another
hand or a new colour change far more."""
UPDATE = "GOLDEN_UPDATE"


def difference(shot: Image.Image, golden: Image.Image) -> tuple[float, Image.Image]:
    """The share of pixels that changed by more than the slack (1.0 if the sizes differ),
    and a picture of them (white where changed)."""
    if shot.size != golden.size:
        return 1.0, Image.new("L", shot.size, 255)
    diff = ImageChops.difference(shot.convert("RGB"), golden.convert("RGB"))
    channels = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(channels[0], channels[1]), channels[2])
    changed = worst.point(lambda v: 255 if v > CHANNEL_SLACK else 0)
    width, height = changed.size
    return changed.histogram()[255] / (width * height), changed


def assert_matches_golden(name: str, png: bytes, failures: Path) -> None:
    """The screenshot `png` looks as golden/<name>.png does (or replaces it, when updating);
    a mismatch leaves the screenshot and the changed pixels in `failures`."""
    path = GOLDEN / f"{name}.png"
    shot = Image.open(io.BytesIO(png)).convert("RGB")
    if os.environ.get(UPDATE) == "1":
        GOLDEN.mkdir(exist_ok=True)
        # 256 colours (a page's flat colours lose nothing the tolerance would see), optimised,
        # no metadata: the files are kept in the repository, a fifth of a full colour PNG.
        shot.quantize(256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)
        return
    assert path.exists(), (
        f"no golden image {path.name}: run .venv/bin/python -m tests.web.browser.regenerate"
    )
    with Image.open(path) as stored:
        share, changed = difference(shot, stored)
    if share <= CHANGED_SHARE:
        return
    failures.mkdir(parents=True, exist_ok=True)
    shot.save(failures / f"{name}.png")
    changed.save(failures / f"{name}-changed.png")
    raise AssertionError(
        f"{name}: {share:.2%} of the pixels differ from golden/{path.name} (at most "
        f"{CHANGED_SHARE:.0%}); the screenshot and its changed pixels are in {failures}; if "
        "the change is meant, run .venv/bin/python -m tests.web.browser.regenerate"
    )
