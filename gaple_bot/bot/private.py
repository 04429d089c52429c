"""Private messages to players: sent and edited, with who turned out unreachable."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from telegram import Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import ExtBot

from .pacing.withdrawable import Withdrawable, Withdrawn
from .render.common import Rendered

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Delivery:
    """How a private send or edit went: the message (a send that went out), whether the
    message shows what was sent now, and whether the person turned out unreachable (they
    blocked the bot: their seat goes to the computer); `withdrawn`: an edit taken back before
    it was made (a newer edit of the message took its place)."""

    message: Message | None = None
    shown: bool = False
    unreachable: bool = False
    withdrawn: bool = False


class PrivateSender:
    """Sends and edits players' private messages (the pacer keeps each chat's pace)."""

    def __init__(self, bot: ExtBot[Withdrawable]) -> None:
        self.bot = bot

    async def send(self, user_id: int, rendered: Rendered) -> Delivery:
        """Send `rendered` to the person's private chat."""
        try:
            message = await self.bot.send_message(chat_id=user_id, **message_kwargs(rendered))
        except Forbidden:
            return Delivery(unreachable=True)
        except TelegramError as exc:
            log.warning("private message to %s failed: %s", user_id, exc)
            return Delivery()
        return Delivery(message=message, shown=True)

    async def edit(
        self,
        user_id: int,
        message_id: int,
        rendered: Rendered,
        withdrawable: Withdrawable | None = None,
    ) -> Delivery:
        """Make the person's message `message_id` show `rendered` ('not modified' is fine);
        `withdrawable`: the edit may be taken back while it waits for its turn."""
        try:
            await self.bot.edit_message_text(
                chat_id=user_id,
                message_id=message_id,
                rate_limit_args=withdrawable,
                **message_kwargs(rendered),
            )
        except Withdrawn:
            return Delivery(withdrawn=True)
        except Forbidden:
            return Delivery(unreachable=True)
        except BadRequest as exc:
            if "not modified" in exc.message.lower():
                return Delivery(shown=True)
            log.warning("private edit for %s failed: %s", user_id, exc.message)
            return Delivery()
        except TelegramError as exc:
            log.warning("private edit for %s failed: %s", user_id, exc)
            return Delivery()
        return Delivery(shown=True)


def message_kwargs(rendered: Rendered) -> dict[str, Any]:
    """sendMessage/editMessageText arguments for a rendered message (HTML text, buttons)."""
    kwargs: dict[str, Any] = {"text": rendered.text, "parse_mode": ParseMode.HTML}
    if rendered.markup is not None:
        kwargs["reply_markup"] = rendered.markup
    return kwargs
