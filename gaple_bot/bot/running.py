"""Running the chat front end: started and stopped as run_polling would, or served as a
webhook (alone or as one of the supervisor's workers)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal

from telegram import Update

from ..settings import Settings
from .deps import SERVER_KEY, GapleApplication
from .server import BotServer
from .supervisor import Worker

log = logging.getLogger(__name__)
PARENT_CHECK_SECONDS = 2.0
"""How often a supervised worker looks whether its supervisor is still there."""


async def start_application(
    app: GapleApplication, *, poll_timeout: float = 10, poll: bool = True
) -> None:
    """Start like run_polling does (initialize, post_init, polling, start), inside a running
    loop: for tests and embedding. Without `poll`, updates come only as webhook posts would
    (one poller per token: Telegram refuses a second)."""
    await app.initialize()
    if app.post_init is not None:
        await app.post_init(app)
    assert app.updater is not None
    if poll:
        await app.updater.start_polling(
            timeout=int(poll_timeout), allowed_updates=Update.ALL_TYPES, poll_interval=0
        )
    await app.start()


async def stop_application(app: GapleApplication) -> None:
    """Stop like run_polling does on a signal (the reverse of start_application)."""
    server = app.bot_data.get(SERVER_KEY)
    if isinstance(server, BotServer):
        # First: an update recorded as received must reach the queue before it stops.
        await server.stop()
    assert app.updater is not None
    if app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
        if app.post_stop is not None:
            await app.post_stop(app)
    await app.shutdown()
    if app.post_shutdown is not None:
        await app.post_shutdown(app)


async def serve_as_worker(
    app: GapleApplication, settings: Settings, secret: str, worker: Worker
) -> None:
    """Webhook mode as one of the supervisor's workers, until it stops them or goes away."""
    stopped = asyncio.Event()
    parent = os.getppid()

    async def watch_parent() -> None:
        # Polled: no event tells a process that its parent went.
        while os.getppid() == parent:  # noqa: ASYNC110
            await asyncio.sleep(PARENT_CHECK_SECONDS)
        log.warning("worker %s: its supervisor is gone; stopping", worker)
        stopped.set()

    watching = asyncio.create_task(watch_parent())
    try:
        await serve_webhook(
            app,
            settings,
            secret,
            register=worker.index == 0,
            reuse_port=worker.count > 1,
            stopped=stopped,
        )
    finally:
        watching.cancel()


async def serve_webhook(
    app: GapleApplication,
    settings: Settings,
    secret: str,
    *,
    register: bool = True,
    reuse_port: bool = False,
    stopped: asyncio.Event | None = None,
) -> None:
    """Webhook mode until SIGTERM or SIGINT (or `stopped` is set): start, register the
    webhook (unless another worker does: `register`), serve WEBHOOK_PORT (beside other
    workers on it: `reuse_port`), then stop as polling does."""
    stopped = stopped or asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopped.set)
    await app.initialize()
    try:
        if app.post_init is not None:
            await app.post_init(app)
        if register:
            await app.bot.set_webhook(
                settings.webhook_url, secret_token=secret, allowed_updates=Update.ALL_TYPES
            )
        await app.start()
        server = app.bot_data[SERVER_KEY]
        assert isinstance(server, BotServer)
        await server.start(settings.webhook_listen, settings.webhook_port, reuse_port=reuse_port)
        await stopped.wait()
    finally:
        await stop_application(app)
