"""The /metrics exposition: Prometheus' text format, cumulative buckets, escaped labels."""

from __future__ import annotations

from gaple_bot.bot.metrics import metrics_text
from gaple_bot.service.tally import DECISION_BUCKETS, Tally


def _samples(text: str) -> dict[str, float]:
    lines = [line for line in text.splitlines() if line and not line.startswith("#")]
    return {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in lines}


def test_decision_buckets_are_cumulative_and_end_at_the_count() -> None:
    tally = Tally()
    for seconds in (0.001, 0.02, 0.02, 0.3, 9.0):
        tally.decided("gaple", "hard", seconds)
    tally.moved("gaple")
    samples = _samples(
        metrics_text(running_games=2, tally=tally, telegram_failures={}, group_queue=(3, 2))
    )
    labels = 'kind="gaple",level="hard"'
    buckets = [
        samples[f'gaple_computer_decision_seconds_bucket{{{labels},le="{b:g}"}}']
        for b in DECISION_BUCKETS
    ]
    assert buckets == sorted(buckets)
    assert samples[f'gaple_computer_decision_seconds_bucket{{{labels},le="0.005"}}'] == 1
    assert samples[f'gaple_computer_decision_seconds_bucket{{{labels},le="0.025"}}'] == 3
    assert samples[f'gaple_computer_decision_seconds_bucket{{{labels},le="2.5"}}'] == 4
    assert samples[f'gaple_computer_decision_seconds_bucket{{{labels},le="+Inf"}}'] == 5
    assert samples[f"gaple_computer_decision_seconds_count{{{labels}}}"] == 5
    assert abs(samples[f"gaple_computer_decision_seconds_sum{{{labels}}}"] - 9.341) < 1e-9
    assert samples['gaple_moves_total{kind="gaple"}'] == 1
    assert samples["gaple_games_running"] == 2
    assert samples["gaple_group_queue_messages"] == 3
    assert samples["gaple_group_queue_longest"] == 2


def test_every_family_is_declared_once_and_labels_are_escaped() -> None:
    text = metrics_text(
        running_games=0,
        tally=Tally(),
        telegram_failures={'odd"kind\\': 2},
        group_queue=(0, 0),
    )
    assert 'gaple_telegram_errors_total{kind="odd\\"kind\\\\"} 2' in text
    types = [line.split()[2] for line in text.splitlines() if line.startswith("# TYPE")]
    assert len(types) == len(set(types)) == 6
    assert text.endswith("\n")
