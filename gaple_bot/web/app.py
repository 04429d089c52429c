"""The page front end on the bot's web server: the page's files, its sign-in and its sockets.

Same shape as the chat front end: decode a request or a frame, send the service one command,
and let the hub push the outcome to every page that shows the game."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, WSMsgType, web

from ..games.registry import Registry
from ..i18n import Translator, Translators
from ..service.errors import (
    NoSuchGame,
    ServiceError,
    StaleButton,
)
from ..service.refusals import refusal_text
from ..service.runtime import GameService
from ..service.views import Person
from ..settings import Settings
from .files import PageFiles
from .frames import (
    MAX_FRAME,
    BadFrame,
    Hello,
    LobbyAction,
    MoveFrame,
    NextRound,
    Sync,
    parse_frame,
)
from .hub import PageHub, PageSocket
from .limits import FrameBucket
from .replay_texts import replay_texts
from .replays import ReplayRoutes
from .sessions import PageSession, SessionRefused, SessionSigner
from .share import PrepareShare, StandingsShare, share_texts
from .sign_in import SignIn
from .state import Viewer, state_of
from .texts import page_refusal, shell_texts

log = logging.getLogger(__name__)

HELLO_SECONDS = 15.0
"""A socket that shows no session this soon is closed."""
SOCKETS_CLOSE_SECONDS = 5.0
"""How long the pages' sockets are given to close as the server stops (then they are dropped)."""
IsMember = Callable[[int, int], Awaitable[bool]]
"""Whether a person (second) belongs to a group (first), as Telegram says now."""


@dataclass
class PageDeps:
    """What the page front end uses once the bot's services are up."""

    service: GameService
    translators: Translators
    registry: Registry
    clock: Callable[[], datetime]
    is_member: IsMember
    hub: PageHub


