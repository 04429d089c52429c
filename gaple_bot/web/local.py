"""Local play: the same page on 127.0.0.1 for one person against computer players, with no
token and no Telegram, in a throwaway SQLite file unless told otherwise."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import secrets
import signal
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta
from http import HTTPStatus
from pathlib import Path

from aiohttp import web

from ..i18n import SUPPORTED_LANGUAGES, Translators
from ..service.api import GameStatus, utc_now
from ..service.chats import ChatDefaults
from ..service.errors import NoSuchGame, ServiceError
from ..service.runtime import GameService
from ..service.views import Person
from .app import PageDeps, PageFrontEnd
from .browser_language import browser_language
from .replays import LocalPerson
from .sessions import SessionRefused, SessionSigner
from .sign_in import json_body, refused

log = logging.getLogger(__name__)
LOCAL_HOST = "127.0.0.1"
LOCAL_CHAT = -1
"""The one chat of local play; each table is a topic of its own in it."""
LOCAL_PLAYER = 1
TURN_SECONDS = 90
TICK_SECONDS = 1.0


class LocalTables:
    """Opens a table for the local person (seated first, computers in the other seats) and
    ends their turns when they run out, as the chat's timers do."""

    def __init__(
        self,
        pages: PageFrontEnd,
        name: str | None,
        language: str | None,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.pages = pages
        self.name = name
        self.language = language
        self.clock = clock
        pages.extra_routes.append(web.post("/app/api/local", self._open))
        # The local person replays the local games (by their replay links).
        pages.replays.local = LocalPerson(LOCAL_CHAT, LOCAL_PLAYER, name, language)

    async def _open(self, request: web.Request) -> web.Response:
        """A session for the table the page's kept session names while its game is live (a
        reload returns to it); else for a new table of the kind asked for, started at once."""
        deps = self.pages.deps
        if deps is None:
            raise web.HTTPServiceUnavailable(text="starting\n")
        body = await json_body(request)
        # --language, else the browser's own (a person's browser says which they read).
        language = self.language or browser_language(request)
        t = deps.translators.get(language)
        # --name, else the word for a player in the person's language.
        name = self.name or t.gettext("Player")
        try:
            kind = deps.registry.get(str(body.get("kind") or "gaple"))
        except KeyError:
            return refused(t, "no_table", HTTPStatus.NOT_FOUND)
        kept = await self._kept(deps, body.get("session"), kind.name)
        if kept is not None:
            return self.pages.session_answer(LOCAL_PLAYER, name, language, kept, kind.name)
        person = Person(LOCAL_PLAYER, name, language)
        service = deps.service
        # A topic of its own per table, so that several can be played one after another.
        topic = secrets.randbelow(1 << 30) + 1
        lobby = await service.lobbies.open(kind, LOCAL_CHAT, "Local", topic, person)
        try:
            await service.page_commands.start(lobby.game_id, LOCAL_PLAYER, True)
        except ServiceError as error:
            log.warning("a local table could not start: %s", error)
            return refused(t, "no_table", HTTPStatus.NOT_FOUND)
        return self.pages.session_answer(LOCAL_PLAYER, name, language, lobby.game_id, kind.name)

    async def _kept(self, deps: PageDeps, session: object, kind: str) -> int | None:
        """The game of a kept session that this server signed, if it is still a live local
        table (in its lobby or being played) of `kind` at which the person sits."""
        if not isinstance(session, str):
            return None
        try:
            checked = self.pages.signer.check(session, deps.clock())
        except SessionRefused:
            return None
        try:
            facts = await deps.service.page_commands.facts(checked.game_id)
        except NoSuchGame:
            return None
        seated = any(seat.user_id == LOCAL_PLAYER for seat in facts.seats)
        live = facts.status in (GameStatus.LOBBY, GameStatus.RUNNING)
        if not (live and seated and facts.kind == kind and facts.chat_id == LOCAL_CHAT):
            return None
        return checked.game_id

    async def keep_time(self) -> None:
        """What ran out ends, each second (see `tick`)."""
        while True:
            await asyncio.sleep(TICK_SECONDS)
            await self.tick()

    async def tick(self) -> None:
        """End every break after a round's end whose time is up (the round is played on) and
        every turn that ran out (the computer moves for the person)."""
        deps = self.pages.deps
        if deps is None:
            return
        now = self.clock()
        commands = deps.service.page_commands
        for game_id, version in await deps.service.round_breaks_over(now):
            try:
                await commands.end_break(game_id, version)
            except ServiceError as error:
                log.info("game %s: its break could not end: %s", game_id, error)
        turns, _ = await deps.service.overdue(now, now - timedelta(days=365))
        for game_id, version in turns:
            try:
                await commands.timeout(game_id, version)
            except ServiceError as error:
                log.info("game %s: its turn could not end: %s", game_id, error)


async def _anyone(chat_id: int, user_id: int) -> bool:
    """Local play has no group to belong to: the one person is at home."""
    return True


async def serve_local(
    database_url: str,
    port: int,
    *,
    name: str | None = None,
    language: str | None = None,
    ready: Callable[[str], None] | None = None,
    stopped: asyncio.Event | None = None,
    reviewed: Callable[[int], None] | None = None,
    preparing: Callable[[], None] | None = None,
) -> None:
    """Serve local play on 127.0.0.1:`port` until `stopped` is set (or the task is
    cancelled); `preparing` is told once it listens and the computer players start loading,
    `ready` the page's address once they have, `reviewed` each game whose review is
    stored."""
    service = await GameService.open(database_url, defaults=ChatDefaults(turn_seconds=TURN_SECONDS))
    if reviewed is not None:
        service.reviews.when_ready(reviewed)
    # Each game that ends is reviewed in the background, and one kept in --database that a
    # stop left without its review gets it now.
    await service.start_reviews(owed=True)
    translators = Translators(language or "en")
    pages = PageFrontEnd(SessionSigner.for_local_play(), bot_token=None)
    tables = LocalTables(pages, name, language)
    await pages.start(service, translators, utc_now, _anyone)
    app = web.Application()
    app.add_routes(pages.routes())
    app.on_shutdown.append(pages.close_sockets)
    app.router.add_get("/", _to_page)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    timer = asyncio.create_task(tables.keep_time())
    try:
        site = web.TCPSite(runner, LOCAL_HOST, port)
        await site.start()
        bound = runner.addresses[0][1] if runner.addresses else port
        # The computer players' compiled code loads before the address is given (a fresh
        # copy compiles it, for seconds), so the first table does not sit still meanwhile.
        if preparing is not None:
            preparing()
        for kind in service.registry:
            await asyncio.to_thread(kind.warm_up_computers)
        if ready is not None:
            ready(f"http://{LOCAL_HOST}:{bound}/app")
        await (stopped or asyncio.Event()).wait()
    finally:
        timer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await timer
        await runner.cleanup()
        await pages.stop()
        await service.close()


async def _serve_until_stopped(
    database_url: str,
    port: int,
    name: str | None,
    language: str | None,
    ready: Callable[[str], None],
    preparing: Callable[[], None],
) -> None:
    """`serve_local` until Ctrl+C, SIGTERM or SIGHUP, so a terminal, a service manager or a
    closed terminal stops it as cleanly, its throwaway database removed. Once stopping, the
    same signals are ignored until the process ends: a second Ctrl+C would cut the clean-up
    short (the database left open in a folder being removed) or end it with a signal's exit
    code rather than 0."""
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    handled = []
    for number in _stop_signals():
        # Not every platform's loop takes signal handlers (Windows' does not).
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, stopped.set)
            handled.append(number)
    try:
        await serve_local(
            database_url,
            port,
            name=name,
            language=language,
            ready=ready,
            stopped=stopped,
            preparing=preparing,
        )
    finally:
        for number in handled:
            loop.remove_signal_handler(number)
            signal.signal(number, signal.SIG_IGN)


