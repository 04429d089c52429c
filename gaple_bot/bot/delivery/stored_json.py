"""A group message as the database keeps it: the JSON of its Bot API arguments, both ways."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..outbox_json import params_from_json, params_to_json
from .records import GroupMessage, Kind


def stored_message(
    chat_id: int,
    kind: Kind,
    params: dict[str, Any],
    *,
    thread_id: int | None = None,
    game_id: int | None = None,
) -> GroupMessage:
    """The record of a queued row's JSON parameters (`stored_json` wrote them, or older
    code)."""
    message = GroupMessage.of(chat_id, kind, params_from_json(params), game_id=game_id)
    if message.thread_id is None and thread_id is not None:
        message = replace(message, thread_id=thread_id)
    return message


def stored_json(message: GroupMessage) -> dict[str, Any]:
    """The JSON parameters stored in `group_sends.params` (as the outbox always stored them:
    its Bot API arguments but the chat, a picture tagged); TypeError if not storable."""
    params = message.arguments()
    if message.kind is Kind.SEND and message.thread_id is not None:
        params = {"message_thread_id": message.thread_id, **params}
    if message.picture is not None:
        params["picture"] = message.picture
    return params_to_json(params)
