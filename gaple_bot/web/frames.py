"""What a page may send over its socket, parsed and checked before anything is done with it."""

from __future__ import annotations

import json
from dataclasses import dataclass

MAX_FRAME = 4096
"""A page's frame is small: a hello carries a session, a move two numbers."""
MAX_CODE = 1 << 20


class BadFrame(ValueError):
    """A frame that is not JSON, too large, of an unknown type or with malformed fields."""


@dataclass(frozen=True, slots=True)
class Hello:
    """The first frame (and the first after every reconnect): the page's session."""

    session: str


@dataclass(frozen=True, slots=True)
class Sync:
    """Send me where the game stands (the page came back from the background)."""


@dataclass(frozen=True, slots=True)
class MoveFrame:
    """A move, as a chat button carries it: the game's version and the move's code."""

    version: int
    code: int


@dataclass(frozen=True, slots=True)
class NextRound:
    """Next, during the break after a round's end: the viewer is ready for the next round."""


@dataclass(frozen=True, slots=True)
class LobbyAction:
    """A lobby's button: join, leave or start; Play again after the game's end; or Take my
    seat back from the computer during a game."""

    action: str


Frame = Hello | Sync | MoveFrame | NextRound | LobbyAction
LOBBY_ACTIONS = ("join", "leave", "start", "again", "back")


def _number(data: dict[str, object], name: str) -> int:
    value = data.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < MAX_CODE * 4096:
        raise BadFrame(f"{name} is not a number")
    return value


def parse_frame(raw: str | bytes) -> Frame:
    """The frame `raw` says (raises BadFrame)."""
    if len(raw) > MAX_FRAME:
        raise BadFrame("frame too large")
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadFrame("not JSON") from None
    if not isinstance(data, dict):
        raise BadFrame("not an object")
    kind = data.get("t")
    if kind == "hello":
        session = data.get("session")
        if not isinstance(session, str):
            raise BadFrame("hello without a session")
        return Hello(session)
    if kind == "sync":
        return Sync()
    if kind == "next":
        return NextRound()
    if kind == "move":
        code = _number(data, "code")
        if code >= MAX_CODE:
            raise BadFrame("code out of range")
        return MoveFrame(_number(data, "version"), code)
    if isinstance(kind, str) and kind in LOBBY_ACTIONS:
        return LobbyAction(kind)
    raise BadFrame(f"unknown frame type {kind!r}")
