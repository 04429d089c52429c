"""The Gap arena plays seeded games in every rotation and reports shares with intervals."""

from __future__ import annotations

import json

import pytest

from gaple_bot.games.gap.ai import Budget, Level
from gaple_bot.games.gap.ai.arena import main, round_shares, run_arena, wilson
from gaple_bot.games.gap.rules import GapConfig

from .gap_ai_clock import stop_the_clock

QUICK = {Level.NORMAL: Budget(deals=2), Level.HARD: Budget(deals=2, per_move=True)}


def test_round_shares_split_ties() -> None:
    assert round_shares([3, 5, 1]) == [0.0, 1.0, 0.0]
    assert round_shares([4, 4, -1, 4]) == [1 / 3, 1 / 3, 0.0, 1 / 3]


def test_wilson_interval_holds_the_share() -> None:
    low, high = wilson(300, 1000)
    assert low < 0.3 < high and high - low < 0.06
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_arena_reports_every_level(monkeypatch: pytest.MonkeyPatch) -> None:
    stop_the_clock(monkeypatch)
    lineup = [Level.NORMAL, Level.EASY, Level.EASY]
    result = run_arena(GapConfig(3, target=10), lineup, 12, seed=5, budgets=QUICK)
    again = run_arena(GapConfig(3, target=10), lineup, 12, seed=5, budgets=QUICK)
    rounds = result["rounds"]
    assert isinstance(rounds, int) and rounds >= 12
    games = result["games"]
    assert isinstance(games, int) and games % 3 == 0  # every game in every rotation
    levels = result["levels"]
    assert isinstance(levels, dict) and set(levels) == {"normal", "easy"}
    total = 0.0
    for name, row in levels.items():
        low, high = row["round_win_ci"]
        assert low <= row["round_win_share"] <= high
        assert row["decisions"] > 0 and row["decision_ms_median"] <= row["decision_ms_p99"]
        total += row["round_win_share"] * row["seats"]
        other = again["levels"]
        assert isinstance(other, dict)
        assert other[name]["round_win_share"] == row["round_win_share"]
    assert total == pytest.approx(1.0)


def test_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lineup", "easy,easy", "--rounds", "4", "--seed", "2", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["lineup"] == ["easy", "easy"] and printed["rounds"] >= 4
    assert main(["--lineup", "easy,hard", "--rounds", "2", "--target", "5"]) == 0
    assert "rounds won" in capsys.readouterr().out
    assert main(["--lineup", "easy,clever"]) == 2
    assert main(["--lineup", "easy"]) == 2