def _stop_signals() -> list[signal.Signals]:
    """The signals that stop local play, those of them this platform has."""
    names = ("SIGINT", "SIGTERM", "SIGHUP")
    return [number for name in names if (number := getattr(signal, name, None)) is not None]


async def _to_page(request: web.Request) -> web.Response:
    raise web.HTTPFound("/app")


USAGE = "gaple-bot local"


def main(argv: list[str]) -> int:
    """`gaple-bot local`: play in a browser against computer players; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog=USAGE,
        description="Play Gaple or Gap in your browser against computer players, with no "
        "Telegram and no token. Listens on 127.0.0.1 only.",
    )
    parser.add_argument("--port", type=int, default=8765, help="the port (default 8765; 0: any)")
    parser.add_argument(
        "--database",
        default="",
        help="a database URL to keep the games in (default: a throwaway SQLite file)",
    )
    parser.add_argument(
        "--game",
        choices=("gaple", "gap"),
        default="gaple",
        help="the game whose address is printed first (both are served; default gaple)",
    )
    parser.add_argument(
        "--name", default=None, help="your name at the table (default: Player, in the language)"
    )
    parser.add_argument(
        "--language",
        choices=SUPPORTED_LANGUAGES,
        default=None,
        help="the page's language (default: the browser's, else en)",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error("--port must be between 0 and 65535")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with tempfile.TemporaryDirectory(prefix="gaple-local-") as folder:
        database = args.database or f"sqlite+aiosqlite:///{Path(folder) / 'local.sqlite3'}"

        def ready(url: str) -> None:
            other = "gap" if args.game == "gaple" else "gaple"
            print(
                f"Open {url}?local={args.game} in your browser to play {args.game.title()} "
                f"({other.title()}: {url}?local={other}; Ctrl+C stops).",
                flush=True,
            )

        def preparing() -> None:
            print("Getting the computer players ready (the first run compiles them)…", flush=True)

        try:
            asyncio.run(
                _serve_until_stopped(
                    database, args.port, args.name, args.language, ready, preparing
                )
            )
        except KeyboardInterrupt:
            pass
        except OSError as error:
            print(
                f"gaple-bot local: cannot listen on {LOCAL_HOST}:{args.port} ({error.strerror}); "
                "choose another port with --port",
                file=sys.stderr,
            )
            return 1
    return 0
