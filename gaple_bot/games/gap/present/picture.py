"""The Gap round's end drawn: every collection in colour columns, the spread that scores marked."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw

from ....i18n import Translator
from ...pictures import Picture, PictureError, plain
from ...pictures.canvas import (
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MARGIN,
    MUTED,
    PIP,
    WIDTH,
    Colour,
    Shading,
    drawable,
    encode,
    fit,
    font,
    new_canvas,
    text_width,
)
from ...texts import game_won_line, points_count, seat_name
from ...views import RoundReveal
from ..board import GapBoard, GapHand
from ..rules import COLOUR, VALUE, colour_counts, colours_in_play
from .cards import SQUARES, card_text

DRAWER = "gap.round"
LARGEST = "largest"
"""A column among the colours tied for the largest count (G5: added)."""
SMALLEST = "smallest"
"""A column among the colours tied for the smallest count, when not also the largest (G5:
subtracted)."""
_MARKS = ("", LARGEST, SMALLEST)

CARD_RGB: tuple[Colour, ...] = (
    (225, 52, 52),
    (88, 178, 72),
    (44, 128, 224),
    (248, 202, 56),
    (150, 88, 206),
    (246, 138, 30),
)
"""The card faces, in SQUARES' order, close to how phones draw 🟥🟩🟦🟨🟪🟧."""
RED: Colour = (255, 96, 88)
"""The mark of the colours G5 subtracts."""
EMPTY_SLOT: Colour = (30, 92, 66)
"""Where an absent colour's cards would stand (G5 ignores it)."""

# Layout, in pixels.
_TITLE_SIZE, _SUBTITLE_SIZE = 38, 26
_NAME_SIZE, _SCORE_SIZE, _TOTAL_SIZE = 30, 42, 26
_NAME_LINE = 36
_CARD_SIZE, _COUNT_SIZE = 27, 27
_PAD = 22
_PANEL_GAP = 16
_INFO_WIDTH = 370
_CARD_H, _CARD_STEP = 38, 44
_CARD_W = 112
"""The widest a card gets (two to four colours leave wide columns)."""
_COUNT_H = 42
_FOOTER_H = 72


def round_end_picture(t: Translator, reveal: RoundReveal[GapBoard, GapHand]) -> Picture:
    """G5 drawn: the round's head line, then every seat's collection by colour with the
    colours that score marked, its round score and total; the round's best score highlighted.

    Every text is the one the round's message uses (plain, translated); cards are written as
    the bot writes them (🟥7)."""
    table = reveal.table
    board = table.board
    result = board.result
    if result is None:
        raise PictureError("a round's end is drawn once the round is over")
    best = max(result.points)
    seats = []
    for seat in table.seats:
        n = seat.number
        seats.append(
            {
                "name": plain(seat_name(t, seat, table.seats)),
                "score": points_count(t, result.points[n]),
                "total": t.gettext("Total: {points}").format(points=table.scores[n]),
                "winner": result.points[n] == best,
                "columns": _columns(result.collections[n], colours_in_play(board.config.seats)),
            }
        )
    footer = ""
    if table.winner is not None:
        footer = plain(game_won_line(t, table))
    data = {
        "title": plain(
            t.gettext("🏁 Round {round} is over: every hand is empty.").format(
                round=table.round_number
            )
        ),
        "subtitle": plain(
            t.gettext("<b>Gap</b> · first to {target}").format(target=board.config.target)
        ),
        "seats": seats,
        "footer": footer,
    }
    return Picture(DRAWER, data)


def _columns(cards: Sequence[int], colours: int) -> list[dict[str, Any]]:
    """One column per colour in play (G1), its cards by value, marked as G5 counts them."""
    counts = colour_counts(cards)
    present = [n for n in counts if n > 0]
    largest = max(present, default=0)
    smallest = min(present, default=0)
    columns = []
    for colour in range(colours):
        n = counts[colour]
        mark = ""
        if n and n == largest:
            mark = LARGEST
        elif n and n == smallest:
            mark = SMALLEST
        own = sorted((c for c in cards if COLOUR[c] == colour), key=lambda c: VALUE[c])
        columns.append(
            {"colour": SQUARES[colour], "cards": [card_text(c) for c in own], "mark": mark}
        )
    return columns


# Reading the data back -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Column:
    colour: int
    values: tuple[str, ...]
    mark: str


@dataclass(frozen=True, slots=True)
class _Seat:
    name: str
    score: str
    total: str
    winner: bool
    columns: tuple[_Column, ...]


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise PictureError(f"{DRAWER}: {key!r} must be a text")
    return value


