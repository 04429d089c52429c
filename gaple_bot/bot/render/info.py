"""Help and the chat's rules, short, in the reader's language."""

from __future__ import annotations

from ...games.gaple.present.table import rule_set_name
from ...games.gaple.rules import GameConfig, RuleSet
from ...games.texts import seconds_count
from ...i18n import Translator


def render_help(t: Translator) -> str:
    """What the bot does and its commands."""
    return "\n".join(
        [
            t.gettext("<b>Gaple</b>: block dominoes with your friends, right here in the group."),
            "",
            t.gettext("/gaple: open a table in this group (or this topic)"),
            t.gettext("/rules: the rules this chat plays"),
            t.gettext(
                "/top: this chat's leaderboard; also /top global, /top wins, /top points, /top week"
            ),
            t.gettext("/stats: your results (reply to someone's message for theirs)"),
            t.gettext("/stop: end the game (whoever opened it, or an admin)"),
            t.gettext("/settings: rule set, target, turn time, computer level, language (admins)"),
            t.gettext("/language: the group's language (admins), or yours in our private chat"),
            t.gettext("/privacy: what I keep about you, and why"),
            t.gettext("/deletemydata: delete it (in our private chat)"),
            "",
            t.gettext(
                "Your tiles come in a private chat with me, with buttons for the moves you may "
                "make. Tap Join on a table to sit down."
            ),
        ]
    )


def render_rules(t: Translator, config: GameConfig, turn_seconds: int) -> str:
    """The chat's rule set in a few lines."""
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
    lines.append(t.gettext("Each turn lasts {time}.").format(time=seconds_count(t, turn_seconds)))
    return "\n".join(lines)
