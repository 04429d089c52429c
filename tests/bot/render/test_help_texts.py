"""/help and the command menu say what the commands do, as the README does, in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gaple_bot.bot.app import command_list
from gaple_bot.bot.handlers.boards import BOARD_WORDS, PERIOD_WORDS
from gaple_bot.bot.render.info import render_help
from gaple_bot.games.registry import default_registry
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translators

README = (Path(__file__).parents[3] / "README.md").read_text()


def _help_line(text: str, command: str) -> str:
    lines = [line for line in text.splitlines() if line.startswith(f"/{command}")]
    assert len(lines) == 1, text
    return lines[0]


def _menu(language: str) -> dict[str, str]:
    return {
        command.command: command.description
        for command in command_list(Translators().get(language), default_registry())
    }


def test_the_readme_top_options_are_the_ones_top_accepts_and_help_lists() -> None:
    options = re.findall(r"`/top (\w+)`", README)
    assert options == ["global", "wins", "points", "week"]
    accepted = {"global", *BOARD_WORDS, *PERIOD_WORDS}
    assert set(options) <= accepted
    for language in SUPPORTED_LANGUAGES:
        line = _help_line(render_help(Translators().get(language), default_registry()), "top")
        for option in options:
            assert f"/top {option}" in line, (language, line)
        for option in options[1:]:
            # Telegram users type the words, so the menu keeps them untranslated.
            assert option in _menu(language)["top"], language


def test_settings_names_what_the_readme_says_it_covers() -> None:
    covered = re.search(r"`/settings` \(admins: ([^)]+)\)", README)
    assert covered is not None
    items = [item.strip() for item in covered.group(1).split(",")]
    assert items == [
        "rule set",
        "target",
        "turn time",
        "computer level",
        "empty seats",
        "pictures",
        "language",
    ]
    t = Translators().get("en")
    line = _help_line(render_help(t, default_registry()), "settings")
    assert line == f"/settings: {', '.join(items)} (admins)"
    # The menu is every game's: the README's rule set and target (Gaple's own, and Gap's
    # target) come as each game's, the options every game has as the README names them.
    assert _menu("en")["settings"] == "Each game's rules and target, " + ", ".join(items[2:])


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_settings_and_language_mention_the_language_in_every_catalog(language: str) -> None:
    t = Translators().get(language)
    language_word = {"id": "bahasa", "en": "language", "fr": "langue", "de": "sprache"}[language]
    assert language_word in _help_line(render_help(t, default_registry()), "settings").lower()
    assert language_word in _menu(language)["settings"].lower()
    admins = {"id": "admin", "en": "admins", "fr": "admins", "de": "admins"}[language]
    private = {"id": "pribadi", "en": "private", "fr": "priv", "de": "privat"}[language]
    for text in (
        _help_line(render_help(t, default_registry()), "language"),
        _menu(language)["language"],
    ):
        assert admins in text.lower(), text
        assert private in text.lower(), text


def test_language_says_whose_language_it_sets() -> None:
    t = Translators().get("en")
    line = _help_line(render_help(t, default_registry()), "language")
    assert line == "/language: the group's language (admins), or yours in our private chat"
