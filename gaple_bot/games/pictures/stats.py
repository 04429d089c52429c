"""A player's /stats as a card: the name, the rating over the last games and the record."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from PIL import ImageDraw

from ...i18n import Translator
from .canvas import (
    FELT_DARK,
    GOLD,
    INK,
    MARGIN,
    MUTED,
    WIDTH,
    drawable,
    fit,
    font,
    new_canvas,
    text_width,
)
from .chart import Chart, Series, field, number, numbers, png, text_field, wrap
from .picture import JSON, Picture, PictureError, plain

NAME_SIZE = 60
REST_SIZE = 34
"""The title's words around the name ("in this chat")."""
LABEL_SIZE = 26
VALUE_SIZE = 46
TILE = 118
"""The height of one record tile."""
GAP = 16
PER_ROW = 3
"""At most this many tiles side by side: more would not fit a translated label."""
CHART_HEIGHT = 340
NOTE_HEIGHT = 104


def stats_picture(
    t: Translator, title: str, lines: Sequence[str], ratings: Sequence[float]
) -> Picture:
    """The /stats card: `title` and `lines` are the text's HTML lines (the name in bold in the
    title), `ratings` the player's rating after each of their last games, oldest first."""
    if any(not math.isfinite(r) for r in ratings):
        raise PictureError("a rating is not a number")
    label = (
        t.gettext("Rating over the last {count} games").format(count=len(ratings))
        if len(ratings) >= 2
        else t.gettext("A rating line appears here after two games.")
    )
    data: JSON = {
        "title": _segments(title),
        "rows": [[_tile(part) for part in _parts(plain(line))] for line in lines],
        "ratings": [round(r, 1) for r in ratings],
        "rating_label": label,
    }
    return Picture("stats", data)


def _segments(title: str) -> list[JSON]:
    """The title as runs of plain text, the bold ones (the name) marked."""
    runs = []
    for piece in re.split(r"(<b>.*?</b>)", title):
        text = plain(piece)
        if text.strip():
            runs.append({"text": text, "bold": piece.startswith("<b>")})
    return runs


def _parts(line: str) -> list[str]:
    """A record line's parts: the texts join them with a middle dot."""
    return [part.strip() for part in line.split("·") if part.strip()]


def _tile(part: str) -> JSON:
    """A part as a label and its value: the value follows a colon ('Games: 12', 'Points : 40'),
    or else starts at the first number ('rank 2 of 7'); a part with neither is all value."""
    label, colon, value = part.partition(":")
    if not colon or not label.strip() or not value.strip():
        match = re.match(r"^(\D*?)\s*([\u2212+-]?\d.*)$", part)
        label, value = (match.group(1), match.group(2)) if match else ("", part)
    label, value = label.strip(), value.strip()
    if not value:
        label, value = "", part
    # Labels after a dot start in lower case ('won: 5'); alone on a tile they read as titles.
    return {"label": label[:1].upper() + label[1:], "value": value}


def _read(data: JSON) -> tuple[list[tuple[str, bool]], list[list[tuple[str, str]]]]:
    """The title runs and the tiles' rows; PictureError if they are broken."""
    title = field(data, "title", list)
    rows = field(data, "rows", list)
    runs = []
    for run in title:
        if not isinstance(run, dict) or not isinstance(run.get("bold"), bool):
            raise PictureError("a run of the title is not text with a bold flag")
        runs.append((text_field(run, "text"), bool(run["bold"])))
    tiles = []
    for row in rows:
        if not isinstance(row, list):
            raise PictureError("a row of the record is not a list")
        cells = []
        for cell in row:
            if not isinstance(cell, dict):
                raise PictureError("a tile of the record is not an object")
            cells.append((text_field(cell, "label"), text_field(cell, "value")))
        tiles.append(cells)
    return runs, tiles


