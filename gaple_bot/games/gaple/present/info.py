"""Gaple's rules in a few lines, its lobby title, and its options as /settings shows them."""

from __future__ import annotations

from collections.abc import Mapping

from ....i18n import Translator
from ..rules import GameConfig, RuleSet
from .table import rule_set_name


def render_rules(t: Translator, config: GameConfig) -> list[str]:
    """The rule set of `config` in a few lines."""
    lines = [
        t.gettext("<b>Gaple rules here</b>: {rules}, first to {target} points.").format(
            rules=rule_set_name(t, config), target=config.target
        )
    ]
    if config.rule_set is RuleSet.CLASSIC:
        lines += [
            t.gettext("• 28 tiles (double-six), seven each. No drawing."),
            t.gettext("• The first round opens with [6|6]; later the last winner leads any tile."),
            t.gettext("• Play a tile that matches an open end. Doubles go in line."),
            t.gettext("• If nothing fits, you pass (I do it for you)."),
            t.gettext("• Play your last tile to win the round: gaple!"),
            t.gettext("• If nobody can play, the lowest count of pips in hand wins."),
            t.gettext("• The winner scores the pips left in everyone else's hand."),
        ]
    else:
        lines.append(t.gettext("• Six tiles each with four players, five each with five."))
        lines.append(t.gettext("• One tile is turned up to start the line."))
        if config.discards_when_stuck:
            lines.append(t.gettext("• If nothing fits, discard a tile face down: it still counts."))
        else:
            lines.append(t.gettext("• If nothing fits, you pass."))
        lines += [
            t.gettext("• The round ends when someone runs out of tiles or nobody can play."),
            t.gettext("• Your count is the pips in your hand plus your discards; lowest wins."),
            t.gettext("• Everyone scores the difference to each higher count."),
        ]
    return lines


def lobby_title(t: Translator, config: GameConfig) -> str:
    """The lobby's first line: the game, its rule set and target."""
    return t.gettext("<b>Gaple</b> · {rules} · first to {target}").format(
        rules=rule_set_name(t, config), target=config.target
    )


def rules_label(t: Translator, value: str) -> str:
    """A value of the "rules" option as its /settings button says it."""
    labels = {
        "classic": t.gettext("Classic"),
        "discards": t.gettext("Discards"),
        "discards-pass": t.gettext("Pass when stuck"),
    }
    return labels.get(value, value)


def option_line(t: Translator, option: str, config: GameConfig) -> str:
    """The /settings line of one of Gaple's own options ("rules", "target")."""
    if option == "rules":
        return t.gettext("Rules: {rules}").format(rules=rule_set_name(t, config))
    return t.gettext("Target: {target} points").format(target=config.target)


def record_lines(
    t: Translator, rounds_won: int, points: int, extras: Mapping[str, int]
) -> list[str]:
    """A player's rounds won, Gaple finishes, points and best round, for /stats."""
    return [
        t.gettext("Rounds won: {rounds} · gaple finishes: {gaples}").format(
            rounds=rounds_won, gaples=extras.get("gaples", 0)
        ),
        t.gettext("Points: {points} · best round: {best}").format(
            points=points, best=extras.get("best_round", 0)
        ),
    ]
