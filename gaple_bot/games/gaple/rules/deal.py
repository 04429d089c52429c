"""Dealing a round (C2, C3, D1) and choosing who leads it (C4, C5, D2)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from .errors import ConfigError
from .rules import GameConfig, RuleSet
from .tiles import BIT, DOUBLES, FULL_SET, TILE_COUNT, heaviness, mask_of, tiles_in


@dataclass(frozen=True, slots=True)
class Deal:
    """A round's hidden start: every hand, the tiles set aside, the starting tile, the leader.

    `lead_tile` is the tile the leader must play (C4, first classic round) or -1 for a free
    lead; `start` is the face-up starting tile of D1 or -1.
    """

    hands: tuple[int, ...]
    set_aside: int
    start: int
    leader: int
    lead_tile: int

    def validate(self, config: GameConfig) -> None:
        """Raise ConfigError unless this deal fits the config and uses every tile once."""
        for tile in (self.start, self.lead_tile):
            if not -1 <= tile < TILE_COUNT:
                raise ConfigError(f"not a tile id: {tile}")
        if any(not 0 <= part <= FULL_SET for part in (*self.hands, self.set_aside)):
            raise ConfigError("a hand holds a tile beyond the double-six set")
        if len(self.hands) != config.seats:
            raise ConfigError(f"a deal for {config.seats} seats has {len(self.hands)} hands")
        seen = 0
        parts = [*self.hands, self.set_aside]
        if self.start >= 0:
            parts.append(BIT[self.start])
        for part in parts:
            if seen & part:
                raise ConfigError("a tile is dealt twice")
            seen |= part
        if seen != FULL_SET:
            raise ConfigError("the deal does not use all 28 tiles")
        for hand in self.hands:
            if hand.bit_count() != config.hand_size:
                raise ConfigError(f"every hand must hold {config.hand_size} tiles")
        if (self.start >= 0) != (config.rule_set is RuleSet.DISCARDS):
            raise ConfigError("a starting tile is turned up in the discard rules only")
        if not 0 <= self.leader < config.seats:
            raise ConfigError(f"no seat {self.leader}")
        if self.lead_tile >= 0 and not self.hands[self.leader] & BIT[self.lead_tile]:
            raise ConfigError("the leader does not hold the lead tile")

    def to_dict(self) -> dict[str, object]:
        """The deal as plain JSON values (tile ids)."""
        return {
            "hands": [list(tiles_in(hand)) for hand in self.hands],
            "set_aside": list(tiles_in(self.set_aside)),
            "start": self.start,
            "leader": self.leader,
            "lead_tile": self.lead_tile,
        }

    @staticmethod
    def from_dict(data: dict[str, object]) -> Deal:
        """The deal stored by `to_dict` (not validated: see `validate`)."""
        try:
            hands = data["hands"]
            set_aside = data["set_aside"]
            start, leader, lead_tile = data["start"], data["leader"], data["lead_tile"]
            if not (isinstance(hands, list) and isinstance(set_aside, list)):
                raise ConfigError("hands and set_aside must be lists")
            if not (isinstance(start, int) and isinstance(leader, int)):
                raise ConfigError("start and leader must be integers")
            if not isinstance(lead_tile, int):
                raise ConfigError("lead_tile must be an integer")
            for tile in [*set_aside, *(t for hand in hands for t in hand)]:
                if not isinstance(tile, int) or not 0 <= tile < TILE_COUNT:
                    raise ConfigError(f"not a tile id: {tile!r}")
            if not -1 <= start < TILE_COUNT:
                raise ConfigError(f"not a starting tile: {start!r}")
            return Deal(
                hands=tuple(mask_of(hand) for hand in hands),
                set_aside=mask_of(set_aside),
                start=start,
                leader=leader,
                lead_tile=lead_tile,
            )
        except KeyError as exc:
            raise ConfigError(f"a stored deal lacks {exc}") from exc


def first_lead(hands: tuple[int, ...]) -> tuple[int, int]:
    """C4: the seat that leads the first classic round and the tile it must lead.

    The holder of [6|6] leads it; failing that the holder of the highest double; failing any
    double, the holder of the heaviest tile (weight, then higher end).
    """
    for double in reversed(DOUBLES):
        for seat, hand in enumerate(hands):
            if hand & BIT[double]:
                return seat, double
    best_seat, best_tile = -1, -1
    for seat, hand in enumerate(hands):
        for tile in tiles_in(hand):
            if best_tile < 0 or heaviness(tile) > heaviness(best_tile):
                best_seat, best_tile = seat, tile
    return best_seat, best_tile


def deal_round(config: GameConfig, rng: random.Random, previous_winner: int | None) -> Deal:
    """C3/D1: shuffle and deal; C4/C5/D2: pick the leader (`previous_winner` None: round one)."""
    order = list(range(TILE_COUNT))
    rng.shuffle(order)
    size = config.hand_size
    hands = tuple(mask_of(order[i * size : (i + 1) * size]) for i in range(config.seats))
    rest = order[config.seats * size :]
    start = -1
    if config.rule_set is RuleSet.DISCARDS:
        start, rest = rest[0], rest[1:]
    set_aside = mask_of(rest)
    lead_tile = -1
    if previous_winner is not None:
        leader = previous_winner
    elif config.rule_set is RuleSet.CLASSIC:
        leader, lead_tile = first_lead(hands)
    else:
        leader = rng.randrange(config.seats)
    return Deal(hands, set_aside, start, leader, lead_tile)
