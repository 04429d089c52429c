"""A picture as plain data: which drawer draws it and what it shows, every text translated."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

JSON = dict[str, Any]


class PictureError(ValueError):
    """A picture no drawer knows, or data its drawer cannot read."""


@dataclass(frozen=True, slots=True)
class Picture:
    """What a drawer needs and nothing more: the data is exactly what the picture shows (so a
    leak check of the data is a leak check of the picture), as JSON values that store, pickle
    and travel to a worker process."""

    drawer: str
    """'standings' and 'stats' for the common pictures; '<kind>.<name>' for a game's own."""
    data: JSON

    def to_json(self) -> JSON:
        """The picture as one JSON object (stored with a waiting group message)."""
        return {"drawer": self.drawer, "data": self.data}

    @classmethod
    def from_json(cls, value: object) -> Picture:
        """The picture `to_json` wrote; PictureError if `value` is not one."""
        if not isinstance(value, dict):
            raise PictureError("a picture is a JSON object")
        drawer, data = value.get("drawer"), value.get("data")
        if not isinstance(drawer, str) or not isinstance(data, dict):
            raise PictureError("a picture has a drawer name and a data object")
        return cls(drawer, data)


def plain(html_text: str) -> str:
    """A message's HTML as its reader sees it: tags dropped, entities unescaped (the pictures
    reuse the texts' translations)."""
    return html.unescape(re.sub(r"<[^>]+>", "", html_text))
