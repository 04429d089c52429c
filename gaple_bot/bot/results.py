"""A round's and a game's end in the group: the reveal and the standings, drawn or as text."""

from __future__ import annotations

from telegram.constants import ParseMode

from ..games.pictures.standings import standings_picture
from ..service.progress import GameOver, RoundOver
from .outbox import GroupOutbox
from .painter import picture_or_none
from .private import message_kwargs
from .render.game_messages import GameMessages


def show_round_end(outbox: GroupOutbox, render: GameMessages, step: RoundOver) -> None:
    """Every hand revealed: a picture of the round with the text as its caption, or the
    text alone in a chat that turned pictures off."""
    table = step.table
    t = render.group_t(table.language)
    presentation = render.presentation(table.kind)
    text = presentation.round_end(t, step.reveal).text
    picture = picture_or_none(lambda: presentation.round_end_picture(t, step.reveal))
    if not table.pictures or picture is None:
        outbox.send(
            table.chat_id, message_thread_id=table.thread_id, text=text, parse_mode=ParseMode.HTML
        )
        return
    outbox.send_photo(
        table.chat_id,
        picture,
        caption=text,
        message_thread_id=table.thread_id,
        parse_mode=ParseMode.HTML,
    )


def show_game_end(
    outbox: GroupOutbox, render: GameMessages, step: GameOver, replay_token: str | None = None
) -> None:
    """The final standings with Play again (and Replay, with the page and `replay_token`):
    drawn as a chart of every round's totals under the text, or the text alone in a chat that
    turned pictures off."""
    table = step.table
    rendered = render.game_end(table, replay_token)
    t = render.group_t(table.language)
    picture = None
    if table.pictures and step.history:
        picture = picture_or_none(lambda: standings_picture(t, table, step.history))
    if picture is None:
        outbox.send(table.chat_id, message_thread_id=table.thread_id, **message_kwargs(rendered))
        return
    outbox.send_photo(
        table.chat_id,
        picture,
        caption=rendered.text,
        message_thread_id=table.thread_id,
        parse_mode=ParseMode.HTML,
        reply_markup=rendered.markup,
    )
