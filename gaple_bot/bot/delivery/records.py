"""What a group message is: a frozen record of its chat, topic and content, and its kind."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from ...games.pictures import Picture

if TYPE_CHECKING:
    # Only their types: the record holds the content as given and never builds it.
    from telegram import InlineKeyboardMarkup, LinkPreviewOptions, ReplyParameters


class Kind(StrEnum):
    """What a queued request does; the values are the `group_sends.kind` column's."""

    SEND = "send"
    EDIT = "edit"
    FORGET = "forget"
    """The game's message is not to be edited again (the next edit posts a fresh one)."""


_FIELDS = ("text", "parse_mode", "reply_markup", "reply_parameters", "link_preview_options")
"""The sendMessage/editMessageText parameters a group message may carry, besides its chat."""


@dataclass(frozen=True, slots=True)
class GroupMessage:
    """An outgoing group message or edit: where it goes, what it says, and (a photo) the
    picture its caption `text` goes with. `game_id`: the game whose lobby or table it is."""

    chat_id: int
    kind: Kind = Kind.SEND
    thread_id: int | None = None
    text: str | None = None
    parse_mode: str | None = None
    reply_markup: InlineKeyboardMarkup | None = None
    reply_parameters: ReplyParameters | None = None
    link_preview_options: LinkPreviewOptions | None = None
    picture: Picture | None = None
    game_id: int | None = None
    paced: bool = False
    """A table edit that may wait for the table's pace where the group's shared queue is sent
    (the edits queued meanwhile merge into it); not a Bot API argument."""

    @classmethod
    def of(
        cls, chat_id: int, kind: Kind, params: dict[str, Any], *, game_id: int | None = None
    ) -> GroupMessage:
        """The record of sendMessage/editMessageText keyword arguments (and a `picture`, and
        `paced`, which only an edit is); TypeError for one a group message does not take."""
        unknown = set(params) - {*_FIELDS, "picture", "message_thread_id", "chat_id", "paced"}
        if unknown:
            raise TypeError(f"a group message takes no {', '.join(sorted(unknown))}")
        parse_mode = params.get("parse_mode")
        return cls(
            chat_id,
            kind,
            thread_id=params.get("message_thread_id"),
            text=params.get("text"),
            parse_mode=None if parse_mode is None else str(parse_mode),
            reply_markup=params.get("reply_markup"),
            reply_parameters=params.get("reply_parameters"),
            link_preview_options=params.get("link_preview_options"),
            picture=params.get("picture"),
            game_id=game_id,
            paced=kind is Kind.EDIT and bool(params.get("paced", False)),
        )

    def arguments(self) -> dict[str, Any]:
        """The content's Bot API arguments (text or caption, format, buttons, reply, preview)."""
        values = {
            "text": self.text,
            "parse_mode": self.parse_mode,
            "reply_markup": self.reply_markup,
            "reply_parameters": self.reply_parameters,
            "link_preview_options": self.link_preview_options,
        }
        return {key: value for key, value in values.items() if value is not None}

    def content(self) -> str | None:
        """Its text, format and buttons as one string, to tell an edit that changes nothing
        (None for a photo's: never compared)."""
        if self.picture is not None:
            return None
        markup: Any = self.reply_markup
        buttons = markup.to_dict() if hasattr(markup, "to_dict") else markup
        return json.dumps([self.text, self.parse_mode, buttons], sort_keys=True)

    def moved_to(self, chat_id: int) -> GroupMessage:
        """The same message for another chat (a group's new supergroup): no topic, and no reply
        (the message replied to stayed behind)."""
        return replace(self, chat_id=chat_id, thread_id=None, reply_parameters=None)
