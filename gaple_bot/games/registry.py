"""The registry of game kinds: the one way store, service and bot reach a game."""

from __future__ import annotations

from collections.abc import Iterator

from .options import COMMON_OPTIONS
from .seam import AnyGameKind


class UnknownKind(LookupError):
    """No game of this name is installed."""


class Registry:
    """The installed game kinds by name, in the order they were registered."""

    def __init__(self, kinds: tuple[AnyGameKind, ...]) -> None:
        self._kinds = {kind.name: kind for kind in kinds}
        if len(self._kinds) != len(kinds) or not kinds:
            raise ValueError("kinds must be at least one, with distinct names")
        common = {spec.name for spec in COMMON_OPTIONS}
        for kind in kinds:
            # The service reads these of every kind: turn time, computer level, empty seats.
            missing = common - {spec.name for spec in kind.options}
            if missing:
                raise ValueError(f"{kind.name} lacks the common options {sorted(missing)}")

    def get(self, name: str) -> AnyGameKind:
        """The kind called `name`; UnknownKind if there is none."""
        try:
            return self._kinds[name]
        except KeyError:
            raise UnknownKind(name) from None

    def __contains__(self, name: object) -> bool:
        return name in self._kinds

    def __iter__(self) -> Iterator[AnyGameKind]:
        return iter(self._kinds.values())

    @property
    def names(self) -> tuple[str, ...]:
        """Every kind's name, the first being the default."""
        return tuple(self._kinds)

    @property
    def default(self) -> AnyGameKind:
        """The kind a chat that never played gets."""
        return next(iter(self._kinds.values()))


def default_registry() -> Registry:
    """Every game this bot ships, Gaple first, then Gap (built on call, never at import)."""
    from .gap.kind import GapKind
    from .gaple.kind import GapleKind

    return Registry((GapleKind(), GapKind()))
