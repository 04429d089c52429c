"""What every picture shares: its width, fonts, colours, and PNG bytes that carry their data."""

from __future__ import annotations

import functools
import io
import json
import re
from importlib import resources
from typing import Any, Final

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin

from .picture import JSON, PictureError

WIDTH = 1080
"""Pixels across: a phone shows the picture at full width without scaling it up."""
MARGIN = 48
DATA_KEY = "gaple-bot"
"""The PNG text chunk that holds the picture's data: what it shows, as JSON (Telegram
re-encodes photos, so only the bot's own requests carry it: tests read it back)."""
MAX_HEIGHT = 4000
"""Telegram wants width + height of a photo under 10,000 and a ratio under 20."""

Colour = tuple[int, int, int]
FELT: Colour = (22, 84, 58)
"""The table's green, behind everything."""
FELT_DARK: Colour = (15, 62, 43)
"""Panels on the felt."""
INK: Colour = (245, 242, 232)
"""Text on the felt."""
MUTED: Colour = (170, 196, 180)
"""Secondary text: labels, counts."""
GOLD: Colour = (242, 196, 70)
"""What the eye should find first: the winner, the first tile, the scoring spread."""
IVORY: Colour = (250, 247, 238)
"""A domino's face."""
PIP: Colour = (28, 28, 30)
"""A domino's pips and outline."""
SERIES: tuple[Colour, ...] = (
    (242, 196, 70),
    (102, 190, 255),
    (255, 120, 110),
    (140, 220, 140),
    (205, 150, 255),
    (255, 170, 90),
)
"""One colour per player in charts, the first for the winner."""


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (shipped in fonts/, with its licence) at `size` pixels: it has the accents
    of French, German and Indonesian names, which Pillow's own font lacks."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    with resources.as_file(resources.files(__package__).joinpath("fonts", name)) as path:
        return ImageFont.truetype(str(path), size)


@functools.cache
def _missing_glyph(size: int, bold: bool) -> bytes:
    """The mask the font draws for a character it does not have."""
    return bytes(font(size, bold).getmask("\U0010fffd"))


@functools.cache
def _has_glyph(char: str, size: int, bold: bool) -> bool:
    return char.isspace() or bytes(font(size, bold).getmask(char)) != _missing_glyph(size, bold)


NO_BREAK_SPACES: Final = "\u00a0\u202f"
"""The spaces no line may break at (French puts them before : ; ! ? and inside « »): the
font draws both, and wrapping breaks only at a plain space."""
_BREAKABLE_SPACES: Final = re.compile(f"[^\\S{NO_BREAK_SPACES}]+")


def drawable(text: str, size: int, bold: bool = False) -> str:
    """`text` without the characters the font cannot draw (emoji such as 🤖 in a computer's
    name), so a picture never shows empty boxes. Each goes with the space before it, so
    "Budi 🤖:" reads "Budi:"; runs of other spaces become one plain space, and no space is
    left at either end. No-break spaces stay as they are, so wrapping never breaks there."""
    kept: list[str] = []
    for char in text:
        if _has_glyph(char, size, bold):
            kept.append(char)
        elif kept and kept[-1].isspace():
            kept.pop()
    return _BREAKABLE_SPACES.sub(" ", "".join(kept)).strip()


Shading = tuple[Colour, Colour, int]
"""A colour drawn over a ground, and how many shades its anti-aliased edges need between."""


def mix(a: Colour, b: Colour, share: float) -> Colour:
    """`share` of the way from colour a to colour b."""
    return (
        round(a[0] + (b[0] - a[0]) * share),
        round(a[1] + (b[1] - a[1]) * share),
        round(a[2] + (b[2] - a[2]) * share),
    )


@functools.cache
def palette(shadings: tuple[Shading, ...]) -> Image.Image:
    """A palette image of every ground and colour and the shades between them (the first 256
    distinct ones; unused entries repeat the felt)."""
    colours: dict[Colour, None] = {}
    for ground, colour, steps in shadings:
        for step in range(steps + 1):
            colours[mix(ground, colour, step / steps)] = None
    chosen = list(colours)[:256]
    chosen += [FELT] * (256 - len(chosen))
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in chosen for channel in colour])
    return image


def text_width(text: str, size: int, bold: bool = False) -> float:
    """How wide `text` is at `size`."""
    return font(size, bold).getlength(text)


def fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """`text` made drawable and cut with an ellipsis to fit `width` at `size` (names can be
    long)."""
    text = drawable(text, size, bold)
    if text_width(text, size, bold) <= width:
        return text
    while text and text_width(text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def new_canvas(height: int, width: int = WIDTH) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A felt-green picture of `height` pixels (at most MAX_HEIGHT) and its drawing context."""
    if not 0 < height <= MAX_HEIGHT:
        raise PictureError(f"a picture {height} pixels high is not drawn")
    image = Image.new("RGB", (width, height), FELT)
    return image, ImageDraw.Draw(image)


def encode(image: Image.Image, data: JSON, shadings: tuple[Shading, ...] = ()) -> bytes:
    """The picture as PNG bytes, its data in a text chunk. With `shadings` (every colour the
    picture draws over its ground) its pixels are first mapped onto their palette: a picture
    of few colours loses nothing visible, and a palette PNG encodes several times faster and
    is a third of the size of a full-colour one."""
    if shadings:
        image = image.quantize(palette=palette(shadings), dither=Image.Dither.NONE)
    info = PngImagePlugin.PngInfo()
    info.add_itxt(DATA_KEY, json.dumps(data, ensure_ascii=False, sort_keys=True))
    out = io.BytesIO()
    # Flat colours compress well at a low level; a higher one costs time for little.
    image.save(out, format="PNG", pnginfo=info, compress_level=3)
    return out.getvalue()


def decode_data(png: bytes) -> JSON | None:
    """The data a picture drawn here carries, or None if it carries none."""
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        raw: Any = getattr(image, "text", {}).get(DATA_KEY)
    if raw is None:
        return None
    value = json.loads(raw)
    return value if isinstance(value, dict) else None
