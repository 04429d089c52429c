"""The in-memory copy of a game being played: a cache of the database, droppable at any time."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import AsyncIterator, Iterable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..games.options import checked_options
from ..games.registry import Registry, UnknownKind
from ..games.seam import AnyGameKind, AnyMatch, GameDataError
from ..store import (
    ChatSettings,
    ComputerLevel,
    CorruptGame,
    GameNotFound,
    GameNotStarted,
    GameStatus,
    Hold,
    LockLost,
    Revision,
    SeatRecord,
    Store,
    Transaction,
    is_former_player,
)
from .breaks import RoundBreak, bit_seats, ended_round
from .chats import ChatDefaults
from .errors import NoSuchGame
from .views import SeatInfo, TableView

log = logging.getLogger(__name__)


@dataclass
class LiveGame:
    """A game's stored facts plus its replayed match (None while in the lobby)."""

    game_id: int
    kind: AnyGameKind
    chat_id: int
    thread_id: int | None
    opener_id: int
    status: GameStatus
    version: int
    message_id: int | None
    deadline: datetime | None
    created_at: datetime
    chat: ChatSettings
    options: dict[str, str]
    """The chat's options for this kind, checked by the kind (defaults where unset)."""
    config: dict[str, Any]
    """The stored config (its seat count is provisional until the game starts)."""
    seats: list[SeatRecord]
    names: dict[int, str]
    languages: dict[int, str | None]
    match: AnyMatch | None = None
    paused: bool = False
    """The bot may not write in the chat: no moves, no timers (stored on the game)."""
    join_token: str | None = None
    """The secret of the lobby's join link."""
    hand_due: datetime | None = None
    """Since when the person to move is owed their hand with its move buttons (None: it went
    out, or nobody is to move)."""
    hand_owner: int | None = None
    """The worker that owes that hand."""
    round_break: RoundBreak | None = None
    """The break after a round's end, while it runs (the next round is dealt: nobody moves)."""

    def seat_of(self, user_id: int) -> SeatRecord | None:
        """The seat the user sits in, if any."""
        return next((s for s in self.seats if s.user_id == user_id), None)

    def seat_infos(self) -> tuple[SeatInfo, ...]:
        """The seats as the renderers show them (a former player's as a computer-played seat
        with no person behind it)."""
        return tuple(
            SeatInfo(s.seat, None, "", autoplay=True, former=True)
            if is_former_player(s.user_id)
            else SeatInfo(
                number=s.seat,
                user_id=s.user_id,
                name=self.names.get(s.user_id, "?") if s.user_id is not None else "",
                computer_level=s.computer_level.value if s.computer_level else None,
                autoplay=s.autoplay,
                language=self.languages.get(s.user_id) if s.user_id is not None else None,
            )
            for s in self.seats
        )

    def table(self, match: AnyMatch | None = None) -> TableView[Any]:
        """The public table of the current round, or of `match` (the round that ended, as it
        ended: no turn runs on it)."""
        shown = self.match if match is None else match
        assert shown is not None
        return TableView(
            game_id=self.game_id,
            version=self.version,
            chat_id=self.chat_id,
            thread_id=self.thread_id,
            kind=self.kind.name,
            config=shown.config,
            round_number=shown.round_number,
            seats=self.seat_infos(),
            scores=shown.scores,
            to_move=shown.to_move,
            deadline=self.deadline if shown is self.match else None,
            winner=shown.winner,
            board=shown.board(),
            language=self.chat.language,
            chat_title=self.chat.title or "",
            round_over=shown.round_over,
            aborted=self.status is GameStatus.ABORTED,
            pictures=self.options["pictures"] == "on",
            message_id=self.message_id,
            page_token=self.join_token,
        )

    def computer_moves(self, seat: int) -> bool:
        """Whether the computer chooses this seat's moves (its own seat, or autoplay)."""
        record = self.seats[seat]
        return record.user_id is None or record.autoplay

    def computer_level(self, seat: int) -> str:
        """The level that plays this seat when the computer moves for it: a computer seat's
        own, else (a person's seat on autoplay) the chat's."""
        level = self.seats[seat].computer_level
        return level.value if level is not None else self.options["level"]

    @property
    def level(self) -> ComputerLevel:
        """The computer level that fills this chat's empty seats."""
        return ComputerLevel(self.options["level"])

    @property
    def turn_seconds(self) -> int:
        """How long a person has for a move in this chat."""
        return int(self.options["turn"])