def _column(value: object) -> _Column:
    if not isinstance(value, dict):
        raise PictureError(f"{DRAWER}: a column is an object")
    square = _text(value, "colour")
    if square not in SQUARES:
        raise PictureError(f"{DRAWER}: no colour {square!r}")
    mark = _text(value, "mark")
    if mark not in _MARKS:
        raise PictureError(f"{DRAWER}: no mark {mark!r}")
    cards = value.get("cards")
    if not isinstance(cards, list):
        raise PictureError(f"{DRAWER}: a column's cards are a list")
    values = []
    for card in cards:
        # A card is written as the bot writes it: its colour's square, then its value.
        if not (isinstance(card, str) and card.startswith(square) and card[len(square) :]):
            raise PictureError(f"{DRAWER}: {card!r} is not a {square} card")
        values.append(card[len(square) :])
    return _Column(SQUARES.index(square), tuple(values), mark)


def _seat(value: object) -> _Seat:
    if not isinstance(value, dict):
        raise PictureError(f"{DRAWER}: a seat is an object")
    winner, columns = value.get("winner"), value.get("columns")
    if not isinstance(winner, bool) or not isinstance(columns, list):
        raise PictureError(f"{DRAWER}: a seat has a winner flag and columns")
    if len(columns) > len(SQUARES):
        raise PictureError(f"{DRAWER}: at most {len(SQUARES)} colours")
    return _Seat(
        _text(value, "name"),
        _text(value, "score"),
        _text(value, "total"),
        winner,
        tuple(_column(c) for c in columns),
    )


# Drawing -----------------------------------------------------------------------------------


def draw(picture: Picture) -> bytes:
    """The round's end as PNG bytes carrying its data; PictureError for another drawer or
    data this drawer cannot read."""
    if picture.drawer != DRAWER:
        raise PictureError(f"no Gap drawer {picture.drawer!r}")
    data = picture.data
    title, subtitle, footer = _text(data, "title"), _text(data, "subtitle"), _text(data, "footer")
    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not 1 <= len(raw_seats) <= len(SQUARES):
        raise PictureError(f"{DRAWER}: one to six seats")
    seats = [_seat(s) for s in raw_seats]

    heights = [_panel_height(s) for s in seats]
    top = MARGIN // 2 + _TITLE_SIZE + 14 + _SUBTITLE_SIZE + 28
    height = top + sum(heights) + _PANEL_GAP * (len(seats) - 1) + MARGIN // 2
    if footer:
        height += _FOOTER_H
    image, canvas = new_canvas(height)

    inner = WIDTH - 2 * MARGIN
    y = MARGIN // 2
    canvas.text((MARGIN, y), fit(title, _TITLE_SIZE, inner, True), INK, font(_TITLE_SIZE, True))
    y += _TITLE_SIZE + 14
    canvas.text((MARGIN, y), fit(subtitle, _SUBTITLE_SIZE, inner), MUTED, font(_SUBTITLE_SIZE))
    y = top
    for seat, panel_height in zip(seats, heights, strict=True):
        _draw_seat(canvas, seat, y, panel_height)
        y += panel_height + _PANEL_GAP
    if footer:
        text = fit(footer, _NAME_SIZE, inner, True)
        x = (WIDTH - text_width(text, _NAME_SIZE, True)) / 2
        canvas.text((x, y + 10), text, GOLD, font(_NAME_SIZE, True))
    return encode(image, data, _shadings())


def _panel_height(seat: _Seat) -> int:
    """Room for the name block or the tallest column, whichever is higher."""
    tallest = max((len(c.values) for c in seat.columns), default=0)
    columns = max(tallest, 1) * _CARD_STEP + _COUNT_H
    return 2 * _PAD + max(_info_height(seat), columns)


def _info_height(seat: _Seat) -> int:
    lines = len(_name_lines(seat.name))
    return lines * _NAME_LINE + 14 + _SCORE_SIZE + 16 + _TOTAL_SIZE


@functools.cache
def _name_lines(name: str) -> tuple[str, ...]:
    """A name on at most two lines of the name block (broken at spaces or after hyphens), cut
    with … when it needs more."""
    width = _INFO_WIDTH - 2 * _PAD
    # Each piece keeps what follows it: a space, or nothing after a hyphen.
    pieces = re.findall(r"[^\s-]*-+\s*|\S+\s*", drawable(name, _NAME_SIZE, True))
    first = ""
    while pieces and text_width((first + pieces[0]).rstrip(), _NAME_SIZE, True) <= width:
        first += pieces.pop(0)
    if not first:
        # A first word too long for a line is cut rather than broken.
        return (fit("".join(pieces), _NAME_SIZE, width, True),)
    rest = "".join(pieces).strip()
    return (first.rstrip(), fit(rest, _NAME_SIZE, width, True)) if rest else (first.rstrip(),)


