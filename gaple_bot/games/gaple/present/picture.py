"""A Gaple round's end as a picture: the line of play as dominoes, every hand, the points."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageDraw

from ....i18n import Translator
from ...pictures import Picture, PictureError, plain
from ...pictures.canvas import (
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    IVORY,
    MARGIN,
    MAX_HEIGHT,
    MUTED,
    PIP,
    WIDTH,
    Colour,
    Shading,
    drawable,
    encode,
    fit,
    font,
    mix,
    new_canvas,
    text_width,
)
from ...texts import TOTALS_SEPARATOR, seat_name, total_item, totals_template
from ...views import RoundReveal
from ..board import GapleBoard, GapleHand
from ..rules import Played, Side, pips, tile_text
from .results import render_round_end
from .tiles import by_weight

DRAWER = "gaple.round"

JSON = dict[str, Any]
Tile = tuple[int, int]
"""A tile as it lies: its first number meets the tile before it on the line, or is its high
number in a hand."""

# The data --------------------------------------------------------------------------------


def round_end_picture(t: Translator, reveal: RoundReveal[GapleBoard, GapleHand]) -> Picture:
    """The round's end as the picture's data: the head lines of the text, the line of play
    left to right with the index of the tile it grew from, every seat's row of the text split
    around its tiles, and the points and totals lines split around their items.

    `t` is Gaple's translator. Every text is plain (no HTML) and nothing is in the data that
    the picture does not draw. A person whose name the font cannot draw at all (only emoji)
    is named by seat ("Player 5"), here and in the head."""
    reveal = _drawable_names(t, reveal)
    table = reveal.table
    board = table.board
    result = board.result
    assert result is not None
    hands = []
    for seat in table.seats:
        shown = reveal.seats[seat.number]
        name = seat_name(t, seat, table.seats)
        row = _tiles_row(t.gettext("{name}: {tiles} = {pips}"), shown.hand, name=name)
        row["winner"] = seat.number == result.winner
        discards = None
        if shown.discards:
            discards = _tiles_row(t.gettext("discarded: {tiles} = {pips}"), shown.discards)
        hands.append({"row": row, "discards": discards})
    scored = [
        _item(
            t.gettext("{name} +{points}"),
            s.number == result.winner,
            seat_name(t, s, table.seats),
            points,
        )
        for s in table.seats
        if (points := result.points[s.number])
    ]
    if scored:
        points_run = _run(t.gettext("Points: {list}"), "list", scored, ", ")
    else:
        points_run = _run(t.gettext("Nobody scores this round."), "list", [], "")
    # The totals line is the common one (games/texts.py): its words come from there.
    totals = [
        {
            "text": plain(total_item(t, table, s)),
            "winner": s.number == result.winner,
        }
        for s in table.seats
    ]
    data: JSON = {
        "title": _head_lines(t, reveal),
        "line": [f"[{a}|{b}]" for a, b in board.line],
        "first": line_origin(board),
        "hands": hands,
        "points": points_run,
        "totals": _run(totals_template(t), "totals", totals, TOTALS_SEPARATOR),
    }
    return Picture(DRAWER, data)


def _drawable_names(
    t: Translator, reveal: RoundReveal[GapleBoard, GapleHand]
) -> RoundReveal[GapleBoard, GapleHand]:
    """The reveal with every name the picture could not show (no letter or digit left once
    the font's missing characters go) replaced by "Player {number}"."""
    seats = []
    for seat in reveal.table.seats:
        label = drawable(plain(seat_name(t, seat, reveal.table.seats)), TEXT_SIZE, True)
        if not any(char.isalnum() for char in label):
            seat = replace(seat, name=t.gettext("Player {number}").format(number=seat.number + 1))
        seats.append(seat)
    if tuple(seats) == reveal.table.seats:
        return reveal
    return replace(reveal, table=replace(reveal.table, seats=tuple(seats)))


def _head_lines(t: Translator, reveal: RoundReveal[GapleBoard, GapleHand]) -> list[str]:
    """The text's head (the lines before its first blank line: how the round ended and, with
    discards, who won it), so the caption and the picture never disagree."""
    head: list[str] = []
    for line in render_round_end(t, reveal).text.split("\n"):
        if not line.strip():
            break
        head.append(plain(line))
    return head


def line_origin(board: GapleBoard) -> int | None:
    """Where the tile the line grew from lies: the first tile played (C4/C5) or the starting
    tile turned up (D1). Each later play on the left end (C7) pushes it one place right."""
    if not board.line:
        return None
    return sum(
        1
        for event in board.events
        if isinstance(event, Played) and event.ends is not None and event.side is Side.LEFT
    )


def _around(template: str, field: str, **values: object) -> tuple[str, str]:
    """A translated template as plain text before and after its `{field}` (a language may put
    the field anywhere)."""
    before, found, after = template.partition("{" + field + "}")
    if not found:
        return plain(template.format(**values)), ""
    return plain(before.format(**values)), plain(after.format(**values))


def _tiles_row(template: str, mask: int, **values: object) -> JSON:
    """A seat's row of the text ("Ana: [6|4] [5|0] = 15"), its tiles as the text writes them
    (heaviest first, high number first)."""
    before, after = _around(template, "tiles", pips=pips(mask), **values)
    return {
        "before": before,
        "tiles": [tile_text(tile) for tile in by_weight(mask)],
        "after": after,
    }


def _item(template: str, winner: bool, name: str, points: int) -> JSON:
    return {"text": plain(template.format(name=name, points=points)), "winner": winner}


def _run(template: str, field: str, items: list[JSON], sep: str) -> JSON:
    """A line of the text made of items ("Totals: Ana 40 · Budi 12"), split around them."""
    before, after = _around(template, field, **{field: ""})
    return {"before": before, "items": items, "sep": sep, "after": after}


# Reading the data back -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    """Text, tiles, text: one seat's hand or discards."""

    before: str
    tiles: tuple[Tile, ...]
    after: str
    winner: bool = False


@dataclass(frozen=True, slots=True)
class _Run:
    """Text, items, text: the points or the totals."""

    before: str
    items: tuple[tuple[str, bool], ...]
    sep: str
    after: str


@dataclass(frozen=True, slots=True)
class _Round:
    """Everything the picture draws, read and checked."""

    title: tuple[str, ...]
    line: tuple[Tile, ...]
    first: int | None
    hands: tuple[tuple[_Row, _Row | None], ...]
    points: _Run
    totals: _Run


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise PictureError(f"expected a text, not {value!r}")
    return value


def _tile(value: object) -> Tile:
    """A tile written as the bot writes it: "[6|4]"."""
    text = _text(value)
    if len(text) != 5 or text[::2] != "[|]" or not {text[1], text[3]} <= set("0123456"):
        raise PictureError(f"not a tile: {value!r}")
    return int(text[1]), int(text[3])


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise PictureError(f"expected a list, not {value!r}")
    return value


def _object(value: object) -> JSON:
    if not isinstance(value, dict):
        raise PictureError(f"expected an object, not {value!r}")
    return value


def _read_row(value: object) -> _Row:
    row = _object(value)
    winner = row.get("winner", False)
    if not isinstance(winner, bool):
        raise PictureError("a row's winner flag is true or false")
    return _Row(
        _text(row.get("before")),
        tuple(_tile(tile) for tile in _list(row.get("tiles"))),
        _text(row.get("after")),
        winner,
    )


def _read_run(value: object) -> _Run:
    run = _object(value)
    items = []
    for entry in _list(run.get("items")):
        item = _object(entry)
        winner = item.get("winner")
        if not isinstance(winner, bool):
            raise PictureError("an item's winner flag is true or false")
        items.append((_text(item.get("text")), winner))
    return _Run(
        _text(run.get("before")), tuple(items), _text(run.get("sep")), _text(run.get("after"))
    )


def _read(data: JSON) -> _Round:
    """The data round_end_picture wrote; PictureError for anything else."""
    line = tuple(_tile(tile) for tile in _list(data.get("line")))
    first = data.get("first")
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(line)
    ):
        raise PictureError(f"no tile {first!r} on a line of {len(line)}")
    hands = []
    for entry in _list(data.get("hands")):
        seat = _object(entry)
        discards = seat.get("discards")
        hands.append(
            (_read_row(seat.get("row")), None if discards is None else _read_row(discards))
        )
    return _Round(
        title=tuple(_text(head) for head in _list(data.get("title"))),
        line=line,
        first=first,
        hands=tuple(hands),
        points=_read_run(data.get("points")),
        totals=_read_run(data.get("totals")),
    )


