"""What bench/fit_choices.py and bench/fit_values.py share: the seated players, the kept plays."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import numpy as np

from gaple_bot.games.gaple.ai.players import Player


def players_of(parser: argparse.ArgumentParser, text: str) -> list[Player]:
    """The comma-separated players of `--players`; a usage error names a wrong or missing one."""
    try:
        players = [Player(name.strip()) for name in text.split(",") if name.strip()]
    except ValueError as error:
        parser.error(f"--players: {error}")
    if not players:
        parser.error("--players: none given")
    return players


def check_kept(parser: argparse.ArgumentParser, option: str, path: Path | None) -> None:
    """A usage error unless the file keeping the plays (`option`) is an .npz file or not given."""
    if path is not None and path.suffix != ".npz":
        parser.error(f"{option}: the file's name must end in .npz")


def read_kept(
    parser: argparse.ArgumentParser, option: str, path: Path | None, played_with: str
) -> dict[str, np.ndarray] | None:
    """The arrays kept in `path` if it exists (None if not); a usage error if it holds plays of
    other arguments than `played_with`."""
    if path is None or not path.exists():
        return None
    with np.load(path) as kept:
        if str(kept["played_with"]) != played_with:
            parser.error(f"{option}: {path} holds other rounds ({kept['played_with']})")
        return {key: kept[key] for key in kept.files if key != "played_with"}


def keep(path: Path | None, played_with: str, arrays: dict[str, np.ndarray]) -> None:
    """Keep the played arrays in `path` (if given) for another fit of the same plays."""
    if path is not None:
        # Typed loosely: numpy's stubs read a keyword array as its `allow_pickle` flag.
        named: dict[str, Any] = {"played_with": played_with, **arrays}
        np.savez(path, **named)
