"""The bot's HTTP server: webhook posts (each update applied once, even if the worker that took
it in dies before handling it), /healthz and /metrics."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from http import HTTPStatus
from typing import Any, Protocol

from aiohttp import web
from telegram import Update
from telegram.error import TelegramError
from telegram.ext import Application

from ..i18n import Translators
from ..service.runtime import GameService
from .deps import DEPS_KEY, Deps, GapleApplication, GapleContext
from .metrics import CONTENT_TYPE, Metrics

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE_BYTES = 1 << 20
"""A webhook post larger than this is not an update Telegram sent."""


class UpdatesInHand:
    """The recorded updates this worker queued for its handlers and did not mark handled yet.
    Marks are written in batches: one write at a time, each with every mark due by its start
    (under load one write serves many updates)."""

    def __init__(self) -> None:
        self._queued: set[int] = set()
        self._due: set[int] = set()
        self._writing: asyncio.Task[None] | None = None

    @property
    def holding(self) -> bool:
        """Whether some update is queued, being handled, or waits for its mark to be written."""
        writing = self._writing is not None and not self._writing.done()
        return bool(self._queued or self._due) or writing

    def take(self, update_id: int) -> None:
        """The update is recorded as this worker's and goes to its handlers."""
        self._queued.add(update_id)

    def done(self, update_id: int, service: GameService) -> None:
        """The handlers are done with the update: mark it handled (soon)."""
        if update_id not in self._queued:
            return  # never recorded: polled, or handed over by a test
        self._queued.discard(update_id)
        self._due.add(update_id)
        if self._writing is None or self._writing.done():
            self._writing = asyncio.create_task(self._write(service))

    async def settle(self, service: GameService) -> None:
        """Write every mark due (at stop, before the database closes)."""
        if self._writing is not None:
            await self._writing
        await self._write(service)

    async def _write(self, service: GameService) -> None:
        while self._due:
            batch, self._due = self._due, set()
            try:
                await service.updates_handled(batch)
            except Exception:
                # Tried again with the next update done, or at stop; should this worker die
                # first, another worker runs them again (see take_left_updates).
                log.warning("%d updates could not be marked handled", len(batch), exc_info=True)
                self._due |= batch
                return


class TrackingApplication(Application[Any, GapleContext, Any, Any, Any, Any]):
    """PTB's Application that marks each recorded update handled once its handlers are done
    with it: every handler group ran, one stopped the others (ApplicationHandlerStop), or an
    error reached the error handler. One cut off (the process stopping under it) is not."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.in_hand = UpdatesInHand()

    async def process_update(self, update: object) -> None:
        cut_off = False
        try:
            await super().process_update(update)
        except asyncio.CancelledError:
            cut_off = True
            raise
        finally:
            service = _service(self.bot_data)
            if not cut_off and isinstance(update, Update) and service is not None:
                self.in_hand.done(update.update_id, service)

    async def stop(self) -> None:
        await super().stop()
        service = _service(self.bot_data)
        if service is not None:
            await self.in_hand.settle(service)


def _service(bot_data: Mapping[Any, Any]) -> GameService | None:
    deps = bot_data.get(DEPS_KEY)
    return deps.service if isinstance(deps, Deps) else None


def _in_hand(app: Application[Any, Any, Any, Any, Any, Any]) -> UpdatesInHand | None:
    return app.in_hand if isinstance(app, TrackingApplication) else None


async def take_left_updates(deps: Deps, app: Application[Any, Any, Any, Any, Any, Any]) -> int:
    """Queue for this worker's handlers the updates that workers no longer alive took in and
    did not handle (on SQLite: those the previous run left; ask before serving), in id order;
    returns how many."""
    left = await deps.service.left_updates()
    in_hand = _in_hand(app)
    for update_id, data in left:
        try:
            update = Update.de_json(json.loads(data), app.bot)
        except (ValueError, TypeError, KeyError, AttributeError, TelegramError):
            update = None
        if update is None:
            log.warning("update %s left by a worker that is gone is not an update", update_id)
            await deps.service.updates_handled([update_id])
            continue
        if in_hand is not None:
            in_hand.take(update_id)
        await app.update_queue.put(update)
    if left:
        log.info("%d updates left by a worker that is gone are handled here", len(left))
    return len(left)


class MountedPages(Protocol):
    """A front end served beside the webhook on this server (the table page): its routes,
    started once the services are up and stopped before they close."""

    def routes(self) -> list[web.RouteDef]:
        """Its routes, mounted on this server."""
        ...

    async def close_sockets(self, app: web.Application | None = None) -> None:
        """Close its open sockets, as the server shuts down."""
        ...

    async def start(
        self,
        service: GameService,
        translators: Translators,
        clock: Callable[[], datetime],
        is_member: Callable[[int, int], Awaitable[bool]],
    ) -> None:
        """Serve from now on."""
        ...

    async def stop(self) -> None:
        """Stop serving."""
        ...


class CannotListen(Exception):
    """The bot's web server cannot listen where the settings say (a port in use, an address
    this machine does not have)."""


class BotServer:
    """Serves /healthz and /metrics, and Telegram's posts at `webhook_path` when one is given.

    An update is answered 200 once it is recorded (with its JSON, as this worker's) and queued
    for the handlers; should this worker die before they are done with it, a live worker takes
    it (`take_left_updates`). One recorded before (Telegram retried a post whose answer it
    missed, perhaps to another worker) is answered 200 and dropped. Before the bot is ready,
    posts get 503 and Telegram retries."""

    def __init__(
        self,
        app: GapleApplication,
        metrics: Metrics,
        *,
        webhook_path: str | None = None,
        secret: str = "",
        extra_routes: Sequence[web.RouteDef] = (),
        on_shutdown: Sequence[Callable[[web.Application], Awaitable[None]]] = (),
    ) -> None:
        self._app = app
        self._bot_metrics = metrics
        self._secret = secret.encode()
        routes = [
            web.get("/healthz", self._health),
            web.get("/metrics", self._metrics),
        ]
        if webhook_path is not None:
            routes.append(web.post("/" + webhook_path.lstrip("/"), self._update))
        routes.extend(extra_routes)
        self._web = web.Application(client_max_size=MAX_UPDATE_BYTES)
        self._web.add_routes(routes)
        # Long-lived connections (the page's sockets) close as the server stops, not after.
        self._web.on_shutdown.extend(on_shutdown)
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int, *, reuse_port: bool = False) -> None:
        """Listen on `host`:`port` (`reuse_port`: beside other workers on the same port);
        called again, on one more port as well."""
        if self._runner is None:
            self._runner = web.AppRunner(self._web, access_log=None, handle_signals=False)
            await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, reuse_port=reuse_port or None)
        try:
            await site.start()
        except OSError as exc:
            await self.stop()
            raise CannotListen(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc

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
            first = await deps.service.first_delivery(
                update.update_id, json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            )
        except Exception:
            # Not taken in: Telegram delivers it again later.
            log.warning("update %s: the database does not answer", update.update_id, exc_info=True)
            return web.Response(status=HTTPStatus.SERVICE_UNAVAILABLE)
        if not first:
            log.info("update %s came again: applied once already", update.update_id)
            return web.Response()
        in_hand = _in_hand(self._app)
        if in_hand is not None:
            in_hand.take(update.update_id)
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
        body = self._bot_metrics.exposition(running_games=running, group_queue=group_queue)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE})
