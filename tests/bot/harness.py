"""Start the real application against the fake server, and read what it showed the group
(tests/bot/driver.py acts as the people)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path

from gaple_bot.app import build_bot
from gaple_bot.bot.callback_data import Action
from gaple_bot.bot.deps import DEPS_KEY, Deps, GapleApplication
from gaple_bot.bot.outbox import OutboxClock
from gaple_bot.bot.running import start_application, stop_application
from gaple_bot.bot.server import MountedPages
from gaple_bot.games.gaple.kind import GapleKind
from gaple_bot.games.gaple.rules import Game
from gaple_bot.games.options import checked_options
from gaple_bot.settings import settings_from
from gaple_bot.store import Store
from gaple_bot.store.types import utc_now
from tests.fakes.telegram_server import FakeMessage, FakeTelegram

GROUP = -1001234567890
GROUP_TITLE = "Warung Gaple"


@asynccontextmanager
async def running_bot(
    fake: FakeTelegram,
    database: Path | str,
    *,
    seed: int = 1,
    clock: Callable[[], datetime] = utc_now,
    outbox_clock: OutboxClock | None = None,
    poll: bool = True,
    pages: MountedPages | None = None,
    worker: bool = False,
    **settings: str,
) -> AsyncIterator[GapleApplication]:
    """The bot, started as `gaple-bot` would start it but inside the test's event loop, with
    its time taken from `clock`, on an SQLite file or on the database a URL names; without
    `poll`, a worker beside the one polling (it gets no updates, as one behind a webhook
    would get none it was not posted); with the table page `pages` on its web server. As
    one of several `worker`s (on PostgreSQL: beside the others), else alone if it can be.
    Every bot beside another on one database must be a worker, the polling one included."""
    values = {
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_API_BASE_URL": fake.base_url,
        "DATABASE_URL": database
        if isinstance(database, str)
        else f"sqlite+aiosqlite:///{database}",
        "COMPUTER_PROCESSES": "0",
        "GROUP_MESSAGES_PER_MINUTE": "1000",
        # Tests tap faster than people; the pacing itself has its own tests.
        "BOT_MESSAGES_PER_SECOND": "1000",
        "PRIVATE_MESSAGES_PER_SECOND": "1000",
        # A played hand's buttons go at once (the hold has its own tests).
        "TAPPED_HAND_HOLD_SECONDS": "0",
        # Each move's table edit goes at once (the table's pace has its own tests).
        "TABLE_EDIT_SECONDS": "0",
        # The next round is played at once (the break after a round's end has its own tests).
        "ROUND_BREAK_SECONDS": "0",
        # No game is analysed for its review (the reviews' own tests ask with REVIEWS=yes).
        "REVIEWS": "no",
        **settings,
    }
    lost = asyncio.Event()
    app = build_bot(
        settings_from(values),
        rng=random.Random(seed),
        clock=clock,
        outbox_clock=outbox_clock,
        pages=pages,
        alone_if_possible=not worker,
        # Never the default (a SIGTERM to the process, which is pytest's here).
        on_tenancy_lost=lost.set,
    )
    await start_application(app, poll_timeout=1, poll=poll)

    def busy() -> bool:
        # An update being handled, or group messages queued, count as work in progress.
        deps = app.bot_data.get(DEPS_KEY)
        # Outcomes still being shown in private chats too (they go once the game is let go).
        outbox_busy = isinstance(deps, Deps) and (deps.outbox.busy or deps.outcomes.busy)
        return (
            app.update_processor.current_concurrent_updates > 0
            or not app.update_queue.empty()
            or outbox_busy
        )

    fake.busy_checks.append(busy)
    try:
        yield app
    finally:
        fake.busy_checks.remove(busy)
        await stop_application(app)
    assert not lost.is_set(), "the bot lost its hold on the database"


def deps_of(app: GapleApplication) -> Deps:
    """The running bot's services."""
    deps = app.bot_data[DEPS_KEY]
    assert isinstance(deps, Deps)
    return deps


def lobby_message(fake: FakeTelegram, chat_id: int = GROUP) -> FakeMessage:
    """The latest lobby message in the group (the one with a Join button)."""
    for message in reversed(fake.bot_messages(chat_id)):
        if any(data and data.startswith(Action.JOIN.value + ":") for _, data in message.buttons()):
            return message
    raise AssertionError("no lobby message in the group")


def carries_moves(params: Mapping[str, object]) -> bool:
    """Whether a send's (or a message version's) buttons make moves: the hand of a turn."""
    markup = json.dumps(params.get("reply_markup", ""), default=str)
    return any(f'"{action.value}:' in markup for action in (Action.MOVE, Action.PICK))


TILE = re.compile(r"\[(\d)\|(\d)\]")


def tiles_in_text(text: str) -> set[tuple[int, int]]:
    """Every tile written as [a|b] in a text, as (low, high)."""
    return {tuple(sorted((int(a), int(b)))) for a, b in TILE.findall(text)}  # type: ignore[misc]


async def load_engine_game(store: Store, game_id: int) -> Game:
    """The stored game's engine state, replayed by Gaple's kind (hidden information)."""
    async with store.read() as tx:
        stored = await tx.load_play(game_id)
    return GapleKind().replay(stored.config, stored.rounds).game


async def gaple_options(store: Store, chat_id: int) -> dict[str, str] | None:
    """The chat's Gaple options as its next game reads them; None for a chat never seen."""
    async with store.read() as tx:
        settings = await tx.chats.get(chat_id)
    if settings is None:
        return None
    kind = GapleKind()
    return checked_options(kind.options, settings.options.get(kind.name, {}), {})
