"""A unit of work: every repository on one session, so a use case commits all or nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Literal

from openskill.models import PlackettLuce

from ..games.seam import AnyGameKind, SeatOutcome
from .boards import Boards
from .chat_move import move_chat
from .enums import GLOBAL_SCOPE
from .errors import GameStateError
from .forget import forget_user
from .play_state import load_play
from .rating import initial_skill, rate
from .records import GameRecord, GameResult, StoredPlay
from .repos import (
    ChatRepository,
    GameRepository,
    MoveRepository,
    OutboxRepository,
    RatingRepository,
    ResultRepository,
    ReviewRepository,
    RoundRepository,
    SeatRepository,
    UpdateRepository,
    UserRepository,
)
from .repos.games import KEEP, Keep
from .statements import Statements
from .types import utc_now


class Transaction:
    """The repositories of one unit of work, sharing its session and its transaction.

    Get one from `Store.transaction()` (commits when the block ends, rolls back if it raises)
    or `Store.read()` (never commits).
    """

    def __init__(self, session: Statements, model: PlackettLuce) -> None:
        self.session = session
        self._model = model
        self.users = UserRepository(session)
        self.chats = ChatRepository(session)
        self.games = GameRepository(session)
        self.seats = SeatRepository(session)
        self.rounds = RoundRepository(session)
        self.moves = MoveRepository(session)
        self.results = ResultRepository(session)
        self.reviews = ReviewRepository(session)
        self.ratings = RatingRepository(session)
        self.boards = Boards(session)
        self.outbox = OutboxRepository(session)
        self.updates = UpdateRepository(session)

    async def record_move(
        self,
        game_id: int,
        expected_version: int,
        round_number: int,
        ply: int,
        seat: int,
        code: int,
        *,
        turn_deadline: datetime | Literal[Keep.KEEP] | None = KEEP,
        remind_at: datetime | None = None,
        hand_due: datetime | None = None,
        hand_owner: int | None = None,
        by_computer: bool = False,
        now: datetime | None = None,
    ) -> int:
        """Append a move if the game is still at `expected_version` (else VersionConflict and
        nothing is written), optionally setting the next turn's deadline and reminder time.
        Returns the new version. Store a round's result, the next deal or the game's end in the
        same unit. `by_computer`: the computer chose the move (a review leaves it out)."""
        version = await self.games.bump_version(
            game_id,
            expected_version,
            turn_deadline=turn_deadline,
            remind_at=remind_at,
            hand_due=hand_due,
            hand_owner=hand_owner,
        )
        await self.moves.append(
            game_id, round_number, ply, seat, code, by_computer=by_computer, now=now
        )
        return version

    async def finish_game(
        self,
        game_id: int,
        kind: AnyGameKind,
        outcomes: Sequence[SeatOutcome],
        *,
        now: datetime | None = None,
    ) -> list[GameResult]:
        """Mark the game finished, store each seat's outcome and update the players' totals
        and ratings at the game's kind, in its chat and globally. Returns the results in seat
        order.

        Raises GameStateError unless the game is a running game of `kind` whose seats are
        0..n-1 for the n outcomes (given in seat order, each with the kind's extras).
        """
        record = await self.games.get(game_id)
        if record.kind != kind.name:
            raise GameStateError(f"game {game_id} is {record.kind}, not {kind.name}")
        seats = await self.seats.of_game(game_id)
        numbers = list(range(len(outcomes)))
        if [s.seat for s in seats] != numbers or [o.seat for o in outcomes] != numbers:
            raise GameStateError(f"game {game_id}'s seats do not match its outcomes")
        names = {spec.name for spec in kind.extras}
        if any(set(o.extras) != names for o in outcomes):
            raise GameStateError(f"game {game_id}'s outcomes lack {kind.name}'s extras")
        finished_at = await self.games.finish(game_id, now=now or utc_now())
        results = await self.results.record(
            game_id, record.chat_id, kind, seats, outcomes, finished_at
        )
        players = [seat.player_id for seat in seats]
        places = [outcome.place for outcome in outcomes]
        for scope in (record.chat_id, GLOBAL_SCOPE):
            before = await self.ratings.current(
                kind.name, scope, players, initial_skill(self._model)
            )
            after = rate(self._model, players, places, before)
            await self.ratings.save(game_id, kind.name, scope, before, after, finished_at)
        return results

    async def move_chat(
        self, old_id: int, new_id: int, *, now: datetime | None = None
    ) -> list[int]:
        """A group became a supergroup: everything of `old_id` now belongs to `new_id`
        (idempotent). Returns the ids of the lobbies and running games that moved."""
        return await move_chat(self.session, old_id, new_id, now or utc_now())

    async def forget_user(self, user_id: int, *, now: datetime | None = None) -> int | None:
        """Delete a person, keeping their games under a new former player (see forget)."""
        return await forget_user(self.session, user_id, now=now)

    async def load_play(self, game_id: int, record: GameRecord | None = None) -> StoredPlay:
        """The game's kind, config, deals and move codes, from inside this unit, for the
        kind to replay (its kind and config taken from `record` when given, as read in this
        unit). Hidden information: see play_state."""
        known = None if record is None else (record.kind, record.config)
        return await load_play(self.session, game_id, known)

    @asynccontextmanager
    async def savepoint(self) -> AsyncIterator[None]:
        """A nested transaction: an exception inside rolls back only the block's writes."""
        async with self.session.begin_nested():
            yield
