"""A rendered message: its HTML text and, when it has buttons, Telegram's inline keyboard."""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineKeyboardMarkup


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message's HTML text and its inline keyboard, if any."""

    text: str
    markup: InlineKeyboardMarkup | None = None
