"""The learned value of a position: who is likely to win the round from it, and for how much.

The model (`value_weights`, fitted by bench/fit_values.py to rounds of the project's strong
players) reads every hand and the ends (`fastcore.value_features`) and gives each seat's chance
of winning the round and the points it would score; the tree search may value its leaves by it
rather than, or as well as, by playing them out (`Budget.values`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache

import numpy as np

from .fastcore import VALUE_FEATURES, VALUE_SEATS, Floats, no_values


@dataclass(frozen=True, slots=True)
class ValueModel:
    """The fitted model's arrays, as `fastcore.value_outcomes` takes them."""

    hidden: Floats
    bias: Floats
    outer: Floats
    outer_bias: Floats

    def arrays(self) -> tuple[Floats, Floats, Floats, Floats]:
        """The four arrays in `fastcore.search`'s order."""
        return self.hidden, self.bias, self.outer, self.outer_bias


@cache
def value_model(weights: str) -> ValueModel:
    """The learned value whose weights are this package's module `weights` (built once per
    process, at first use)."""
    # Written by bench/fit_values.py, which imports this package: imported when first asked.
    w = importlib.import_module(f"{__package__}.{weights}")

    def floats(values: object) -> Floats:
        return np.array(values, dtype=np.float64)

    units = len(w.HIDDEN_BIASES)
    return ValueModel(
        floats(w.HIDDEN_WEIGHTS).reshape(VALUE_FEATURES, units),
        floats(w.HIDDEN_BIASES),
        floats(w.OUT_WEIGHTS).reshape(units, 2 * VALUE_SEATS),
        floats(w.OUT_BIASES),
    )


def no_value_model() -> ValueModel:
    """Arrays for a search that values its leaves by rollouts alone."""
    return ValueModel(*no_values())
