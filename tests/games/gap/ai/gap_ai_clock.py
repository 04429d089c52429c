"""A stopped clock for Gap's time caps: a decision then depends on the seed alone."""

from __future__ import annotations

import types

import pytest

from gaple_bot.games.gap.ai import montecarlo

STOPPED = types.SimpleNamespace(perf_counter=lambda: 0.0)
"""Stands in for the `time` module the sampling levels read their time caps from."""


def stop_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop the time caps' clock in this process for the rest of the test."""
    monkeypatch.setattr(montecarlo, "time", STOPPED)


def stop_the_clock_for_good() -> None:
    """Stop the time caps' clock in this process (a process pool's initializer)."""
    vars(montecarlo)["time"] = STOPPED
