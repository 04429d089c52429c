"""Retake the table page's golden screenshots: `.venv/bin/python -m
tests.web.browser.regenerate` after a deliberate change to the page (its browser tests run
with GOLDEN_UPDATE=1, each screenshot replacing its golden image)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .golden import GOLDEN, UPDATE

HERE = Path(__file__).parent


def main() -> int:
    """Run the browser tests writing the golden images; list them; the tests' exit code."""
    # Every image is taken afresh, so none is left over that no test takes any more.
    for old in GOLDEN.glob("*.png"):
        old.unlink()
    code = subprocess.call(
        [sys.executable, "-m", "pytest", str(HERE), "-q"],
        env={**os.environ, UPDATE: "1"},
        cwd=HERE.parents[2],
    )
    for path in sorted(GOLDEN.glob("*.png")):
        print(f"wrote {path.relative_to(HERE.parents[2])} ({path.stat().st_size:,} bytes)")
    return code


if __name__ == "__main__":
    sys.exit(main())
