"""Per-kind chat options: what /settings offers, their defaults, and checking stored values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


class BadOption(ValueError):
    """An option or a value the kind does not offer."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option: the choices its buttons offer and its default. With `free_range` any whole
    number in the range is also accepted (a bot-wide default need not be a button)."""

    name: str
    choices: tuple[str, ...]
    default: str
    free_range: tuple[int, int] | None = None

    def accepts(self, value: str) -> bool:
        """Whether `value` is a value of this option."""
        if value in self.choices:
            return True
        if self.free_range is None or not value.isdigit() or value != str(int(value)):
            return False
        low, high = self.free_range
        return low <= int(value) <= high


TURN = OptionSpec("turn", ("30", "60", "90", "120"), "60", free_range=(1, 2**31 - 1))
"""Seconds a person has for a move. The bot's DEFAULT_TURN_SECONDS replaces the default and
may be any positive number (chats stored before per-kind options kept any such number)."""
LEVEL = OptionSpec("level", ("easy", "normal", "hard"), "normal")
"""The computer players' level."""
COMPUTERS = OptionSpec("computers", ("on", "off"), "on")
"""Whether computer players fill the empty seats when a table starts."""
PICTURES = OptionSpec("pictures", ("on", "off"), "on")
"""Whether round ends, standings and /stats come as pictures (off: text only, as before)."""
COMMON_OPTIONS = (TURN, LEVEL, COMPUTERS, PICTURES)
"""Options every kind offers, after its own."""


def checked_options(
    specs: tuple[OptionSpec, ...], stored: Mapping[str, str], defaults: Mapping[str, str]
) -> dict[str, str]:
    """Every option's value: the stored one when the kind still accepts it, else the given
    default, else the spec's (options added later, or dropped choices, fall back quietly)."""
    values: dict[str, str] = {}
    for spec in specs:
        value = stored.get(spec.name)
        if value is None or not spec.accepts(value):
            value = defaults.get(spec.name, spec.default)
            if not spec.accepts(value):
                value = spec.default
        values[spec.name] = value
    return values


def chosen(specs: tuple[OptionSpec, ...], option: str, index: int) -> str:
    """The value of the `index`-th button of `option`; BadOption if there is none."""
    spec = next((s for s in specs if s.name == option), None)
    if spec is None or not 0 <= index < len(spec.choices):
        raise BadOption(f"no choice {index} for {option}")
    return spec.choices[index]
