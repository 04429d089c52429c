"""The arena: seat rotations on shared deals, figures that add up, a table and JSON."""

from __future__ import annotations

import json

import pytest

from gaple_bot.games.gaple.ai.arena import main, percentile, run_arena, wilson
from gaple_bot.games.gaple.ai.levels import Level
from gaple_bot.games.gaple.ai.montecarlo import Budget
from gaple_bot.games.gaple.rules import GameConfig, RuleSet

FAST = {Level.NORMAL: Budget(deals=2), Level.HARD: Budget(deals=2, per_move=True, exact_tiles=5)}


def test_json_figures_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lineup", "normal,easy,easy", "--rounds", "12", "--target", "40", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rounds"] >= 12
    assert result["games"] % 3 == 0  # every game in each of the three rotations
    levels = result["levels"]
    assert set(levels) == {"normal", "easy"}
    # Every round has one winner and every game one winner, shared out per seat.
    assert sum(row["round_win_share"] * row["seats"] for row in levels.values()) == pytest.approx(1)
    assert sum(row["game_win_share"] * row["seats"] for row in levels.values()) == pytest.approx(1)
    for row in levels.values():
        low, high = row["round_win_ci"]
        assert low <= row["round_win_share"] <= high
        low, high = row["points_ci"]
        assert low <= row["points_per_round"] <= high
        assert 0 <= row["decision_ms_median"] <= row["decision_ms_p99"]
        assert 0 <= row["decision_cpu_ms_median"] <= row["decision_cpu_ms_p99"]


def test_table_and_discard_rules(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--lineup", "easy,easy,normal,easy", "--rules", "discards", "--rounds", "4"]
    assert main([*argv, "--target", "30"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("discards (discard when stuck), 4 seats, target 30")
    assert "normal" in out and "easy" in out


def test_bad_lineups_exit_with_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lineup", "easy,grandmaster"]) == 2
    assert main(["--lineup", "easy,easy,easy,easy,easy,easy"]) == 2
    assert "arena:" in capsys.readouterr().err


def test_same_seed_same_games() -> None:
    config = GameConfig(RuleSet.CLASSIC, 4, target=30)
    lineup = [Level.HARD, Level.EASY, Level.EASY, Level.EASY]
    first = json.loads(json.dumps(run_arena(config, lineup, 10, seed=3, budgets=FAST)))
    again = json.loads(json.dumps(run_arena(config, lineup, 10, seed=3, budgets=FAST)))
    for result in (first, again):
        result.pop("seconds")
        for row in result["levels"].values():
            for timing in ("decision_ms", "decision_cpu_ms"):
                row.pop(f"{timing}_median")
                row.pop(f"{timing}_p99")
    assert first == again


def test_statistics_helpers() -> None:
    low, high = wilson(50, 100)
    assert low < 0.5 < high
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0
    assert percentile([3.0, 1.0, 2.0], 0.5) == 2.0
    assert percentile([float(i) for i in range(100)], 0.99) == 98.0
