"""The chat front end: its handlers wired, its parts created in post_init and closed at
shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import signal
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, cast
from urllib.parse import urlsplit

from telegram import Bot, BotCommand, Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    JobQueue,
    MessageHandler,
    filters,
)

from ..games.registry import Registry
from ..i18n import SUPPORTED_LANGUAGES, Translator, Translators
from ..service.api import GameService, utc_now
from ..service.computer import process_pool
from ..settings import Settings
from .apply import ChatOutcomes
from .chat_changes import chat_migrated, chat_unwritable
from .delivery import OutboxClock, open_outbox
from .deps import DEPS_KEY, SERVER_KEY, TENANCY_LOST_KEY, Deps, GapleApplication, GapleContext
from .doors import Membership
from .handlers.boards import stats, top
from .handlers.buttons import on_button
from .handlers.commands import help_command, open_table, rules, start, stop
from .handlers.language import language_command
from .handlers.members import on_migrate, on_my_chat_member
from .handlers.privacy import delete_my_data, privacy
from .handlers.reviews import games_command, review_command
from .handlers.settings import settings_command
from .http import AiohttpRequest
from .metrics import Metrics
from .pacing.pacer import Pacer
from .pacing.token_window import TokenWindow
from .painter import Painter
from .present import Presenter
from .render.page_links import PageLinks
from .resume import resume_games
from .review_requests import ReviewRequests
from .server import BotServer, MountedPages, TrackingApplication, take_left_updates
from .sweep import arm_sweep
from .taps import answer_tap

log = logging.getLogger(__name__)
OUTBOX_DRAIN_SECONDS = 10.0


def command_list(t: Translator, registry: Registry) -> list[BotCommand]:
    """The command menu in one language: each game's command, then the bot's."""
    games = [BotCommand(kind.name, kind.presentation.command_help(t)) for kind in registry]
    return [
        *games,
        BotCommand("rules", t.gettext("The rules this chat plays")),
        BotCommand("top", t.gettext("Leaderboard: global, wins, points, week")),
        BotCommand("stats", t.gettext("Your results")),
        BotCommand("games", t.gettext("The last games played here")),
        BotCommand("review", t.gettext("How everyone played the last game")),
        BotCommand("stop", t.gettext("End the game")),
        BotCommand(
            "settings",
            t.gettext(
                "Each game's rules and target, turn time, computer level, empty seats, pictures, "
                "language"
            ),
        ),
        BotCommand("language", t.gettext("The group's language (admins), or yours in private")),
        BotCommand("help", t.gettext("How to play with me")),
        BotCommand("privacy", t.gettext("What I keep about you")),
        BotCommand("deletemydata", t.gettext("Delete what I keep about you")),
    ]


async def register_commands(bot: Bot, translators: Translators, registry: Registry) -> None:
    """The command menu for every language, and a default one for everyone else."""
    await bot.set_my_commands(command_list(translators.get(None), registry))
    for language in SUPPORTED_LANGUAGES:
        menu = command_list(translators.get(language), registry)
        await bot.set_my_commands(menu, language_code=language)


ServiceOpener = Callable[[], Awaitable[GameService]]
"""Opens the game service (its store, its computer players) when the bot starts."""


def build_application(
    settings: Settings,
    open_service: ServiceOpener,
    *,
    registry: Registry,
    metrics: Metrics,
    clock: Callable[[], datetime] = utc_now,
    outbox_clock: OutboxClock | None = None,
    webhook_secret: str | None = None,
    pages: MountedPages | None = None,
    on_tenancy_lost: Callable[[], None] | None = None,
    token_window: TokenWindow | None = None,
) -> GapleApplication:
    """The chat front end for `settings`, its handlers wired; in post_init it opens the service
    (`open_service`, which plays `registry`'s games) and its own parts. `clock` sets the time
    of deadlines, lobby expiry and the group budget; `outbox_clock` (by default `clock` in
    seconds, sleeping in real time) is the group budget's own. `metrics`: this worker's
    counts. `webhook_secret` (by default WEBHOOK_SECRET) is what the webhook's posts must
    carry; `pages`: the table page, served on the same web server and started with the
    service. `on_tenancy_lost` (by default: stop as SIGTERM stops, then the run raises
    DatabaseTaken) is called if it loses its hold on the database to another kind of
    process. `token_window`: the token's window of messages shared with other workers (by
    default this process's own, of BOT_MESSAGES_PER_SECOND)."""
    requests = AiohttpRequest(failed=metrics.telegram_failed)

    async def post_init(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        # Pictures get a process of their own: a computer's decision never waits behind one.
        painter = Painter(process_pool(1) if settings.computer_processes else None)
        service = await open_service()
        service.watch_tenancy(on_tenancy_lost or tenancy_lost)
        if service.private_paces is not None:
            rate_limiter.share_private_pace(service.private_paces)
        translators = Translators(settings.default_language)
        assert app.job_queue is not None
        job_queue = cast("JobQueue[GapleContext]", app.job_queue)

        async def unwritable(chat_id: int) -> None:
            await chat_unwritable(deps, job_queue, chat_id)

        async def migrated(old_chat_id: int, new_chat_id: int) -> None:
            await chat_migrated(deps, job_queue, old_chat_id, new_chat_id)

        # The group budget counts on the same clock as everything else unless told otherwise.
        outbox = open_outbox(
            app.bot,
            settings.group_messages_per_minute,
            ledger=service.ledger,
            clock=outbox_clock or OutboxClock(now=lambda: clock().timestamp()),
            on_unwritable=unwritable,
            on_migrated=migrated,
            painter=painter,
            table_edit_seconds=settings.table_edit_seconds,
        )
        username = app.bot.username
        page_links = (
            PageLinks(username, settings.webapp_short_name, settings.webapp_url)
            if settings.webapp
            else None
        )
        presenter = Presenter(
            app.bot,
            outbox,
            translators,
            service,
            clock,
            page_links,
            hold_seconds=settings.tapped_hand_hold_seconds,
            table_edit_seconds=settings.table_edit_seconds,
            backlog=rate_limiter.backlog_seconds,
        )
        rate_limiter.on_private_message(presenter.hands.along.message_seen)
        members = Membership(app.bot, clock)
        deps = Deps(settings, service, translators, outbox, presenter, username, members, clock)
        app.bot_data[DEPS_KEY] = deps
        # Every command's outcome (the chat's and the page's) is shown in chat from now on.
        deps.outcomes = ChatOutcomes(deps, job_queue)
        deps.review_requests = ReviewRequests(service, outbox, translators, clock)
        deps.outcomes.start()
        await register_commands(app.bot, translators, registry)
        # What the groups were not shown before the restart goes out first, in order.
        await outbox.restore()
        await resume_games(deps, job_queue)
        if settings.reviews:
            # The senior worker also takes up the reviews a stop left unmade.
            await service.start_reviews(owed=await service.take_seniority())
        # Before serving: alone on SQLite, every update not handled is the previous run's.
        await take_left_updates(deps, app)
        arm_sweep(deps, job_queue)
        app.bot_data[SERVER_KEY] = server
        if pages is not None:
            await pages.start(service, translators, clock, members.is_member)
        if not settings.webhook_url:
            # Polling has no web server of its own: the page, /healthz and /metrics get one.
            if pages is not None:
                await server.start(settings.webhook_listen, settings.webapp_port)
            if settings.metrics_port and not (
                pages is not None and settings.metrics_port == settings.webapp_port
            ):
                await server.start(settings.webhook_listen, settings.metrics_port)
        # What start-up made (the libraries, the service, the games resumed) lives as long as
        # the bot: kept out of the collector's full passes, each of which would otherwise walk
        # it all and hold the event loop for tens of milliseconds under load.
        gc.freeze()

    async def post_stop(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        await server.stop()
        if pages is not None:
            await pages.stop()
        deps = app.bot_data.get(DEPS_KEY)
        if isinstance(deps, Deps):
            outcomes = getattr(deps, "outcomes", None)
            if isinstance(outcomes, ChatOutcomes):
                await outcomes.stop()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(OUTBOX_DRAIN_SECONDS):
                    await deps.presenter.settle()
            # What the budget does not allow now stays stored and goes out after the restart.
            await deps.outbox.close(OUTBOX_DRAIN_SECONDS)
            deps.outbox.close_painter()

    async def post_shutdown(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        deps = app.bot_data.pop(DEPS_KEY, None)
        if isinstance(deps, Deps):
            await deps.service.close()
        # The collector may free what start-up made once more (a process may start another).
        gc.unfreeze()

    def tenancy_lost() -> None:
        app.bot_data[TENANCY_LOST_KEY] = True
        # Stopped the way an operator's SIGTERM stops it: polling and webhook mode both do.
        os.kill(os.getpid(), signal.SIGTERM)

    # The group budget is the outbox's (a sliding window kept across restarts); the pacer keeps
    # the whole bot's and each private chat's, putting players' hands first.
    rate_limiter = Pacer(
        settings.messages_per_second, settings.private_messages_per_second, window=token_window
    )
    app: GapleApplication = (
        ApplicationBuilder()
        .application_class(TrackingApplication)
        .token(settings.telegram_bot_token)
        .base_url(settings.bot_api_url)
        .base_file_url(settings.bot_file_url)
        .rate_limiter(rate_limiter)
        # aiohttp rather than httpx: a seventh of the CPU per call (bench/client.py).
        .request(requests)
        .get_updates_request(AiohttpRequest(connections=1))
        .concurrent_updates(True)
        .context_types(ContextTypes(context=GapleContext))
        .post_init(post_init)
        .post_stop(post_stop)
        .post_shutdown(post_shutdown)
        .build()
    )
    run_late_timers(app)
    server = BotServer(
        app,
        metrics,
        webhook_path=urlsplit(settings.webhook_url).path if settings.webhook_url else None,
        secret=webhook_secret if webhook_secret is not None else settings.webhook_secret,
        extra_routes=pages.routes() if pages is not None else (),
        on_shutdown=(pages.close_sockets,) if pages is not None else (),
    )
    # A person's own message in their private chat puts their hand above it (group -2: every
    # update of the kind goes on to the handlers after it).
    private_message = filters.UpdateType.MESSAGE & filters.ChatType.PRIVATE
    app.add_handler(MessageHandler(private_message, note_private_message), group=-2)
    # An edit is not a new command: it stops here, before any other handler (group -1).
    app.add_handler(MessageHandler(filters.UpdateType.EDITED, ignore_edit), group=-1)
    # Handler order: commands first, then buttons, then membership changes and a group's
    # upgrade to a supergroup; one group.
    app.add_handler(CommandHandler("start", start))
    # Each game opens a table with its own command (/gaple).
    app.add_handler(CommandHandler(registry.names, open_table))
    app.add_handler(CommandHandler("stop", stop))
    app.add_handler(CommandHandler("rules", rules))
    app.add_handler(CommandHandler("help", help_command))
    app.add_handler(CommandHandler("top", top))
    app.add_handler(CommandHandler("stats", stats))
    app.add_handler(CommandHandler("games", games_command))
    app.add_handler(CommandHandler("review", review_command))
    app.add_handler(CommandHandler("settings", settings_command))
    app.add_handler(CommandHandler("language", language_command))
    app.add_handler(CommandHandler("privacy", privacy))
    app.add_handler(CommandHandler("deletemydata", delete_my_data))
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_handler(ChatMemberHandler(on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, on_migrate))
    app.add_error_handler(on_error)
    return app


async def note_private_message(update: Update, context: GapleContext) -> None:
    """A message from the person in their private chat: their next hand is a new message."""
    message = update.message
    deps = context.application.bot_data.get(DEPS_KEY)
    if message is not None and isinstance(deps, Deps):
        deps.presenter.hands.along.message_seen(message.chat.id, message.message_id)


async def ignore_edit(update: Update, context: GapleContext) -> None:
    """An edited message (or channel post): editing an old /gaple or /stop must not act again."""
    raise ApplicationHandlerStop


async def on_error(update: object, context: GapleContext) -> None:
    """Log what went wrong (ids only: an update can carry a hand); a tapped button still gets
    its answer so the spinner stops."""
    if isinstance(update, Update):
        user = update.effective_user
        chat = update.effective_chat
        log.error(
            "update %s (chat %s, user %s) failed",
            update.update_id,
            chat.id if chat else None,
            user.id if user else None,
            exc_info=context.error,
        )
    else:
        log.error("a job failed", exc_info=context.error)
    if isinstance(update, Update) and update.callback_query is not None:
        found = context.application.bot_data.get(DEPS_KEY)
        deps = found if isinstance(found, Deps) else None
        user = update.effective_user
        text = "⚠️"
        if deps is not None and user is not None:
            t = deps.translators.get(user.language_code)
            text = t.gettext("⚠️ Something went wrong. The game goes on in a moment.")
        # Unless the handler answered it before it failed (one answer per tap).
        await answer_tap(deps, update.callback_query, text)


def run_late_timers(app: GapleApplication) -> None:
    """A timer the event loop was too busy to run on time runs late, once, rather than never
    (APScheduler drops one more than a second late by default: a turn would wait for ever)."""
    job_queue = app.job_queue
    assert job_queue is not None
    job_queue.scheduler.configure(
        job_defaults={"misfire_grace_time": None, "coalesce": True},
        **job_queue.scheduler_configuration,
    )
