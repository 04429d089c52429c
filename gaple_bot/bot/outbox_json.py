"""sendMessage parameters (and a photo's picture) as JSON and back, so a queued group message
can wait in the database."""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardMarkup, LinkPreviewOptions, ReplyParameters, TelegramObject

from ..games.pictures import Picture

TYPE_KEY = "telegram_type"
PICTURE_TYPE = "Picture"
"""The tag of a photo's picture: its data is stored, and drawn again after a restart."""
_TYPES: dict[str, type[TelegramObject]] = {
    cls.__name__: cls for cls in (InlineKeyboardMarkup, LinkPreviewOptions, ReplyParameters)
}
"""The Telegram objects a group message may carry; anything else is refused (TypeError)."""


def params_to_json(params: dict[str, Any]) -> dict[str, Any]:
    """The parameters with each Telegram object tagged with its type; TypeError for a value
    that JSON cannot hold."""
    stored: dict[str, Any] = {}
    for key, value in params.items():
        if isinstance(value, TelegramObject):
            name = type(value).__name__
            if name not in _TYPES:
                raise TypeError(f"{key}: cannot store a {name}")
            stored[key] = {TYPE_KEY: name, "value": value.to_dict()}
        elif isinstance(value, Picture):
            stored[key] = {TYPE_KEY: PICTURE_TYPE, "value": value.to_json()}
        elif isinstance(value, str):
            stored[key] = str(value)  # a StrEnum (ParseMode) becomes its plain value
        elif value is None or isinstance(value, bool | int | float):
            stored[key] = value
        else:
            raise TypeError(f"{key}: cannot store a {type(value).__name__}")
    return stored


def params_from_json(stored: dict[str, Any]) -> dict[str, Any]:
    """The parameters `params_to_json` stored, with their Telegram objects rebuilt."""
    params: dict[str, Any] = {}
    for key, value in stored.items():
        if isinstance(value, dict) and value.get(TYPE_KEY) in _TYPES:
            params[key] = _TYPES[value[TYPE_KEY]].de_json(value["value"], None)
        elif isinstance(value, dict) and value.get(TYPE_KEY) == PICTURE_TYPE:
            params[key] = Picture.from_json(value["value"])
        else:
            params[key] = value
    return params
