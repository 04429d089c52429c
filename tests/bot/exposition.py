"""Reading /metrics as Prometheus does: prometheus_client's own parser of the text format."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(exposition: bytes) -> Samples:
    """Every sample of the exposition, by its name and labels."""
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(exposition.decode())
        for sample in family.samples
    }


def types(exposition: bytes) -> dict[str, str]:
    """Each family's type, by its name (a counter's without `_total`)."""
    return {
        family.name: family.type for family in text_string_to_metric_families(exposition.decode())
    }


def value(found: Samples, name: str, **labels: str) -> float:
    """One sample's value, 0 if absent."""
    return found.get((name, frozenset(labels.items())), 0.0)
