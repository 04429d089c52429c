"""Per-game results and the running totals per player and kind, per chat and global."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import case, insert, select
from sqlalchemy.dialects import postgresql, sqlite

from ...games.seam import AnyGameKind, SeatOutcome
from ..enums import GLOBAL_SCOPE
from ..models import PlayerExtra, PlayerTotal, Result
from ..records import GameResult, SeatRecord
from ..statements import Statements
from ._sql import larger, upsert_insert


def add_to_totals(session: Statements) -> sqlite.Insert | postgresql.Insert:
    """An insert of player_totals rows that adds each row to the player's totals at its kind
    in its scope if they have some."""
    stmt = upsert_insert(session, PlayerTotal)
    new = stmt.excluded
    return stmt.on_conflict_do_update(
        index_elements=["kind", "scope", "player_id"],
        set_={
            "games": PlayerTotal.games + new.games,
            "wins": PlayerTotal.wins + new.wins,
            "points": PlayerTotal.points + new.points,
            "rounds_won": PlayerTotal.rounds_won + new.rounds_won,
            "updated_at": new.updated_at,
        },
    )


def add_to_extras(session: Statements) -> sqlite.Insert | postgresql.Insert:
    """An insert of player_extras rows that folds each row into the player's total of that
    extra if they have one: a 'sum' adds, a 'max' keeps the larger."""
    stmt = upsert_insert(session, PlayerExtra)
    new = stmt.excluded
    return stmt.on_conflict_do_update(
        index_elements=["kind", "scope", "player_id", "name"],
        set_={
            "value": case(
                (new.aggregate == "max", larger(session, PlayerExtra.value, new.value)),
                else_=PlayerExtra.value + new.value,
            ),
            "aggregate": new.aggregate,
        },
    )


@dataclass(slots=True)
class Totals:
    """A player's running totals at one kind in one scope."""

    games: int = 0
    wins: int = 0
    points: int = 0
    rounds_won: int = 0


class ResultRepository:
    """Writes `results` and keeps `player_totals` and `player_extras` in step with them."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def record(
        self,
        game_id: int,
        chat_id: int,
        kind: AnyGameKind,
        seats: Sequence[SeatRecord],
        outcomes: Sequence[SeatOutcome],
        finished_at: datetime,
    ) -> list[GameResult]:
        """Store each seat's outcome and add it to its player's chat and global totals at
        `kind` (one statement per table)."""
        results = [
            GameResult(
                game_id,
                seat.seat,
                seat.player_id,
                outcome.place,
                outcome.points,
                outcome.rounds_won,
                dict(outcome.extras),
            )
            for seat, outcome in zip(seats, outcomes, strict=True)
        ]
        await self._session.execute(
            insert(Result),
            [
                {
                    "game_id": r.game_id,
                    "seat": r.seat,
                    "player_id": r.player_id,
                    "kind": kind.name,
                    "chat_id": chat_id,
                    "place": r.place,
                    "points": r.points,
                    "rounds_won": r.rounds_won,
                    "extras": r.extras,
                    "finished_at": finished_at,
                }
                for r in results
            ],
        )
        await self._add_to_totals(kind, chat_id, results, finished_at)
        return results

    async def of_game(self, game_id: int) -> list[GameResult]:
        """A finished game's results in seat order."""
        stmt = (
            select(
                Result.game_id,
                Result.seat,
                Result.player_id,
                Result.place,
                Result.points,
                Result.rounds_won,
                Result.extras,
            )
            .where(Result.game_id == game_id)
            .order_by(Result.seat)
        )
        return [GameResult(*row) for row in await self._session.execute(stmt)]

    async def _add_to_totals(
        self, kind: AnyGameKind, chat_id: int, results: Sequence[GameResult], now: datetime
    ) -> None:
        """Add the game to each player's totals.

        A player in several seats (a computer level playing itself) plays one game, won if
        any of its seats finished first, and adds up what all its seats scored: points, rounds
        won, 'sum' extras (a 'max' extra keeps its seats' best). The weekly boards count the
        results rows the same way."""
        per_player: dict[int, Totals] = {}
        extras: dict[int, dict[str, int]] = {}
        for r in results:
            totals = per_player.setdefault(r.player_id, Totals(games=1))
            totals.wins = max(totals.wins, int(r.place == 1))
            totals.points += r.points
            totals.rounds_won += r.rounds_won
            mine = extras.setdefault(r.player_id, {})
            for spec in kind.extras:
                value = r.extras[spec.name]
                if spec.name not in mine:
                    mine[spec.name] = value
                elif spec.aggregate == "max":
                    mine[spec.name] = max(mine[spec.name], value)
                else:
                    mine[spec.name] += value
        scopes = (chat_id, GLOBAL_SCOPE)
        rows: list[dict[str, Any]] = [
            {
                "kind": kind.name,
                "scope": scope,
                "player_id": player_id,
                "games": t.games,
                "wins": t.wins,
                "points": t.points,
                "rounds_won": t.rounds_won,
                "updated_at": now,
            }
            for scope in scopes
            for player_id, t in per_player.items()
        ]
        await self._session.execute(add_to_totals(self._session), rows)
        extra_rows: list[dict[str, Any]] = [
            {
                "kind": kind.name,
                "scope": scope,
                "player_id": player_id,
                "name": spec.name,
                "aggregate": spec.aggregate,
                "value": extras[player_id][spec.name],
            }
            for scope in scopes
            for player_id in per_player
            for spec in kind.extras
        ]
        if extra_rows:
            await self._session.execute(add_to_extras(self._session), extra_rows)
