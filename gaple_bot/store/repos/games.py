"""Games: creation, the public summary, status changes and the version compare-and-set."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime
from enum import Enum
from typing import Any, Literal, cast

from sqlalchemy import (
    ColumnElement,
    Table,
    bindparam,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError

from ..enums import ACTIVE_STATUSES, GameStatus
from ..errors import GameAlreadyActive, GameNotFound, GameStateError, VersionConflict
from ..models import ACTIVE_GAME, Game, Seat
from ..records import GameRecord
from ..statements import Statements
from ..types import utc_now
from ._sql import rowcount


class Keep(Enum):
    """Marker: leave the stored value as it is."""

    KEEP = "keep"


KEEP = Keep.KEEP

_COLUMNS = (
    Game.id,
    Game.chat_id,
    Game.thread_id,
    Game.kind,
    Game.config,
    Game.status,
    Game.version,
    Game.opener_id,
    Game.message_id,
    Game.turn_deadline,
    Game.created_at,
    Game.started_at,
    Game.finished_at,
    Game.join_token,
    Game.paused,
    Game.turn_hand_due,
    Game.turn_hand_owner,
    Game.round_break_until,
    Game.round_break_ready,
    Game.replay_token,
)


_GAMES = cast(Table, Game.__table__)
_BUMP = (
    update(_GAMES)
    .where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("expected"))
    .values(version=_GAMES.c.version + 1)
)
"""The compare-and-set, built once (it runs for every move)."""
_BUMP_AND_SET_DEADLINE = _BUMP.values(
    turn_deadline=bindparam("turn_deadline"),
    turn_remind_at=bindparam("turn_remind_at"),
    turn_hand_due=bindparam("turn_hand_due"),
    turn_hand_owner=bindparam("turn_hand_owner"),
)
_CLAIM_OWED_HAND = (
    update(_GAMES)
    .where(
        _GAMES.c.id == bindparam("game_id"),
        _GAMES.c.version == bindparam("at_version"),
        _GAMES.c.turn_hand_due.is_not(None),
    )
    .values(turn_hand_due=bindparam("since"), turn_hand_owner=bindparam("owner"))
)
_CLAIM_REMINDER = (
    update(_GAMES)
    .where(
        _GAMES.c.id == bindparam("game_id"),
        _GAMES.c.version == bindparam("at_version"),
        _GAMES.c.turn_remind_at.is_not(None),
    )
    .values(turn_remind_at=None)
)
_HAND_SHOWN = (
    update(_GAMES)
    .where(
        _GAMES.c.id == bindparam("game_id"),
        _GAMES.c.version == bindparam("at_version"),
        _GAMES.c.turn_hand_due.is_not(None),
    )
    .values(turn_hand_due=None)
)


def new_replay_token() -> str:
    """An unguessable replay link secret: 22 characters of A-Z a-z 0-9 _ -."""
    return secrets.token_urlsafe(16)


def _record(row: Sequence[Any]) -> GameRecord:
    return GameRecord(*row)


def _same_topic(thread_id: int | None) -> ColumnElement[bool]:
    """The game is in this forum topic (None: outside forums)."""
    return Game.thread_id.is_(None) if thread_id is None else Game.thread_id == thread_id


class GameRepository:
    """Reads and writes `games`. Nothing here returns hidden information."""

    def __init__(self, session: Statements) -> None:
        self._session = session

    async def create(
        self,
        chat_id: int,
        thread_id: int | None,
        kind: str,
        config: dict[str, Any],
        opener_id: int,
        *,
        join_token: str | None = None,
        now: datetime | None = None,
    ) -> GameRecord:
        """Open a lobby of game `kind` with the kind's `config` (JSON); raises
        GameAlreadyActive if the chat (topic) has a lobby or game, of whatever kind.
        `join_token` is the secret of its join link."""
        stmt = (
            insert(Game)
            .values(
                chat_id=chat_id,
                thread_id=thread_id,
                kind=kind,
                config=config,
                status=GameStatus.LOBBY,
                version=0,
                opener_id=opener_id,
                join_token=join_token,
                created_at=now or utc_now(),
            )
            .returning(Game.id)
        )
        try:
            # A savepoint keeps the outer transaction usable after a unique violation.
            async with self._session.begin_nested():
                game_id = (await self._session.execute(stmt)).scalar_one()
        except IntegrityError:
            if await self.active(chat_id, thread_id) is not None:
                raise GameAlreadyActive(f"chat {chat_id} already has a game") from None
            raise
        return await self.get(game_id)

    async def get(self, game_id: int) -> GameRecord:
        """The game's public summary; raises GameNotFound."""
        row = (await self._session.execute(select(*_COLUMNS).where(Game.id == game_id))).first()
        if row is None:
            raise GameNotFound(f"no game {game_id}")
        return _record(row)

    async def by_join_token(self, join_token: str) -> GameRecord | None:
        """The game whose join link carries this token, if any (whatever its status)."""
        row = (
            await self._session.execute(select(*_COLUMNS).where(Game.join_token == join_token))
        ).first()
        return None if row is None else _record(row)

    async def by_replay_token(self, replay_token: str) -> GameRecord | None:
        """The finished game whose replay link carries this token, if any."""
        row = (
            await self._session.execute(select(*_COLUMNS).where(Game.replay_token == replay_token))
        ).first()
        return None if row is None else _record(row)

    async def finished_in_chat(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        """The chat's finished games that have a replay token, the latest finished first (a
        game another worker finished while this one's schema was being upgraded has none)."""
        stmt = (
            select(*_COLUMNS)
            .where(
                Game.chat_id == chat_id,
                Game.status == GameStatus.FINISHED,
                Game.replay_token.is_not(None),
            )
            .order_by(Game.finished_at.desc(), Game.id.desc())
            .limit(limit)
        )
        return [_record(row) for row in await self._session.execute(stmt)]

    async def active(self, chat_id: int, thread_id: int | None) -> GameRecord | None:
        """The chat's (topic's) game in the lobby or running, if any."""
        stmt = select(*_COLUMNS).where(
            Game.chat_id == chat_id,
            _same_topic(thread_id),
            text(ACTIVE_GAME),
        )
        row = (await self._session.execute(stmt)).first()
        return None if row is None else _record(row)

    async def active_in_chat(self, chat_id: int) -> list[GameRecord]:
        """The chat's lobbies and running games, in every topic, oldest first."""
        stmt = select(*_COLUMNS).where(Game.chat_id == chat_id, text(ACTIVE_GAME)).order_by(Game.id)
        return [_record(row) for row in await self._session.execute(stmt)]

    async def all_active(self) -> list[GameRecord]:
        """Every lobby and running game, oldest first (to re-arm timers after a restart)."""
        stmt = select(*_COLUMNS).where(text(ACTIVE_GAME)).order_by(Game.id)
        return [_record(row) for row in await self._session.execute(stmt)]

    async def count(self, status: GameStatus) -> int:
        """How many games have this status."""
        return int(
            await self._session.scalar(select(func.count()).where(Game.status == status)) or 0
        )

    async def overdue_turns(self, before: datetime) -> list[tuple[int, int]]:
        """(id, version) of each running game, not paused, whose turn ran out before `before`."""
        return await self._playing_where(Game.turn_deadline < before)

    async def _playing_where(self, *conditions: ColumnElement[bool]) -> list[tuple[int, int]]:
        """(id, version) of each running game, not paused, that meets `conditions`."""
        stmt = (
            select(Game.id, Game.version)
            .where(Game.status == GameStatus.RUNNING, Game.paused.is_(False), *conditions)
            .order_by(Game.id)
        )
        return [(game_id, version) for game_id, version in await self._session.execute(stmt)]

    async def without_deadline(self) -> list[int]:
        """The ids of the running games, not paused, that wait for no person's move and are
        in no break after a round's end: between two updates a game always waits for one of
        those, so such a game is one whose worker died while it played the computers' moves."""
        stmt = (
            select(Game.id)
            .where(
                Game.status == GameStatus.RUNNING,
                Game.paused.is_(False),
                Game.turn_deadline.is_(None),
                Game.round_break_until.is_(None),
            )
            .order_by(Game.id)
        )
        return list((await self._session.scalars(stmt)).all())

    async def round_breaks_over(self, before: datetime) -> list[tuple[int, int]]:
        """(id, version) of each running game, not paused, whose break after a round's end
        ran out by `before`."""
        return await self._playing_where(Game.round_break_until <= before)

    async def set_round_break(self, game_id: int, until: datetime | None, ready: int = 0) -> None:
        """Start the break after a round's end (nobody moves before `until`), note who said
        Next (`ready`: one bit per seat), or end it (`until` None)."""
        await self._change(
            game_id,
            (GameStatus.RUNNING,),
            round_break_until=until,
            round_break_ready=ready if until is not None else 0,
        )

    async def set_turn_times(
        self, game_id: int, turn_deadline: datetime, remind_at: datetime | None
    ) -> None:
        """Move the current turn's end and its reminder (the version and the hand owed stay:
        the same turn, its clock restarted)."""
        await self._change(
            game_id, (GameStatus.RUNNING,), turn_deadline=turn_deadline, turn_remind_at=remind_at
        )

    async def lobbies_opened_before(self, before: datetime) -> list[int]:
        """The ids of the lobbies opened before `before`."""
        stmt = (
            select(Game.id)
            .where(Game.status == GameStatus.LOBBY, Game.created_at < before)
            .order_by(Game.id)
        )
        return list((await self._session.scalars(stmt)).all())

    async def active_of_user(self, user_id: int) -> list[int]:
        """The ids of the lobbies and running games the person sits at or opened."""
        seated = select(Seat.game_id).where(Seat.user_id == user_id)
        stmt = (
            select(Game.id)
            .where(text(ACTIVE_GAME), or_(Game.opener_id == user_id, Game.id.in_(seated)))
            .order_by(Game.id)
        )
        return list((await self._session.scalars(stmt)).all())

    async def recent(self, chat_id: int, limit: int = 10) -> list[GameRecord]:
        """The chat's latest games, newest first."""
        stmt = (
            select(*_COLUMNS)
            .where(Game.chat_id == chat_id)
            .order_by(Game.created_at.desc(), Game.id.desc())
            .limit(limit)
        )
        return [_record(row) for row in await self._session.execute(stmt)]

    async def bump_version(
        self,
        game_id: int,
        expected: int,
        *,
        turn_deadline: datetime | Literal[Keep.KEEP] | None = KEEP,
        remind_at: datetime | None = None,
        hand_due: datetime | None = None,
        hand_owner: int | None = None,
    ) -> int:
        """Compare-and-set: move the game from version `expected` to the next one, or raise
        VersionConflict (nothing changed) if another writer got there first. Optionally set the
        turn deadline in the same statement, with the new turn's reminder time (`remind_at`,
        None for no reminder) and since when the person to move is owed their hand
        (`hand_due`, None when nobody is) by which worker (`hand_owner`). Returns the new
        version."""
        params: dict[str, object] = {"game_id": game_id, "expected": expected}
        stmt = _BUMP
        if turn_deadline is not KEEP:
            stmt = _BUMP_AND_SET_DEADLINE
            params["turn_deadline"], params["turn_remind_at"] = turn_deadline, remind_at
            params["turn_hand_due"] = hand_due
            params["turn_hand_owner"] = hand_owner
        if not await rowcount(self._session, stmt, params):
            raise VersionConflict(game_id, expected)
        return expected + 1

    async def set_config(self, game_id: int, config: dict[str, Any]) -> None:
        """Change a lobby's config (the kind's JSON)."""
        await self._change(game_id, (GameStatus.LOBBY,), config=config)

    async def set_message(self, game_id: int, message_id: int | None) -> None:
        """Remember the group message that shows the lobby or the table."""
        await self._change(game_id, tuple(GameStatus), message_id=message_id)

    async def set_paused(self, game_id: int, paused: bool) -> None:
        """Pause a running game (the bot may not write in its chat) or resume it."""
        await self._change(game_id, (GameStatus.RUNNING,), paused=paused)

    async def set_deadline(self, game_id: int, turn_deadline: datetime | None) -> None:
        """Set (or clear) when the current turn runs out (its reminder is not sent then)."""
        await self._change(
            game_id,
            ACTIVE_STATUSES,
            turn_deadline=turn_deadline,
            turn_remind_at=None,
            turn_hand_due=None,
        )

    async def claim_reminder(self, game_id: int, version: int) -> bool:
        """Take the half-time reminder of the turn the game is at `version`: True once, for
        whoever asks first; False if it was taken, the turn has none, or the game moved on."""
        return bool(
            await rowcount(
                self._session, _CLAIM_REMINDER, {"game_id": game_id, "at_version": version}
            )
        )

    async def hand_shown(self, game_id: int, version: int) -> bool:
        """The hand of the person whose turn the game is at `version` went out (or another
        worker took over sending it): True for whoever says so first; False if nobody was
        owed a hand, or the game moved on."""
        return bool(
            await rowcount(self._session, _HAND_SHOWN, {"game_id": game_id, "at_version": version})
        )

    async def hands_owed(self, before: datetime) -> list[tuple[int, int, int | None]]:
        """(id, version, owing worker) of each running game, not paused, whose person to move
        has been owed their hand since before `before`."""
        stmt = (
            select(Game.id, Game.version, Game.turn_hand_owner)
            .where(
                Game.status == GameStatus.RUNNING,
                Game.paused.is_(False),
                Game.turn_hand_due < before,
            )
            .order_by(Game.id)
        )
        return [(row[0], row[1], row[2]) for row in await self._session.execute(stmt)]

    async def claim_owed_hand(
        self, game_id: int, version: int, owner: int, since: datetime
    ) -> bool:
        """The hand owed at `version` is this worker's to send now (`owner`, owed anew
        `since`): True unless it went out meanwhile or the game moved on."""
        params = {"game_id": game_id, "at_version": version, "owner": owner, "since": since}
        return bool(await rowcount(self._session, _CLAIM_OWED_HAND, params))

    async def reminders_due(
        self, before: datetime, running_after: datetime
    ) -> list[tuple[int, int]]:
        """(id, version) of each running game, not paused, whose reminder was due before
        `before` and not sent, with its turn still running after `running_after`."""
        return await self._playing_where(
            Game.turn_remind_at < before, Game.turn_deadline > running_after
        )

    async def start(self, game_id: int, *, now: datetime | None = None) -> None:
        """Lobby to running (deal the first round with `RoundRepository.add`)."""
        await self._change(
            game_id, (GameStatus.LOBBY,), status=GameStatus.RUNNING, started_at=now or utc_now()
        )

    async def finish(
        self, game_id: int, *, now: datetime | None = None, replay_token: str | None = None
    ) -> datetime:
        """Running to finished, with the replay link's token (a new one unless given);
        returns the finish time. See Transaction.finish_game."""
        now = now or utc_now()
        replay_token = replay_token or new_replay_token()
        await self._change(
            game_id,
            (GameStatus.RUNNING,),
            status=GameStatus.FINISHED,
            finished_at=now,
            replay_token=replay_token,
            turn_deadline=None,
            turn_remind_at=None,
            turn_hand_due=None,
        )
        return now

    async def abort(self, game_id: int, *, now: datetime | None = None) -> None:
        """Lobby or running to aborted: no results, no rating change."""
        await self._change(
            game_id,
            ACTIVE_STATUSES,
            status=GameStatus.ABORTED,
            finished_at=now or utc_now(),
            turn_deadline=None,
            turn_remind_at=None,
            turn_hand_due=None,
        )

    async def _change(self, game_id: int, allowed: Sequence[GameStatus], **values: object) -> None:
        """Update the game if its status is one of `allowed`; raise otherwise."""
        stmt = (
            update(Game)
            .where(Game.id == game_id, Game.status.in_(allowed))
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if await rowcount(self._session, stmt):
            return
        status = await self._session.scalar(select(Game.status).where(Game.id == game_id))
        if status is None:
            raise GameNotFound(f"no game {game_id}")
        raise GameStateError(f"game {game_id} is {status.value}")
