"""/review as a reply: which game a replied-to message is about (its Play again button), and
only for the bot's own messages."""

from __future__ import annotations

from datetime import UTC, datetime

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Message, User

from gaple_bot.bot.callback_data import Action, encode
from gaple_bot.bot.handlers.reviews import ended_game_id

BOT = User(42, "Gaple", is_bot=True, username="gaple_test_bot")
ANA = User(7, "Ana", is_bot=False)
OTHER_BOT = User(43, "Other", is_bot=True, username="other_bot")
GROUP = Chat(-100, Chat.SUPERGROUP)


def _message(sender: User, *buttons: InlineKeyboardButton) -> Message:
    markup = InlineKeyboardMarkup([list(buttons)]) if buttons else None
    return Message(
        1, datetime(2026, 12, 6, tzinfo=UTC), GROUP, from_user=sender, reply_markup=markup
    )


AGAIN = InlineKeyboardButton("🔁 Play again", callback_data=encode(Action.PLAY_AGAIN, 99))
REPLAY = InlineKeyboardButton("📼 Replay", url="https://t.me/gaple_test_bot/table?startapp=rp_x")


def test_the_end_message_names_its_game_by_its_play_again_button() -> None:
    assert ended_game_id(_message(BOT, AGAIN, REPLAY), BOT.id) == 99
    assert ended_game_id(_message(BOT, REPLAY, AGAIN), BOT.id) == 99


def test_other_messages_name_no_game() -> None:
    # Another sender's buttons (only a bot can add them, but not ours), no buttons, other
    # buttons of ours, and a forged payload.
    assert ended_game_id(_message(OTHER_BOT, AGAIN), BOT.id) is None
    assert ended_game_id(_message(ANA), BOT.id) is None
    assert ended_game_id(_message(BOT), BOT.id) is None
    join = InlineKeyboardButton("✋ Join", callback_data=encode(Action.JOIN, 99))
    assert ended_game_id(_message(BOT, join, REPLAY), BOT.id) is None
    forged = InlineKeyboardButton("x", callback_data="pa:nine")
    assert ended_game_id(_message(BOT, forged), BOT.id) is None
