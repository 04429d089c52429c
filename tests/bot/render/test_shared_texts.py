"""The texts every game shares speak of every game, in every language: /start's greeting, /help's
header and closing line, the menu's /settings line, the empty leaderboard, /privacy and the
refusal for someone without a private chat."""

from __future__ import annotations

import re

import pytest

from gaple_bot.bot.app import command_list
from gaple_bot.bot.refusals import refusal_text
from gaple_bot.bot.render.boards import render_board
from gaple_bot.bot.render.info import render_greeting, render_help
from gaple_bot.bot.render.privacy import render_privacy
from gaple_bot.games.registry import default_registry
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translator, Translators
from gaple_bot.service.errors import PrivateChatNeeded
from gaple_bot.store import Board, Period

ONE_GAMES_WORDS = {
    "en": ("gaple", "tile", "domino", "card"),
    "id": ("gaple", "domino", "batu"),
    "fr": ("gaple", "domino", "carte"),
    "de": ("gaple", "domino", "stein", "karte"),
}
"""Words of one game only (its name, its pieces) that a text every game shares must not use
outside a command. Indonesian says kartu of Gaple's tiles and of Gap's cards alike."""


def _t(language: str) -> Translator:
    return Translators().get(language)


def _commands(text: str) -> list[str]:
    return re.findall(r"(?<![\w<])/([a-z]+)\b", text)


def _one_games_words(language: str, text: str) -> list[str]:
    """The words of one game only that `text` uses outside its commands."""
    words = re.sub(r"/[a-z]+", "", text).lower()
    return [word for word in ONE_GAMES_WORDS[language] if word in words]


def test_every_game_has_a_command_the_texts_can_name() -> None:
    assert [kind.name for kind in default_registry()] == ["gaple", "gap"]


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_greeting_names_every_game_s_command(language: str) -> None:
    text = render_greeting(_t(language), default_registry(), "Ana")
    assert _commands(text) == ["gaple", "gap"], text
    assert "Ana" in text
    assert _one_games_words(language, text) == [], text


def test_the_greeting_offers_either_command() -> None:
    assert render_greeting(_t("en"), default_registry(), "Ana") == (
        "Hi Ana! I run game tables in groups. Add me to a group and type /gaple or /gap there; "
        "your hand will come here."
    )


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_help_header_and_closing_line_speak_of_every_game(language: str) -> None:
    lines = render_help(_t(language), default_registry()).splitlines()
    header, closing = lines[0], lines[-1]
    assert _commands(header) == ["gaple", "gap"], header
    assert _one_games_words(language, header) == [], header
    assert _one_games_words(language, closing) == [], closing
    # Each game's own line follows, in the registry's order.
    firsts = [_commands(line)[0] for line in lines[1:] if line.startswith("/")]
    assert firsts[:2] == ["gaple", "gap"], lines


def test_the_help_header_and_closing_line_in_english() -> None:
    lines = render_help(_t("en"), default_registry()).splitlines()
    assert lines[0] == "<b>Games with your friends</b>, right here in the group: /gaple and /gap."
    assert lines[-1] == (
        "Your hand comes in a private chat with me, with buttons for the moves you may make. "
        "Tap Join on a table to sit down."
    )


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_the_menu_s_settings_line_names_no_one_game_s_option_as_everyone_s(language: str) -> None:
    menu = {c.command: c.description for c in command_list(_t(language), default_registry())}
    assert _one_games_words(language, menu["settings"]) == [], menu["settings"]
    assert "rule set" not in menu["settings"].lower()


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
@pytest.mark.parametrize("command", ["gaple", "gap"])
def test_an_empty_board_names_the_command_of_its_game(language: str, command: str) -> None:
    for board in Board:
        for period in Period:
            for global_ in (False, True):
                text = render_board(_t(language), command, board, period, [], global_)
                assert _commands(text) == [command], text
                assert _one_games_words(language, text) == [], text


@pytest.mark.parametrize("language", SUPPORTED_LANGUAGES)
def test_privacy_and_the_private_chat_refusal_speak_of_every_game(language: str) -> None:
    t = _t(language)
    for text in (render_privacy(t), refusal_text(t, PrivateChatNeeded())):
        assert _one_games_words(language, text) == [], text


def test_the_private_chat_refusal_in_english() -> None:
    assert refusal_text(_t("en"), PrivateChatNeeded()) == (
        "Open a private chat with me first: that is where your hand goes."
    )
