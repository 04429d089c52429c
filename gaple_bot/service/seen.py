"""What a held game shows: its public table and each seat's own view, read off the cached copy.

Pure functions of a game as the cache holds it; nothing here writes or waits.
"""

from __future__ import annotations

from typing import Any

from ..games.seam import AnyMatch
from ..store import GameStatus, SeatRecord
from .errors import GameNotRunning, GamePaused, NotSeated, NotYourTurn, PickHasNoMove, StaleButton
from .live import LiveGame
from .progress import Progress
from .views import HandView, TableView


def running_match(live: LiveGame) -> AnyMatch:
    """The game's match; raises GameNotRunning unless it is being played."""
    if live.status is not GameStatus.RUNNING or live.match is None:
        raise GameNotRunning(f"game {live.game_id} is {live.status.value}")
    return live.match


def table_view(live: LiveGame) -> TableView[Any]:
    """The public table of the game's current round."""
    return live.table()


def hand_view(live: LiveGame, seat: int, table: TableView[Any] | None = None) -> HandView[Any, Any]:
    """A person's private view; legal moves only when they are to move themselves."""
    match = live.match
    assert match is not None
    legal: tuple[int, ...] = ()
    if match.to_move == seat and not live.computer_moves(seat):
        legal = match.legal_codes()
    return HandView(
        game_id=live.game_id,
        version=live.version,
        seat=seat,
        legal=legal,
        private=match.private(seat),
        table=table or table_view(live),
    )


def private_view(live: LiveGame, seat: int) -> object:
    """What seat `seat` alone may see now (its hand)."""
    assert live.match is not None
    return live.match.private(seat)


def people_hands(live: LiveGame, table: TableView[Any]) -> dict[int, HandView[Any, Any]]:
    """Every person's seat's own view, by seat."""
    return {s.seat: hand_view(live, s.seat, table) for s in live.seats if s.user_id is not None}


def where_it_stands(live: LiveGame, progress: Progress) -> Progress:
    """`progress` with where the game stands now: the table, every person's view, and the
    person to move (if a person is)."""
    match = live.match
    if match is None or live.status is not GameStatus.RUNNING or match.to_move is None:
        return progress
    table = table_view(live)
    progress.table = table
    progress.hands = people_hands(live, table)
    progress.break_until = live.round_break.until if live.round_break is not None else None
    seat = match.to_move
    if not live.computer_moves(seat):
        progress.turn = progress.hands[seat]
    return progress


def turn_seat(live: LiveGame, user_id: int, version: int) -> SeatRecord:
    """The person's seat, if the button is current and they are to move; raises if not."""
    match = running_match(live)
    seat = live.seat_of(user_id)
    if seat is None:
        raise NotSeated(f"user {user_id} does not sit at game {live.game_id}")
    if live.paused:
        raise GamePaused(f"game {live.game_id} is paused")
    if version != live.version:
        raise StaleButton(f"game {live.game_id} is at version {live.version}, not {version}")
    if match.to_move != seat.seat or live.computer_moves(seat.seat):
        raise NotYourTurn(f"seat {seat.seat} is not to move")
    return seat


def turn_view(live: LiveGame, user_id: int, version: int) -> HandView[Any, Any]:
    """The person's view on their own turn (raises unless the button is current)."""
    return hand_view(live, turn_seat(live, user_id, version).seat)


def step_view(
    live: LiveGame, user_id: int, version: int, step: int
) -> tuple[HandView[Any, Any], tuple[int, ...]]:
    """The seat's view when it takes first pick `step` (a tile, a card), and the moves that
    pick leads to: raises unless it leads to at least one legal move now."""
    view = turn_view(live, user_id, version)
    assert live.match is not None
    codes = live.match.step_codes(step)
    if not codes:
        raise PickHasNoMove(f"pick {step} has no legal move")
    return view, codes
