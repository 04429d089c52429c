"""Per-game results and the running totals per player, per chat and global."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from ..enums import GLOBAL_SCOPE
from ..models import PlayerTotal, Result
from ..outcome import SeatOutcome
from ..records import GameResult, SeatRecord
from ._sql import upsert_insert


def add_to_totals(session: AsyncSession) -> sqlite.Insert | postgresql.Insert:
    """An insert of player_totals rows that adds each row to the player's totals in its scope
    if they have some (counts and points add up; the best round is the larger)."""
    stmt = upsert_insert(session, PlayerTotal)
    new = stmt.excluded
    return stmt.on_conflict_do_update(
        index_elements=["scope", "player_id"],
        set_={
            "games": PlayerTotal.games + new.games,
            "wins": PlayerTotal.wins + new.wins,
            "points": PlayerTotal.points + new.points,
            "rounds_won": PlayerTotal.rounds_won + new.rounds_won,
            "gaples": PlayerTotal.gaples + new.gaples,
            "best_round": case(
                (new.best_round > PlayerTotal.best_round, new.best_round),
                else_=PlayerTotal.best_round,
            ),
            "updated_at": new.updated_at,
        },
    )


@dataclass(slots=True)
class Totals:
    """A player's running totals in one scope (games, wins, rounds, gaples, points)."""

    games: int = 0
    wins: int = 0
    points: int = 0
    rounds_won: int = 0
    gaples: int = 0
    best_round: int = 0


class ResultRepository:
    """Writes `results` and keeps `player_totals` in step with them."""

    def __init__(self, session: AsyncSession) -> None:
        self._session = session

    async def record(
        self,
        game_id: int,
        chat_id: int,
        seats: Sequence[SeatRecord],
        outcomes: Sequence[SeatOutcome],
        finished_at: datetime,
    ) -> list[GameResult]:
        """Store each seat's outcome and add it to its player's chat and global totals."""
        results = [
            GameResult(
                game_id,
                seat.seat,
                seat.player_id,
                outcome.place,
                outcome.points,
                outcome.rounds_won,
                outcome.gaples,
                outcome.best_round,
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
                    "chat_id": chat_id,
                    "place": r.place,
                    "points": r.points,
                    "rounds_won": r.rounds_won,
                    "gaples": r.gaples,
                    "best_round": r.best_round,
                    "finished_at": finished_at,
                }
                for r in results
            ],
        )
        await self._add_to_totals(chat_id, results, finished_at)
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
                Result.gaples,
                Result.best_round,
            )
            .where(Result.game_id == game_id)
            .order_by(Result.seat)
        )
        return [GameResult(*row) for row in await self._session.execute(stmt)]

    async def _add_to_totals(
        self, chat_id: int, results: Sequence[GameResult], now: datetime
    ) -> None:
        """Add the game to each player's totals (a player in several seats counts each)."""
        per_player: dict[int, Totals] = {}
        for r in results:
            totals = per_player.setdefault(r.player_id, Totals())
            totals.games += 1
            totals.wins += r.place == 1
            totals.points += r.points
            totals.rounds_won += r.rounds_won
            totals.gaples += r.gaples
            totals.best_round = max(totals.best_round, r.best_round)
        stmt = add_to_totals(self._session)
        rows = [
            {
                "scope": scope,
                "player_id": player_id,
                "games": t.games,
                "wins": t.wins,
                "points": t.points,
                "rounds_won": t.rounds_won,
                "gaples": t.gaples,
                "best_round": t.best_round,
                "updated_at": now,
            }
            for scope in (chat_id, GLOBAL_SCOPE)
            for player_id, t in per_player.items()
        ]
        await self._session.execute(stmt, rows)
