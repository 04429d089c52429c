"""The Gaple round-end picture: golden images of replayed rounds, and data that is the text's."""

from __future__ import annotations

import copy
import io
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest
from PIL import Image

from gaple_bot.games.gaple.board import GapleBoard, GapleHand
from gaple_bot.games.gaple.kind import GapleKind, GapleMatch
from gaple_bot.games.gaple.present import GaplePresentation
from gaple_bot.games.gaple.present.picture import (
    DRAWER,
    LINE_LENGTHS,
    PANEL_PAD,
    _snake,
    draw,
    round_end_picture,
)
from gaple_bot.games.gaple.rules import TILES, EndReason, Played, tile_text, tiles_in
from gaple_bot.games.pictures import Picture, PictureError, plain
from gaple_bot.games.pictures.canvas import MARGIN, MAX_HEIGHT, WIDTH, decode_data
from gaple_bot.games.views import RoundReveal, SeatInfo
from gaple_bot.i18n import Translator

from .golden import assert_matches_golden
from .rounds import common_translator, finish_round, game_translator, round_end_reveal

MAX_BYTES = 200_000

LONG_NAME = "Maximiliana Gutiérrez-Sánchez de la Torre 🌶️"
"""Longer than a seat's name column: the picture cuts it with …"""


@dataclass(frozen=True)
class Round:
    """A replayed round: how to deal it, how many rounds before it, and who sits where."""

    rules: str
    seats: tuple[SeatInfo, ...]
    seed: int
    rounds: int
    language: str


def translator(language: str) -> Translator:
    """Gaple's translator, as the presentation hands it to the picture."""
    return game_translator(language, "gaple")


def replayed(case: Round) -> GapleMatch:
    """The match after `case.rounds` rounds, each played with the first legal move."""
    kind = GapleKind()
    config = kind.make_config({"rules": case.rules, "target": "500"}, len(case.seats))
    rng = random.Random(case.seed)
    match, _ = kind.new_match(config, rng)
    for number in range(case.rounds):
        if number:
            match.start_round(match.next_deal(rng))
        finish_round(match)
    return match


def reveal_of(case: Round) -> RoundReveal[GapleBoard, GapleHand]:
    """The round's end as service/play.py `_commit` builds it from `table()`."""
    match = replayed(case)
    return round_end_reveal(match, GapleKind.name, case.seats, case.language, "Domino night")


ROUNDS: dict[str, Round] = {
    "gaple_classic_gaple": Round(
        "classic",
        (
            SeatInfo(0, 101, LONG_NAME),
            SeatInfo(1, None, "", computer_level="easy"),
            SeatInfo(2, 103, "Dédé 🎲 <&>"),
            SeatInfo(3, 104, "Budi", autoplay=True),
        ),
        seed=127,
        rounds=3,
        language="en",
    ),
    "gaple_classic_blocked": Round(
        "classic",
        (
            SeatInfo(0, 101, "Zoé"),
            SeatInfo(1, 102, "Jean-Baptiste 🃏"),
            SeatInfo(2, None, "", computer_level="hard"),
            SeatInfo(3, 104, "Kiki"),
        ),
        seed=288,
        rounds=2,
        language="fr",
    ),
    "gaple_two_seats": Round(
        "classic",
        (SeatInfo(0, 101, "Jürgen 🍺"), SeatInfo(1, None, "", computer_level="normal")),
        seed=70,
        rounds=3,
        language="de",
    ),
    "gaple_discards_five": Round(
        "discards",
        (
            SeatInfo(0, 101, "Putri 🌸"),
            SeatInfo(1, None, "", computer_level="hard"),
            SeatInfo(2, 103, LONG_NAME),
            SeatInfo(3, 104, "", autoplay=True, former=True),
            SeatInfo(4, 105, "🐉🐉🐉"),
        ),
        seed=144,
        rounds=2,
        language="id",
    ),
}


def picture_of(name: str) -> Picture:
    case = ROUNDS[name]
    return round_end_picture(translator(case.language), reveal_of(case))


def _drawn(name: str) -> Callable[[], bytes]:
    return lambda: draw(picture_of(name))


CASES: dict[str, Callable[[], bytes]] = {name: _drawn(name) for name in ROUNDS}
"""The golden cases: each draws a replayed round's end."""


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    """Each case draws as its golden image."""
    assert_matches_golden(name, CASES[name]())