def kind_options(kind: AnyGameKind, chat: ChatSettings, defaults: ChatDefaults) -> dict[str, str]:
    """The chat's options for `kind`: the stored ones the kind accepts, else the bot's and the
    kind's defaults."""
    return checked_options(kind.options, chat.options.get(kind.name, {}), defaults.options())


async def load_live(
    tx: Transaction,
    game_id: int,
    registry: Registry,
    defaults: ChatDefaults,
    outdated: LiveGame | None = None,
) -> LiveGame:
    """Read a game and replay its match (hidden information stays inside the cache). An
    `outdated` copy whose chat and people are known to be as stored lends their settings,
    names and languages (only the game itself is read again)."""
    try:
        record = await tx.games.get(game_id)
    except GameNotFound:
        raise NoSuchGame(f"no game {game_id}") from None
    try:
        kind = registry.get(record.kind)
    except UnknownKind:
        raise CorruptGame(f"game {game_id} is of kind {record.kind!r}, not installed") from None
    if outdated is not None and outdated.chat_id == record.chat_id:
        chat = outdated.chat
    else:
        outdated = None
        chat = await tx.chats.get(record.chat_id) or ChatSettings(record.chat_id, None)
    seats = await tx.seats.of_game(game_id)
    people = [
        seat.user_id
        for seat in seats
        if seat.user_id is not None and not is_former_player(seat.user_id)
    ]
    names: dict[int, str] = {}
    languages: dict[int, str | None] = {}
    # The sum of the people's revisions is unchanged: with the same people seated, none of
    # them changed (another person seated could make the same sum).
    if outdated is not None and set(people) == set(outdated.names):
        names.update(outdated.names)
        languages.update(outdated.languages)
    users = await tx.users.many([user_id for user_id in people if user_id not in names])
    for user_id in people:
        if user_id not in names:
            user = users.get(user_id)
            names[user_id] = user.display_name if user else "?"
            languages[user_id] = (user.language or user.telegram_language) if user else None
    match = ended = None
    if record.status is not GameStatus.LOBBY:
        try:
            stored = await tx.load_play(game_id, record)
        except GameNotStarted:
            stored = None
        if stored is not None:
            try:
                match = kind.replay(stored.config, stored.rounds)
                if record.round_break_until is not None and len(stored.rounds) > 1:
                    # The round the break shows, as it ended.
                    ended = kind.replay(stored.config, stored.rounds[:-1])
            except GameDataError as exc:
                raise CorruptGame(f"game {game_id} does not replay: {exc}") from exc
    live = LiveGame(
        game_id=record.id,
        kind=kind,
        chat_id=record.chat_id,
        thread_id=record.thread_id,
        opener_id=record.opener_id,
        status=record.status,
        version=record.version,
        message_id=record.message_id,
        deadline=record.turn_deadline,
        created_at=record.created_at,
        chat=chat,
        options=kind_options(kind, chat, defaults),
        config=record.config,
        seats=seats,
        names=names,
        languages=languages,
        match=match,
        join_token=record.join_token,
        paused=record.paused,
        hand_due=record.hand_due,
        hand_owner=record.hand_owner,
    )
    if ended is not None and record.round_break_until is not None:
        live.round_break = RoundBreak(
            record.round_break_until,
            bit_seats(record.round_break_ready),
            ended_round(live.table(ended), ended),
        )
    return live


