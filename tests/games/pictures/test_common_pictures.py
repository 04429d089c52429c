"""The common pictures: the game's standings and the /stats card, their data and golden images."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import pytest
from PIL import Image

from gaple_bot.games.pictures import Picture, PictureError, canvas
from gaple_bot.games.pictures.chart import nice_ticks, spread, wrap, x_ticks
from gaple_bot.games.pictures.standings import draw_standings, standings_picture
from gaple_bot.games.pictures.stats import draw_stats, stats_picture
from gaple_bot.games.views import SeatInfo, TableView
from gaple_bot.i18n import Translator, Translators

from .golden import assert_matches_golden

MAX_BYTES = 200_000


@cache
def translator(language: str = "en") -> Translator:
    """The common-domain translator of `language`."""
    return Translators("en").get(language)


def person(number: int, name: str, autoplay: bool = False) -> SeatInfo:
    """A person's seat."""
    return SeatInfo(number=number, user_id=1000 + number, name=name, autoplay=autoplay)


def computer(number: int, level: str = "normal") -> SeatInfo:
    """A computer player's seat."""
    return SeatInfo(number=number, user_id=None, name="", computer_level=level)


def finished(
    seats: Sequence[SeatInfo], history: Sequence[Sequence[int]], winner: int, kind: str = "gaple"
) -> TableView[Any]:
    """A finished table whose scores are the history's last row."""
    return TableView(
        game_id=7,
        version=40,
        chat_id=-100,
        thread_id=None,
        kind=kind,
        config={},
        round_number=len(history),
        seats=tuple(seats),
        scores=tuple(history[-1]),
        to_move=None,
        deadline=None,
        winner=winner,
        board=None,
    )