def _draw_seat(canvas: ImageDraw.ImageDraw, seat: _Seat, y: int, height: int) -> None:
    """One seat's panel: name, round score and total on the left, its colour columns right."""
    left, right = MARGIN, WIDTH - MARGIN
    outline = GOLD if seat.winner else None
    canvas.rounded_rectangle(
        (left, y, right, y + height), 18, FELT_DARK, outline, 4 if seat.winner else 0
    )
    x = left + _PAD
    info = _INFO_WIDTH - 2 * _PAD
    name_colour = GOLD if seat.winner else INK
    line_y = y + _PAD
    for line in _name_lines(seat.name):
        canvas.text((x, line_y), line, name_colour, font(_NAME_SIZE, True))
        line_y += _NAME_LINE
    line_y += 14
    score = fit(seat.score, _SCORE_SIZE, info, True)
    canvas.text((x, line_y), score, name_colour, font(_SCORE_SIZE, True))
    line_y += _SCORE_SIZE + 16
    canvas.text((x, line_y), fit(seat.total, _TOTAL_SIZE, info), MUTED, font(_TOTAL_SIZE))

    if not seat.columns:
        return
    area_left = left + _INFO_WIDTH
    slot = (right - _PAD - area_left) // len(seat.columns)
    card_w = min(slot - 16, _CARD_W)
    base = y + height - _PAD - _COUNT_H
    for i, column in enumerate(seat.columns):
        cx = area_left + i * slot + (slot - card_w) // 2
        _draw_column(canvas, column, cx, card_w, base)


def _draw_column(canvas: ImageDraw.ImageDraw, column: _Column, x: int, w: int, base: int) -> None:
    """A colour's cards stacked up from `base`, lowest value at the bottom, and its count
    under them: +n for the colours G5 adds, a minus sign and n for those it subtracts."""
    face = CARD_RGB[column.colour]
    ink = _card_ink(face)
    count = len(column.values)
    if not count:
        # G5: an absent colour is ignored; its place stays, so colours line up across seats.
        canvas.rounded_rectangle((x, base - _CARD_H, x + w, base), 8, EMPTY_SLOT)
        canvas.rectangle((x + 8, base - 6, x + w - 8, base - 3), face)
    for k, value in enumerate(column.values):
        bottom = base - k * _CARD_STEP
        canvas.rounded_rectangle((x, bottom - _CARD_H, x + w, bottom), 8, face)
        tw = text_width(value, _CARD_SIZE, True)
        canvas.text((x + (w - tw) / 2, bottom - _CARD_H + 4), value, ink, font(_CARD_SIZE, True))
    if column.mark:
        mark = GOLD if column.mark == LARGEST else RED
        top = base - max(count, 1) * _CARD_STEP + (_CARD_STEP - _CARD_H)
        canvas.rounded_rectangle(
            (x - 5, top - 5, x + w + 5, base + _COUNT_H - 2), 11, None, mark, 3
        )
    label, colour = str(count) if count else "–", MUTED
    if column.mark == LARGEST:
        label, colour = f"+{count}", GOLD
    elif column.mark == SMALLEST:
        label, colour = f"\N{MINUS SIGN}{count}", RED
    tw = text_width(label, _COUNT_SIZE, True)
    canvas.text((x + (w - tw) / 2, base + 6), label, colour, font(_COUNT_SIZE, True))


def _light(colour: Colour) -> bool:
    """Whether dark text reads better than light text on `colour` (yellow, orange)."""
    r, g, b = colour
    return 0.299 * r + 0.587 * g + 0.114 * b > 150


def _card_ink(face: Colour) -> Colour:
    """The value's colour on a card of colour `face`."""
    return PIP if _light(face) else INK


_RAMP = 11
"""Steps between a colour and the colour behind it, for anti-aliased edges and text."""


def _shadings() -> tuple[Shading, ...]:
    """Every colour drawn over what it is drawn on (canvas.encode maps the picture onto them
    and their shades)."""
    text_on_felt = (INK, MUTED, GOLD, FELT_DARK)
    on_panel = (INK, MUTED, GOLD, RED, EMPTY_SLOT, *CARD_RGB)
    pairs = [(FELT, c) for c in text_on_felt]
    pairs += [(FELT_DARK, c) for c in on_panel]
    pairs += [(face, _card_ink(face)) for face in CARD_RGB]
    return tuple((back, front, _RAMP) for back, front in pairs)
