"""Rule sets and the options a chat can choose (C2, C13, D1, D4, D8)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import ConfigError


class RuleSet(StrEnum):
    """Which Gaple rules a game follows."""

    CLASSIC = "classic"
    """C1-C13: seven tiles each, no drawing, winner takes the pips left in other hands."""
    DISCARDS = "discards"
    """D1-D8: a starting tile, stuck players discard, everyone scores the differences."""


class StuckRule(StrEnum):
    """D4: what a player who cannot play does under the discard rules."""

    DISCARD = "discard"
    PASS = "pass"


SEAT_RANGE: dict[RuleSet, tuple[int, ...]] = {
    RuleSet.CLASSIC: (2, 3, 4),
    RuleSet.DISCARDS: (4, 5),
}
DEFAULT_TARGET = 100


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything fixed for a whole game: rule set, seat count and options."""

    rule_set: RuleSet = RuleSet.CLASSIC
    seats: int = 4
    target: int = DEFAULT_TARGET
    stuck_rule: StuckRule = StuckRule.DISCARD

    def __post_init__(self) -> None:
        if self.seats not in SEAT_RANGE[self.rule_set]:
            allowed = ", ".join(str(n) for n in SEAT_RANGE[self.rule_set])
            raise ConfigError(
                f"{self.rule_set.value} Gaple needs {allowed} seats, not {self.seats}"
            )
        if not 1 <= self.target <= 10_000:
            raise ConfigError(f"the target must be between 1 and 10000, not {self.target}")

    @property
    def hand_size(self) -> int:
        """C3: seven tiles each; D1: six with four seats, five with five."""
        if self.rule_set is RuleSet.CLASSIC:
            return 7
        return 6 if self.seats == 4 else 5

    @property
    def discards_when_stuck(self) -> bool:
        """D4: a stuck player discards (unless the chat chose 'pass instead')."""
        return self.rule_set is RuleSet.DISCARDS and self.stuck_rule is StuckRule.DISCARD

    def to_dict(self) -> dict[str, object]:
        """The config as plain JSON values."""
        return {
            "rule_set": self.rule_set.value,
            "seats": self.seats,
            "target": self.target,
            "stuck_rule": self.stuck_rule.value,
        }

    @staticmethod
    def from_dict(data: dict[str, object]) -> GameConfig:
        """The config stored by `to_dict`."""
        seats, target = data.get("seats"), data.get("target")
        rule_set, stuck_rule = data.get("rule_set"), data.get("stuck_rule", "discard")
        if not isinstance(seats, int) or not isinstance(target, int):
            raise ConfigError("seats and target must be integers")
        if rule_set not in {r.value for r in RuleSet}:
            raise ConfigError(f"unknown rule set {rule_set!r}")
        if stuck_rule not in {s.value for s in StuckRule}:
            raise ConfigError(f"unknown stuck rule {stuck_rule!r}")
        return GameConfig(
            rule_set=RuleSet(str(rule_set)),
            seats=seats,
            target=target,
            stuck_rule=StuckRule(str(stuck_rule)),
        )
