"""The game's end as a picture: the winner, the final ranking and every player's totals."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from ...i18n import Translator
from .. import texts
from ..views import TableView
from .canvas import (
    FELT,
    FELT_DARK,
    GOLD,
    INK,
    MARGIN,
    MUTED,
    SERIES,
    WIDTH,
    fit,
    font,
    new_canvas,
    text_width,
)
from .chart import (
    GRID,
    SCALE,
    SHINE,
    Chart,
    Series,
    field,
    number,
    numbers,
    png,
    text_field,
    wrap,
)
from .picture import JSON, Picture, PictureError, plain

TITLE_SIZE = 40
ROW = 62
"""The height of one player's row in the ranking."""
NAME_SIZE = 30
PANEL_PAD = 28
CHART_HEIGHT = 500
TROPHY = 64


def standings_picture(
    t: Translator, table: TableView[Any], history: Sequence[Sequence[int]]
) -> Picture:
    """The finished game's picture: `history[i]` holds every seat's total after round i + 1
    (the last row equals table.scores)."""
    if table.winner is None:
        raise PictureError("standings need a winner")
    seats = len(table.seats)
    if any(len(row) != seats for row in history):
        raise PictureError("every round of the history has one total per seat")
    if history and tuple(history[-1]) != tuple(table.scores):
        # The ranking shows the scores and the chart ends at the history's last row: they
        # must agree, or the picture contradicts itself.
        raise PictureError("the history's last totals are not the table's scores")
    title = plain(texts.standings(t, table).text.split("\n", 1)[0])
    # The winner first, then as the text's standings order them: by final total.
    order = sorted(
        table.seats,
        key=lambda s: (s.number != table.winner, -table.scores[s.number]),
    )
    players = [
        {
            "name": plain(texts.seat_name(t, seat, table.seats)),
            "total": table.scores[seat.number],
            "totals": [row[seat.number] for row in history],
        }
        for seat in order
    ]
    data: JSON = {
        "title": title,
        "players": players,
        "x_label": t.gettext("Round"),
        "y_label": t.gettext("Points"),
    }
    return Picture("standings", data)


def _players(data: JSON) -> list[tuple[str, int, list[float]]]:
    """The players' names, totals and per-round totals; PictureError if they are broken."""
    value = field(data, "players", list)
    if not 1 <= len(value) <= len(SERIES):
        raise PictureError(f"standings show 1 to {len(SERIES)} players, not {len(value)}")
    players = []
    for player in value:
        if not isinstance(player, dict):
            raise PictureError("a player in the standings is not an object")
        total = field(player, "total", int)
        players.append((text_field(player, "name"), total, numbers(player.get("totals"), "totals")))
    if len({len(p[2]) for p in players}) != 1:
        raise PictureError("every player has a total for every round")
    return players