class PageFrontEnd:
    """The page's routes, mounted on the bot's web server (or local play's own)."""

    def __init__(
        self,
        signer: SessionSigner,
        *,
        bot_token: str | None,
        login_age: timedelta = timedelta(days=1),
        public_url: str = "",
        now: Callable[[], float] | None = None,
        reviews: bool = True,
    ) -> None:
        self.signer = signer
        self._bot_token = bot_token
        self._login_age = login_age
        self._public_origin = _origin(public_url) if public_url else None
        self._monotonic = now or _monotonic
        self._deps: PageDeps | None = None
        self._buckets: dict[int, FrameBucket] = {}
        self._sockets: set[web.WebSocketResponse] = set()
        """The page sockets open now (closed at once when the server stops)."""
        self._sign_in = SignIn(signer, bot_token, login_age, self._ready)
        self._files = PageFiles(local=bot_token is None, registry=lambda: self._ready().registry)
        share_key = StandingsShare.key_for_bot(bot_token) if bot_token is not None else None
        self._share = StandingsShare(signer, share_key, public_url, self._ready)
        self.replays = ReplayRoutes(signer, bot_token, login_age, self._ready, reviews=reviews)
        """A finished game's replay and review (replays.py)."""
        self.extra_routes: list[web.RouteDef] = []
        """Routes another part adds (local play's sign-in)."""

    @classmethod
    def for_bot(cls, settings: Settings) -> PageFrontEnd:
        """The page of the bot these settings run (WEBAPP_URL and WEBAPP_SHORT_NAME set):
        sessions signed from its token, initData checked against it."""
        token = settings.telegram_bot_token
        return cls(
            SessionSigner.for_bot(token),
            bot_token=token,
            login_age=timedelta(seconds=settings.webapp_login_seconds),
            public_url=settings.webapp_url,
            reviews=settings.reviews,
        )

    def routes(self) -> list[web.RouteDef]:
        """Every route of the page, under /app."""
        return [
            *self._files.routes(),
            web.post("/app/api/session", self._sign_in.sign_in),
            web.get("/app/ws", self._socket),
            *self._share.routes(),
            *self.replays.routes(),
            *self.extra_routes,
        ]

    async def start(
        self,
        service: GameService,
        translators: Translators,
        clock: Callable[[], datetime],
        is_member: IsMember,
    ) -> None:
        """Serve pages from now on, for the games of `service`."""
        hub = PageHub(service, translators, service.registry, self.signer)
        hub.start()
        await service.hear_changes(hub.changed_elsewhere)
        self._deps = PageDeps(service, translators, service.registry, clock, is_member, hub)

    async def close_sockets(self, app: web.Application | None = None) -> None:
        """Close every open page socket, as the server it is served on shuts down (an aiohttp
        on_shutdown handler): the server does not wait for a page left open (its socket
        would hold the stop up for as long as aiohttp's shutdown allows), and the page is
        told the server is going away, so it reconnects."""
        closing = [
            ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopping")
            for ws in list(self._sockets)
        ]
        # All at once, and bounded: a page that stopped reading must not hold the stop up
        # (aiohttp gives its on_shutdown handlers no limit); its socket is dropped after.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(SOCKETS_CLOSE_SECONDS):
                await asyncio.gather(*closing, return_exceptions=True)

    async def stop(self) -> None:
        """Stop following the games (open sockets close with the server)."""
        if self._deps is not None:
            await self._deps.hub.stop()
            self._deps = None

    def share_through(self, prepare: PrepareShare) -> None:
        """Let pages share a finished game's standings, the bot preparing the message (the
        composition root gives the bot's part; without it Share is not available)."""
        self._share.prepare = prepare

    @property
    def deps(self) -> PageDeps | None:
        """The services, once started."""
        return self._deps

    def _ready(self) -> PageDeps:
        if self._deps is None:
            raise web.HTTPServiceUnavailable(text="starting\n")
        return self._deps

    def session_answer(
        self, user_id: int, name: str, language: str | None, game_id: int, kind: str
    ) -> web.Response:
        """The answer to a sign-in: a new session for the game."""
        return self._sign_in.answer(user_id, name, language, game_id, kind)

    # The socket ----------------------------------------------------------------------------

    def _same_origin(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin", "")
        if not origin:
            return False
        allowed = {f"{request.scheme}://{request.host}", f"https://{request.host}"}
        if self._public_origin is not None:
            allowed.add(self._public_origin)
        return _origin(origin) in allowed

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        deps = self._ready()
        if not self._same_origin(request):
            log.info("a page socket from a foreign origin was refused")
            raise web.HTTPForbidden(text="foreign origin\n")
        ws = web.WebSocketResponse(heartbeat=25.0, max_msg_size=MAX_FRAME * 16)
        await ws.prepare(request)
        page: PageSocket | None = None
        writer: asyncio.Task[None] | None = None
        self._sockets.add(ws)
        try:
            session = await self._hello(deps, ws)
            if session is None:
                return ws
            viewer = Viewer(session.user_id, session.name, session.language, session.photo)
            t = deps.translators.get(session.language)
            page = PageSocket(viewer, session.game_id, t)
            kind = await self._welcome(deps, ws, page, session)
            if kind is None:
                return ws
            deps.hub.add(page)
            writer = asyncio.create_task(_write(ws, page))
            await self._push_state(deps, page)
            await self._read(deps, ws, page)
        finally:
            self._sockets.discard(ws)
            if page is not None:
                deps.hub.remove(page)
            if writer is not None:
                writer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await writer
        return ws

    async def _hello(self, deps: PageDeps, ws: web.WebSocketResponse) -> PageSession | None:
        """The socket's session, from its first frame (None: refused, the socket closed)."""
        t = deps.translators.get(None)
        try:
            async with asyncio.timeout(HELLO_SECONDS):
                message = await ws.receive()
        except TimeoutError:
            await ws.close(code=4408, message=b"no hello")
            return None
        if message.type is not WSMsgType.TEXT:
            await ws.close()
            return None
        try:
            frame = parse_frame(message.data)
        except BadFrame:
            frame = None
        if not isinstance(frame, Hello):
            await ws.send_json(refusal_frame(t, "frame"))
            await ws.close(code=4400, message=b"hello first")
            return None
        try:
            return self.signer.check(frame.session, deps.clock())
        except SessionRefused as error:
            log.info("a page socket's session was refused: %s", error)
            await ws.send_json(refusal_frame(t, "session"))
            await ws.close(code=4401, message=b"session refused")
            return None

    async def _welcome(
        self, deps: PageDeps, ws: web.WebSocketResponse, page: PageSocket, session: PageSession
    ) -> str | None:
        """The welcome frame: a fresh session, the shell's words, the game's drawing."""
        try:
            facts = await deps.service.page_commands.facts(session.game_id)
        except NoSuchGame:
            await ws.send_json(refusal_frame(page.t, "no_table"))
            await ws.close(code=4404, message=b"no table")
            return None
        fresh = self.signer.issue(
            session.user_id,
            session.name,
            session.language,
            session.game_id,
            deps.clock(),
            session.photo,
        )
        await ws.send_json(
            {
                "t": "welcome",
                "session": fresh,
                "user": session.user_id,
                "game_id": session.game_id,
                "kind": facts.kind,
                "script": f"/app/games/{facts.kind}.js",
                "texts": {**shell_texts(page.t), **share_texts(page.t), **replay_texts(page.t)},
            }
        )
        return facts.kind

    async def _push_state(self, deps: PageDeps, page: PageSocket) -> None:
        try:
            snapshot = await deps.service.page_commands.snapshot(page.game_id)
        except ServiceError as error:
            page.push(refusal_frame(page.t, "", error))
            return
        # The page is the hub's already: its own photo is among them.
        photos = deps.hub.photos(page.game_id)
        page.push(
            state_of(snapshot, page.t, deps.registry, page.viewer, deps.clock(), photos=photos)
        )

    async def _read(self, deps: PageDeps, ws: web.WebSocketResponse, page: PageSocket) -> None:
        bucket = self._buckets.setdefault(page.viewer.user_id, FrameBucket(self._monotonic))
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                if message.type is WSMsgType.BINARY:
                    page.push(refusal_frame(page.t, "frame"))
                continue
            if not bucket.take():
                page.push(refusal_frame(page.t, "flood"))
                continue
            try:
                frame = parse_frame(message.data)
            except BadFrame:
                page.push(refusal_frame(page.t, "frame"))
                continue
            await self._handle(deps, page, frame)

    async def _handle(self, deps: PageDeps, page: PageSocket, frame: Any) -> None:
        """One frame's use case; a refusal is told to the page and changes nothing."""
        if isinstance(frame, Hello | Sync):
            await self._push_state(deps, page)
            return
        commands = deps.service.page_commands
        try:
            if isinstance(frame, MoveFrame):
                await commands.move(page.game_id, page.viewer.user_id, frame.version, frame.code)
            elif isinstance(frame, NextRound):
                await commands.next_round(page.game_id, page.viewer.user_id)
            elif isinstance(frame, LobbyAction):
                await self._lobby_action(deps, page, frame.action)
        except StaleButton as error:
            page.push(refusal_frame(page.t, "", error))
            await self._push_state(deps, page)
        except ServiceError as error:
            page.push(refusal_frame(page.t, "", error))
        except Exception:
            log.exception("game %s: a page's frame failed", page.game_id)
            page.push(refusal_frame(page.t, "error"))

    async def _lobby_action(self, deps: PageDeps, page: PageSocket, action: str) -> None:
        viewer, game_id = page.viewer, page.game_id
        person = Person(viewer.user_id, viewer.name, viewer.language)
        commands = deps.service.page_commands
        if action == "join":
            facts = await commands.facts(game_id)
            # Membership is asked afresh for a seat, as the chat's Join does (not while the
            # game is held: it may be a call to Telegram).
            if not await deps.is_member(facts.chat_id, viewer.user_id):
                page.push(refusal_frame(page.t, "not_member"))
                return
            await commands.join(game_id, person, private_chat=False)
        elif action == "leave":
            await commands.leave(game_id, viewer.user_id)
        elif action == "start":
            await commands.start(game_id, viewer.user_id, False)
        elif action == "again":
            await commands.play_again(game_id, person)
        elif action == "back":
            await commands.take_back(game_id, viewer.user_id)


def refusal_frame(t: Translator, reason: str, error: ServiceError | None = None) -> dict[str, Any]:
    """A refusal told to a page, in its viewer's words."""
    if error is not None:
        return {"t": "refused", "reason": type(error).__name__, "text": refusal_text(t, error)}
    return {"t": "refused", "reason": reason, "text": page_refusal(t, reason)}


async def _write(ws: web.WebSocketResponse, page: PageSocket) -> None:
    """Send the page its frames, in order, as they come."""
    while not ws.closed:
        frame = await page.frames.get()
        try:
            await ws.send_str(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))
        except (ConnectionError, RuntimeError):
            return


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _monotonic() -> float:
    return asyncio.get_running_loop().time()
