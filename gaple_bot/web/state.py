"""A viewer's view as the page's state frame: the public table and, for a seated person, their
own hand with its moves; nothing of anyone else's hand."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..games.registry import Registry
from ..games.texts import seat_name
from ..i18n import Translator
from ..service.api import GameStatus
from ..service.breaks import RoundBreak
from ..service.facts import GameFacts
from ..service.snapshot import GameSnapshot
from ..service.views import HandView, LobbyView, SeatInfo, TableView

JSON = dict[str, Any]
TAG = re.compile(r"<[^>]+>")
"""The chat's HTML marks in a shared text (a lobby's title is <b>Gaple</b> · …)."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at a table: the person and the language they read."""

    user_id: int
    name: str
    language: str | None
    photo: str | None = None
    """Their Telegram photo's address, when Telegram gave one (shown on their seat)."""


def epoch_ms(moment: datetime | None) -> int | None:
    """A moment as the page's clock counts it (milliseconds since the epoch)."""
    return None if moment is None else int(moment.timestamp() * 1000)


def _phase(facts: GameFacts, table: TableView[Any] | None) -> str:
    if facts.status is GameStatus.LOBBY:
        return "lobby"
    if facts.status is GameStatus.ABORTED or (table is not None and table.aborted):
        return "aborted"
    if facts.status is GameStatus.FINISHED:
        return "over"
    return "playing"


def _seat(t: Translator, seat: SeatInfo, seats: Sequence[SeatInfo], viewer: Viewer) -> JSON:
    return {
        "number": seat.number,
        "name": html.unescape(seat_name(t, seat, seats)),
        "computer": seat.is_computer,
        "autoplay": seat.autoplay,
        "you": seat.user_id == viewer.user_id,
    }


def lobby_state(t: Translator, registry: Registry, lobby: LobbyView, viewer: Viewer) -> JSON:
    """The lobby: who sits, and which of its buttons the viewer may use."""
    seated = any(seat.user_id == viewer.user_id for seat in lobby.seats)
    presentation = registry.get(lobby.kind).presentation
    return {
        "t": "state",
        "revision": 0,
        "kind": lobby.kind,
        "phase": "lobby",
        "you": {"user": viewer.user_id, "seat": None, "spectator": not seated},
        "title": html.unescape(TAG.sub("", presentation.lobby_title(t, lobby.config))),
        "seats": [_seat(t, seat, lobby.seats, viewer) for seat in lobby.seats],
        "round": 0,
        "to_move": None,
        "deadline": None,
        "now": None,
        "break_until": None,
        "round_end": None,
        "winner": None,
        "lobby": {
            "capacity": lobby.capacity,
            "can_join": not seated and len(lobby.seats) < lobby.capacity,
            "can_leave": seated,
            "can_start": seated and viewer.user_id == lobby.opener_id,
        },
        "board": None,
        "hand": None,
    }


def table_state(
    t: Translator,
    registry: Registry,
    facts: GameFacts,
    table: TableView[Any],
    hand: HandView[Any, Any] | None,
    viewer: Viewer,
    now: datetime,
    boards: dict[str, JSON] | None = None,
    round_break: RoundBreak | None = None,
) -> JSON:
    """The running (or finished) table, and the viewer's own hand if they sit at it; during
    the break after a round's end (`round_break`), the round that ended too. `boards`: the
    public drawings already made for this table, by language (shared by every viewer who
    reads it; added to)."""
    presentation = registry.get(table.kind).presentation
    board = boards.get(t.language) if boards is not None else None
    if board is None:
        board = presentation.page_board(t, table)
        if boards is not None:
            boards[t.language] = board
    seats = []
    for seat in table.seats:
        shown = _seat(t, seat, table.seats, viewer)
        shown["score"] = table.scores[seat.number]
        counts = board.get("counts")
        shown["count"] = counts[seat.number] if isinstance(counts, list) else None
        seats.append(shown)
    mine = hand is not None
    return {
        "t": "state",
        "revision": table.version,
        "kind": table.kind,
        "phase": _phase(facts, table),
        "you": {
            "user": viewer.user_id,
            "seat": hand.seat if hand is not None else None,
            "spectator": not mine,
        },
        "title": board.get("title", ""),
        "seats": seats,
        "round": table.round_number,
        "to_move": table.to_move,
        "deadline": epoch_ms(table.deadline) if not facts.paused else None,
        "now": epoch_ms(now),
        "break_until": epoch_ms(round_break.until) if round_break is not None else None,
        "round_end": _round_end(t, registry, round_break, boards),
        "winner": table.winner,
        "lobby": None,
        "board": board,
        "hand": presentation.page_hand(t, hand) if hand is not None else None,
    }


def _round_end(
    t: Translator,
    registry: Registry,
    round_break: RoundBreak | None,
    boards: dict[str, JSON] | None,
) -> JSON | None:
    """The round that ended, while the break after it runs: its final line, every hand
    revealed (the rules reveal them at a round's end), each seat's points from it, and the
    seats whose person said Next. None outside a break."""
    if round_break is None:
        return None
    key = f"round_end:{t.language}"
    drawn = boards.get(key) if boards is not None else None
    if drawn is None:
        ended = round_break.ended
        presentation = registry.get(ended.table.kind).presentation
        drawn = {
            "round": ended.table.round_number,
            "board": presentation.page_board(t, ended.table),
            "reveal": presentation.page_reveal(t, ended.reveal),
            "points": list(ended.points),
        }
        if boards is not None:
            boards[key] = drawn
    return {**drawn, "ready": sorted(round_break.ready)}


def state_of(
    snapshot: GameSnapshot,
    t: Translator,
    registry: Registry,
    viewer: Viewer,
    now: datetime,
    boards: dict[str, JSON] | None = None,
    photos: Mapping[int, str] | None = None,
) -> JSON:
    """The viewer's state frame of the game as `snapshot` read it (their own hand only);
    `boards` shares the public board among the viewers of one snapshot (see table_state);
    `photos`: the Telegram photos of the people who have the table's page open, by user."""
    facts = snapshot.facts
    if facts.status is GameStatus.LOBBY or not facts.playing or snapshot.table is None:
        state = lobby_state(t, registry, snapshot.lobby, viewer)
        if facts.status is not GameStatus.LOBBY:
            # Closed before it started: nothing to join any more.
            state["phase"], state["lobby"] = "aborted", None
        seats: Sequence[SeatInfo] = snapshot.lobby.seats
    else:
        hand = snapshot.hand_of(viewer.user_id)
        state = table_state(
            t, registry, facts, snapshot.table, hand, viewer, now, boards, snapshot.round_break
        )
        seats = snapshot.table.seats
    for shown, seat in zip(state["seats"], seats, strict=True):
        shown["photo"] = (photos or {}).get(seat.user_id) if seat.user_id is not None else None
    return state
