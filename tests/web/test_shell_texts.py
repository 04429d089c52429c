"""The page's own words: a hand's pips take the language's singular and plural."""

from __future__ import annotations

import pytest

from gaple_bot.i18n import Translators
from gaple_bot.web.texts import shell_texts


@pytest.mark.parametrize(
    ("language", "one", "other"),
    [
        ("en", "{count} pip", "{count} pips"),
        ("de", "{count} Auge", "{count} Augen"),
        ("fr", "{count} point", "{count} points"),
        ("id", "{count} mata", "{count} mata"),
    ],
)
def test_a_hands_pips_have_a_singular_and_a_plural(language: str, one: str, other: str) -> None:
    texts = shell_texts(Translators(language).get(language))
    assert (texts["pips_one"], texts["pips_other"]) == (one, other)
