"""Presentation.move_label: a move named from its code alone, in every language, for a
review's "the better move was …"."""

from __future__ import annotations

import pytest

from gaple_bot.games.gap.present import GapPresentation
from gaple_bot.games.gap.rules import ALL_MOVES as GAP_MOVES
from gaple_bot.games.gap.rules import NONE, Move, card_id
from gaple_bot.games.gaple.present import GaplePresentation
from gaple_bot.games.gaple.rules import PASS, Played, Side, discard, play, tile_id
from gaple_bot.games.gaple.rules.moves import ALL_MOVES as GAPLE_MOVES
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translators

TRANSLATORS = Translators()
EN = TRANSLATORS.get("en")


def test_gaple_labels_name_the_tile_and_its_end_a_pass_or_a_discard() -> None:
    shown = GaplePresentation()
    six_four = tile_id(6, 4)
    assert shown.move_label(EN, play(six_four, Side.LEFT).code) == "[6|4] on the left"
    assert shown.move_label(EN, play(six_four, Side.RIGHT).code) == "[6|4] on the right"
    assert shown.move_label(EN, PASS.code) == "pass"
    assert shown.move_label(EN, discard(six_four).code) == "discard [6|4]"


def test_gap_labels_name_the_card_and_the_neighbours_it_takes() -> None:
    shown = GapPresentation()
    red7 = card_id(0, 7)
    assert shown.move_label(EN, Move(red7).code) == "🟥7"
    assert shown.move_label(EN, Move(red7, 1, 2).code) == "🟥7 taking 🟩6 🟦8"
    assert shown.move_label(EN, Move(red7, NONE, 2).code) == "🟥7 taking 🟦8"


@pytest.mark.parametrize("language", [lang for lang in SUPPORTED_LANGUAGES if lang != "en"])
def test_labels_are_translated_and_keep_the_items(language: str) -> None:
    t = TRANSLATORS.get(language)
    gaple, gap = GaplePresentation(), GapPresentation()
    six_four = tile_id(6, 4)
    for move in (play(six_four, Side.LEFT), play(six_four, Side.RIGHT), discard(six_four)):
        label = gaple.move_label(t, move.code)
        assert "[6|4]" in label
        assert label != gaple.move_label(EN, move.code)
    assert gaple.move_label(t, PASS.code) != "pass"
    taking = Move(card_id(0, 7), 1, 2)
    label = gap.move_label(t, taking.code)
    assert "🟥7" in label and "🟩6" in label and "🟦8" in label
    assert label != gap.move_label(EN, taking.code)


def test_every_move_code_has_a_short_label() -> None:
    gaple, gap = GaplePresentation(), GapPresentation()
    for language in SUPPORTED_LANGUAGES:
        t = TRANSLATORS.get(language)
        for gaple_move in GAPLE_MOVES:
            assert 0 < len(gaple.move_label(t, gaple_move.code)) <= 40
        for gap_move in GAP_MOVES:
            assert 0 < len(gap.move_label(t, gap_move.code)) <= 40


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_first_tile_of_a_line_opens_it_and_has_no_side(language: str) -> None:
    """A round's first tile (a lead on an empty line, C7's right by its code) is named as
    opening the line, not as played on the right; so is the better move where it was laid."""
    t = TRANSLATORS.get(language)
    gaple = GaplePresentation()
    six_six, five_five, six_four = tile_id(6, 6), tile_id(5, 5), tile_id(6, 4)
    lead = play(six_six, Side.RIGHT)
    opened = (Played(0, six_six, Side.RIGHT, None),)
    label = gaple.played_label(t, lead.code, opened)
    assert "[6|6]" in label
    sided = {gaple.move_label(t, play(six_six, side).code) for side in Side}
    assert label not in sided
    better = gaple.better_label(t, play(five_five, Side.RIGHT).code, opened)
    assert "[5|5]" in better
    assert better not in {gaple.move_label(t, play(five_five, side).code) for side in Side}
    if language == "en":
        assert (label, better) == ("open with [6|6]", "open with [5|5]")
    else:
        assert label != gaple.played_label(EN, lead.code, opened)
    # A tile laid against an end keeps its side, and so does the better move there.
    right = play(six_four, Side.RIGHT)
    beside = (Played(1, six_four, Side.RIGHT, (6, 6)),)
    assert gaple.played_label(t, right.code, beside) == gaple.move_label(t, right.code)
    assert gaple.better_label(t, right.code, beside) == gaple.move_label(t, right.code)
