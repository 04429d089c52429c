"""The /settings menu: a game's options and the chat's language, the current choice ticked."""

from __future__ import annotations

from collections.abc import Mapping

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...games.options import OptionSpec
from ...games.seam import AnyGameKind, next_config
from ...games.texts import computer_level_name, seconds_count
from ...i18n import SUPPORTED_LANGUAGES, Translator
from ...service.api import ChatSettings
from ..callback_data import Action, encode
from .common import Rendered

LANGUAGE = "language"
"""The menu's last option: the chat's language, shared by every game."""
LANGUAGE_NAMES = {"id": "Bahasa Indonesia", "en": "English", "fr": "Français", "de": "Deutsch"}


def menu_options(kind: AnyGameKind) -> tuple[str, ...]:
    """The menu's options in order: a settings button carries an index into this tuple."""
    return (*(spec.name for spec in kind.options), LANGUAGE)


def choices(kind: AnyGameKind, option: str) -> tuple[str, ...]:
    """The values an option of the menu offers."""
    if option == LANGUAGE:
        return SUPPORTED_LANGUAGES
    return next(spec.choices for spec in kind.options if spec.name == option)


def _label(t: Translator, kind: AnyGameKind, option: str, value: str) -> str:
    if option == "turn":
        return seconds_count(t, int(value))
    if option == "level":
        return computer_level_name(t, value)
    if option in ("computers", "pictures"):
        return t.gettext("On") if value == "on" else t.gettext("Off")
    if option == LANGUAGE:
        return LANGUAGE_NAMES[value]
    return kind.presentation.option_label(t, option, value)


def _line(t: Translator, kind: AnyGameKind, spec: OptionSpec, options: Mapping[str, str]) -> str:
    value = options[spec.name]
    if spec.name == "turn":
        return t.gettext("Turn time: {time}").format(time=seconds_count(t, int(value)))
    if spec.name == "level":
        return t.gettext("Computer level: {level}").format(level=computer_level_name(t, value))
    if spec.name == "computers":
        if value == "on":
            return t.gettext("Empty seats: computer players fill them")
        return t.gettext("Empty seats: none, the game starts with whoever joined")
    if spec.name == "pictures":
        if value == "on":
            return t.gettext("Pictures: round ends, standings and /stats are drawn")
        return t.gettext("Pictures: off, text only")
    return kind.presentation.option_line(t, spec.name, next_config(kind, options))


def render_settings(
    t: Translator,
    kind_index: int,
    kind: AnyGameKind,
    settings: ChatSettings,
    options: Mapping[str, str],
) -> Rendered:
    """The menu of game `kind` (the `kind_index`-th in the registry) for a chat's admins."""
    lines = [t.gettext("<b>Settings for new games in this chat</b>")]
    lines.extend(_line(t, kind, spec, options) for spec in kind.options)
    lines.append(
        t.gettext("Language: {language}").format(
            language=LANGUAGE_NAMES.get(settings.language or "", "—")
        )
    )
    lines += ["", t.gettext("Only admins can change them. A running game keeps its rules.")]
    rows: list[list[InlineKeyboardButton]] = []
    for option_index, option in enumerate(menu_options(kind)):
        current = (settings.language or "") if option == LANGUAGE else options[option]
        row = []
        for choice_index, value in enumerate(choices(kind, option)):
            label = _label(t, kind, option, value)
            data = encode(Action.SETTING, settings.chat_id, kind_index, option_index, choice_index)
            row.append(
                InlineKeyboardButton(
                    ("✅ " + label) if value == current else label, callback_data=data
                )
            )
        # Language names are long: two to a row so phones do not cut them short.
        width = 2 if option == LANGUAGE else len(row)
        rows.extend(row[i : i + width] for i in range(0, len(row), width))
    return Rendered("\n".join(lines), InlineKeyboardMarkup(rows))
