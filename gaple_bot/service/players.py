"""People and chats: who may be messaged privately, chat settings, leaderboards and stats."""

from __future__ import annotations

from ..games.options import BadOption, chosen
from ..games.seam import AnyGameKind
from ..store import (
    GLOBAL_SCOPE,
    Board,
    BoardEntry,
    ChatSettings,
    Period,
    PlayerStats,
    SeatRecord,
    Store,
    UserRecord,
)
from .chats import ensure_chat
from .errors import BadSetting
from .live import LiveCache, kind_options
from .views import Person


class Players:
    """Use cases about people and chats rather than one game."""

    def __init__(self, store: Store, cache: LiveCache) -> None:
        self.store = store
        self.cache = cache

    async def seen(self, person: Person) -> UserRecord:
        """Create or refresh a person from an update."""
        async with self.store.transaction() as tx:
            return await tx.users.upsert(
                person.user_id, person.name, telegram_language=person.telegram_language
            )

    async def private_chat_opened(self, person: Person) -> None:
        """The person wrote to the bot privately: it may send them their tiles from now on."""
        async with self.store.transaction() as tx:
            await tx.users.upsert(
                person.user_id, person.name, telegram_language=person.telegram_language
            )
            await tx.users.set_can_message(person.user_id, True)

    async def unreachable(self, user_id: int) -> list[SeatRecord]:
        """The bot can no longer message the person (blocked); returns their running seats."""
        async with self.store.transaction() as tx:
            if await tx.users.get(user_id) is not None:
                await tx.users.set_can_message(user_id, False)
            return await tx.seats.running_for_user(user_id)

    async def no_longer_reachable(self, user_id: int) -> list[SeatRecord]:
        """A private message failed: if the bot could message the person until now, they
        blocked it (marked so; returns their running seats); someone the bot never could
        message (who plays in the page, with no private chat) is no news (returns none)."""
        async with self.store.transaction() as tx:
            user = await tx.users.get(user_id)
            if user is None or not user.can_message:
                return []
            await tx.users.set_can_message(user_id, False)
            return await tx.seats.running_for_user(user_id)

    async def autoplay_seats(self, user_id: int) -> list[SeatRecord]:
        """The person's seats at running games that the computer plays for them."""
        async with self.store.read() as tx:
            return [s for s in await tx.seats.running_for_user(user_id) if s.autoplay]

    async def chat(self, chat_id: int, title: str | None) -> ChatSettings:
        """The chat's settings (the chat is created on first sight)."""
        async with self.store.transaction() as tx:
            return await ensure_chat(tx, chat_id, title)

    def chat_options(self, kind: AnyGameKind, settings: ChatSettings) -> dict[str, str]:
        """Every option of `kind` in the chat: its choice, else the bot's or kind's default."""
        return kind_options(kind, settings, self.cache.defaults)

    async def change_setting(
        self, chat_id: int, kind: AnyGameKind, option: str, index: int
    ) -> ChatSettings:
        """Set one of `kind`'s /settings options to its `index`-th choice."""
        try:
            value = chosen(kind.options, option, index)
        except BadOption as exc:
            raise BadSetting(str(exc)) from None
        async with self.cache.lock_all(await self._games_in_chat(chat_id)):
            async with self.store.transaction() as tx:
                if await tx.chats.get(chat_id) is None:
                    raise BadSetting(f"unknown chat {chat_id}")
                await tx.chats.set_option(chat_id, kind.name, option, value)
                settings = await tx.chats.get(chat_id)
            assert settings is not None
            self.cache.refresh_chat(settings)
        return settings

    async def set_chat_language(self, chat_id: int, title: str | None, language: str) -> None:
        """The language of the chat's group messages."""
        async with self.cache.lock_all(await self._games_in_chat(chat_id)):
            async with self.store.transaction() as tx:
                await ensure_chat(tx, chat_id, title)
                await tx.chats.set_language(chat_id, language)
                settings = await tx.chats.get(chat_id)
            assert settings is not None
            self.cache.refresh_chat(settings)

    async def last_kind(self, chat_id: int) -> str | None:
        """The game last opened in the chat (None: none yet)."""
        async with self.store.read() as tx:
            return await tx.chats.last_kind(chat_id)

    async def set_user_language(self, person: Person, language: str | None) -> None:
        """The language of the person's private messages (None: follow Telegram's)."""
        async with self.store.read() as tx:
            game_ids = await tx.games.active_of_user(person.user_id)
        async with self.cache.lock_all(game_ids):
            async with self.store.transaction() as tx:
                await tx.users.upsert(
                    person.user_id, person.name, telegram_language=person.telegram_language
                )
                await tx.users.set_language(person.user_id, language)
            for live in self.cache.games.values():
                if person.user_id in live.languages:
                    live.languages[person.user_id] = language or person.telegram_language

    async def _games_in_chat(self, chat_id: int) -> list[int]:
        """The chat's lobbies and running games, whose cached copies show its settings (held
        while the settings change, so every worker's copy learns of it: see LiveCache.lock)."""
        async with self.store.read() as tx:
            return [game.id for game in await tx.games.active_in_chat(chat_id)]

    async def user(self, user_id: int) -> UserRecord | None:
        """The stored person, if any."""
        async with self.store.read() as tx:
            return await tx.users.get(user_id)

    async def top(
        self, kind: str, chat_id: int | None, board: Board, period: Period, limit: int = 10
    ) -> list[BoardEntry]:
        """A chat's leaderboard of game `kind`, or the global one for `chat_id` None."""
        async with self.store.read() as tx:
            scope = GLOBAL_SCOPE if chat_id is None else chat_id
            return await tx.boards.top(kind, scope, board, period, limit=limit)

    async def stats(self, kind: str, chat_id: int, user_id: int) -> PlayerStats | None:
        """A person's record at game `kind` in a chat."""
        async with self.store.read() as tx:
            return await tx.boards.player_stats(kind, chat_id, user_id)

    async def rating_history(self, kind: str, chat_id: int, user_id: int) -> tuple[float, ...]:
        """A person's rating after each of their last games at `kind` in a chat, oldest first."""
        async with self.store.read() as tx:
            return await tx.boards.rating_history(kind, chat_id, user_id)
