"""The bot's part of Share: a game's standings picture stored as an inline message a person
may send from the page (savePreparedInlineMessage)."""

from __future__ import annotations

import logging
from datetime import datetime

from telegram import Bot, InlineQueryResultPhoto
from telegram.constants import ParseMode
from telegram.error import TelegramError

log = logging.getLogger(__name__)


class PreparedStandings:
    """Prepares shared standings through the Bot API; a refusal is logged and answered None
    (the page says it did not work), never raised."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot

    async def __call__(
        self,
        user_id: int,
        *,
        result_id: str,
        photo_url: str,
        thumbnail_url: str,
        width: int,
        height: int,
        caption: str,
    ) -> tuple[str, datetime] | None:
        """The prepared message's id and expiry, for `user_id` to send to a person, a group
        or a channel (not to another bot: the picture means nothing there)."""
        result = InlineQueryResultPhoto(
            id=result_id,
            photo_url=photo_url,
            thumbnail_url=thumbnail_url,
            photo_width=width,
            photo_height=height,
            caption=caption,
            parse_mode=ParseMode.HTML,
        )
        try:
            prepared = await self._bot.save_prepared_inline_message(
                user_id,
                result,
                allow_user_chats=True,
                allow_group_chats=True,
                allow_channel_chats=True,
            )
        except TelegramError as error:
            log.info("Telegram did not prepare shared standings for %s: %s", user_id, error)
            return None
        return prepared.id, prepared.expiration_date
