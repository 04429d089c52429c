"""The Gap round-end picture: golden images, and data that is the round's G5 count, nothing more."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image

from gaple_bot.games.gap.board import GapBoard, GapHand
from gaple_bot.games.gap.kind import GapKind, GapMatch
from gaple_bot.games.gap.present import GapPresentation
from gaple_bot.games.gap.present.cards import SQUARES, card_text
from gaple_bot.games.gap.present.picture import DRAWER, LARGEST, SMALLEST, draw, round_end_picture
from gaple_bot.games.gap.rules import COLOUR, VALUE, colour_counts, colours_in_play
from gaple_bot.games.pictures import Picture, PictureError
from gaple_bot.games.pictures.canvas import MAX_HEIGHT, WIDTH, decode_data
from gaple_bot.games.texts import points_count
from gaple_bot.games.views import RoundReveal, SeatInfo, TableView
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translator

from .golden import assert_matches_golden
from .rounds import common_translator, finish_round, game_translator, round_end_reveal

MAX_BYTES = 200_000
"""A round's picture stays small enough to send quickly."""

LONG_NAME = "Maximiliane-Friederike von Hohenzollern-Sigmaringen"
PEOPLE = (
    SeatInfo(0, 100, "Ann <&>"),
    SeatInfo(1, None, "", computer_level="easy"),
    SeatInfo(2, 102, LONG_NAME, language="de"),
    SeatInfo(3, 103, "🦊 Rubah 🌙"),
    SeatInfo(4, 104, "Budi", autoplay=True, language="id"),
    SeatInfo(5, None, "", computer_level="hard"),
)
"""People, computers, a seat on autoplay, a long name and an emoji name."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """A round played out: `seats` seats from `seed`, the last of `rounds` rounds shown."""

    seats: int
    seed: int
    rounds: int = 1
    target: int = 30
    language: str = "en"


SCENARIOS = {
    "gap_2_seats_negative": Scenario(2, 7, rounds=2),
    "gap_3_seats": Scenario(3, 5),
    "gap_4_seats_tied": Scenario(4, 4, rounds=2),
    "gap_6_seats_game_over": Scenario(6, 13, rounds=2, target=10),
}
"""The golden cases: two seats with a negative round and total, three (five colours), four with
two seats tied for the round's best, and six with long and emoji names in the round that ends
the game."""


def translator(language: str) -> Translator:
    """Gap's translator, as the presentation hands it to the picture."""
    return game_translator(language, "gap")


def play(scenario: Scenario) -> GapMatch:
    """The match after `scenario.rounds` rounds in which every seat makes its first legal
    move (the same round every time: the deals come from fixed seeds)."""
    kind = GapKind()
    config = {"seats": scenario.seats, "target": scenario.target}
    match, _ = kind.new_match(config, random.Random(scenario.seed))
    for number in range(scenario.rounds):
        if number:
            match.start_round(match.next_deal(random.Random(scenario.seed * 1000 + number)))
        finish_round(match)
    return match


def reveal_of(scenario: Scenario) -> RoundReveal[GapBoard, GapHand]:
    """The finished round's reveal, its table built as service/play.py `table()` builds it."""
    match = play(scenario)
    seats = PEOPLE[: scenario.seats]
    return round_end_reveal(match, GapKind.name, seats, scenario.language, "Gap night")


def picture_of(scenario: Scenario) -> tuple[Picture, RoundReveal[GapBoard, GapHand]]:
    """The picture of the scenario's last round, and the reveal it was built from."""
    reveal = reveal_of(scenario)
    return round_end_picture(translator(scenario.language), reveal), reveal


def _case(scenario: Scenario) -> Callable[[], bytes]:
    return lambda: draw(picture_of(scenario)[0])


CASES: dict[str, Callable[[], bytes]] = {
    name: _case(scenario) for name, scenario in SCENARIOS.items()
}
"""Golden cases for tests.games.pictures.regenerate."""

EVERY = [
    *SCENARIOS.values(),
    *(Scenario(seats, seed) for seats in (2, 3, 5, 6) for seed in (11, 12)),
    *(Scenario(4, 3, rounds=2, language=language) for language in SUPPORTED_LANGUAGES),
]
"""Every scenario the data tests read: the golden ones, more tables, every language."""


def _id(scenario: Scenario) -> str:
    return f"{scenario.seats}s-{scenario.seed}-r{scenario.rounds}-{scenario.language}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden(name: str) -> None:
    """Each golden case draws as its stored image."""
    assert_matches_golden(name, CASES[name]())


