"""People and chats: who may be messaged privately, chat settings, leaderboards and stats."""

from __future__ import annotations

import dataclasses

from ..games.gaple.rules import GameConfig, RuleSet, StuckRule
from ..store import (
    GLOBAL_SCOPE,
    Board,
    BoardEntry,
    ChatSettings,
    ComputerLevel,
    Period,
    PlayerStats,
    SeatRecord,
    Store,
    UserRecord,
)
from .chats import ChatDefaults, ensure_chat
from .errors import BadSetting
from .live import LiveCache
from .views import Person

SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "rules": ("classic", "discards", "discards-pass"),
    "target": ("50", "100", "150", "200"),
    "turn": ("30", "60", "90", "120"),
    "level": ("easy", "normal", "hard"),
}
"""The values /settings offers for each option (index-addressed by its buttons)."""


class Players:
    """Use cases about people and chats rather than one game."""

    def __init__(self, store: Store, cache: LiveCache, defaults: ChatDefaults) -> None:
        self.store = store
        self.cache = cache
        self.defaults = defaults

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

    async def autoplay_seats(self, user_id: int) -> list[SeatRecord]:
        """The person's seats at running games that the computer plays for them."""
        async with self.store.read() as tx:
            return [s for s in await tx.seats.running_for_user(user_id) if s.autoplay]

    async def chat(self, chat_id: int, title: str | None) -> ChatSettings:
        """The chat's settings (created with the defaults on first sight)."""
        async with self.store.transaction() as tx:
            return await ensure_chat(tx, chat_id, title, self.defaults)

    async def change_setting(self, chat_id: int, option: str, index: int) -> ChatSettings:
        """Set one of the /settings options to its `index`-th choice."""
        choices = SETTING_CHOICES.get(option)
        if choices is None or not 0 <= index < len(choices):
            raise BadSetting(f"no choice {index} for {option}")
        value = choices[index]
        async with self.store.transaction() as tx:
            settings = await tx.chats.get(chat_id)
            if settings is None:
                raise BadSetting(f"unknown chat {chat_id}")
            if option == "rules":
                rule_set = RuleSet.CLASSIC if value == "classic" else RuleSet.DISCARDS
                stuck = StuckRule.PASS if value == "discards-pass" else StuckRule.DISCARD
                settings = dataclasses.replace(settings, rule_set=rule_set, stuck_rule=stuck)
            elif option == "target":
                settings = dataclasses.replace(settings, target=int(value))
            elif option == "turn":
                settings = dataclasses.replace(settings, turn_seconds=int(value))
            else:
                settings = dataclasses.replace(settings, computer_level=ComputerLevel(value))
            await tx.chats.save(settings)
        self._refresh_chat(settings)
        return settings

    async def set_chat_language(self, chat_id: int, title: str | None, language: str) -> None:
        """The language of the chat's group messages."""
        async with self.store.transaction() as tx:
            settings = dataclasses.replace(
                await ensure_chat(tx, chat_id, title, self.defaults), language=language
            )
            await tx.chats.save(settings)
        self._refresh_chat(settings)

    def _refresh_chat(self, settings: ChatSettings) -> None:
        """Cached games of the chat pick up its new settings (their rules stay as they are)."""
        for live in self.cache.games.values():
            if live.chat_id == settings.chat_id:
                live.chat = settings

    async def set_user_language(self, person: Person, language: str | None) -> None:
        """The language of the person's private messages (None: follow Telegram's)."""
        async with self.store.transaction() as tx:
            await tx.users.upsert(
                person.user_id, person.name, telegram_language=person.telegram_language
            )
            await tx.users.set_language(person.user_id, language)
        for live in self.cache.games.values():
            if person.user_id in live.languages:
                live.languages[person.user_id] = language or person.telegram_language

    async def user(self, user_id: int) -> UserRecord | None:
        """The stored person, if any."""
        async with self.store.read() as tx:
            return await tx.users.get(user_id)

    async def top(
        self, chat_id: int | None, board: Board, period: Period, limit: int = 10
    ) -> list[BoardEntry]:
        """A chat's leaderboard, or the global one for `chat_id` None."""
        async with self.store.read() as tx:
            scope = GLOBAL_SCOPE if chat_id is None else chat_id
            return await tx.boards.top(scope, board, period, limit=limit)

    async def stats(self, chat_id: int, user_id: int) -> PlayerStats | None:
        """A person's record in a chat."""
        async with self.store.read() as tx:
            return await tx.boards.player_stats(chat_id, user_id)


def config_of(settings: ChatSettings) -> GameConfig:
    """The game config a chat's settings describe (four seats)."""
    return GameConfig(settings.rule_set, 4, settings.target, settings.stuck_rule)
