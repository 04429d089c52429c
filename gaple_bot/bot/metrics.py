"""The bot's figures for /metrics, through prometheus_client.

What the bot counts (moves stored, computer decision times, failed Bot API requests) goes into
prometheus_client's counters and histogram as it happens. Under `--workers` each worker's
values are files in the directory PROMETHEUS_MULTIPROC_DIR names (the supervisor makes it), and
a scrape, whichever worker it reaches, reads all of them: it shows the sum of every worker's
counts, those of workers gone since included. What comes from the database (games running, the
group queue) is read by the worker scraped, at the scrape, and is the figure for all."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, values
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4
"""Prometheus' text format, as `generate_latest` writes it."""
MULTIPROCESS_DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"
"""The environment variable prometheus_client reads for its multiprocess mode."""
DECISION_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Upper bounds (seconds) of the decision-time histogram's buckets."""


def multiprocess_directory(environ: Mapping[str, str] = os.environ) -> str | None:
    """The directory every worker's values are written to, or None for a process alone.

    prometheus_client chooses between values in memory and values in files once, when it is
    imported, from PROMETHEUS_MULTIPROC_DIR: the variable counts only if it was set by then
    (the supervisor sets it in each worker's environment before starting it)."""
    directory = environ.get(MULTIPROCESS_DIRECTORY)
    in_files = values.ValueClass is not values.MutexValue
    return directory if directory and in_files else None


class _DatabaseFigures:
    """The figures a scrape reads from the database: the whole bot's, whichever worker serves
    it (a process alone: its own group queue)."""

    def __init__(self) -> None:
        self.running_games = 0
        self.group_queue = (0, 0)

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "gaple_games_running",
            "Games being played (not lobbies), on every worker.",
            value=self.running_games,
        )
        waiting, longest = self.group_queue
        yield GaugeMetricFamily(
            "gaple_group_queue_messages",
            "Group messages waiting for their group's budget (every worker's).",
            value=waiting,
        )
        yield GaugeMetricFamily(
            "gaple_group_queue_longest",
            "Group messages waiting in the longest group queue.",
            value=longest,
        )


class Metrics:
    """One bot's metrics and their registry (its own, not prometheus_client's global one).

    It is the service's Tally (`moved`, `decided`) and counts failed Bot API requests
    (`telegram_failed`). With `directory` (prometheus_client's multiprocess mode, see
    `multiprocess_directory`) the values are kept in files there by every worker, and the
    exposition is their sum; without it, this process's values in memory."""

    def __init__(self, directory: str | None = None) -> None:
        self.registry = CollectorRegistry()
        self._figures = _DatabaseFigures()
        self.registry.register(self._figures)
        # registry=None: the metrics are registered nowhere but here (in multiprocess mode,
        # nowhere: their values reach the exposition through the files).
        self._moves = Counter(
            "gaple_moves_total",
            "Moves stored (people's and computers'), by game kind.",
            ["kind"],
            registry=None,
        )
        self._errors = Counter(
            "gaple_telegram_errors_total",
            "Bot API requests that failed, by kind of failure.",
            ["kind"],
            registry=None,
        )
        self._decisions = Histogram(
            "gaple_computer_decision_seconds",
            "How long the computer players took to choose a move.",
            ["kind", "level"],
            buckets=DECISION_BUCKETS,
            registry=None,
        )
        self.directory = directory
        if directory is None:
            for metric in (self._moves, self._errors, self._decisions):
                self.registry.register(metric)
        else:
            # prometheus_client leaves this one without annotations.
            MultiProcessCollector(self.registry, directory)  # type: ignore[no-untyped-call]

    @classmethod
    def from_environment(cls) -> Metrics:
        """A worker's metrics: gathered with the other workers' under `--workers`."""
        return cls(multiprocess_directory())

    def moved(self, kind: str) -> None:
        """A move of game `kind` was stored."""
        self._moves.labels(kind=kind).inc()

    def decided(self, kind: str, level: str, seconds: float) -> None:
        """A computer player of `level` took `seconds` to choose a move."""
        self._decisions.labels(kind=kind, level=level).observe(seconds)

    def telegram_failed(self, kind: str) -> None:
        """A Bot API request failed (`kind`: see http.failure_kind)."""
        self._errors.labels(kind=kind).inc()

    def exposition(self, *, running_games: int, group_queue: tuple[int, int]) -> bytes:
        """The text a scrape gets, with the database's figures read for it: games running,
        and the group messages waiting (in all, in the longest queue)."""
        self._figures.running_games = running_games
        self._figures.group_queue = group_queue
        return generate_latest(self.registry)