def test_the_golden_cases_cover_what_they_say() -> None:
    """2, 4 and 6 seats, a negative round score and a finished game are among the cases."""
    seats = {s.seats for s in SCENARIOS.values()}
    assert {2, 4, 6} <= seats
    results = [play(s).game.results[-1] for s in SCENARIOS.values()]
    assert any(p < 0 for r in results for p in r.points)
    assert any(play(s).is_over for s in SCENARIOS.values())


@pytest.mark.parametrize("scenario", EVERY, ids=_id)
def test_every_collected_card_is_in_its_colour_column(scenario: Scenario) -> None:
    """G1/G5: one column per colour in play, in the bot's colour order; each holds exactly the
    seat's collected cards of that colour, by value, written as the bot writes them (🟥7)."""
    picture, reveal = picture_of(scenario)
    result = reveal.table.board.result
    assert result is not None
    colours = colours_in_play(scenario.seats)
    for seat, collection in zip(picture.data["seats"], result.collections, strict=True):
        assert [c["colour"] for c in seat["columns"]] == list(SQUARES[:colours])
        for colour, column in enumerate(seat["columns"]):
            own = sorted((c for c in collection if COLOUR[c] == colour), key=VALUE.__getitem__)
            assert column["cards"] == [card_text(c) for c in own]
        drawn = [card for column in seat["columns"] for card in column["cards"]]
        assert sorted(drawn) == sorted(card_text(c) for c in collection)


@pytest.mark.parametrize("scenario", EVERY, ids=_id)
def test_the_marked_colours_are_g5_s_spread(scenario: Scenario) -> None:
    """G5: the colours tied for the largest count are marked largest; those tied for the
    smallest count, when not also the largest, smallest; absent colours are not marked. The
    marked counts add up to the rules' score."""
    picture, reveal = picture_of(scenario)
    result = reveal.table.board.result
    assert result is not None
    for seat, collection, points in zip(
        picture.data["seats"], result.collections, result.points, strict=True
    ):
        counts = colour_counts(collection)
        present = {colour: n for colour, n in enumerate(counts) if n}
        top = {c for c, n in present.items() if n == max(present.values())}
        bottom = {c for c, n in present.items() if n == min(present.values())} - top
        marks = [column["mark"] for column in seat["columns"]]
        assert {i for i, m in enumerate(marks) if m == LARGEST} == top
        assert {i for i, m in enumerate(marks) if m == SMALLEST} == bottom
        assert {i for i, m in enumerate(marks) if m} == top | bottom
        added = sum(counts[c] for c in top) - sum(counts[c] for c in bottom)
        assert added == points


@pytest.mark.parametrize("scenario", EVERY, ids=_id)
def test_scores_totals_and_names_are_the_message_s(scenario: Scenario) -> None:
    """Each seat's round score is the one its line of the round's message gives, its total the
    table's; the round's best score (ties for each) is the winner; the head line is the
    message's first line; a finished game names its winner."""
    picture, reveal = picture_of(scenario)
    t = translator(scenario.language)
    result = reveal.table.board.result
    assert result is not None
    text = GapPresentation().round_end(common_translator(scenario.language), reveal).text
    lines = text.split("\n")
    data = picture.data
    assert data["title"] == lines[0]
    for n, seat in enumerate(data["seats"]):
        line = lines[2 + n]
        assert int(re.sub(r".*= ", "", line)) == result.points[n]
        assert seat["score"] == points_count(t, result.points[n])
        assert str(reveal.table.scores[n]) in seat["total"]
        assert seat["winner"] == (result.points[n] == max(result.points))
    # Plain text: the HTML escapes of the message are undone.
    assert data["seats"][0]["name"] == "Ann <&>"
    assert (data["footer"] != "") == (reveal.table.winner is not None)


@pytest.mark.parametrize("scenario", EVERY, ids=_id)
def test_the_png_carries_its_data_and_fits(scenario: Scenario) -> None:
    """The PNG is 1080 wide, within Telegram's height, under 200 KB, and carries exactly the
    picture's data, which is plain JSON."""
    picture, _ = picture_of(scenario)
    assert picture.drawer == DRAWER
    assert json.loads(json.dumps(picture.to_json())) == picture.to_json()
    assert Picture.from_json(picture.to_json()) == picture
    png = draw(picture)
    assert len(png) < MAX_BYTES
    assert decode_data(png) == picture.data
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.width == WIDTH
        assert 0 < image.height <= MAX_HEIGHT


