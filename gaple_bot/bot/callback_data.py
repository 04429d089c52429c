"""Button payloads: a short action name and integer fields, always within Telegram's 64 bytes."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

MAX_CALLBACK_BYTES = 64  # Telegram rejects callback_data longer than this.


class Action(StrEnum):
    """What a button asks for; each has a fixed list of integer fields (see FIELDS)."""

    JOIN = "lj"
    LEAVE = "ll"
    ADD_COMPUTER = "la"
    START = "ls"
    CANCEL = "lc"
    SHOW_HAND = "sh"
    MOVE = "mv"
    PICK = "pk"
    """A first pick (a tile, a card) whose move takes a second step."""
    BACK = "bk"
    TAKE_BACK_SEAT = "tb"
    PLAY_AGAIN = "pa"
    SETTING = "st"
    LANGUAGE = "lg"
    FORGET = "fg"
    NOOP = "no"


FIELDS: dict[Action, tuple[str, ...]] = {
    Action.JOIN: ("game",),
    Action.LEAVE: ("game",),
    Action.ADD_COMPUTER: ("game",),
    Action.START: ("game",),
    Action.CANCEL: ("game",),
    Action.SHOW_HAND: ("game",),
    Action.MOVE: ("game", "version", "code"),
    Action.PICK: ("game", "version", "step"),
    Action.BACK: ("game", "version"),
    Action.TAKE_BACK_SEAT: ("game",),
    Action.PLAY_AGAIN: ("game",),
    Action.SETTING: ("chat", "kind", "option", "value"),
    Action.LANGUAGE: ("choice",),
    Action.FORGET: ("confirm",),
    Action.NOOP: (),
}


class BadCallbackData(ValueError):
    """The payload was not made by this bot (forged, truncated or from an old version)."""


@dataclass(frozen=True, slots=True)
class Callback:
    """A decoded button payload."""

    action: Action
    values: tuple[int, ...]

    def field(self, name: str) -> int:
        """The value of the named field."""
        return self.values[FIELDS[self.action].index(name)]

    def encode(self) -> str:
        """The payload text: the action and its fields separated by ':'."""
        if len(self.values) != len(FIELDS[self.action]):
            raise ValueError(f"{self.action.name} takes {FIELDS[self.action]}")
        data = ":".join([self.action.value, *map(str, self.values)])
        if len(data.encode()) > MAX_CALLBACK_BYTES:
            raise ValueError(f"callback data over {MAX_CALLBACK_BYTES} bytes: {data}")
        return data


def encode(action: Action, *values: int) -> str:
    """The payload for `action` with its fields in FIELDS order."""
    return Callback(action, values).encode()


def decode(data: str | None) -> Callback:
    """The payload's action and fields; BadCallbackData if it is not one of ours."""
    if not data or len(data.encode()) > MAX_CALLBACK_BYTES:
        raise BadCallbackData("empty or oversized callback data")
    name, *raw = data.split(":")
    try:
        action = Action(name)
        values = tuple(int(v) for v in raw)
    except ValueError:
        raise BadCallbackData(f"unknown callback data {data!r}") from None
    if len(values) != len(FIELDS[action]):
        raise BadCallbackData(f"wrong field count in {data!r}")
    if raw != [str(value) for value in values]:
        # int() also reads ' 1', '+1', '1_0' and other scripts' digits: the bot writes none.
        raise BadCallbackData(f"a field of {data!r} is not written as the bot writes it")
    if any(not -(2**63) <= value < 2**63 for value in values):
        # Ids are 64-bit in Telegram and in the database; anything wider is forged.
        raise BadCallbackData(f"a field of {data!r} is out of range")
    return Callback(action, values)
