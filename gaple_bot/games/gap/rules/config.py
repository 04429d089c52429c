"""What is fixed for a whole game of Gap: the seats (G1, G3) and the target (G2)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import deck
from .errors import ConfigError

MIN_SEATS = 2
MAX_SEATS = 6
DEFAULT_TARGET = 30
"""G2: the target is 30 unless the players choose another."""
MIDDLE_SIZE = 4
"""G3: four cards face up in the middle; G4: refilled to four while the pile lasts."""


@dataclass(frozen=True, slots=True)
class GapConfig:
    """A game's seat count (2..6) and target (G2: 30 by default, at least 1)."""

    seats: int
    target: int = DEFAULT_TARGET

    def __post_init__(self) -> None:
        for name, value in (("seats", self.seats), ("target", self.target)):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{name} must be an integer, not {value!r}")
        if not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ConfigError(f"Gap needs {MIN_SEATS} to {MAX_SEATS} seats, not {self.seats}")
        if self.target < 1:
            raise ConfigError(f"the target must be at least 1, not {self.target}")

    @property
    def hand_size(self) -> int:
        """G3: six cards each for two to four players, five for five or six."""
        return 6 if self.seats <= 4 else 5

    @property
    def deck(self) -> tuple[int, ...]:
        """G1: the card ids in play."""
        return deck(self.seats)

    def to_dict(self) -> dict[str, object]:
        """The config as plain JSON values: {"seats": n, "target": t}."""
        return {"seats": self.seats, "target": self.target}

    @staticmethod
    def from_dict(data: dict[str, object]) -> GapConfig:
        """The config stored by `to_dict` (a missing target is G2's default)."""
        if not isinstance(data, dict):
            raise ConfigError("a stored config is a JSON object")
        seats, target = data.get("seats"), data.get("target", DEFAULT_TARGET)
        if not isinstance(seats, int) or not isinstance(target, int):
            raise ConfigError("seats and target must be integers")
        return GapConfig(seats=seats, target=target)