def test_cases_are_what_they_say() -> None:
    """The golden rounds cover a Gaple finish with a line that turns, a blocked line, two
    seats, and five seats with discards (a full line, and discards shown)."""
    boards = {name: reveal_of(case).table.board for name, case in ROUNDS.items()}
    results = {name: board.result for name, board in boards.items()}
    assert all(result is not None for result in results.values())
    gaple = results["gaple_classic_gaple"]
    assert gaple is not None and gaple.reason is EndReason.GAPLE
    assert len(boards["gaple_classic_gaple"].line) >= 20
    blocked = results["gaple_classic_blocked"]
    assert blocked is not None and blocked.reason is EndReason.BLOCKED
    assert len(ROUNDS["gaple_two_seats"].seats) == 2
    five = reveal_of(ROUNDS["gaple_discards_five"])
    assert len(five.seats) == 5 and len(five.table.board.line) >= 20
    assert sum(1 for shown in five.seats if shown.discards) >= 2


def _tile_texts(mask: int) -> set[str]:
    return {tile_text(tile) for tile in tiles_in(mask)}


@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_data_holds_every_tile(name: str) -> None:
    """The line in its order, oriented as it lies, with the tile it grew from; every
    revealed hand and discard, as the text writes them."""
    reveal = reveal_of(ROUNDS[name])
    board = reveal.table.board
    data = picture_of(name).data
    assert data["line"] == [f"[{a}|{b}]" for a, b in board.line]
    first = data["first"]
    played = [e for e in board.events if isinstance(e, Played)]
    if board.config.rule_set.value == "classic":
        # C4/C5: the first play, wherever later plays pushed it.
        lead = TILES[played[0].tile]
        assert sorted(board.line[first]) == sorted(lead)
        assert played[0].ends is None
    else:
        # D1: the starting tile, which nobody played.
        on_line = {tuple(sorted(tile)) for tile in board.line}
        played_tiles = {TILES[e.tile] for e in played}
        assert on_line - played_tiles == {tuple(sorted(board.line[first]))}
    assert len(data["hands"]) == len(reveal.seats)
    for shown, seat in zip(reveal.seats, data["hands"], strict=True):
        assert set(seat["row"]["tiles"]) == _tile_texts(shown.hand)
        assert len(seat["row"]["tiles"]) == shown.hand.bit_count()
        if shown.discards:
            assert set(seat["discards"]["tiles"]) == _tile_texts(shown.discards)
        else:
            assert seat["discards"] is None


def _row_text(row: dict[str, Any]) -> str:
    """The text's row the data splits: name, tiles (a dash for none), pips."""
    return f"{row['before']}{' '.join(row['tiles']) or '—'}{row['after']}"


def _run_text(run: dict[str, Any]) -> str:
    """The text's points or totals line the data splits around its items."""
    items = run["sep"].join(item["text"] for item in run["items"])
    return f"{run['before']}{items}{run['after']}"


@pytest.mark.parametrize("name", sorted(ROUNDS))
def test_data_is_the_text(name: str) -> None:
    """Title, every seat's row, the points and the totals are the lines of the round's text
    (names, pips and points as it writes them), made plain; the winner is the round's."""
    case = ROUNDS[name]
    reveal = reveal_of(case)
    t = translator(case.language)
    # A name of emoji only, which the font cannot draw, is the seat's number in the picture.
    seats = tuple(
        replace(s, name=t.gettext("Player {number}").format(number=s.number + 1))
        if not (s.is_computer or s.former or any(c.isalnum() for c in s.name))
        else s
        for s in reveal.table.seats
    )
    named = replace(reveal, table=replace(reveal.table, seats=seats))
    text = plain(GaplePresentation().round_end(common_translator(case.language), named).text)
    data = picture_of(name).data
    drawn = [*data["title"], ""]
    for seat in data["hands"]:
        drawn.append(_row_text(seat["row"]))
        if seat["discards"] is not None:
            drawn.append("   " + _row_text(seat["discards"]))
    drawn += ["", _run_text(data["points"]), _run_text(data["totals"])]
    assert "\n".join(drawn) == text
    result = reveal.table.board.result
    assert result is not None
    winners = [seat["row"]["winner"] for seat in data["hands"]]
    assert winners == [n == result.winner for n in range(len(reveal.seats))]
    # Totals name every seat in order; points only the seats that scored.
    totals = [item["winner"] for item in data["totals"]["items"]]
    assert totals == [n == result.winner for n in range(len(reveal.seats))]
    scored = [n for n, points in enumerate(result.points) if points]
    points = [item["winner"] for item in data["points"]["items"]]
    assert points == [n == result.winner for n in scored]


def test_data_is_plain_json() -> None:
    """Only JSON values, no HTML tag or entity: the data stores and travels as it is."""
    for name in ROUNDS:
        picture = picture_of(name)
        assert picture.drawer == DRAWER
        assert Picture.from_json(picture.to_json()) == picture
        flat = repr(picture.data)
        assert not re.search(r"<b>|</b>|&lt;|&amp;|&gt;", flat)
    assert "Dédé 🎲 <&>" in repr(picture_of("gaple_classic_gaple").data)