def draw_stats(data: JSON) -> bytes:
    """The /stats card as PNG bytes: the name big, the rating as a line (or a note before two
    games), then each record line as a row of tiles, the values emphasised."""
    runs, rows = _read(data)
    if not any(bold for _, bold in runs):
        # A title with no name marked is all name.
        runs = [(text, True) for text, _ in runs]
    ratings = numbers(data.get("ratings"), "ratings")
    label = text_field(data, "rating_label")
    content = WIDTH - 2 * MARGIN

    heading = _heading(runs, content)
    # A record line of many parts wraps onto more rows of tiles.
    tile_rows = [row[k : k + PER_ROW] for row in rows for k in range(0, len(row), PER_ROW)]
    chart_height = CHART_HEIGHT if len(ratings) >= 2 else NOTE_HEIGHT
    chart_top = MARGIN + sum(h for _, h, _ in heading) + 32
    tiles_top = chart_top + chart_height + 24
    height = tiles_top + len(tile_rows) * (TILE + GAP) - GAP + MARGIN
    if not tile_rows:
        height = tiles_top - 24 + MARGIN
    image, draw = new_canvas(height)

    y = MARGIN
    for line, line_height, _ in heading:
        x = MARGIN
        baseline = y + round(line_height * 0.8)
        for text, size, bold in line:
            colour = INK if bold else MUTED
            draw.text((x, baseline), text, font=font(size, bold), fill=colour, anchor="ls")
            x += round(text_width(text, size, bold))
        y += line_height

    box = (MARGIN, chart_top, WIDTH - MARGIN, chart_top + chart_height)
    draw.rounded_rectangle(box, radius=20, fill=FELT_DARK)
    caption = fit(label, LABEL_SIZE, content - 56)
    if len(ratings) >= 2:
        draw.text((box[0] + 28, box[1] + 24), caption, font=font(LABEL_SIZE), fill=MUTED)
        dot = 5 if len(ratings) <= 15 else 4
        rating = Series(ratings, GOLD, label=number(ratings[-1], 1), width=4, dot=dot)
        chart = Chart([rating], include_zero=False, min_step=0.1, show_x_ticks=False)
        chart.draw(image, (box[0] + 28, box[1] + 24 + LABEL_SIZE + 30, box[2] - 28, box[3] - 20))
    else:
        draw.text(
            (box[0] + 28, (box[1] + box[3]) // 2),
            caption,
            font=font(LABEL_SIZE),
            fill=MUTED,
            anchor="lm",
        )

    y = tiles_top
    for row in tile_rows:
        _tiles(draw, row, y, content)
        y += TILE + GAP
    return png(image, data)


Line = list[tuple[str, int, bool]]


def _heading(runs: Sequence[tuple[str, bool]], width: int) -> list[tuple[Line, int, bool]]:
    """The title's lines: the name big and bold, the words around it smaller; on one line if
    they fit, else the name on its own line and the rest below it."""
    one: Line = [(text, NAME_SIZE if bold else REST_SIZE, bold) for text, bold in runs]
    clean: Line = [(t, s, b) for t, s, b in _drawable_runs(one)]
    if clean and sum(text_width(t, s, b) for t, s, b in clean) <= width:
        return [(clean, NAME_SIZE + 16, True)]
    name = " ".join(t for t, b in runs if b).strip()
    rest = " ".join(t.strip() for t, b in runs if not b).strip()
    lines: list[tuple[Line, int, bool]] = []
    for text in wrap(name, NAME_SIZE, width, bold=True):
        lines.append(([(text, NAME_SIZE, True)], NAME_SIZE + 16, True))
    for text in wrap(rest, REST_SIZE, width):
        lines.append(([(text, REST_SIZE, False)], REST_SIZE + 14, False))
    return lines or [([("", REST_SIZE, False)], REST_SIZE, False)]


def _drawable_runs(runs: Line) -> Line:
    """The runs without glyphs the font lacks, spaces between runs kept as one."""
    out: Line = []
    for k, (text, size, bold) in enumerate(runs):
        kept = drawable(text, size, bold)
        if not kept:
            continue
        # drawable() trims the run's ends; the space between two runs stays.
        if out and text[:1].isspace():
            kept = " " + kept
        if k + 1 < len(runs) and text[-1:].isspace():
            kept += " "
        out.append((kept, size, bold))
    return out


def _tiles(draw: ImageDraw.ImageDraw, row: Sequence[tuple[str, str]], top: int, width: int) -> None:
    """One row of tiles side by side: the label small above its value, big."""
    tile_width = (width - GAP * (len(row) - 1)) / len(row)
    for k, (label, value) in enumerate(row):
        left = MARGIN + k * (tile_width + GAP)
        right = left + tile_width
        draw.rounded_rectangle((left, top, right, top + TILE), radius=18, fill=FELT_DARK)
        room = tile_width - 2 * 26
        size = VALUE_SIZE
        # A long value (a translated phrase) shrinks before it is cut.
        while size > 30 and text_width(value, size, True) > room:
            size -= 2
        shown = fit(value, size, room, bold=True)
        if label:
            draw.text(
                (left + 26, top + 22),
                fit(label, LABEL_SIZE, room),
                font=font(LABEL_SIZE),
                fill=MUTED,
            )
            draw.text(
                (left + 26, top + TILE - 20), shown, font=font(size, True), fill=INK, anchor="ls"
            )
        else:
            draw.text(
                (left + 26, top + TILE / 2), shown, font=font(size, True), fill=INK, anchor="lm"
            )
