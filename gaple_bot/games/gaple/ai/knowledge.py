"""What a seat can infer about the hidden tiles: where they may lie and how many lie where."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..rules import Discarded, Passed, Played, RuleSet, SeatView
from ..rules.tiles import BIT, DOUBLES, NUMBER_MASK, TILE_COUNT, heaviness


class PlaceKind(IntEnum):
    """Where hidden tiles can lie."""

    HAND = 0
    DISCARDS = 1
    SET_ASIDE = 2


@dataclass(frozen=True, slots=True)
class Place:
    """`count` hidden tiles lie here, each one of the tiles in the mask `allowed`."""

    kind: PlaceKind
    seat: int
    """The seat owning the hand or the discards; -1 for the tiles set aside."""
    count: int
    allowed: int


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The hidden tiles (`unseen`) and the places they fill, every place's count exact."""

    unseen: int
    places: tuple[Place, ...]


def numbers_mask(numbers: int) -> int:
    """The tiles showing any number in the 7-bit set `numbers`."""
    mask = 0
    for number in range(7):
        if numbers >> number & 1:
            mask |= NUMBER_MASK[number]
    return mask


def _above_lead(lead: int) -> int:
    """C4: the tiles that would have been led before `lead` had a hand held them."""
    if lead in DOUBLES:
        return sum(BIT[d] for d in DOUBLES if d > lead)
    above = sum(BIT[d] for d in DOUBLES)
    return above | sum(BIT[t] for t in range(TILE_COUNT) if heaviness(t) > heaviness(lead))


def _c4_aside(view: SeatView, lead: int) -> int:
    """C4: the tiles that must have been set aside for `lead` to be the forced first lead, or
    nothing when the record shows the lead was not forced (a hand-made first deal)."""
    if lead < 0:
        return 0
    above = _above_lead(lead)
    if above & (view.hand | view.own_discards | view.played):
        return 0  # someone held a tile ranked above the lead
    me = view.seat
    hidden = sum(view.hand_counts) - view.hand_counts[me]
    hidden += sum(view.discard_counts) - view.discard_counts[me]
    if (view.unseen & above).bit_count() > view.unseen.bit_count() - hidden:
        return 0  # more such tiles than tiles set aside
    return above


def knowledge_of(view: SeatView, assume_c4: bool = True) -> Knowledge:
    """Every constraint the public record puts on the hidden tiles, seen from `view.seat`.

    A seat that passed or discarded with ends (a, b) held no tile showing a or b; its hand only
    shrinks afterwards, so it holds none from then on (C9, D4). A discarded tile came from that
    hand, so it shows none of the numbers its owner was known to lack at that moment. In the
    first classic round nobody held a tile ranked above the lead (C4), so such tiles lie aside
    (`assume_c4`: unless the record shows that lead was not forced).
    """
    unseen = view.unseen
    seats = view.config.seats
    void = [0] * seats
    # (seat, numbers lacked) for every hidden discard, in the order they were made.
    hidden_discards: list[tuple[int, int]] = []
    lead = -1
    for event in view.events:
        if isinstance(event, Played):
            if event.ends is None:
                lead = event.tile
        elif isinstance(event, Passed | Discarded):
            left, right = event.ends
            void[event.seat] |= 1 << left | 1 << right
            if isinstance(event, Discarded) and event.seat != view.seat:
                hidden_discards.append((event.seat, void[event.seat]))
    dealt = unseen
    if assume_c4 and view.round_number == 1 and view.config.rule_set is RuleSet.CLASSIC:
        dealt &= ~_c4_aside(view, lead)

    places: list[Place] = []
    hidden_total = 0
    for seat in range(seats):
        if seat == view.seat:
            continue
        count = view.hand_counts[seat]
        if count:
            allowed = dealt & ~numbers_mask(void[seat])
            places.append(Place(PlaceKind.HAND, seat, count, allowed))
            hidden_total += count
        groups: dict[int, int] = {}
        for owner, lacked in hidden_discards:
            if owner == seat:
                allowed = dealt & ~numbers_mask(lacked)
                groups[allowed] = groups.get(allowed, 0) + 1
        if sum(groups.values()) != view.discard_counts[seat]:
            raise ValueError(f"seat {seat}'s discards do not match the events")
        for allowed, count in groups.items():
            places.append(Place(PlaceKind.DISCARDS, seat, count, allowed))
            hidden_total += count
    aside = unseen.bit_count() - hidden_total
    if aside < 0:
        raise ValueError("the view counts more hidden tiles than it leaves unseen")
    if aside:
        places.append(Place(PlaceKind.SET_ASIDE, -1, aside, unseen))
    return Knowledge(unseen, tuple(places))