@pytest.mark.parametrize("name", sorted(CASES))
def test_png(name: str) -> None:
    """1080 wide, within the height Telegram takes, under 200 KB, carrying its data."""
    picture = picture_of(name)
    png = draw(picture)
    assert len(png) < MAX_BYTES
    assert decode_data(png) == picture.data
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.width == WIDTH
        assert 0 < image.height <= MAX_HEIGHT


def test_wrong_drawer() -> None:
    """Another drawer's picture is refused."""
    picture = picture_of("gaple_two_seats")
    with pytest.raises(PictureError):
        draw(Picture("standings", picture.data))
    with pytest.raises(PictureError):
        draw(Picture("gaple.hand", picture.data))


BROKEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "no line": lambda d: d.pop("line"),
    "line not a list": lambda d: d.__setitem__("line", "[6|6]"),
    "not a tile": lambda d: d["line"].__setitem__(0, "[7|1]"),
    "tile not text": lambda d: d["line"].__setitem__(0, [6, 6]),
    "first off the line": lambda d: d.__setitem__("first", len(d["line"])),
    "first not a number": lambda d: d.__setitem__("first", "0"),
    "first a flag": lambda d: d.__setitem__("first", True),
    "title not texts": lambda d: d.__setitem__("title", [1]),
    "hands not a list": lambda d: d.__setitem__("hands", {}),
    "row without tiles": lambda d: d["hands"][0]["row"].pop("tiles"),
    "hand tile broken": lambda d: d["hands"][0]["row"].__setitem__("tiles", ["6|4"]),
    "winner not a flag": lambda d: d["hands"][0]["row"].__setitem__("winner", "yes"),
    "discards not a row": lambda d: d["hands"][0].__setitem__("discards", "[1|0]"),
    "points missing": lambda d: d.pop("points"),
    "item without text": lambda d: d["totals"]["items"][0].pop("text"),
    "sep not text": lambda d: d["totals"].__setitem__("sep", None),
}


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_broken_data(what: str) -> None:
    """Data the drawer cannot read is a PictureError, never another exception."""
    data = copy.deepcopy(picture_of("gaple_classic_gaple").data)
    BROKEN[what](data)
    with pytest.raises(PictureError):
        draw(Picture(DRAWER, data))


def test_too_many_rows_is_refused() -> None:
    """Data far beyond any round (a thousand hands) is refused, not drawn past the limit."""
    data = picture_of("gaple_two_seats").data
    data = {**data, "hands": data["hands"] * 500}
    with pytest.raises(PictureError):
        draw(Picture(DRAWER, data))


def test_line_stays_inside_and_never_overlaps() -> None:
    """However long the line (every replayed round of many games, and all 28 tiles), the
    snake keeps every tile inside the width and no two tiles overlap."""
    lines: list[tuple[tuple[int, int], ...]] = []
    for seed in range(40):
        for rules, seats in (("classic", 4), ("classic", 2), ("discards", 5), ("discards", 4)):
            infos = tuple(SeatInfo(n, n + 1, f"P{n}") for n in range(seats))
            lines.append(reveal_of(Round(rules, infos, seed, 1, "en")).table.board.line)
    # A line of all 28 tiles, doubles every other tile where it can be.
    chain = [(0, 0), (0, 1), (1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5)]
    chain += [(5, 5), (5, 6), (6, 6), (6, 0), (0, 2), (2, 4), (4, 6), (6, 1), (1, 3), (3, 5)]
    chain += [(5, 0), (0, 3), (3, 6), (6, 2), (2, 5), (5, 1), (1, 4), (4, 0)]
    assert len({tuple(sorted(t)) for t in chain}) == 28
    lines.append(tuple(chain))
    width = WIDTH - 2 * MARGIN - 2 * PANEL_PAD
    for line in lines:
        for length in LINE_LENGTHS:
            placed, _, height = _snake(line, width, length)
            assert sorted(p.index for p in placed) == list(range(len(line)))
            boxes = []
            for p in placed:
                w, h = (length // 2, length) if p.upright else (length, length // 2)
                assert p.x >= 0 and p.x + w <= width and p.y >= 0 and p.y + h <= height
                boxes.append((p.x, p.y, p.x + w, p.y + h))
            for i, a in enumerate(boxes):
                for b in boxes[i + 1 :]:
                    assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_same_round_same_picture() -> None:
    """Drawing twice gives the same bytes (no randomness, cached faces change nothing)."""
    picture = picture_of("gaple_discards_five")
    assert draw(picture) == draw(replace(picture))
