"""How a seat is named wherever a table shows it: a computer by its level, numbered in seat
order when several at the table share it; a person's long name cut with an ellipsis to one
limit."""

from __future__ import annotations

import pytest

from gaple_bot.games.texts import NAME_LIMIT, seat_name, short_name
from gaple_bot.games.views import SeatInfo
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translators


def person(number: int, name: str, *, autoplay: bool = False) -> SeatInfo:
    return SeatInfo(number, 100 + number, name, autoplay=autoplay)


def computer(number: int, level: str | None) -> SeatInfo:
    return SeatInfo(number, None, "", computer_level=level)


def names(seats: list[SeatInfo], language: str = "en") -> list[str]:
    t = Translators().get(language)
    return [seat_name(t, seat, seats) for seat in seats]


def test_a_computer_is_named_by_its_level_and_numbered_only_beside_its_like() -> None:
    seats = [
        computer(0, "hard"),
        person(1, "Ana"),
        computer(2, "easy"),
        computer(3, "hard"),
        computer(4, None),
    ]
    assert names(seats) == ["🤖 Hard 1", "Ana", "🤖 Easy", "🤖 Hard 2", "🤖 Normal"]


def test_the_numbers_follow_the_seats_not_the_order_they_are_given_in() -> None:
    seats = [computer(3, "normal"), computer(1, "normal"), person(0, "Ana")]
    assert names(seats) == ["🤖 Normal 2", "🤖 Normal 1", "Ana"]


def test_a_person_the_computer_plays_for_is_not_counted_among_the_computers() -> None:
    seats = [person(0, "Budi", autoplay=True), computer(1, "hard"), person(2, "Ana")]
    assert names(seats) == ["Budi 🤖", "🤖 Hard", "Ana"]


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_every_language_names_the_levels_as_names(language: str) -> None:
    seats = [computer(0, "easy"), computer(1, "normal"), computer(2, "hard"), computer(3, "hard")]
    found = names(seats, language)
    for name in found:
        level = name.removeprefix("🤖 ").removesuffix(" 1").removesuffix(" 2")
        assert name.startswith("🤖 ") and level[:1].isupper(), found
    assert found[2].endswith(" 1") and found[3].endswith(" 2"), found
    assert len(set(found)) == len(found), found


def test_a_long_name_is_cut_to_the_limit_with_an_ellipsis_and_escaped_after() -> None:
    long = "Bartholomew <Longbottom> of the Shire"
    [shown] = names([person(0, long)])
    cut = short_name(long)
    assert len(cut) == NAME_LIMIT and cut.endswith("…") and long.startswith(cut[:-1])
    assert shown == cut.replace("<", "&lt;").replace(">", "&gt;")
    assert short_name("A" * NAME_LIMIT) == "A" * NAME_LIMIT
    # The cut ends on a word's last letter, not on the space before the ellipsis.
    assert short_name("Ana Maria Lopez Garcia") == "Ana Maria Lopez…"


@pytest.mark.parametrize(
    "joined",
    [
        "e\u0301",  # e and a combining acute accent
        "👍🏽",  # a thumb and its skin tone
        "👩\u200d💻",  # a woman, a zero-width joiner and a computer
        "🇮🇩",  # Indonesia's flag: two regional indicators
    ],
)
def test_a_cut_never_splits_what_is_drawn_as_one_character(joined: str) -> None:
    for before in range(NAME_LIMIT - 4, NAME_LIMIT + 1):
        name = "x" * before + joined + "y" * NAME_LIMIT
        cut = short_name(name)[:-1]
        assert len(cut) < NAME_LIMIT
        kept = cut.removeprefix("x" * min(before, len(cut)))
        assert kept in ("", joined) or (
            kept.startswith(joined) and set(kept[len(joined) :]) == {"y"}
        )
