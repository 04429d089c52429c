"""Leaderboards and player statistics of one game kind, per chat or global, all time or the
last seven days.

All-time boards read the running tables (`ratings`, `player_totals`) through their indexes.
Weekly boards add up the window's rows: wins and points from `results`, and rating from the
rating changes recorded in the window (the ordinal gained in the last seven days), since a
rating itself has no "value over a week".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from sqlalchemy import Subquery, and_, case, distinct, false, func, select
from sqlalchemy.orm import aliased

from .enums import GLOBAL_SCOPE
from .models import PlayerExtra, PlayerTotal, Rating, RatingChange, Result, User
from .rating import Skill
from .statements import Statements
from .types import utc_now

RATING_HISTORY_GAMES = 30
"""How many of a player's last games the /stats card draws."""

WEEK = timedelta(days=7)


class Board(StrEnum):
    """What a leaderboard sorts by."""

    RATING = "rating"
    """The ordinal mu - 3 sigma (weekly: the ordinal gained in the window)."""
    WINS = "wins"
    """Games finished in first place (ties broken by points); a player in several seats of a
    game (a computer level) won it if any of its seats did."""
    POINTS = "points"
    """Final totals added up over games (a player in several seats adds each seat's)."""


class Period(StrEnum):
    """The time a leaderboard covers."""

    ALL_TIME = "all"
    WEEK = "week"


@dataclass(frozen=True, slots=True)
class BoardEntry:
    """One line of a leaderboard; equal values share a rank."""

    rank: int
    player_id: int
    name: str
    is_computer: bool
    value: float
    games: int


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record at a kind in a scope (a chat, or GLOBAL_SCOPE)."""

    player_id: int
    name: str
    is_computer: bool
    scope: int
    games: int
    wins: int
    rounds_won: int
    points: int
    extras: dict[str, int]
    """The kind's extras added up (or the best, for a 'max' one); empty before a game."""
    rating: Skill | None
    """None until the player finishes a rated game in the scope."""
    rank: int | None
    """1 + the number of players rated higher in the scope."""
    rated_players: int


