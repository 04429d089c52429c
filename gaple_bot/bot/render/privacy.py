"""What the bot keeps about a person, and the /deletemydata confirmation, in their language."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...i18n import Translator
from ..callback_data import Action, encode
from .common import Rendered

CONFIRM, KEEP = 1, 0
"""The values of the FORGET button's field: delete, or keep everything."""


def render_privacy(t: Translator) -> str:
    """What is stored about a person, why, and for how long."""
    return "\n".join(
        [
            t.gettext("<b>What I keep about you</b>"),
            t.gettext("• Your Telegram id and your name."),
            t.gettext("• Your language: the one you chose with /language, and your app's."),
            t.gettext("• The games you play: your seats, moves, scores and results, per chat."),
            t.gettext("• Your ratings and their changes, per chat and across all chats."),
            t.gettext(
                "• The review of each finished game: for each decision of every player, the "
                "mark of the move made (best, good, inaccuracy, mistake, blunder) and what each "
                "possible move was worth, so that /review and the replay can show them. Never "
                "your messages."
            ),
            t.gettext(
                "• Group messages Telegram has not taken yet (say, a group at its limit): "
                "they wait in my database until sent, usually seconds or minutes, and are "
                "deleted once delivered."
            ),
            t.gettext(
                "• When I last wrote to you privately, for a minute, where several copies of "
                "me share the work: so together they send you at most one message a second."
            ),
            t.gettext(
                "• What you send me (a command, a tap) while I handle it, usually under a "
                "second, where Telegram sends it to my web address: so that nothing you sent "
                "is lost if I stop midway."
            ),
            "",
            t.gettext(
                "Why: to send you your hand, run the tables, and keep the scores and "
                "leaderboards of your chats."
            ),
            t.gettext(
                "How long: until you delete it. Send /deletemydata to me in a private chat: "
                "I delete your name, languages, ratings and rating history."
            ),
            t.gettext(
                "Your finished games stay in their chats under one neutral entry, “a former "
                "player”, so everyone else's records hold. If you are playing, the computer "
                "takes your seat first; a lobby seat of yours is freed."
            ),
            t.gettext(
                "Their replays and reviews name you “a former player” too: the marks and values "
                "of your decisions stay with the game, under no name."
            ),
            t.gettext("My logs name people by Telegram id only."),
        ]
    )


def render_delete_question(t: Translator) -> Rendered:
    """The question /deletemydata asks before deleting anything, with its two buttons."""
    text = "\n".join(
        [
            t.gettext("<b>Delete your data?</b>"),
            t.gettext(
                "I will delete your name, languages, ratings and rating history. Your "
                "finished games stay in their chats under one neutral entry, “a former "
                "player”, so everyone else's records hold. If you are playing now, the "
                "computer takes your seat first."
            ),
            t.gettext("This cannot be undone."),
        ]
    )
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    t.gettext("🗑 Delete my data"),
                    callback_data=encode(Action.FORGET, CONFIRM),
                    style="danger",
                ),
                InlineKeyboardButton(
                    t.gettext("Cancel"), callback_data=encode(Action.FORGET, KEEP)
                ),
            ]
        ]
    )
    return Rendered(text, markup)
