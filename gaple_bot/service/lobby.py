"""Tables before play: open a lobby, join, leave, add computers, start, cancel, play again."""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Callable
from datetime import datetime

from ..games.seam import AnyGameKind, SeatLimits, next_config
from ..store import (
    ComputerLevel,
    GameAlreadyActive,
    GameRecord,
    GameStatus,
    SeatRecord,
    SeatTaken,
    Store,
    Transaction,
    is_former_player,
)
from .chats import ensure_chat
from .errors import (
    AlreadySeated,
    BadInvite,
    GameAlreadyOpen,
    GameNotRunning,
    NeedsAPerson,
    NeedsMorePlayers,
    NotAllowed,
    NotInLobby,
    NotSeated,
    PrivateChatNeeded,
    TableFull,
)
from .live import LiveCache, LiveGame, kind_options
from .play import Tables
from .progress import Progress, RoundStarted
from .seen import hand_view, table_view, where_it_stands
from .tokens import REPLAY_START_PREFIX
from .views import LobbyView, Person


def new_join_token() -> str:
    """An unguessable lobby secret for a deep link: 22 characters of A-Z a-z 0-9 _ -, never
    starting as a replay's start parameter does (the page would open a replay)."""
    while True:
        token = secrets.token_urlsafe(16)
        if not token.startswith(REPLAY_START_PREFIX):
            return token


