"""The composition root: builds the store and the game service, the chat front end and the
table page, and runs them together."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TextIO

from telegram import Update

from .bot.app import build_application
from .bot.delivery import OutboxClock
from .bot.deps import TENANCY_LOST_KEY, GapleApplication
from .bot.metrics import Metrics
from .bot.pacing.token_window import PACE_FILE_VARIABLE, SharedTokenWindow, TokenWindow
from .bot.running import serve_as_worker, serve_webhook
from .bot.server import MountedPages
from .bot.share import PreparedStandings
from .bot.supervisor import Worker, worker_share
from .games.registry import default_registry
from .logs import configure_logging, token_secrets
from .service.api import DatabaseTaken, GameService, utc_now
from .service.chats import ChatDefaults
from .service.computer import process_pool
from .settings import Settings
from .web.app import PageFrontEnd


def build_bot(
    settings: Settings,
    *,
    rng: random.Random | None = None,
    clock: Callable[[], datetime] = utc_now,
    outbox_clock: OutboxClock | None = None,
    webhook_secret: str | None = None,
    pages: MountedPages | None = None,
    alone_if_possible: bool = True,
    on_tenancy_lost: Callable[[], None] | None = None,
    token_window: TokenWindow | None = None,
) -> GapleApplication:
    """The bot for `settings`: the chat front end, with the service it opens as it starts and
    the table page (`pages`) served beside it. `rng` fixes deals and `clock` sets the time of
    deadlines, lobby expiry and the group budget, for tests. `alone_if_possible`: nothing
    started this process as one of several workers, so on PostgreSQL it works alone unless
    workers are there. The rest is the chat front end's (bot.app.build_application)."""
    registry = default_registry()
    # This worker's counts, gathered with the other workers' under --workers.
    metrics = Metrics.from_environment()

    async def open_service() -> GameService:
        executor = (
            process_pool(computer_workers(settings), [kind.warm_up_computers for kind in registry])
            if settings.computer_processes
            else None
        )
        return await GameService.open(
            settings.database_url,
            rng=rng,
            executor=executor,
            clock=clock,
            defaults=ChatDefaults(turn_seconds=settings.default_turn_seconds),
            registry=registry,
            tally=metrics,
            alone_if_possible=alone_if_possible,
            round_break=timedelta(seconds=settings.round_break_seconds),
            spare_computer=computer_workers(settings) > settings.computer_processes > 0,
        )

    app = build_application(
        settings,
        open_service,
        registry=registry,
        metrics=metrics,
        clock=clock,
        outbox_clock=outbox_clock,
        webhook_secret=webhook_secret,
        pages=pages,
        on_tenancy_lost=on_tenancy_lost,
        token_window=token_window,
    )
    if isinstance(pages, PageFrontEnd):
        # The page's Share: the bot prepares the standings as a message the person sends.
        pages.share_through(PreparedStandings(app.bot))
    return app


def computer_workers(settings: Settings) -> int:
    """The computer players' processes: COMPUTER_PROCESSES, and one more while games are
    reviewed, so that the piece of a review being worked out never holds up a live game's
    computer move (a review takes one process at most, and only while no move waits)."""
    return settings.computer_processes + (1 if settings.reviews else 0)


def setup_logging(
    settings: Settings, webhook_secret: str = "", stream: TextIO | None = None
) -> logging.Handler:
    """The log as `run()` sets it up: LOG_LEVEL, the token and webhook secret blanked, the
    libraries that print payloads held above them (see logs.py)."""
    return configure_logging(
        settings.log_level,
        secrets=[*token_secrets(settings.telegram_bot_token), webhook_secret],
        stream=stream,
    )


def run(settings: Settings, worker: Worker | None = None) -> None:
    """Run the bot until it is stopped: webhook mode if WEBHOOK_URL is set, else polling; as
    one of several workers on one port when `worker` says so (the supervisor checked that
    the settings allow it); with the table page on its web server when WEBAPP_URL is set."""
    # Only Telegram knows the webhook secret, so nobody else can post updates to the port.
    secret = settings.webhook_secret or secrets.token_urlsafe(32)
    setup_logging(settings, secret)
    window = None
    if worker is not None:
        window = shared_window(settings, worker)
        if window is None:
            settings = worker_share(settings, worker)
    app = build_bot(
        settings,
        webhook_secret=secret,
        pages=PageFrontEnd.for_bot(settings) if settings.webapp else None,
        alone_if_possible=worker is None and not settings.shared_database,
        token_window=window,
    )
    try:
        if worker is not None:
            asyncio.run(serve_as_worker(app, settings, secret, worker))
        elif settings.webhook_url:
            asyncio.run(serve_webhook(app, settings, secret))
        else:
            app.run_polling(allowed_updates=Update.ALL_TYPES)
    finally:
        # A start that failed (Telegram unreachable) leaves the HTTP sessions open: the
        # application shuts the bot down only once it has started.
        asyncio.run(app.bot.shutdown())
    if app.bot_data.get(TENANCY_LOST_KEY):
        raise DatabaseTaken(
            "this process lost its hold on the database (its connection broke) and another"
            " kind of process took it meanwhile; started again, it joins the workers there,"
            " or waits for a process working alone to stop"
        )


def shared_window(settings: Settings, worker: Worker) -> SharedTokenWindow | None:
    """The token's window the supervisor shares among its workers (None: it gave none, so
    each worker keeps to its share of the pace)."""
    path = os.environ.get(PACE_FILE_VARIABLE)
    if not path:
        return None
    return SharedTokenWindow(path, worker.index, worker.count, settings.messages_per_second)