# Dominoes --------------------------------------------------------------------------------

SUPERSAMPLE = 4
"""Faces are drawn this many times larger and scaled down: Pillow draws circles without
anti-aliasing, and pips must look round."""
FACE_MARGIN = 8
"""Room round a face image for its shadow and the first tile's ring."""
PIP_SPOTS: tuple[tuple[tuple[int, int], ...], ...] = (
    (),
    ((1, 1),),
    ((0, 0), (2, 2)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 0), (2, 0), (0, 2), (2, 2)),
    ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    ((0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)),
)
"""Where each number's pips sit on a 3 x 3 grid (across, along) of an upright half."""
RIM: Colour = (214, 204, 180)
"""A tile's edge below its face: the thickness of the piece."""
EDGE: Colour = (196, 186, 164)
DIVIDER: Colour = (140, 132, 118)
PIN: Colour = (186, 150, 72)
"""The brass pin in the divider's middle, as on real dominoes."""
DIM_FACE: Colour = (205, 199, 186)
"""Discarded tiles: out of play, so drawn greyer."""
DIM_PIP: Colour = (96, 92, 86)
SHADOW_ALPHA = 80
"""How dark a tile's shadow is on the felt (of 255)."""


@functools.cache
def _face(first: int, second: int, length: int, upright: bool, style: str) -> Image.Image:
    """One domino as an RGBA image with FACE_MARGIN round it (paste it FACE_MARGIN up and
    left of where the tile goes): `first` on the left or top. `style` is "plain", "first"
    (a gold ring: the tile the line grew from) or "dim" (a discard). Cached: a picture pastes
    each face it shows, and only a new face is drawn."""
    k = SUPERSAMPLE
    long, short = length * k, length * k // 2
    w, h = (short, long) if upright else (long, short)
    m = FACE_MARGIN * k
    image = Image.new("RGBA", (w + 2 * m, h + 2 * m), (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    radius = short // 7
    lift = max(k, long // 45)
    shadow = max(k, long // 30)
    pen.rounded_rectangle(
        (m + shadow, m + shadow, m + w + shadow, m + h + shadow),
        radius,
        fill=(0, 0, 0, SHADOW_ALPHA),
    )
    if style == "first":
        ring = 5 * k
        pen.rounded_rectangle(
            (m - ring, m - ring, m + w + ring - 1, m + h + ring - 1), radius + ring, fill=GOLD
        )
    face, pip = (DIM_FACE, DIM_PIP) if style == "dim" else (IVORY, PIP)
    pen.rounded_rectangle((m, m, m + w - 1, m + h - 1), radius, fill=RIM)
    pen.rounded_rectangle(
        (m, m, m + w - 1, m + h - 1 - lift), radius, fill=face, outline=EDGE, width=k
    )
    top = h - lift
    # The two halves, each about square: one above the other (upright) or side by side.
    if upright:
        span_x, span_y = w, top // 2
        halves = ((m, m, first), (m, m + span_y, second))
        inset = w // 6
        pen.line((m + inset, m + span_y, m + w - inset, m + span_y), DIVIDER, 2 * k)
        pin = (m + w // 2, m + span_y)
    else:
        span_x, span_y = short, top
        halves = ((m, m, first), (m + short, m, second))
        inset = top // 6
        pen.line((m + short, m + inset, m + short, m + top - inset), DIVIDER, 2 * k)
        pin = (m + short, m + top // 2)
    dot = max(k, short // 28)
    pen.ellipse((pin[0] - dot, pin[1] - dot, pin[0] + dot, pin[1] + dot), PIN)
    size = short * 0.09
    for x0, y0, number in halves:
        for across, along in PIP_SPOTS[number]:
            # Upright: across is x, along is y; lying, the grid turns a quarter.
            gx, gy = (across, along) if upright else (along, across)
            cx = x0 + span_x * (0.25 + 0.25 * gx)
            cy = y0 + span_y * (0.25 + 0.25 * gy)
            pen.ellipse((cx - size, cy - size, cx + size, cy + size), pip)
    return image.resize((image.width // k, image.height // k), Image.Resampling.LANCZOS)


def _paste(image: Image.Image, x: int, y: int, face: Image.Image) -> None:
    image.paste(face, (x - FACE_MARGIN, y - FACE_MARGIN), face)


# Laying out the line ---------------------------------------------------------------------

LINE_LENGTHS = (128, 112, 100)
"""Tile lengths on the line, largest first: the largest whose snake has at most LINE_ROWS
rows is used, else the smallest."""
LINE_ROWS = 3
GAP = 6
"""Between two tiles on the line, and between a row and the tile that turns below it."""
PANEL_PAD = 28
PANEL_RADIUS = 22


@dataclass(frozen=True, slots=True)
class _Placed:
    """A tile of the line where it lies: its top left corner, numbers and orientation."""

    index: int
    x: int
    y: int
    first: int
    second: int
    upright: bool


def _snake(line: Sequence[Tile], width: int, length: int) -> tuple[list[_Placed], int, int]:
    """The line laid in rows that turn back and forth (left to right first), so it stays
    inside `width` whatever its length; returns the tiles, the rows and the height.

    Doubles lie crosswise (C8). A row ends with a tile standing under the far half of the
    row's last tile, its lower half beside the next row's first tile, as a real line turns
    on a table. A double cannot be that standing tile (it would lie crosswise there), so the
    row ends one tile early instead; below a double the turning tile hangs a little lower."""
    half = length // 2
    placed: list[_Placed] = []
    n = len(line)
    i, rows, centre = 0, 1, half
    edge, direction = 0, 1
    while i < n:
        # The tiles that fit in this row from `edge` on (at least one: a tile fits the width).
        room = edge if direction < 0 else width - edge
        end, used = i, 0
        while end < n:
            span = (half if _double(line[end]) else length) + (GAP if end > i else 0)
            if end > i and used + span > room:
                break
            used += span
            end += 1
        turn: int | None = None
        if end < n:
            turn = end - 1 if _double(line[end]) else end
            if turn <= i:
                turn = None  # no tile left in the row to turn under: start the next one below
            else:
                end = turn
        x = edge
        for k in range(i, end):
            a, b = line[k]
            double = a == b
            span = half if double else length
            if k > i:
                x += GAP * direction
            left = x if direction > 0 else x - span
            top = centre - (half if double else half // 2)
            # Right to left, a tile's first number (which meets the tile before) is on the right.
            first, second = (a, b) if direction > 0 else (b, a)
            placed.append(_Placed(k, left, top, first, second, double))
            x += span * direction
        if end >= n:
            break
        rows += 1
        direction = -direction
        if turn is None:
            i, edge, centre = end, x, centre + length + GAP
            continue
        # The turning tile stands under the far half of the row's last tile; the next row
        # starts beside its lower half.
        above = half if _double(line[turn - 1]) else half // 2
        column = x - half if direction < 0 else x
        top = centre + above + GAP
        a, b = line[turn]
        placed.append(_Placed(turn, column, top, a, b, True))
        edge = column - GAP if direction < 0 else column + half + GAP
        i, centre = turn + 1, top + half + half // 2
    height = max((p.y + (length if p.upright else half) for p in placed), default=0)
    return placed, rows, height


def _double(tile: Tile) -> bool:
    return tile[0] == tile[1]


def line_layout(line: Sequence[Tile], width: int) -> tuple[list[_Placed], int, int]:
    """The snake with the largest tiles that keep it within LINE_ROWS rows, and that length."""
    for length in LINE_LENGTHS:
        placed, rows, height = _snake(line, width, length)
        if rows <= LINE_ROWS or length == LINE_LENGTHS[-1]:
            return placed, height, length
    raise AssertionError("unreachable")


# Drawing ---------------------------------------------------------------------------------

TITLE_SIZE = 40
SUBTITLE_SIZE = 32
TEXT_SIZE = 30
HAND_LENGTH = 88
"""An upright tile in a hand is this high."""
HAND_GAP = 8
ROW_PAD = 10
INDENT = 28
"""A seat's discards row starts this far right of its name."""
NAME_ROOM = (180, 440)
"""Least and most room for the names before the hands' tiles (longer names are cut)."""
BAND: Colour = (31, 101, 72)
"""Behind the round winner's row."""
SECTION = 28
"""Between the picture's blocks."""

Op = Callable[[Image.Image, ImageDraw.ImageDraw], None]
"""One drawing step: the layout is worked out first (it sets the height), then drawn."""


def draw(picture: Picture) -> bytes:
    """The picture of a round's end as PNG bytes (its data in a text chunk); PictureError for
    another drawer or data round_end_picture did not write."""
    if picture.drawer != DRAWER:
        raise PictureError(f"the Gaple round drawer cannot draw {picture.drawer!r}")
    if not isinstance(picture.data, dict):
        raise PictureError("a picture's data is an object")
    shown = _read(picture.data)
    ops: list[Op] = []
    y = _title(ops, shown.title, MARGIN)
    y = _line(ops, shown.line, shown.first, y + SECTION)
    y = _hands(ops, shown.hands, y + SECTION)
    y = _runs(ops, (shown.points, shown.totals), y + SECTION)
    height = y + MARGIN
    if height > MAX_HEIGHT:
        raise PictureError(f"a round this long ({height} pixels) is not drawn")
    image, pen = new_canvas(height)
    for op in ops:
        op(image, pen)
    return encode(image, picture.data, _shadings())


def _shadings() -> tuple[Shading, ...]:
    """Every colour the picture draws and the blends its edges make (anti-aliased text on a
    panel, a face's scaled-down pips and shadow)."""
    shadings: list[Shading] = []
    for ground in (FELT, FELT_DARK, BAND):
        for colour in (INK, MUTED, GOLD, IVORY, RIM, EDGE, DIM_FACE):
            shadings.append((ground, colour, 6))
        shadings.append((ground, mix(ground, (0, 0, 0), SHADOW_ALPHA / 255), 3))
    for face in (IVORY, DIM_FACE, RIM):
        for colour in (PIP, DIM_PIP, DIVIDER, PIN, EDGE, GOLD):
            shadings.append((face, colour, 6))
    return tuple(shadings)


def _fit(text: str, size: int, width: float, bold: bool) -> str:
    """`text` as drawn, cut with … to `width`."""
    return fit(drawable(text, size, bold), size, width, bold)


def _wrap(text: str, size: int, width: float, bold: bool) -> list[str]:
    """`text` as drawn, broken at spaces into lines of at most `width`; a word longer than a
    line is cut with …"""
    lines: list[str] = []
    current = ""
    for word in drawable(text, size, bold).split(" "):
        candidate = f"{current} {word}" if current else word
        if text_width(candidate, size, bold) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        current = fit(word, size, width, bold)
    if current:
        lines.append(current)
    return lines


def _text_op(xy: tuple[float, float], text: str, size: int, colour: Colour, bold: bool) -> Op:
    """Text left-aligned at x, its middle at y."""

    def op(image: Image.Image, pen: ImageDraw.ImageDraw) -> None:
        pen.text(xy, text, font=font(size, bold), fill=colour, anchor="lm")

    return op


def _title(ops: list[Op], title: Sequence[str], y: int) -> int:
    """The head lines: how the round ended, large; who won it (discards) below in gold."""
    width = WIDTH - 2 * MARGIN
    for index, line in enumerate(title):
        head = index == 0
        size = TITLE_SIZE if head else SUBTITLE_SIZE
        lead = round(size * 1.3)
        for part in _wrap(line, size, width, head):
            ops.append(_text_op((MARGIN, y + lead // 2), part, size, INK if head else GOLD, head))
            y += lead
    return y


def _panel(ops: list[Op], top: int, bottom: int) -> None:
    def op(image: Image.Image, pen: ImageDraw.ImageDraw) -> None:
        box = (MARGIN, top, WIDTH - MARGIN, bottom)
        pen.rounded_rectangle(box, PANEL_RADIUS, fill=FELT_DARK)

    ops.append(op)


def _line(ops: list[Op], line: Sequence[Tile], first: int | None, y: int) -> int:
    """The line of play in a dark panel, the tile it grew from ringed in gold."""
    if not line:
        return y - SECTION
    inner = WIDTH - 2 * MARGIN - 2 * PANEL_PAD
    placed, height, length = line_layout(line, inner)
    left = min(p.x for p in placed)
    right = max(p.x + (length // 2 if p.upright else length) for p in placed)
    # Centred across the panel (a short line sits in its middle).
    dx = MARGIN + PANEL_PAD + (inner - (right - left)) // 2 - left
    dy = y + PANEL_PAD
    bottom = dy + height + PANEL_PAD
    _panel(ops, y, bottom)

    def op(image: Image.Image, pen: ImageDraw.ImageDraw) -> None:
        for p in placed:
            style = "first" if p.index == first else "plain"
            face = _face(p.first, p.second, length, p.upright, style)
            _paste(image, dx + p.x, dy + p.y, face)

    ops.append(op)
    return bottom


@dataclass(frozen=True, slots=True)
class _Columns:
    """Where a hand row's parts start: name, tiles, pips; and the room left for the pips."""

    name: int
    tiles: int
    after: int
    room: int


def _hands(ops: list[Op], hands: Sequence[tuple[_Row, _Row | None]], y: int) -> int:
    """Every seat's row in a dark panel: its name, its tiles standing, their pips; its
    discards below it, greyer. The round's winner's row is banded in gold."""
    rows = [row for pair in hands for row in pair if row is not None]
    if not rows:
        return y - SECTION
    x_name = MARGIN + PANEL_PAD
    right = WIDTH - MARGIN - PANEL_PAD
    step = HAND_LENGTH // 2 + HAND_GAP
    tiles_w = max(max(len(row.tiles) for row in rows) * step - HAND_GAP, step)
    after_w = max(text_width(drawable(row.after, TEXT_SIZE, True), TEXT_SIZE, True) for row in rows)
    names_w = max(
        text_width(drawable(row.before, TEXT_SIZE, True), TEXT_SIZE, True) for row in rows
    )
    # The names get what they need, within NAME_ROOM and what the tiles and pips leave.
    room = right - x_name - tiles_w - after_w - 2 * 24
    name_w = math.ceil(max(NAME_ROOM[0], min(names_w, NAME_ROOM[1], room)))
    x_tiles = x_name + name_w + 25
    x_after = x_tiles + tiles_w + 24
    columns = _Columns(x_name, x_tiles, x_after, right - x_after)
    top = y
    y += PANEL_PAD - ROW_PAD
    body: list[Op] = []
    for row, discards in hands:
        band_top = y
        y = _hand_row(body, row, y, columns, dim=False)
        if discards is not None:
            y = _hand_row(body, discards, y, columns, dim=True)
        if row.winner:
            body.insert(0, _band(band_top + 2, y - 2))
    bottom = y + PANEL_PAD - ROW_PAD
    _panel(ops, top, bottom)
    ops.extend(body)
    return bottom


def _band(top: int, bottom: int) -> Op:
    def op(image: Image.Image, pen: ImageDraw.ImageDraw) -> None:
        box = (MARGIN + 10, top, WIDTH - MARGIN - 10, bottom)
        pen.rounded_rectangle(box, 14, fill=BAND, outline=GOLD, width=2)

    return op


def _hand_row(ops: list[Op], row: _Row, y: int, at: _Columns, dim: bool) -> int:
    """One row of tiles with its texts; returns the next row's top."""
    mid = y + ROW_PAD + HAND_LENGTH // 2
    colour = GOLD if row.winner else (MUTED if dim else INK)
    x_name = at.name + INDENT if dim else at.name
    name = _fit(row.before, TEXT_SIZE, at.tiles - 24 - x_name, not dim)
    ops.append(_text_op((x_name, mid), name, TEXT_SIZE, colour, not dim))
    tiles = row.tiles
    if tiles:
        style = "dim" if dim else "plain"

        def op(image: Image.Image, pen: ImageDraw.ImageDraw) -> None:
            x = at.tiles
            for a, b in tiles:
                _paste(image, x, y + ROW_PAD, _face(a, b, HAND_LENGTH, True, style))
                x += HAND_LENGTH // 2 + HAND_GAP

        ops.append(op)
    else:
        ops.append(_text_op((at.tiles, mid), "—", TEXT_SIZE, MUTED, False))
    after = _fit(row.after, TEXT_SIZE, at.room, True)
    ops.append(_text_op((at.after, mid), after, TEXT_SIZE, colour, True))
    return y + HAND_LENGTH + 2 * ROW_PAD


def _runs(ops: list[Op], runs: Sequence[_Run], y: int) -> int:
    """The points and totals lines: the label, then the items, each whole on a line (a line
    that wraps starts under the first item), the winner's in gold."""
    width = WIDTH - 2 * MARGIN
    lead = round(TEXT_SIZE * 1.45)
    space = text_width(" ", TEXT_SIZE)
    for run in runs:
        units: list[tuple[str, Colour, bool]] = []
        label = drawable(run.before, TEXT_SIZE, False)
        if label:
            units.append((label, MUTED, False))
        for index, (text, winner) in enumerate(run.items):
            last = index == len(run.items) - 1
            # The separator stays with the item before it, so no line starts with one.
            sep = "" if last else run.sep.rstrip()
            shown = drawable(text, TEXT_SIZE, winner)
            units.append((shown, GOLD if winner else INK, winner))
            if sep:
                units.append((sep.strip(), MUTED, False))
        tail = drawable(run.after, TEXT_SIZE, False)
        if tail:
            units.append((tail, MUTED, False))
        indent = MARGIN + text_width(label, TEXT_SIZE) + space if label and run.items else MARGIN
        if indent > MARGIN + width / 3:
            indent = MARGIN
        x = float(MARGIN)
        middle = y + lead // 2
        for text, colour, bold in units:
            glued = text in (",", ".", ";")
            if glued:
                x -= space
            w = text_width(text, TEXT_SIZE, bold)
            if x > indent and x + w > MARGIN + width and not glued:
                x = indent
                middle += lead
            if w > MARGIN + width - x:
                text = fit(text, TEXT_SIZE, MARGIN + width - x, bold)
                w = text_width(text, TEXT_SIZE, bold)
            ops.append(_text_op((x, middle), text, TEXT_SIZE, colour, bold))
            x += w + space
        y = middle + lead // 2 + 6
    return y