class Lobbies:
    """The use cases of a table before it starts. Callers hold `cache.lock(game_id)`."""

    def __init__(
        self,
        store: Store,
        cache: LiveCache,
        tables: Tables,
        rng: random.Random,
        clock: Callable[[], datetime],
        join_tokens: Callable[[], str] = new_join_token,
    ) -> None:
        self.store = store
        self.join_tokens = join_tokens
        self.cache = cache
        self.tables = tables
        self.rng = rng
        self.clock = clock

    @staticmethod
    def limits(live: LiveGame) -> SeatLimits:
        """The seats the lobby's game may have (its rules were fixed when it opened)."""
        return live.kind.config_limits(live.config)

    def view(self, live: LiveGame) -> LobbyView:
        """The lobby as the group sees it."""
        return LobbyView(
            game_id=live.game_id,
            kind=live.kind.name,
            chat_id=live.chat_id,
            thread_id=live.thread_id,
            opener_id=live.opener_id,
            config=live.config,
            seats=live.seat_infos(),
            capacity=self.limits(live).most,
            computers_fill=live.options["computers"] == "on",
            status=live.status,
            language=live.chat.language,
            join_token=live.join_token,
            message_id=live.message_id,
        )

    async def open(
        self,
        kind: AnyGameKind,
        chat_id: int,
        chat_title: str | None,
        thread_id: int | None,
        opener: Person,
        seated: list[tuple[int | None, ComputerLevel | None]] | None = None,
    ) -> LobbyView:
        """Open a lobby of `kind` with the opener seated (or the given seats, for 'play
        again'). Its rules are the chat's options for the kind at this moment."""
        opener_id = opener.user_id
        async with self.store.transaction() as tx:
            await tx.users.upsert(
                opener_id, opener.name, telegram_language=opener.telegram_language
            )
            chat = await ensure_chat(tx, chat_id, chat_title)
            if chat.language is None and opener.telegram_language is not None:
                # A chat speaks the language of whoever opened its first table, until changed.
                await tx.chats.set_language(chat_id, opener.telegram_language)
                chat = dataclasses.replace(chat, language=opener.telegram_language)
            existing = await tx.games.active(chat_id, thread_id)
            if existing is not None:
                raise GameAlreadyOpen(existing.id, existing.message_id)
            options = kind_options(kind, chat, self.cache.defaults)
            config = next_config(kind, options)
            seats = seated or [(opener_id, None)]
            try:
                record = await tx.games.create(
                    chat_id,
                    thread_id,
                    kind.name,
                    config,
                    opener_id,
                    join_token=self.join_tokens(),
                    now=self.clock(),
                )
            except GameAlreadyActive:
                active = await tx.games.active(chat_id, thread_id)
                raise GameAlreadyOpen(
                    active.id if active else 0, active.message_id if active else None
                ) from None
            for number, (user_id, level) in enumerate(seats[: kind.seat_limits(options).most]):
                await tx.seats.add(record.id, number, user_id=user_id, computer_level=level)
            live = await self.cache.load(tx, record.id)
        self.cache.games[live.game_id] = live
        return self.view(live)

    async def open_in_chat(self, chat_id: int) -> list[int]:
        """The ids of the chat's open lobbies, in every topic (read from the database)."""
        async with self.store.read() as tx:
            games = await tx.games.active_in_chat(chat_id)
        return [game.id for game in games if game.status is GameStatus.LOBBY]

    async def invited(self, join_token: str) -> GameRecord:
        """The open lobby a join link leads to: BadInvite if it leads nowhere, NotInLobby
        once that lobby started or closed (a link is only good while its lobby is open).
        Read from the database, not the cache, so no lock is needed."""
        async with self.store.read() as tx:
            record = await tx.games.by_join_token(join_token) if join_token else None
        if record is None:
            raise BadInvite("no lobby has this join token")
        if record.status is not GameStatus.LOBBY:
            raise NotInLobby(f"game {record.id} is {record.status.value}")
        return record

    async def opened_by(self, token: str) -> GameRecord:
        """The lobby or running game a page token (its join token) opens: BadInvite if none
        does, GameNotRunning once the game is over (a token is useless then). Read from the
        database, so no lock is needed."""
        async with self.store.read() as tx:
            record = await tx.games.by_join_token(token) if token else None
        if record is None:
            raise BadInvite("no game has this token")
        if record.status not in (GameStatus.LOBBY, GameStatus.RUNNING):
            raise GameNotRunning(f"game {record.id} is {record.status.value}")
        return record

    async def place_of(self, token: str) -> tuple[int, int | None] | None:
        """The chat and topic of the game a page token opened, whatever its state now (None:
        no game has this token)."""
        async with self.store.read() as tx:
            record = await tx.games.by_join_token(token) if token else None
        return None if record is None else (record.chat_id, record.thread_id)

    async def join(self, game_id: int, person: Person, *, private_chat: bool = True) -> LobbyView:
        """Seat a person; they need a private chat with the bot for their tiles, unless
        they play in the page (`private_chat` False: their hand lives there)."""
        user_id = person.user_id
        live = await self._lobby(game_id)
        if live.seat_of(user_id) is not None:
            raise AlreadySeated(f"user {user_id} already sits at game {game_id}")
        if len(live.seats) >= self.limits(live).most:
            raise TableFull(f"game {game_id} is full")
        async with self.store.transaction() as tx:
            user = await tx.users.upsert(
                user_id, person.name, telegram_language=person.telegram_language
            )
            if private_chat and not user.can_message:
                raise PrivateChatNeeded(f"user {user_id} never started the bot")
            try:
                await tx.seats.add(game_id, len(live.seats), user_id=user_id)
            except SeatTaken:
                raise AlreadySeated(f"user {user_id} already sits at game {game_id}") from None
        return await self._reloaded(game_id)

    async def leave(self, game_id: int, user_id: int) -> LobbyView:
        """Free the person's seat; later seats move up one."""
        live = await self._lobby(game_id)
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotSeated(f"user {user_id} does not sit at game {game_id}")
        async with self.store.transaction() as tx:
            await self._rewrite_seats(tx, live, [s for s in live.seats if s != seat])
        return await self._reloaded(game_id)

    async def add_computer(self, game_id: int, user_id: int, is_admin: bool) -> LobbyView:
        """Seat a computer player at the chat's level (someone at the table, or an admin, may:
        a passer-by filling the table would keep friends out)."""
        live = await self._lobby(game_id)
        if live.seat_of(user_id) is None and not is_admin:
            raise NotSeated(f"user {user_id} does not sit at game {game_id}")
        if len(live.seats) >= self.limits(live).most:
            raise TableFull(f"game {game_id} is full")
        async with self.store.transaction() as tx:
            await tx.seats.add(game_id, len(live.seats), computer_level=live.level)
        return await self._reloaded(game_id)

    async def cancel(self, game_id: int, user_id: int, is_admin: bool) -> LobbyView:
        """Close the lobby (whoever opened it, or an admin)."""
        live = await self._lobby(game_id)
        if user_id != live.opener_id and not is_admin:
            raise NotAllowed("only the opener or an admin may cancel")
        return await self._abort(live)

    async def expire(self, game_id: int) -> LobbyView | None:
        """Close the lobby if nobody started it; None if it already started or closed."""
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.LOBBY:
            return None
        return await self._abort(live)

    async def start(self, game_id: int, user_id: int, is_admin: bool) -> tuple[LobbyView, Progress]:
        """Fill empty seats with computers when the chat lets them (else start with the
        people seated, if the rules allow so few: C2), deal the first round and play on
        until a person is to move."""
        live = await self._lobby(game_id)
        if user_id != live.opener_id and not is_admin:
            raise NotAllowed("only the opener or an admin may start")
        if not any(s.user_id is not None for s in live.seats):
            raise NeedsAPerson(f"game {game_id} has nobody seated")
        limits = self.limits(live)
        if len(live.seats) > limits.most:
            raise TableFull(f"game {game_id} has more seats than its rules allow")
        try:
            async with self.store.transaction() as tx:
                # Read here, not from the cache: another worker may have changed the settings.
                chat = await tx.chats.get(live.chat_id) or live.chat
                options = kind_options(live.kind, chat, self.cache.defaults)
                seat_count = len(live.seats)
                if options["computers"] == "on":
                    seat_count = max(seat_count, limits.filled)
                if seat_count < limits.least:
                    raise NeedsMorePlayers(limits.least)
                config = live.kind.with_seats(live.config, seat_count)
                match, deal = self.tables.dealer.first(live.kind, config, self.rng)
                leader = match.to_move
                assert leader is not None
                level = ComputerLevel(options["level"])
                await tx.games.set_config(game_id, config)
                for number in range(len(live.seats), seat_count):
                    await tx.seats.add(game_id, number, computer_level=level)
                await tx.games.start(game_id)
                await tx.rounds.add(game_id, 1, deal, leader)
                started = await self.cache.load(tx, game_id)
                started.match = match
                deadline = self.tables._deadline(started)
                timing = self.tables.turn_timing(started, deadline)
                started.version = await tx.games.bump_version(game_id, started.version, **timing)
                started.deadline, started.hand_due = deadline, timing["hand_due"]
                started.hand_owner = timing["hand_owner"]
        except BaseException:
            self.cache.drop(game_id)
            raise
        self.cache.games[game_id] = started
        table = table_view(started)
        hands = tuple(
            hand_view(started, s.seat, table) for s in started.seats if s.user_id is not None
        )
        progress = Progress(game_id, steps=[RoundStarted(table, hands)])
        await self.tables.advance(started, progress)
        lobby = self.view(started)
        return lobby, where_it_stands(started, progress)

    async def _lobby(self, game_id: int) -> LiveGame:
        live = await self.cache.get(game_id)
        if live.status is not GameStatus.LOBBY:
            raise NotInLobby(f"game {game_id} is {live.status.value}")
        return live

    async def _reloaded(self, game_id: int) -> LobbyView:
        self.cache.drop(game_id)
        return self.view(await self.cache.get(game_id))  # a closed lobby is not kept

    async def _abort(self, live: LiveGame) -> LobbyView:
        async with self.store.transaction() as tx:
            await tx.games.abort(live.game_id)
        return await self._reloaded(live.game_id)

    @staticmethod
    async def _rewrite_seats(tx: Transaction, live: LiveGame, keep: list[SeatRecord]) -> None:
        """Renumber the lobby's seats 0.. in their current order."""
        for seat in live.seats:
            await tx.seats.remove(live.game_id, seat.seat)
        for number, seat in enumerate(keep):
            await tx.seats.add(
                live.game_id, number, user_id=seat.user_id, computer_level=seat.computer_level
            )

    async def play_again(self, game_id: int, person: Person) -> LobbyView:
        """A new lobby in the same chat with the finished game's players already seated."""
        live = await self.cache.get(game_id)
        if live.status not in (GameStatus.FINISHED, GameStatus.ABORTED):
            raise NotInLobby(f"game {game_id} is still {live.status.value}")
        async with self.store.read() as tx:
            chat = await tx.chats.get(live.chat_id) or live.chat
        options = kind_options(live.kind, chat, self.cache.defaults)
        # A former player (someone who deleted their data) is not seated again.
        people: list[tuple[int | None, ComputerLevel | None]] = [
            (s.user_id, None)
            for s in live.seats
            if s.user_id is not None and not is_former_player(s.user_id)
        ]
        computers: list[tuple[int | None, ComputerLevel | None]] = [
            (None, s.computer_level) for s in live.seats if s.user_id is None
        ]
        if person.user_id not in {s.user_id for s in live.seats}:
            people.insert(0, (person.user_id, None))
        # The new table follows the chat's rules now; people keep their seats before computers.
        seated = (people + computers)[: live.kind.seat_limits(options).most]
        return await self.open(live.kind, live.chat_id, chat.title, live.thread_id, person, seated)