class Boards:
    """The leaderboard and statistics queries."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def top(
        self,
        kind: str,
        scope: int,
        board: Board,
        period: Period = Period.ALL_TIME,
        *,
        limit: int = 10,
        now: datetime | None = None,
        include_computers: bool = True,
    ) -> list[BoardEntry]:
        """The best `limit` players at `kind` in `scope` (a chat id or GLOBAL_SCOPE) on
        `board`."""
        if period is Period.ALL_TIME:
            ranked = _all_time(kind, scope, board)
        else:
            ranked = _week(kind, scope, board, (now or utc_now()) - WEEK)
        stmt = (
            select(User.id, User.display_name, User.is_computer, ranked.c.value, ranked.c.games)
            .join(ranked, ranked.c.player_id == User.id)
            .order_by(*(ranked.c[key].desc() for key in ("value", "tiebreak")))
            .limit(limit)
        )
        if not include_computers:
            stmt = stmt.where(User.is_computer == false())
        rows = (await self._session.execute(stmt)).all()
        values = [row.value for row in rows]
        return [
            BoardEntry(
                rank=1 + sum(other > row.value for other in values),
                player_id=row.id,
                name=row.display_name,
                is_computer=row.is_computer,
                value=row.value,
                games=row.games,
            )
            for row in rows
        ]

    async def player_stats(self, kind: str, scope: int, player_id: int) -> PlayerStats | None:
        """The player's totals, rating and rank at `kind` in `scope`; None for an unknown
        player."""
        better = aliased(Rating)
        rated = aliased(Rating)
        rank = (
            select(func.count())
            .where(better.kind == kind, better.scope == scope, better.ordinal > Rating.ordinal)
            .scalar_subquery()
        )
        rated_players = (
            select(func.count()).where(rated.kind == kind, rated.scope == scope).scalar_subquery()
        )
        stmt = (
            select(
                User.display_name,
                User.is_computer,
                PlayerTotal.games,
                PlayerTotal.wins,
                PlayerTotal.rounds_won,
                PlayerTotal.points,
                Rating.mu,
                Rating.sigma,
                rank.label("better"),
                rated_players.label("rated_players"),
            )
            .select_from(User)
            .outerjoin(
                PlayerTotal,
                and_(
                    PlayerTotal.kind == kind,
                    PlayerTotal.scope == scope,
                    PlayerTotal.player_id == User.id,
                ),
            )
            .outerjoin(
                Rating,
                and_(Rating.kind == kind, Rating.scope == scope, Rating.player_id == User.id),
            )
            .where(User.id == player_id)
        )
        row = (await self._session.execute(stmt)).first()
        if row is None:
            return None
        extras = await self._session.execute(
            select(PlayerExtra.name, PlayerExtra.value)
            .where(
                PlayerExtra.kind == kind,
                PlayerExtra.scope == scope,
                PlayerExtra.player_id == player_id,
            )
            .order_by(PlayerExtra.name)
        )
        skill = None if row.mu is None else Skill(row.mu, row.sigma)
        return PlayerStats(
            player_id=player_id,
            name=row.display_name,
            is_computer=row.is_computer,
            scope=scope,
            games=row.games or 0,
            wins=row.wins or 0,
            rounds_won=row.rounds_won or 0,
            points=row.points or 0,
            extras={name: value for name, value in extras.all()},
            rating=skill,
            rank=None if skill is None else 1 + row.better,
            rated_players=row.rated_players,
        )

    async def rating_history(
        self, kind: str, scope: int, player_id: int, games: int = RATING_HISTORY_GAMES
    ) -> tuple[float, ...]:
        """The player's rating (ordinal) after each of their last `games` rated games at
        `kind` in `scope`, oldest first (the /stats card's line)."""
        stmt = (
            select(RatingChange.mu_after, RatingChange.sigma_after)
            .where(
                RatingChange.kind == kind,
                RatingChange.scope == scope,
                RatingChange.player_id == player_id,
            )
            .order_by(RatingChange.at.desc(), RatingChange.id.desc())
            .limit(games)
        )
        rows = (await self._session.execute(stmt)).all()
        return tuple(Skill(mu, sigma).ordinal for mu, sigma in reversed(rows))


def _all_time(kind: str, scope: int, board: Board) -> Subquery:
    """player_id, value, tiebreak, games from the running tables (index-ordered)."""
    if board is Board.RATING:
        return (
            select(
                Rating.player_id,
                Rating.ordinal.label("value"),
                Rating.ordinal.label("tiebreak"),
                Rating.games,
            )
            .where(Rating.kind == kind, Rating.scope == scope)
            .subquery()
        )
    value, tiebreak = (
        (PlayerTotal.wins, PlayerTotal.points)
        if board is Board.WINS
        else (PlayerTotal.points, PlayerTotal.points)
    )
    return (
        select(
            PlayerTotal.player_id,
            value.label("value"),
            tiebreak.label("tiebreak"),
            PlayerTotal.games,
        )
        .where(PlayerTotal.kind == kind, PlayerTotal.scope == scope)
        .subquery()
    )


def _week(kind: str, scope: int, board: Board, since: datetime) -> Subquery:
    """player_id, value, tiebreak, games added up over the window starting at `since`."""
    if board is Board.RATING:
        gained = func.sum(RatingChange.delta)
        return (
            select(
                RatingChange.player_id,
                gained.label("value"),
                gained.label("tiebreak"),
                func.count().label("games"),
            )
            .where(RatingChange.kind == kind, RatingChange.scope == scope, RatingChange.at >= since)
            .group_by(RatingChange.player_id)
            .subquery()
        )
    # A player in several seats of a game (a computer level) counts the game once, and a win
    # if any of its seats finished first, as the running totals do.
    wins = func.count(distinct(case((Result.place == 1, Result.game_id))))
    points = func.sum(Result.points)
    stmt = select(
        Result.player_id,
        (wins if board is Board.WINS else points).label("value"),
        points.label("tiebreak"),
        func.count(distinct(Result.game_id)).label("games"),
    ).where(Result.kind == kind, Result.finished_at >= since)
    if scope != GLOBAL_SCOPE:
        stmt = stmt.where(Result.chat_id == scope)
    return stmt.group_by(Result.player_id).subquery()
