"""Seats handed to the computer when the bot cannot reach their person, and offered back."""

from __future__ import annotations

from typing import Any

from ..service.api import GameStatus
from ..service.errors import ServiceError
from ..service.progress import Progress
from ..service.views import SeatInfo, TableView
from .deps import Deps

MAX_HANDOVERS = 8
"""Bounds the chain of 'cannot reach this person, hand their seat over' in one update."""


def announce_unreachable(deps: Deps, table: TableView[Any], seat: SeatInfo) -> None:
    """Tell the group the computer now plays the seat of someone the bot cannot reach
    privately (once per hand-over)."""
    deps.presenter.group.group_notice(table, deps.presenter.render.unreachable(table, seat))


def progress_table(progress: Progress) -> TableView[Any] | None:
    """The table as `progress` leaves it (the last step's if the game is over)."""
    return progress.table or _last_table(progress)


async def newly_unreachable(
    deps: Deps, game_id: int, table: TableView[Any] | None, unreachable: list[int]
) -> SeatInfo | None:
    """Mark everyone the bot could not reach; return the first of them whose seat at this
    game the computer does not play yet. A seat already handed over is not announced again
    (its hand fails to arrive at every new round, and each notice spends the group's budget)."""
    found: SeatInfo | None = None
    for user_id in unreachable:
        seats = await deps.service.players.no_longer_reachable(user_id)
        if found is not None or table is None or all(s.game_id != game_id for s in seats):
            continue
        seat = next((s for s in table.seats if s.user_id == user_id), None)
        if seat is not None and not seat.autoplay:
            found = seat
    return found


async def offer_seats_back(deps: Deps, user_id: int) -> None:
    """Someone the bot can reach again (they unblocked it, or wrote /start) is offered every
    seat the computer plays for them."""
    questions = deps.service.commands
    for seat in await deps.service.players.autoplay_seats(user_id):
        try:
            facts = await questions.facts(seat.game_id)
            if facts.status is not GameStatus.RUNNING or not facts.playing:
                continue
            table = await questions.table(seat.game_id)
        except ServiceError:
            continue  # the game ended meanwhile: nothing to offer
        # Not while the game is held: the offer is a message to the person's private chat.
        await deps.presenter.hands.offer_seat_back(table, seat.seat)


def _last_table(progress: Progress) -> TableView[Any] | None:
    return progress.steps[-1].table if progress.steps else None
