"""The bot's HTTP server: webhook posts (each update applied once), /healthz and /metrics."""

from __future__ import annotations

import hmac
import json
import logging
from http import HTTPStatus

from aiohttp import web
from telegram import Update
from telegram.error import TelegramError

from .deps import DEPS_KEY, Deps, GapleApplication
from .http import AiohttpRequest
from .metrics import CONTENT_TYPE, metrics_text

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE_BYTES = 1 << 20
"""A webhook post larger than this is not an update Telegram sent."""


class BotServer:
    """Serves /healthz and /metrics, and Telegram's posts at `webhook_path` when one is given.

    An update is answered 200 once it is recorded and queued for the handlers; one recorded
    before (Telegram retried a post whose answer it missed, perhaps to another worker) is
    answered 200 and dropped. Before the bot is ready, posts get 503 and Telegram retries."""

    def __init__(
        self,
        app: GapleApplication,
        request: AiohttpRequest,
        *,
        webhook_path: str | None = None,
        secret: str = "",
    ) -> None:
        self._app = app
        self._request = request
        self._secret = secret.encode()
        routes = [
            web.get("/healthz", self._health),
            web.get("/metrics", self._metrics),
        ]
        if webhook_path is not None:
            routes.append(web.post("/" + webhook_path.lstrip("/"), self._update))
        self._web = web.Application(client_max_size=MAX_UPDATE_BYTES)
        self._web.add_routes(routes)
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int, *, reuse_port: bool = False) -> None:
        """Listen on `host`:`port` (`reuse_port`: beside other workers on the same port)."""
        self._runner = web.AppRunner(self._web, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, reuse_port=reuse_port or None)
        await site.start()

    async def stop(self) -> None:
        """Stop listening; requests under way get their answers first."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _deps(self) -> Deps | None:
        deps = self._app.bot_data.get(DEPS_KEY)
        return deps if isinstance(deps, Deps) and self._app.running else None

    async def _update(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self._secret):
            return web.Response(status=HTTPStatus.FORBIDDEN)
        deps = self._deps()
        if deps is None:
            return web.Response(status=HTTPStatus.SERVICE_UNAVAILABLE)
        try:
            data = json.loads(await request.read())
            update = Update.de_json(data, self._app.bot)
        except (ValueError, TypeError, KeyError, AttributeError, TelegramError):
            # AttributeError: JSON that is not an object (a list, a string).
            log.warning("a webhook post is not an update")
            return web.Response(status=HTTPStatus.BAD_REQUEST)
        if update is None:
            return web.Response(status=HTTPStatus.BAD_REQUEST)
        try:
            first = await deps.service.first_delivery(update.update_id)
        except Exception:
            # Not taken in: Telegram delivers it again later.
            log.warning("update %s: the database does not answer", update.update_id, exc_info=True)
            return web.Response(status=HTTPStatus.SERVICE_UNAVAILABLE)
        if not first:
            log.info("update %s came again: applied once already", update.update_id)
            return web.Response()
        await self._app.update_queue.put(update)
        return web.Response()

    async def _health(self, request: web.Request) -> web.Response:
        """200 once migrated, started and the database answers; 503 otherwise."""
        deps = self._deps()
        if deps is None:
            return web.Response(status=HTTPStatus.SERVICE_UNAVAILABLE, text="starting\n")
        try:
            await deps.service.running_games()
        except Exception:
            log.warning("health check: the database does not answer", exc_info=True)
            return web.Response(status=HTTPStatus.SERVICE_UNAVAILABLE, text="no database\n")
        return web.Response(text="ok\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        deps = self._deps()
        if deps is None:
            return web.Response(status=HTTPStatus.SERVICE_UNAVAILABLE, text="starting\n")
        try:
            running = await deps.service.running_games()
            group_queue = await deps.outbox.queued_now()
        except Exception:
            log.warning("metrics: the database does not answer", exc_info=True)
            return web.Response(status=HTTPStatus.SERVICE_UNAVAILABLE, text="no database\n")
        body = metrics_text(
            running_games=running,
            tally=deps.service.tally,
            telegram_failures=self._request.failures,
            group_queue=group_queue,
        )
        return web.Response(body=body.encode(), headers={"Content-Type": CONTENT_TYPE})