def running_totals(per_round: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each round's totals from each round's points."""
    totals = [0] * len(per_round[0])
    out = []
    for points in per_round:
        totals = [a + b for a, b in zip(totals, points, strict=True)]
        out.append(totals)
    return out


TWO_HISTORY = running_totals([[30, 12], [0, 45], [70, 8]])
SIX_HISTORY = running_totals(
    [
        [22, 0, 14, 9, 0, 31],
        [0, 40, 8, 0, 17, 3],
        [35, 0, 0, 26, 12, 0],
        [10, 18, 22, 0, 0, 14],
        [0, 0, 30, 44, 9, 6],
        [41, 12, 0, 0, 20, 0],
        [0, 27, 15, 10, 0, 33],
        [38, 0, 6, 12, 25, 0],
        [19, 8, 0, 0, 0, 21],
    ]
)
GAP_HISTORY = running_totals(
    [[-20, 35, 10, -5], [15, -30, 25, -10], [40, -15, -20, 5], [-10, 20, 30, -25]]
)
LONG_HISTORY = running_totals(
    [[(7 * r + 3 * s) % 23 - (5 if (r + s) % 4 == 0 else 0) for s in range(3)] for r in range(30)]
)


def six_seats() -> list[SeatInfo]:
    """Six seats with long, accented, emoji and computer names."""
    return [
        person(0, "Bartholomew Fitzgerald-Montgomery the Third of Wessex"),
        person(1, "Siti 🌸 Nurhaliza"),
        computer(2, "hard"),
        person(3, "Zoë Müller", autoplay=True),
        person(4, "Đặng Thị Ngọc Hân ✨✨"),
        computer(5, "easy"),
    ]


def two_players() -> Picture:
    """Two people, three rounds."""
    table = finished([person(0, "Ana"), person(1, "Budi")], TWO_HISTORY, winner=0)
    return standings_picture(translator(), table, TWO_HISTORY)


def six_players() -> Picture:
    """Six players with hard names, nine rounds: the largest standings."""
    table = finished(six_seats(), SIX_HISTORY, winner=0)
    return standings_picture(translator(), table, SIX_HISTORY)


def six_players_german() -> Picture:
    """The six players in German (accents, longer words)."""
    table = finished(six_seats(), SIX_HISTORY, winner=0)
    return standings_picture(translator("de"), table, SIX_HISTORY)


def gap_negative() -> Picture:
    """Gap totals below zero, the winner not in seat 0."""
    seats = [person(0, "Rina"), person(1, "Joko"), person(2, "Maya"), computer(3)]
    table = finished(seats, GAP_HISTORY, winner=2, kind="gap")
    return standings_picture(translator(), table, GAP_HISTORY)


def single_round() -> Picture:
    """A game won in its first round."""
    history = [[152, 20, 35]]
    table = finished([person(0, "Ana"), person(1, "Budi"), computer(2, "easy")], history, 0)
    return standings_picture(translator(), table, history)


def thirty_rounds() -> Picture:
    """Three players, thirty rounds: the longest line."""
    seats = [person(0, "Ana"), person(1, "Budi"), person(2, "Citra")]
    scores = LONG_HISTORY[-1]
    winner = max(range(3), key=lambda s: scores[s])
    table = finished(seats, LONG_HISTORY, winner)
    return standings_picture(translator(), table, LONG_HISTORY)


def stats_lines(t: Translator, rating: str | None) -> list[str]:
    """The /stats text's lines as render_stats and Gaple's record lines write them."""
    gaple = t.domain("gaple")
    lines = [
        t.gettext("<b>{name}</b> in this chat").format(name="Ana"),
        t.gettext("Games: {games} · won: {wins}").format(games=12, wins=5),
        gaple.gettext("Rounds won: {rounds} · gaple finishes: {gaples}").format(
            rounds=31, gaples=4
        ),
        gaple.gettext("Points: {points} · best round: {best}").format(points=1480, best=96),
    ]
    if rating is not None:
        lines.append(
            t.gettext("Rating: {rating} · rank {rank} of {players}").format(
                rating=rating, rank=2, players=7
            )
        )
    return lines


THIRTY_RATINGS = [
    -6.2 + 0.9 * k - (1.8 if k % 5 == 3 else 0) + (0.7 if k % 7 == 2 else 0) for k in range(30)
]


def stats_case(language: str, ratings: Sequence[float], name: str = "Ana") -> Picture:
    """The card of a player with these ratings."""
    t = translator(language)
    rating = f"{ratings[-1]:.1f}" if ratings else None
    title, *lines = stats_lines(t, rating)
    if name != "Ana":
        title = t.gettext("<b>{name}</b> in this chat").format(name=name)
    return stats_picture(t, title, lines, ratings)


def stats_thirty() -> Picture:
    """Thirty ratings, from below zero up: the largest card."""
    return stats_case("en", THIRTY_RATINGS)


def stats_one() -> Picture:
    """A single rated game: a note instead of a line."""
    return stats_case("en", [12.4])


def stats_none() -> Picture:
    """No rating yet."""
    return stats_case("en", [])


def stats_german() -> Picture:
    """The card in German, a long name with an emoji."""
    return stats_case("de", THIRTY_RATINGS[:8], name="Wolfgang Schäfer-Großmann 🎲 aus Köln")


def drawn(make: Callable[[], Picture]) -> Callable[[], bytes]:
    """A golden case: the picture drawn by its drawer."""

    def case() -> bytes:
        picture = make()
        draw = draw_standings if picture.drawer == "standings" else draw_stats
        return draw(picture.data)

    return case


PICTURES: dict[str, Callable[[], Picture]] = {
    "standings_2p_3r": two_players,
    "standings_6p_9r": six_players,
    "standings_6p_9r_de": six_players_german,
    "standings_gap_negative": gap_negative,
    "standings_single_round": single_round,
    "standings_3p_30r": thirty_rounds,
    "stats_30_ratings": stats_thirty,
    "stats_1_rating": stats_one,
    "stats_no_rating": stats_none,
    "stats_de": stats_german,
}
CASES: dict[str, Callable[[], bytes]] = {name: drawn(make) for name, make in PICTURES.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden(name: str) -> None:
    assert_matches_golden(name, CASES[name]())


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_png_carries_its_data_and_fits(name: str) -> None:
    picture = PICTURES[name]()
    png = CASES[name]()
    assert canvas.decode_data(png) == picture.data
    assert len(png) < MAX_BYTES
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.width == canvas.WIDTH
        assert image.height <= canvas.MAX_HEIGHT
    assert Picture.from_json(picture.to_json()) == picture


def strings(value: object) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_data_is_plain_text(name: str) -> None:
    for text in strings(PICTURES[name]().data):
        assert "<" not in text and "&amp;" not in text and "&lt;" not in text, text


# Standings data -------------------------------------------------------------------------


def test_standings_data_orders_winner_first_then_by_total() -> None:
    picture = gap_negative()
    assert picture.drawer == "standings"
    data = picture.data
    assert data["title"] == "🏆 Maya wins the game with 45 points!"
    names = [p["name"] for p in data["players"]]
    assert names == ["Maya", "Rina", "Joko", "🤖 Normal"]
    assert [p["total"] for p in data["players"]] == [45, 25, 10, -35]
    assert data["players"][3]["totals"] == [-5, -15, -10, -35]
    assert data["x_label"] == "Round" and data["y_label"] == "Points"


def test_standings_winner_first_even_when_not_top_scorer() -> None:
    history = [[10, 30]]
    table = finished([person(0, "Ana"), person(1, "Budi")], history, winner=0)
    data = standings_picture(translator(), table, history).data
    assert [p["name"] for p in data["players"]] == ["Ana", "Budi"]


def test_standings_names_are_plain_and_translated() -> None:
    seats = [person(0, "A <b>&amp;</b> B"), person(1, "Zoë", autoplay=True), computer(2, "hard")]
    history = [[40, 10, 20]]
    data = standings_picture(translator("de"), finished(seats, history, 0), history).data
    assert data["players"][0]["name"] == "A <b>&amp;</b> B"
    assert data["title"].startswith("🏆 A <b>&amp;</b> B gewinnt das Spiel")
    assert data["players"][1]["name"] == "🤖 Schwer"
    assert data["players"][2]["name"] == "Zoë 🤖"
    t = translator("de")
    assert data["x_label"] == t.gettext("Round")
    assert data["y_label"] == t.gettext("Points")


def test_standings_refuse_bad_history() -> None:
    table = finished([person(0, "Ana"), person(1, "Budi")], TWO_HISTORY, winner=0)
    with pytest.raises(PictureError):
        standings_picture(translator(), table, [[1, 2, 3]])
    with pytest.raises(PictureError):
        standings_picture(translator(), table, [[1, 2]])


def test_standings_without_rounds_draw_no_chart() -> None:
    table = finished([person(0, "Ana"), person(1, "Budi")], [[0, 0]], winner=0)
    picture = standings_picture(translator(), table, [])
    assert [p["totals"] for p in picture.data["players"]] == [[], []]
    png = draw_standings(picture.data)
    with Image.open(io.BytesIO(png)) as image:
        assert image.height < 600


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"title": "x", "x_label": "Round", "y_label": "Points"},
        {"title": "x", "x_label": "Round", "y_label": "Points", "players": []},
        {"title": "x", "x_label": "Round", "y_label": "Points", "players": ["Ana"]},
        {
            "title": "x",
            "x_label": "Round",
            "y_label": "Points",
            "players": [{"name": "Ana", "total": "10", "totals": [10]}],
        },
        {
            "title": "x",
            "x_label": "Round",
            "y_label": "Points",
            "players": [
                {"name": "Ana", "total": 10, "totals": [10]},
                {"name": "Budi", "total": 5, "totals": [1, 5]},
            ],
        },
        {
            "title": "x",
            "x_label": "Round",
            "y_label": "Points",
            "players": [{"name": "Ana", "total": 10, "totals": ["ten"]}],
        },
        {
            "title": 3,
            "x_label": "Round",
            "y_label": "Points",
            "players": [{"name": "Ana", "total": 10, "totals": [10]}],
        },
        {
            "title": "x",
            "x_label": "Round",
            "y_label": "Points",
            "players": [{"name": f"P{i}", "total": 1, "totals": [1]} for i in range(7)],
        },
    ],
)
def test_draw_standings_refuses_broken_data(data: dict[str, Any]) -> None:
    with pytest.raises(PictureError):
        draw_standings(data)


# Stats data -----------------------------------------------------------------------------


def test_stats_data() -> None:
    picture = stats_thirty()
    assert picture.drawer == "stats"
    data = picture.data
    assert data["title"] == [
        {"text": "Ana", "bold": True},
        {"text": " in this chat", "bold": False},
    ]
    assert data["rows"] == [
        [{"label": "Games", "value": "12"}, {"label": "Won", "value": "5"}],
        [{"label": "Rounds won", "value": "31"}, {"label": "Gaple finishes", "value": "4"}],
        [{"label": "Points", "value": "1480"}, {"label": "Best round", "value": "96"}],
        [
            {"label": "Rating", "value": f"{THIRTY_RATINGS[-1]:.1f}"},
            {"label": "Rank", "value": "2 of 7"},
        ],
    ]
    assert data["ratings"] == [round(r, 1) for r in THIRTY_RATINGS]
    assert data["rating_label"] == "Rating over the last 30 games"


def test_stats_data_in_french_keeps_the_colon_out() -> None:
    data = stats_case("fr", [1.0, 2.0]).data
    assert data["rows"][0] == [
        {"label": "Parties", "value": "12"},
        {"label": "Gagnées", "value": "5"},
    ]
    assert data["rows"][-1][1] == {"label": "Rang", "value": "2 sur 7"}


def test_stats_note_before_two_games() -> None:
    t = translator()
    note = t.gettext("A rating line appears here after two games.")
    assert stats_one().data["rating_label"] == note
    assert stats_one().data["ratings"] == [12.4]
    assert stats_none().data["rating_label"] == note
    assert stats_none().data["ratings"] == []


def test_stats_any_line_makes_a_tile() -> None:
    data = stats_picture(translator(), "<b>Ana</b>", ["Just text", "Streak: 3 · 2nd of 7"], []).data
    assert data["title"] == [{"text": "Ana", "bold": True}]
    assert data["rows"] == [
        [{"label": "", "value": "Just text"}],
        [{"label": "Streak", "value": "3"}, {"label": "", "value": "2nd of 7"}],
    ]
    draw_stats(data)
    plain_title = stats_picture(translator(), "Ana", [], [1.0, 2.0]).data
    assert plain_title["title"] == [{"text": "Ana", "bold": False}]
    draw_stats(plain_title)


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"title": [], "rows": [], "ratings": "1,2", "rating_label": "x"},
        {"title": [{"text": "Ana"}], "rows": [], "ratings": [], "rating_label": "x"},
        {"title": [], "rows": [["Games: 12"]], "ratings": [], "rating_label": "x"},
        {"title": [], "rows": [], "ratings": [1.0, None], "rating_label": "x"},
        {"title": [], "rows": [], "ratings": [1.0, float("nan")], "rating_label": "x"},
        {"title": [], "rows": [], "ratings": [], "rating_label": None},
        {"title": [], "rows": {}, "ratings": [], "rating_label": "x"},
    ],
)
def test_draw_stats_refuses_broken_data(data: dict[str, Any]) -> None:
    with pytest.raises(PictureError):
        draw_stats(data)
    plain_title = stats_picture(translator(), "Ana", [], [1.0, 2.0]).data
    assert plain_title["title"] == [{"text": "Ana", "bold": False}]
    draw_stats(plain_title)


# The chart's arithmetic -----------------------------------------------------------------


def test_ticks_are_round_and_cover_the_values() -> None:
    ticks = nice_ticks(-35, 45)
    assert ticks.values == [-40, -20, 0, 20, 40, 60]
    assert ticks.label(-40) == "\u221240"
    flat = nice_ticks(12.4, 12.4, min_step=0.1)
    assert flat.first <= 12.4 <= flat.last and flat.first < flat.last
    assert nice_ticks(0, 3).step == 1


def test_wrapping_never_breaks_at_a_no_break_space() -> None:
    """French puts U+00A0 before a colon and U+202F before ! so that no line starts with
    them: a picture's text keeps both, where a plain space would be a place to break."""
    nbsp, nnbsp = "\N{NO-BREAK SPACE}", "\N{NARROW NO-BREAK SPACE}"
    assert canvas.drawable(f" Totaux{nbsp}: Ana 🤖  104{nnbsp}! ", 20) == (
        f"Totaux{nbsp}: Ana 104{nnbsp}!"
    )
    french = f"Totaux après la manche 12{nbsp}: Ana 104 · Budi 87, bien joué{nnbsp}!"
    plain = french.replace(nbsp, " ").replace(nnbsp, " ")
    # From the longest word's width up: no word is cut with an ellipsis.
    widest = max(canvas.text_width(word, 20) for word in french.split(" "))
    widths = range(int(widest) + 1, 600, 3)
    plain_lines = [line for width in widths for line in wrap(plain, 20, width, lines=99)]
    assert any(line.startswith((":", "!")) for line in plain_lines), "a width breaks there"
    for width in widths:
        lines = wrap(french, 20, width, lines=99)
        assert not any(line.startswith((":", "!")) for line in lines), (width, lines)
        assert "".join(lines).replace(" ", "") == french.replace(" ", ""), (width, lines)


def test_round_labels_never_crowd() -> None:
    assert x_ticks(1) == [1]
    assert x_ticks(9) == list(range(1, 10))
    assert x_ticks(30) == [1, 5, 10, 15, 20, 25, 30]


def test_end_labels_never_overlap() -> None:
    centres = spread([100, 101, 102, 300, 299, 10], 30, 0, 320)
    ordered = sorted(centres)
    assert all(b - a >= 30 - 1e-9 for a, b in itertools.pairwise(ordered))
    assert all(15 <= c <= 305 for c in centres)
