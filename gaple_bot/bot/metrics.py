"""The bot's figures in Prometheus' text format, for /metrics."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..service.tally import DECISION_BUCKETS, Tally

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def _escape(value: str) -> str:
    """A label value as the format quotes it."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(values: Mapping[str, str]) -> str:
    if not values:
        return ""
    return "{" + ",".join(f'{name}="{_escape(value)}"' for name, value in values.items()) + "}"


def _number(value: float) -> str:
    """A sample's value in full (counts as integers; `g` would round past six digits)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _family(
    name: str, kind: str, help_text: str, samples: Iterable[tuple[str, Mapping[str, str], float]]
) -> list[str]:
    lines = [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
    lines += [
        f"{name}{suffix}{_labels(labels)} {_number(value)}" for suffix, labels, value in samples
    ]
    return lines


def metrics_text(
    *,
    running_games: int,
    tally: Tally,
    telegram_failures: Mapping[str, int],
    group_queue: tuple[int, int],
) -> str:
    """The exposition of one worker's figures (games running is the database's, for all)."""
    lines = _family(
        "gaple_games_running",
        "gauge",
        "Games being played (not lobbies), on every worker.",
        [("", {}, running_games)],
    )
    lines += _family(
        "gaple_moves_total",
        "counter",
        "Moves stored by this worker, by game kind.",
        [("", {"kind": kind}, count) for kind, count in sorted(tally.moves.items())],
    )
    lines += _family(
        "gaple_telegram_errors_total",
        "counter",
        "Bot API requests of this worker that failed, by kind of failure.",
        [("", {"kind": kind}, count) for kind, count in sorted(telegram_failures.items())],
    )
    waiting, longest = group_queue
    lines += _family(
        "gaple_group_queue_messages",
        "gauge",
        "Group messages this worker holds waiting for the group's budget.",
        [("", {}, waiting)],
    )
    lines += _family(
        "gaple_group_queue_longest",
        "gauge",
        "Group messages waiting in this worker's longest group queue.",
        [("", {}, longest)],
    )
    decisions: list[tuple[str, Mapping[str, str], float]] = []
    for (kind, level), durations in sorted(tally.decisions.items()):
        labels = {"kind": kind, "level": level}
        for bound, count in zip(DECISION_BUCKETS, durations.buckets, strict=True):
            decisions.append(("_bucket", {**labels, "le": f"{bound:g}"}, count))
        decisions.append(("_bucket", {**labels, "le": "+Inf"}, durations.count))
        decisions.append(("_sum", labels, durations.total))
        decisions.append(("_count", labels, durations.count))
    lines += _family(
        "gaple_computer_decision_seconds",
        "histogram",
        "How long this worker's computer players took to choose a move.",
        decisions,
    )
    return "\n".join(lines) + "\n"
