"""Help and the chat's rules, short, in the reader's language."""

from __future__ import annotations

from typing import Literal

from babel.lists import format_list

from ...games.registry import Registry
from ...games.seam import JSON, AnyPresentation
from ...games.texts import seconds_count
from ...i18n import Translator


def game_commands(t: Translator, registry: Registry, style: Literal["and", "or"]) -> str:
    """Every registered game's command as a list in the reader's language ("/gaple and /gap",
    "/gaple atau /gap"): the texts every game shares name them all."""
    commands = [f"/{kind.name}" for kind in registry]
    return format_list(commands, style="standard" if style == "and" else "or", locale=t.language)


def render_greeting(t: Translator, registry: Registry, name: str) -> str:
    """/start in private: what the bot does and how to start a game (`name` HTML-escaped)."""
    return t.gettext(
        "Hi {name}! I run game tables in groups. Add me to a group and type {commands} there; "
        "your hand will come here."
    ).format(name=name, commands=game_commands(t, registry, "or"))


def render_help(t: Translator, registry: Registry) -> str:
    """What the bot does and its commands (each game's first)."""
    return "\n".join(
        [
            t.gettext(
                "<b>Games with your friends</b>, right here in the group: {commands}."
            ).format(commands=game_commands(t, registry, "and")),
            "",
            *(kind.presentation.help_line(t) for kind in registry),
            t.gettext("/rules: the rules this chat plays"),
            t.gettext(
                "/top: this chat's leaderboard; also /top global, /top wins, /top points, /top week"
            ),
            t.gettext("/stats: your results (reply to someone's message for theirs)"),
            t.gettext("/games: the last games played here, with their scores"),
            t.gettext(
                "/review: how everyone played the last game (reply to a game's end for that one)"
            ),
            t.gettext("/stop: end the game (whoever opened it, or an admin)"),
            t.gettext(
                "/settings: rule set, target, turn time, computer level, empty seats, pictures, "
                "language (admins)"
            ),
            t.gettext("/language: the group's language (admins), or yours in our private chat"),
            t.gettext("/privacy: what I keep about you, and why"),
            t.gettext("/deletemydata: delete it (in our private chat)"),
            "",
            t.gettext(
                "Your hand comes in a private chat with me, with buttons for the moves you may "
                "make. Tap Join on a table to sit down."
            ),
        ]
    )


def render_rules(
    t: Translator, presentation: AnyPresentation, config: JSON, turn_seconds: int
) -> str:
    """The rules a chat's next game would have, and its turn time."""
    lines = presentation.rules(t, config)
    lines.append(t.gettext("Each turn lasts {time}.").format(time=seconds_count(t, turn_seconds)))
    return "\n".join(lines)
