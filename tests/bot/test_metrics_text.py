"""The /metrics exposition: Prometheus' text format through prometheus_client, cumulative
buckets, escaped labels, one registry per bot."""

from __future__ import annotations

from gaple_bot.bot.metrics import DECISION_BUCKETS, Metrics
from tests.bot.exposition import samples, types, value


def test_decision_buckets_are_cumulative_and_end_at_the_count() -> None:
    metrics = Metrics()
    for seconds in (0.001, 0.02, 0.02, 0.3, 9.0):
        metrics.decided("gaple", "hard", seconds)
    metrics.moved("gaple")
    found = samples(metrics.exposition(running_games=2, group_queue=(3, 2)))
    hard = {"kind": "gaple", "level": "hard"}
    bucket = "gaple_computer_decision_seconds_bucket"
    buckets = [value(found, bucket, **hard, le=str(float(b))) for b in DECISION_BUCKETS]
    assert buckets == sorted(buckets)
    assert value(found, bucket, **hard, le="0.005") == 1
    assert value(found, bucket, **hard, le="0.025") == 3
    assert value(found, bucket, **hard, le="2.5") == 4
    assert value(found, bucket, **hard, le="+Inf") == 5
    assert value(found, "gaple_computer_decision_seconds_count", **hard) == 5
    assert abs(value(found, "gaple_computer_decision_seconds_sum", **hard) - 9.341) < 1e-9
    assert value(found, "gaple_moves_total", kind="gaple") == 1
    assert value(found, "gaple_games_running") == 2
    assert value(found, "gaple_group_queue_messages") == 3
    assert value(found, "gaple_group_queue_longest") == 2


def test_every_family_is_declared_once_and_labels_are_escaped() -> None:
    metrics = Metrics()
    empty = metrics.exposition(running_games=0, group_queue=(0, 0))
    assert types(empty) == {
        "gaple_games_running": "gauge",
        "gaple_moves": "counter",
        "gaple_telegram_errors": "counter",
        "gaple_group_queue_messages": "gauge",
        "gaple_group_queue_longest": "gauge",
        "gaple_computer_decision_seconds": "histogram",
    }
    metrics.telegram_failed('odd"kind\\')
    metrics.telegram_failed('odd"kind\\')
    text = metrics.exposition(running_games=0, group_queue=(0, 0))
    assert b'gaple_telegram_errors_total{kind="odd\\"kind\\\\"} 2.0\n' in text
    assert value(samples(text), "gaple_telegram_errors_total", kind='odd"kind\\') == 2
    declared = [line.split()[2] for line in text.decode().splitlines() if line.startswith("# TYPE")]
    assert len(declared) == len(set(declared))
    assert text.endswith(b"\n")


def test_each_bot_counts_in_its_own_registry() -> None:
    """Two bots in one process (as in the tests) neither clash nor see each other's counts."""
    first, second = Metrics(), Metrics()
    first.moved("gaple")
    first.moved("gap")
    second.moved("gaple")
    ours = samples(first.exposition(running_games=0, group_queue=(0, 0)))
    theirs = samples(second.exposition(running_games=0, group_queue=(0, 0)))
    assert value(ours, "gaple_moves_total", kind="gaple") == 1
    assert value(ours, "gaple_moves_total", kind="gap") == 1
    assert value(theirs, "gaple_moves_total", kind="gaple") == 1
    assert value(theirs, "gaple_moves_total", kind="gap") == 0