def draw_standings(data: JSON) -> bytes:
    """The standings picture as PNG bytes: the title, the ranking (the winner in gold) and a
    chart of each player's total after every round."""
    title = text_field(data, "title")
    x_label, y_label = text_field(data, "x_label"), text_field(data, "y_label")
    players = _players(data)
    rounds = len(players[0][2])

    content = WIDTH - 2 * MARGIN
    title_size, title_lines = _title(title, content - TROPHY - 24)
    title_height = max(TROPHY, len(title_lines) * (title_size + 12) - 12)
    list_top = MARGIN + title_height + 32
    list_height = len(players) * ROW + 2 * 12
    chart_top = list_top + list_height + 24
    height = chart_top + (CHART_HEIGHT + 24 if rounds else 0) + MARGIN - 24
    image, draw = new_canvas(height)

    _trophy(image, (MARGIN, MARGIN + (title_height - TROPHY) // 2))
    y = MARGIN + (title_height - len(title_lines) * (title_size + 12) + 12) // 2
    for line in title_lines:
        draw.text((MARGIN + TROPHY + 24, y), line, font=font(title_size, True), fill=INK)
        y += title_size + 12

    _ranking(draw, players, (MARGIN, list_top, WIDTH - MARGIN, list_top + list_height))

    if rounds:
        box = (MARGIN, chart_top, WIDTH - MARGIN, chart_top + CHART_HEIGHT)
        draw.rounded_rectangle(box, radius=20, fill=FELT_DARK)
        dot = 5 if rounds <= 12 else 4 if rounds <= 20 else 3
        series = [
            Series(
                values=totals,
                colour=SERIES[i],
                label=name,
                width=5 if i == 0 else 3,
                dot=dot + 1 if i == 0 else dot,
            )
            for i, (name, _, totals) in enumerate(players)
        ]
        chart = Chart(series, x_label=x_label, y_label=y_label, origin=0)
        chart.draw(
            image,
            (
                box[0] + PANEL_PAD,
                box[1] + PANEL_PAD,
                box[2] - PANEL_PAD,
                box[3] - PANEL_PAD + 6,
            ),
        )
    return png(image, data)


def _title(title: str, width: int) -> tuple[int, list[str]]:
    """The title's size and lines: two lines at full size, else three a little smaller (a
    long name must not cut off the points), else cut."""
    for size, most in ((TITLE_SIZE, 2), (TITLE_SIZE - 6, 3)):
        lines = wrap(title, size, width, bold=True, lines=99)
        if len(lines) <= most:
            return size, lines
    return TITLE_SIZE - 6, wrap(title, TITLE_SIZE - 6, width, bold=True, lines=3)


def _ranking(
    draw: ImageDraw.ImageDraw,
    players: Sequence[tuple[str, int, Sequence[float]]],
    box: tuple[int, int, int, int],
) -> None:
    """Place, colour, name and total of each player, one row each; the winner's in gold."""
    left, top, right, _ = box
    draw.rounded_rectangle(box, radius=20, fill=FELT_DARK)
    totals = [number(total) for _, total, _ in players]
    total_width = max(text_width(t, NAME_SIZE, True) for t in totals)
    for i, (name, _, _) in enumerate(players):
        y = top + 12 + i * ROW + ROW // 2
        winner = i == 0
        colour = GOLD if winner else INK
        if i:
            draw.line([(left + 24, y - ROW // 2), (right - 24, y - ROW // 2)], fill=GRID, width=1)
        place_font = font(NAME_SIZE, True)
        draw.text(
            (left + 48, y), str(i + 1), font=place_font, fill=GOLD if winner else MUTED, anchor="mm"
        )
        # The colour of the player's line in the chart below: a short stroke with its dot.
        sx = left + 88
        draw.line([(sx, y), (sx + 36, y)], fill=SERIES[i], width=5 if winner else 3)
        draw.ellipse((sx + 12, y - 6, sx + 24, y + 6), fill=SERIES[i])
        name_left = sx + 56
        room = right - 32 - total_width - 32 - name_left
        text = fit(name, NAME_SIZE, room, bold=winner)
        draw.text((name_left, y), text, font=font(NAME_SIZE, winner), fill=colour, anchor="lm")
        draw.text((right - 32, y), totals[i], font=font(NAME_SIZE, True), fill=colour, anchor="rm")


def _trophy(image: Image.Image, at: tuple[int, int]) -> None:
    """A gold cup (the title's 🏆, which the font cannot draw), drawn smooth."""
    s = TROPHY * SCALE
    big = Image.new("RGB", (s, s), FELT)
    d = ImageDraw.Draw(big)
    u = s / 16
    # Handles first, so the cup covers their inner half.
    d.ellipse((1 * u, 2 * u, 6 * u, 8 * u), outline=GOLD, width=round(1.2 * u))
    d.ellipse((10 * u, 2 * u, 15 * u, 8 * u), outline=GOLD, width=round(1.2 * u))
    d.rectangle((4 * u, 1 * u, 12 * u, 5 * u), fill=GOLD)
    d.chord((4 * u, -3 * u, 12 * u, 10.5 * u), 0, 180, fill=GOLD)
    d.rectangle((7.2 * u, 10 * u, 8.8 * u, 12.5 * u), fill=GOLD)
    d.rounded_rectangle((4.5 * u, 12.5 * u, 11.5 * u, 15 * u), radius=u * 0.6, fill=GOLD)
    d.rectangle((6.8 * u, 2.5 * u, 7.6 * u, 6 * u), fill=SHINE)
    image.paste(big.reduce(SCALE), at)
