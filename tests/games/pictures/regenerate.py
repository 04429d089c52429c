"""Redraw every golden image: `python -m tests.games.pictures.regenerate` after a deliberate
change."""

from __future__ import annotations

import importlib
import pkgutil
import shutil
from pathlib import Path

from . import golden
from .golden import Case


def every_case() -> dict[str, Case]:
    """The CASES of every test module in this package, by name (names must not repeat)."""
    cases: dict[str, Case] = {}
    package = importlib.import_module(__package__ or "tests.games.pictures")
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("test_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for name, case in getattr(module, "CASES", {}).items():
            if name in cases:
                raise SystemExit(f"golden case {name!r} is defined twice")
            cases[name] = case
    return cases


README_PICTURE = (
    "gaple_classic_gaple",
    Path(__file__).parents[3] / "docs/pictures/gaple-round-end.png",
)
"""The golden case the README shows, and where its copy lives."""


def main() -> None:
    """Write the golden images (and the README's copy of one) and say which."""
    for path in golden.write_golden(every_case()):
        print(f"wrote {path.relative_to(path.parents[2])} ({path.stat().st_size:,} bytes)")
    name, copy = README_PICTURE
    shutil.copyfile(golden.GOLDEN / f"{name}.png", copy)
    print(f"copied {name}.png to {copy.relative_to(copy.parents[2])}")


if __name__ == "__main__":
    main()
