"""A webhook worker started as the supervisor starts one (`python -m gaple_bot --worker I/N`),
or the supervisor itself, its output in a log file of its own: for the worker tests and the
load benchmark."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path


async def start_worker(
    index: int, count: int, folder: Path, environ: dict[str, str], log: Path
) -> asyncio.subprocess.Process:
    """Worker `index` of `count`, run in `folder` with `environ`, writing to `log` (anew)."""
    return await start_gaple_bot(["--worker", f"{index}/{count}"], folder, environ, log)


async def start_gaple_bot(
    arguments: Sequence[str], folder: Path, environ: dict[str, str], log: Path
) -> asyncio.subprocess.Process:
    """`python -m gaple_bot` with `arguments`, run in `folder` with `environ`, writing to
    `log` (anew)."""
    with log.open("wb") as output:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "gaple_bot",
            *arguments,
            cwd=folder,
            env=environ,
            stdin=subprocess.DEVNULL,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