def test_the_data_holds_no_card_outside_the_collections() -> None:
    """Only collected cards are named: nothing of the middle, the pile or a hand."""
    picture, reveal = picture_of(SCENARIOS["gap_4_seats_tied"])
    result = reveal.table.board.result
    assert result is not None
    collected = {card_text(c) for cards in result.collections for c in cards}
    flat = json.dumps(picture.data, ensure_ascii=False)
    named = set(re.findall("[" + "".join(SQUARES) + "][0-9]", flat))
    assert named == collected


def test_an_unfinished_round_is_not_drawn() -> None:
    """The picture is the round's end: a round still in play raises PictureError."""
    reveal = reveal_of(SCENARIOS["gap_4_seats_tied"])
    board = reveal.table.board
    table = TableView(**{**_fields(reveal.table), "board": _unfinished(board)})
    with pytest.raises(PictureError):
        round_end_picture(translator("en"), RoundReveal(table, reveal.seats))


def _fields(table: TableView[GapBoard]) -> dict[str, Any]:
    return {name: getattr(table, name) for name in TableView.__dataclass_fields__}


def _unfinished(board: GapBoard) -> GapBoard:
    return GapBoard(
        board.config,
        board.middle,
        board.pile_count,
        board.hand_counts,
        board.collections,
        board.events,
        None,
    )


def test_another_drawer_is_refused() -> None:
    """Only 'gap.round' is Gap's."""
    picture, _ = picture_of(SCENARIOS["gap_2_seats_negative"])
    with pytest.raises(PictureError):
        draw(Picture("gaple.round", picture.data))


def _broken(edit: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    """The 2-seat case's data, changed by `edit` (a copy: the case is left alone)."""
    picture, _ = picture_of(SCENARIOS["gap_2_seats_negative"])
    data: dict[str, Any] = json.loads(json.dumps(picture.data))
    edit(data)
    return data


BROKEN: dict[str, Callable[[dict[str, Any]], object]] = {
    "no title": lambda d: d.pop("title"),
    "title not text": lambda d: d.update(title=3),
    "no footer": lambda d: d.pop("footer"),
    "seats not a list": lambda d: d.update(seats={"0": d["seats"][0]}),
    "no seat": lambda d: d.update(seats=[]),
    "seven seats": lambda d: d.update(seats=d["seats"] * 4),
    "seat not an object": lambda d: d["seats"].append("Ann"),
    "winner not a flag": lambda d: d["seats"][0].update(winner="yes"),
    "no score": lambda d: d["seats"][0].pop("score"),
    "columns missing": lambda d: d["seats"][1].pop("columns"),
    "seven columns": lambda d: d["seats"][0].update(columns=d["seats"][0]["columns"] * 2),
    "unknown colour": lambda d: d["seats"][0]["columns"][0].update(colour="⬛"),
    "unknown mark": lambda d: d["seats"][0]["columns"][0].update(mark="best"),
    "card of another colour": lambda d: d["seats"][0]["columns"][0].update(cards=["🟩4"]),
    "card without value": lambda d: d["seats"][0]["columns"][0].update(cards=["🟥"]),
    "card not text": lambda d: d["seats"][0]["columns"][0].update(cards=[4]),
    "cards not a list": lambda d: d["seats"][0]["columns"][0].update(cards="🟥4"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_data_is_refused(name: str) -> None:
    """Data the drawer cannot read raises PictureError, never another error."""
    with pytest.raises(PictureError):
        draw(Picture(DRAWER, _broken(BROKEN[name])))


def test_the_tallest_possible_picture_still_fits() -> None:
    """Six seats each holding all ten cards of every colour (more than a deck has) is still
    drawn within Telegram's height and the size limit."""
    picture, _ = picture_of(SCENARIOS["gap_6_seats_game_over"])
    data: dict[str, Any] = json.loads(json.dumps(picture.data))
    for seat in data["seats"]:
        seat["name"] = LONG_NAME * 3
        for column in seat["columns"]:
            column["cards"] = [f"{column['colour']}{value}" for value in range(10)]
    png = draw(Picture(DRAWER, data))
    assert len(png) < MAX_BYTES
    with Image.open(io.BytesIO(png)) as image:
        assert image.width == WIDTH and image.height <= MAX_HEIGHT
