"""Answering a tapped button: once per tap and best effort, since Telegram takes one answer per
tap and only within about 15 seconds of it."""

from __future__ import annotations

import logging

from telegram import CallbackQuery
from telegram.error import TelegramError

from .deps import Deps

log = logging.getLogger(__name__)


async def answer_tap(
    deps: Deps | None,
    query: CallbackQuery,
    text: str | None = None,
    *,
    show_alert: bool = False,
    url: str | None = None,
) -> bool:
    """Answer the tap (stop its spinner, with a toast, an alert or a link), unless it was
    answered before: its update is handled again after its worker died or the process
    restarted. A refusal (the tap is too old, or was answered already) is a fact to log, never
    a failure of what the tap did. Returns whether Telegram took the answer."""
    if deps is not None:
        try:
            first = await deps.service.first_answer(query.id)
        except Exception:
            # Unknown whether it was: a second answer is only refused, a missing one leaves
            # the person's spinner turning.
            log.warning("tap %s: its answer could not be recorded", query.id, exc_info=True)
            first = True
        if not first:
            log.info("tap %s was answered before: not again", query.id)
            return False
    try:
        await query.answer(text, show_alert=show_alert, url=url)
    except TelegramError as error:
        log.info("tap %s: the answer was refused: %s", query.id, error)
        return False
    return True