@dataclass
class LiveCache:
    """Live games by id, and one lock per game so its updates are handled one at a time."""

    store: Store
    registry: Registry
    defaults: ChatDefaults
    games: dict[int, LiveGame] = field(default_factory=dict)
    locks: weakref.WeakValueDictionary[int, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )
    """A game's lock lives while someone holds or waits for it, then goes by itself."""
    revisions: dict[int, Revision] = field(default_factory=dict)
    """The stored revisions each cached game was known to match, when other processes share
    the database (a game cached without them is read again under its lock)."""
    outdated: dict[int, LiveGame] = field(default_factory=dict)
    """Copies another worker's change of the game itself (a move) made out of date, whose
    chat and people are still as stored: a read of the game within the block that found
    them out of date takes their settings, names and languages instead of reading them
    again (after the block they are gone: they would be stale by then)."""

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game: this process's tasks one at a time, then (on a database other
        workers share) the game's lock in the database, with the cached copy checked against
        the stored revisions and dropped if anything it shows changed meanwhile."""
        local = self.locks.get(game_id)
        if local is None:
            local = self.locks[game_id] = asyncio.Lock()
        async with local:
            shared = self.store.game_locks
            if not shared.shared:
                yield
                return
            hold = await shared.acquire(game_id)
            released = False
            try:
                seen = await shared.revision(game_id)
                known = self.revisions.get(game_id)
                if game_id in self.games and known != seen:
                    copy = self.games[game_id]
                    self.drop(game_id)
                    if known is not None and seen is not None and known.outside == seen.outside:
                        self.outdated[game_id] = copy
                yield
                released = True
                await self._release_stamping(game_id, seen, hold)
            finally:
                # An outdated copy serves the block that found it out of date, or none.
                self.outdated.pop(game_id, None)
                if not released:
                    await self._release(game_id, hold)

    async def _release_stamping(self, game_id: int, seen: Revision | None, hold: Hold) -> None:
        """Let other workers have the game after a block that held its lock, recording the
        revisions the copy matches (read in the same statement as the release).

        Only this process changed the game meanwhile, so its copy holds the game's revision
        as it is now; the chat's and the people's change without the lock, so the copy is
        known to match only what was read when the block began (a copy read within the block
        may be newer, and is read once more next time)."""
        try:
            now = await self.store.game_locks.release_reading(game_id, hold)
        except LockLost:
            log.warning("game %d: the lock was lost while held; its copy is dropped", game_id)
            self.drop(game_id)
            return
        except Exception:
            log.warning("game %d: releasing its lock failed; its copy is dropped", game_id)
            self.drop(game_id)
            return
        if game_id not in self.games:
            return
        if seen is None or now is None:
            self.revisions.pop(game_id, None)
        else:
            self.revisions[game_id] = seen.with_game(now.game)

    async def _release(self, game_id: int, hold: Hold) -> None:
        """Let other workers have the game; a failure only costs the copy (the lock went with
        the connection that failed)."""
        try:
            await self.store.game_locks.release(game_id, hold)
        except Exception:
            log.warning("game %d: releasing its lock failed; its copy is dropped", game_id)
            self.drop(game_id)

    @asynccontextmanager
    async def lock_all(self, game_ids: Iterable[int]) -> AsyncIterator[None]:
        """Hold several games, taken in ascending order so two holders never deadlock."""
        async with AsyncExitStack() as stack:
            for game_id in sorted(set(game_ids)):
                await stack.enter_async_context(self.lock(game_id))
            yield

    async def load(self, tx: Transaction, game_id: int) -> LiveGame:
        """The game read inside `tx` (not cached)."""
        return await load_live(tx, game_id, self.registry, self.defaults)

    async def get(self, game_id: int) -> LiveGame:
        """The cached game, loaded from the database when missing; only lobbies and running
        games stay cached (a finished one is read again if anyone asks)."""
        live = self.games.get(game_id)
        if live is None:
            outdated = self.outdated.pop(game_id, None)
            async with self.store.read() as tx:
                live = await load_live(tx, game_id, self.registry, self.defaults, outdated)
            if live.status in (GameStatus.LOBBY, GameStatus.RUNNING):
                self.games[game_id] = live
        return live

    def drop(self, game_id: int) -> None:
        """Forget the cached copy (after a failed write, or when the game is over)."""
        self.games.pop(game_id, None)
        self.revisions.pop(game_id, None)
        self.outdated.pop(game_id, None)

    def refresh_chat(self, chat: ChatSettings) -> None:
        """Cached games of the chat pick up its new settings (their rules stay as they are)."""
        for live in self.games.values():
            if live.chat_id == chat.chat_id:
                live.chat = chat
                live.options = kind_options(live.kind, chat, self.defaults)
