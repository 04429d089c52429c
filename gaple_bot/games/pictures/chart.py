"""The line chart and the text layout both common pictures draw (standings and /stats)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from PIL import Image, ImageDraw

from .canvas import (
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MUTED,
    SERIES,
    Colour,
    drawable,
    encode,
    fit,
    font,
    text_width,
)
from .picture import JSON, PictureError

T = TypeVar("T")

SCALE = 2
"""Lines and dots are drawn this many times larger and shrunk: Pillow draws them without
anti-aliasing, and jagged lines look cheap."""
GRID: Colour = (38, 98, 72)
"""Gridlines: just visible on a panel."""
ZERO: Colour = (86, 140, 112)
"""The zero line when some values are below it (Gap's totals can be)."""
SHINE: Colour = (255, 228, 140)
"""The light on the trophy's cup."""
TICK_SIZE = 22
MINUS = "\u2212"
"""The minus sign of negative numbers (Gap's totals, early ratings)."""
END_SIZE = 22
"""The label at the end of each line."""
END_GAP = 6
"""Pixels between two end labels, at least."""
END_WIDTH = 250
"""The widest end label: a longer name is cut (the ranking shows it whole)."""


@dataclass(frozen=True, slots=True)
class Series:
    """One line of a chart: its values at x = 1, 2, …, its colour and the label at its end."""

    values: Sequence[float]
    colour: Colour
    label: str = ""
    width: int = 3
    """The line's width in pixels (the most important line is the widest)."""
    dot: int = 5
    """The radius of the dot at each value (0: none)."""


@dataclass(frozen=True, slots=True)
class Ticks:
    """Round values for an axis: `first`, `first + step`, … up to `last`."""

    first: float
    last: float
    step: float
    decimals: int

    @property
    def values(self) -> list[float]:
        """Every tick's value, low to high."""
        count = round((self.last - self.first) / self.step)
        return [round(self.first + i * self.step, self.decimals) for i in range(count + 1)]

    def label(self, value: float) -> str:
        """A tick's text: a typographic minus for negative values."""
        return number(value, self.decimals)


def number(value: float, decimals: int = 0) -> str:
    """`value` as shown on a chart, with a real minus sign (U+2212: a hyphen is too short
    to read as one)."""
    text = f"{value:.{decimals}f}"
    if text.startswith("-"):
        stripped = text[1:].strip("0.")
        return MINUS + text[1:] if stripped else text[1:]
    return text


def nice_ticks(low: float, high: float, target: int = 5, min_step: float = 1.0) -> Ticks:
    """Ticks at round values (1, 2 or 5 times a power of ten) that cover low..high in about
    `target` steps; a step never below `min_step` (1 for whole points)."""
    if not (math.isfinite(low) and math.isfinite(high)):
        raise PictureError("a chart needs finite values")
    if high < low:
        low, high = high, low
    if high - low < min_step:
        # A flat line sits in the middle of a small range, not on its edge.
        low, high = low - min_step, high + min_step
    raw = (high - low) / max(1, target)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    step = max(step, min_step)
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    first = math.floor(low / step + 1e-9) * step
    last = math.ceil(high / step - 1e-9) * step
    return Ticks(round(first, decimals), round(last, decimals), step, decimals)


def x_ticks(count: int) -> list[int]:
    """The rounds (1..count) that get a label: each one up to 10, else 1 and round
    multiples, so that labels never crowd."""
    if count <= 10:
        return list(range(1, count + 1))
    step = next(s for s in (2, 5, 10, 20, 50, 100) if count / s <= 8)
    return [1, *range(step, count + 1, step)]


def spread(wanted: Sequence[float], height: float, top: float, bottom: float) -> list[float]:
    """Centres for labels `height` high, each as near its wanted centre as it can be, none
    overlapping another, all within top..bottom (as long as they fit there together)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [min(max(wanted[i], top + height / 2), bottom - height / 2) for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + height)
    # Labels pushed past the bottom push the ones above them up instead.
    if placed and placed[-1] > bottom - height / 2:
        placed[-1] = bottom - height / 2
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - height)
    centres = [0.0] * len(wanted)
    for k, i in enumerate(order):
        centres[i] = placed[k]
    return centres


@dataclass(frozen=True, slots=True)
class Chart:
    """A line chart's layout inside `box` (left, top, right, bottom) on a panel."""

    series: Sequence[Series]
    x_label: str = ""
    y_label: str = ""
    include_zero: bool = True
    min_step: float = 1.0
    """The smallest step between two ticks (1 for whole points)."""
    show_x_ticks: bool = True
    origin: float | None = None
    """Where every line starts before its first value (0 for game totals: each starts from
    nothing), at x = 0 with no dot and no label; None starts the lines at x = 1."""
    background: Colour = FELT_DARK

    def draw(self, image: Image.Image, box: tuple[int, int, int, int]) -> None:
        """Draw the axes, gridlines, lines with their dots and end labels in `box`."""
        if not self.series or any(not s.values for s in self.series):
            raise PictureError("a chart needs at least one value per line")
        count = max(len(s.values) for s in self.series)
        start = 0 if self.origin is not None else 1
        values = [v for s in self.series for v in s.values]
        if self.origin is not None:
            values.append(self.origin)
        low, high = min(values), max(values)
        if self.include_zero:
            low, high = min(low, 0.0), max(high, 0.0)
        ticks = nice_ticks(low, high, min_step=self.min_step)
        draw = ImageDraw.Draw(image)
        left, top, right, bottom = box
        tick_font = font(TICK_SIZE)
        axis_width = max(text_width(ticks.label(v), TICK_SIZE) for v in ticks.values)
        if self.y_label:
            # The y axis's name sits above its tick labels, where a reader looks first.
            label = fit(self.y_label, TICK_SIZE, right - left)
            draw.text((left, top), label, font=tick_font, fill=MUTED, anchor="lt")
            top += TICK_SIZE + 18
        ends = [fit(s.label, END_SIZE, END_WIDTH, bold=True) for s in self.series]
        end_width = max((text_width(e, END_SIZE, True) for e in ends), default=0)
        plot_left = left + round(axis_width) + 16
        plot_right = right - (round(end_width) + 26 if end_width else 12)
        plot_top = top + 12
        plot_bottom = bottom - (TICK_SIZE + 18 if self.show_x_ticks else 8)
        if self.x_label and self.show_x_ticks:
            plot_bottom -= TICK_SIZE + 10
        if plot_right - plot_left < 100 or plot_bottom - plot_top < 60:
            raise PictureError("a chart has no room to draw")
        # Every point keeps a dot's width from the plot's sides, so no dot is cut off.
        inset = 14
        x_span = plot_right - plot_left - 2 * inset

        def x_of(i: int) -> float:
            """Where the value of x = i + 1 sits (i = -1: the origin)."""
            if count == 1 and start == 1:
                return (plot_left + plot_right) / 2
            return plot_left + inset + x_span * (i + 1 - start) / (count - start)

        def y_of(v: float) -> float:
            share = (v - ticks.first) / (ticks.last - ticks.first)
            return plot_bottom - share * (plot_bottom - plot_top)

        self._draw_lines(image, (plot_left, plot_top, plot_right, plot_bottom), ticks, x_of, y_of)
        for v in ticks.values:
            y = y_of(v)
            draw.text((plot_left - 12, y), ticks.label(v), font=tick_font, fill=MUTED, anchor="rm")
        if self.show_x_ticks:
            for n in x_ticks(count):
                draw.text(
                    (x_of(n - 1), plot_bottom + 12),
                    str(n),
                    font=tick_font,
                    fill=MUTED,
                    anchor="mt",
                )
            if self.x_label:
                label = fit(self.x_label, TICK_SIZE, plot_right - plot_left)
                draw.text(
                    ((plot_left + plot_right) / 2, bottom),
                    label,
                    font=tick_font,
                    fill=MUTED,
                    anchor="md",
                )
        self._draw_ends(draw, ends, plot_right, (plot_top, plot_bottom), x_of, y_of)

    def _draw_lines(
        self,
        image: Image.Image,
        plot: tuple[int, int, int, int],
        ticks: Ticks,
        x_of: Callable[[int], float],
        y_of: Callable[[float], float],
    ) -> None:
        """Gridlines and lines, drawn SCALE times larger on a copy of the plot and shrunk back
        (a dot's radius of room around it)."""
        pad = 12
        left, top, right, bottom = plot
        region = (left - pad, top - pad, right + pad, bottom + pad)
        width, height = region[2] - region[0], region[3] - region[1]
        big = Image.new("RGB", (width * SCALE, height * SCALE), self.background)
        draw = ImageDraw.Draw(big)

        def at(x: float, y: float) -> tuple[float, float]:
            return ((x - region[0]) * SCALE, (y - region[1]) * SCALE)

        negative = ticks.first < 0
        for v in ticks.values:
            colour = ZERO if negative and v == 0 else GRID
            y = at(0, y_of(v))[1]
            draw.line([(pad * SCALE, y), ((width - pad) * SCALE, y)], fill=colour, width=SCALE)
        # The least important lines first: the first series (the winner's) ends on top.
        for s in reversed(self.series):
            points = [at(x_of(i), y_of(v)) for i, v in enumerate(s.values)]
            line = points
            if self.origin is not None:
                line = [at(x_of(-1), y_of(self.origin)), *points]
            if len(line) > 1:
                draw.line(line, fill=s.colour, width=s.width * SCALE, joint="curve")
            r = s.dot * SCALE
            if r:
                for x, y in points:
                    draw.ellipse((x - r, y - r, x + r, y + r), fill=s.colour)
            # The last value gets a ring: it is the one the end label names.
            x, y = points[-1]
            r = (s.dot + 3) * SCALE
            draw.ellipse((x - r, y - r, x + r, y + r), outline=s.colour, width=SCALE * 2)
        image.paste(big.reduce(SCALE), region[:2])

    def _draw_ends(
        self,
        draw: ImageDraw.ImageDraw,
        ends: Sequence[str],
        plot_right: int,
        rows: tuple[int, int],
        x_of: Callable[[int], float],
        y_of: Callable[[float], float],
    ) -> None:
        """Each line's label beside its last value, moved apart so none overlaps another,
        with a thin leader when it had to move."""
        height = END_SIZE + END_GAP
        wanted = [y_of(s.values[-1]) for s in self.series]
        centres = spread(wanted, height, rows[0] - 12, rows[1] + 12)
        end_font = font(END_SIZE, bold=True)
        for s, text, want, y in zip(self.series, ends, wanted, centres, strict=True):
            if not text:
                continue
            x_end = x_of(len(s.values) - 1) + s.dot + 6
            x = plot_right + 14
            if abs(want - y) > END_SIZE / 4:
                draw.line([(x_end, want), (x - 4, y)], fill=s.colour, width=1)
            draw.text((x, y), text, font=end_font, fill=s.colour, anchor="lm")


def png(image: Image.Image, data: JSON) -> bytes:
    """The picture as PNG bytes carrying `data`, on the palette of what these pictures draw:
    every colour over its background, 16 shades each (finer than a channel's slack in the
    golden images)."""
    pairs = [(FELT, c) for c in (INK, MUTED, GOLD, FELT_DARK)]
    pairs += [(FELT_DARK, c) for c in (INK, MUTED, GRID, ZERO, *SERIES)]
    pairs.append((GOLD, SHINE))
    return encode(image, data, tuple((back, front, 16) for back, front in pairs))


def wrap(text: str, size: int, width: float, bold: bool = False, lines: int = 2) -> list[str]:
    """`text` (made drawable) broken at plain spaces (never at a no-break one) into at most
    `lines` lines of `width`; the last cut with an ellipsis if it still does not fit."""
    words = drawable(text, size, bold).split(" ")
    out: list[str] = []
    current = ""
    for k, word in enumerate(words):
        trial = f"{current} {word}" if current else word
        if not current or text_width(trial, size, bold) <= width:
            current = trial
            continue
        out.append(current)
        if len(out) == lines - 1:
            current = " ".join(words[k:])
            break
        current = word
    if current:
        out.append(current)
    return [fit(line, size, width, bold) for line in out]


def field(data: object, key: str, kind: type[T]) -> T:
    """`data[key]` if it is a `kind`; PictureError otherwise (data from a store may be old or
    broken, and a drawer reads nothing it has not checked)."""
    value = data.get(key) if isinstance(data, dict) else None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise PictureError(f"picture data has no {kind.__name__} {key!r}")
    return value


def text_field(data: object, key: str) -> str:
    """`data[key]` as a string; PictureError if it is not one."""
    return field(data, key, str)


def numbers(value: object, name: str) -> list[float]:
    """`value` as a list of finite numbers; PictureError if it is not one."""
    if not isinstance(value, list):
        raise PictureError(f"picture data {name!r} is not a list")
    out: list[float] = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise PictureError(f"picture data {name!r} holds {v!r}, not a number")
        out.append(float(v))
    return out
