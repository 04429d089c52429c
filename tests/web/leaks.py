"""What a page received, checked against every seat's hidden items: a viewer's frames hold their
own hand and nothing of anyone else's (no other hand, no face-down discard, no pile order)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gaple_bot.games.gap.rules import COLOUR, VALUE
from gaple_bot.games.gap.rules.cards import COLOURS
from gaple_bot.games.gaple.rules import tiles_in
from gaple_bot.games.gaple.rules.tiles import HIGH, LOW
from gaple_bot.service.runtime import GameService

JSON = dict[str, Any]


def _items(private: Any, kind: str) -> set[int]:
    if kind == "gaple":
        return set(tiles_in(private.hand))
    return set(private.cards)


def _hidden(private: Any, kind: str) -> set[tuple[object, ...]]:
    """A seat's hidden items as the page's JSON would carry them."""
    if kind == "gaple":
        tiles = tiles_in(private.hand | private.discards)
        return {(HIGH[t], LOW[t]) for t in tiles} | {(LOW[t], HIGH[t]) for t in tiles}
    return {(COLOURS[COLOUR[c]], VALUE[c]) for c in private.cards}


def _shapes(value: object, kind: str) -> Iterator[tuple[object, ...]]:
    """Every item-like value in a frame: a tile's two numbers, a card's colour and value."""
    if isinstance(value, dict):
        if kind == "gap" and "colour" in value and "value" in value:
            yield (value["colour"], value["value"])
        if kind == "gaple" and isinstance(value.get("a"), int) and isinstance(value.get("b"), int):
            yield (value["a"], value["b"])
        for key, inner in value.items():
            if key in ("ends", "counts", "discards", "seats", "revision", "scores"):
                continue  # numbers of the table, not items
            yield from _shapes(inner, kind)
    elif isinstance(value, list):
        if kind == "gaple" and len(value) == 2 and all(isinstance(v, int) for v in value):
            yield (value[0], value[1])
        for inner in value:
            yield from _shapes(inner, kind)


async def scan(service: GameService, game_id: int, frame: JSON) -> None:
    """Fail if a state frame shows its viewer anything of another seat's hidden items."""
    if frame.get("t") != "state" or frame.get("phase") != "playing":
        return
    async with service.cache.lock(game_id):
        live = await service.cache.get(game_id)
        match = live.match
        assert match is not None
        if match.round_number != frame["round"] or live.version != frame["revision"]:
            return  # the game moved on: this frame's hands are gone
        privates = [match.private(seat) for seat in range(len(live.seats))]
    kind = frame["kind"]
    seat = frame["you"]["seat"]
    if seat is None:
        assert frame["hand"] is None, "a spectator is sent a hand"
    else:
        shown = {item["id"] for item in frame["hand"]["items"]}
        assert shown == _items(privates[seat], kind), "the hand is not the viewer's own"
    hidden: set[tuple[object, ...]] = set()
    for other, private in enumerate(privates):
        if other != seat:
            hidden |= _hidden(private, kind)
    if seat is not None and kind == "gaple":
        # The viewer's own tiles may be written either way round, in their hand.
        own = _hidden(privates[seat], kind)
        hidden -= own
    if frame.get("round_end") is not None:
        # The round that ended is shown whole during the break (the rules reveal its hands
        # at its end): it is the round before this one, never this one's hands.
        assert frame["round_end"]["round"] == frame["round"] - 1
    public = {key: value for key, value in frame.items() if key not in ("hand", "round_end")}
    leaked = [shape for shape in _shapes(public, kind) if shape in hidden]
    if kind == "gaple":
        # A tile on the line is public: its numbers are not a hidden tile's.
        layouts = frame["board"]["layouts"]
        line = {(t["a"], t["b"]) for t in layouts["wide"]["tiles"]} if layouts else set()
        leaked = [shape for shape in leaked if shape not in line]
    assert not leaked, f"frame shows hidden items {leaked}"
    assert "pile" not in frame["board"] or isinstance(frame["board"]["pile"], int)
