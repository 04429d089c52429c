"""The /settings menu: each option with its choices as buttons, the current one ticked."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...games.gaple.present.table import rule_set_name
from ...games.texts import computer_level_name, seconds_count
from ...i18n import SUPPORTED_LANGUAGES, Translator
from ...service.players import SETTING_CHOICES, config_of
from ...store import ChatSettings
from ..callback_data import Action, encode
from .common import Rendered

OPTIONS = ("rules", "target", "turn", "level", "language")
"""Settings buttons carry an option's index in this tuple and a choice's index."""
LANGUAGE_NAMES = {"id": "Bahasa Indonesia", "en": "English", "fr": "Français", "de": "Deutsch"}


def choices(option: str) -> tuple[str, ...]:
    """The values an option offers."""
    return SUPPORTED_LANGUAGES if option == "language" else SETTING_CHOICES[option]


def _current(settings: ChatSettings, option: str) -> str:
    if option == "rules":
        if settings.rule_set.value == "classic":
            return "classic"
        return "discards" if settings.stuck_rule.value == "discard" else "discards-pass"
    if option == "target":
        return str(settings.target)
    if option == "turn":
        return str(settings.turn_seconds)
    if option == "level":
        return settings.computer_level.value
    return settings.language or ""


def _label(t: Translator, option: str, value: str) -> str:
    if option == "rules":
        return {
            "classic": t.gettext("Classic"),
            "discards": t.gettext("Discards"),
            "discards-pass": t.gettext("Pass when stuck"),
        }[value]
    if option == "turn":
        return seconds_count(t, int(value))
    if option == "level":
        return computer_level_name(t, value)
    if option == "language":
        return LANGUAGE_NAMES[value]
    return value


def render_settings(t: Translator, settings: ChatSettings) -> Rendered:
    """The menu for a chat's admins."""
    config = config_of(settings)
    lines = [
        t.gettext("<b>Settings for new games in this chat</b>"),
        t.gettext("Rules: {rules}").format(rules=rule_set_name(t, config)),
        t.gettext("Target: {target} points").format(target=settings.target),
        t.gettext("Turn time: {time}").format(time=seconds_count(t, settings.turn_seconds)),
        t.gettext("Computer level: {level}").format(
            level=computer_level_name(t, settings.computer_level.value)
        ),
        t.gettext("Language: {language}").format(
            language=LANGUAGE_NAMES.get(settings.language or "", "—")
        ),
        "",
        t.gettext("Only admins can change them. A running game keeps its rules."),
    ]
    rows: list[list[InlineKeyboardButton]] = []
    for option_index, option in enumerate(OPTIONS):
        current = _current(settings, option)
        row = []
        for choice_index, value in enumerate(choices(option)):
            label = _label(t, option, value)
            row.append(
                InlineKeyboardButton(
                    ("✅ " + label) if value == current else label,
                    callback_data=encode(
                        Action.SETTING, settings.chat_id, option_index, choice_index
                    ),
                )
            )
        # Language names are long: two to a row so phones do not cut them short.
        width = 2 if option == "language" else len(row)
        rows.extend(row[i : i + width] for i in range(0, len(row), width))
    return Rendered("\n".join(lines), InlineKeyboardMarkup(rows))
