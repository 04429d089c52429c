"""Presentation.move_label: a move named from its code alone, in every language, for a
review's "the better move was …"."""

from __future__ import annotations

import pytest

from gaple_bot.games.gap.present import GapPresentation
from gaple_bot.games.gap.rules import ALL_MOVES as GAP_MOVES
from gaple_bot.games.gap.rules import NONE, Move, card_id
from gaple_bot.games.gaple.present import GaplePresentation
from gaple_bot.games.gaple.rules import PASS, Side, discard, play, tile_id
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
