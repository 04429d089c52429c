"""Compiling the computer players' simulation loops with numba, typed and cached on disk."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def compiled(function: F) -> F:
    """`function` compiled to machine code at its first call (numba's nopython mode), the
    result cached beside the module (or in NUMBA_CACHE_DIR) so later processes load it.

    numba is imported here, at decoration, not at import of this module: nothing but the
    simulation cores pays for it. numba renews a cached function only when its own file
    changes, not when a function it calls in another file does: so compiled functions call
    only compiled functions of their own file (one file per game's core).
    """
    import numba

    return cast(F, numba.njit(cache=True, nogil=True)(function))
