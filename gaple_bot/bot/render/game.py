"""A game's message as Telegram's: its buttons become callback buttons of this bot."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ...games.views import Button, GameMessage
from ..callback_data import Action, encode
from .common import Rendered


def game_button(button: Button, game_id: int, version: int) -> InlineKeyboardButton:
    """One button: a move, a first pick, Back, or nothing, on this game at this version."""
    if button.press == "move":
        data = encode(Action.MOVE, game_id, version, button.value)
    elif button.press == "pick":
        data = encode(Action.PICK, game_id, version, button.value)
    elif button.press == "back":
        data = encode(Action.BACK, game_id, version)
    else:
        data = encode(Action.NOOP)
    return InlineKeyboardButton(button.label, callback_data=data, style=button.style)


def from_game(
    message: GameMessage,
    game_id: int,
    version: int,
    extra: tuple[InlineKeyboardButton, ...] = (),
) -> Rendered:
    """The message with its rows of game buttons, then `extra` (the bot's own) in one row."""
    rows = [[game_button(b, game_id, version) for b in row] for row in message.rows]
    if extra:
        rows.append(list(extra))
    return Rendered(message.text, InlineKeyboardMarkup(rows) if rows else None)
