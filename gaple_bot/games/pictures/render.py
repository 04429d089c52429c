"""Drawing any picture: the common ones here, a game's own through its presentation."""

from __future__ import annotations

import functools

from ..registry import Registry, default_registry
from .picture import Picture, PictureError
from .standings import draw_standings
from .stats import draw_stats


def render(picture: Picture) -> bytes:
    """The picture as PNG bytes (a module-level function: it runs in a worker process too);
    PictureError if no drawer knows it or its data is not what the drawer reads."""
    if picture.drawer == "standings":
        return draw_standings(picture.data)
    if picture.drawer == "stats":
        return draw_stats(picture.data)
    kind, dot, _ = picture.drawer.partition(".")
    registry = _registry()
    if not dot or kind not in registry.names:
        raise PictureError(f"no drawer {picture.drawer!r}")
    return registry.get(kind).presentation.draw(picture)


@functools.cache
def _registry() -> Registry:
    """The game kinds, built once per process on the first picture."""
    return default_registry()
