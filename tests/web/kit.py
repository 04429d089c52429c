"""The page front end on a test server: the service on a migrated SQLite copy, the page's
routes on 127.0.0.1, and pages that sign in and talk over their sockets as the browser does."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web
from aiohttp.test_utils import TestServer
from aiohttp.typedefs import Handler

from gaple_bot.i18n import Translators
from gaple_bot.service.dealer import Dealer
from gaple_bot.service.runtime import GameService
from gaple_bot.service.views import Person
from gaple_bot.store import Store
from gaple_bot.web.app import PageFrontEnd
from gaple_bot.web.initdata import sign
from gaple_bot.web.local import LocalTables
from gaple_bot.web.sessions import SessionSigner

BOT_TOKEN = "123456:TEST-token-of-the-page-tests"
GROUP = -100500
WAIT = 60.0
"""Generous: CI may be slow; a wait only ends early when what it waits for comes."""

JSON = dict[str, Any]


def init_data(
    user_id: int,
    name: str,
    *,
    token: str = BOT_TOKEN,
    start: str = "",
    signed_at: datetime | None = None,
    language: str = "en",
    user: bool = True,
    photo: str | None = None,
) -> str:
    """initData as Telegram would hand a Mini App of the bot with `token` (`photo`: the
    user's photo_url)."""
    fields = {
        "auth_date": str(int((signed_at or datetime.now().astimezone()).timestamp())),
        "query_id": "AAH-test",
    }
    if user:
        person: JSON = {"id": user_id, "first_name": name, "language_code": language}
        if photo is not None:
            person["photo_url"] = photo
        fields["user"] = json.dumps(person, separators=(",", ":"))
    if start:
        fields["start_param"] = start
    fields["hash"] = sign(fields, token)
    return urlencode(fields)


@dataclass
class Members:
    """Who Telegram says belongs to the group (the tests' getChatMember)."""

    of_group: set[int] = field(default_factory=set)
    asked: int = 0

    async def is_member(self, chat_id: int, user_id: int) -> bool:
        self.asked += 1
        return chat_id == GROUP and user_id in self.of_group


class Page:
    """One open page: its socket and every frame it received, in order."""

    def __init__(
        self, ws: aiohttp.ClientWebSocketResponse, server: PageServer | None = None
    ) -> None:
        self.ws = ws
        self.server = server
        self.frames: list[JSON] = []
        self._seen = 0
        self._arrived = asyncio.Event()
        self._reader = asyncio.create_task(self._read())
        self.session = ""

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type is aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(message.data))
                self._arrived.set()
        self._arrived.set()

    async def send(self, frame: JSON) -> None:
        """A frame, as a person taps: a second passes on the frames' clock first, so the
        flood limit (which the flood test drives) never sees a person's pace as a flood."""
        if self.server is not None:
            self.server.now += 1.0
        await self.ws.send_str(json.dumps(frame))

    async def next(self, kind: str, where: Callable[[JSON], bool] = lambda f: True) -> JSON:
        """The next frame of type `kind` (after those taken before) that `where` accepts."""
        async with asyncio.timeout(WAIT):
            while True:
                while self._seen < len(self.frames):
                    frame = self.frames[self._seen]
                    self._seen += 1
                    if frame.get("t") == kind and where(frame):
                        return frame
                if self.ws.closed and self._reader.done():
                    raise AssertionError(f"the socket closed before a {kind!r} frame")
                self._arrived.clear()
                await self._arrived.wait()

    async def first(self, kind: str, where: Callable[[JSON], bool] = lambda f: True) -> JSON:
        """The first frame of type `kind` that `where` accepts, taken before or not: one
        already received, else the next to come (up to WAIT)."""
        for frame in self.frames:
            if frame.get("t") == kind and where(frame):
                return frame
        return await self.next(kind, where)

    async def latest_state(self, revision: int) -> JSON:
        """The newest state frame, once one at `revision` or later has come: the frames on
        their way are waited for (up to WAIT), never a fixed moment a slow machine outlasts."""
        await self.next("state", lambda f: f["revision"] >= revision)
        states = [f for f in self.frames if f.get("t") == "state"]
        self._seen = len(self.frames)
        return states[-1]

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()


class PageServer:
    """The page's routes served on 127.0.0.1 beside a service, with a Telegram sign-in
    (initData signed for BOT_TOKEN) and local play's."""

    def __init__(self, service: GameService, members: Members) -> None:
        self.service = service
        self.members = members
        self.now = 0.0
        """The frames' clock (seconds): each page frame moves it on a second."""
        self.pace = 0.0
        """Seconds the frames' clock moves on at each reading: a browser's frames do not move
        it as Page.send does, so its tests set a second (a person's pace, whatever the
        machine's)."""
        self.pages = PageFrontEnd(
            SessionSigner.for_bot(BOT_TOKEN), bot_token=BOT_TOKEN, now=self._frames_clock
        )
        self.local = LocalTables(self.pages, "Ana", "en", clock=service.clock)
        self._socket_requests: dict[int, web.Request] = {}
        """Each open socket's request, by its id (a request is not hashable)."""
        app = web.Application(middlewares=[self._track_sockets])
        app.add_routes(self.pages.routes())
        # As the bot's server does: a page left open does not hold the server's stop up.
        app.on_shutdown.append(self.pages.close_sockets)
        self.server = TestServer(app, host="127.0.0.1")
        self.http: aiohttp.ClientSession | None = None

    @web.middleware
    async def _track_sockets(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Keeps each open socket's request while it lasts, for drop_sockets."""
        if request.path != "/app/ws":
            return await handler(request)
        self._socket_requests[id(request)] = request
        try:
            return await handler(request)
        finally:
            self._socket_requests.pop(id(request), None)

    def drop_sockets(self) -> int:
        """Cut every open page socket from the server's side, as a lost connection does;
        returns how many were cut."""
        cut = 0
        for request in list(self._socket_requests.values()):
            if request.transport is not None and not request.transport.is_closing():
                request.transport.close()
                cut += 1
        return cut

    def _frames_clock(self) -> float:
        self.now += self.pace
        return self.now

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def url(self, path: str) -> str:
        return self.origin + path

    async def sign_in(self, init: str, table: str = "") -> tuple[int, JSON]:
        assert self.http is not None
        async with self.http.post(
            self.url("/app/api/session"), json={"init_data": init, "table": table}
        ) as answer:
            return answer.status, await answer.json()

    async def open_local(self, kind: str, session: str | None = None) -> JSON:
        """Local play's sign-in, with the session the page kept (a reload) or none."""
        assert self.http is not None
        body = {"kind": kind, "session": session}
        async with self.http.post(self.url("/app/api/local"), json=body) as answer:
            assert answer.status == 200, await answer.text()
            return dict(await answer.json())

    async def socket(self, origin: str | None = None) -> aiohttp.ClientWebSocketResponse:
        assert self.http is not None
        return await self.http.ws_connect(
            self.url("/app/ws"), origin=origin if origin is not None else self.origin
        )

    async def page(self, session: str) -> Page:
        """A page signed in with `session`, once it was welcomed."""
        page = Page(await self.socket(), self)
        await page.send({"t": "hello", "session": session})
        welcome = await page.next("welcome")
        page.session = welcome["session"]
        return page


@asynccontextmanager
async def page_server(
    database_url: str,
    clock: Callable[[], datetime],
    *,
    round_break: timedelta = timedelta(0),
    dealer: Dealer | None = None,
) -> AsyncIterator[PageServer]:
    """The page front end started on the database, stopped at the end; the next round is
    played at once unless a test gives a `round_break`, and dealt by `dealer` if given."""
    store = await Store.start(database_url)
    service = GameService(
        store, rng=random.Random(7), clock=clock, round_break=round_break, dealer=dealer
    )
    members = Members()
    server = PageServer(service, members)
    await server.pages.start(service, Translators("en"), clock, members.is_member)
    await server.server.start_server()
    server.http = aiohttp.ClientSession()
    try:
        yield server
    finally:
        await server.http.close()
        await server.server.close()
        await server.pages.stop()
        await service.close()


@asynccontextmanager
async def local_play_server(
    database_url: str,
    clock: Callable[[], datetime],
    language: str | None = "en",
    name: str | None = "Ana",
) -> AsyncIterator[tuple[GameService, TestServer]]:
    """The page front end as `gaple-bot local` runs it for Ana (sessions without Telegram,
    anyone a member) on the database, in `language` (None: the browser's, as without
    --language), the person named `name` (None: as without --name): its service and its
    server on 127.0.0.1, both stopped at the end."""
    store = await Store.start(database_url)
    service = GameService(store, rng=random.Random(7), clock=clock, round_break=timedelta(0))
    pages = PageFrontEnd(SessionSigner.for_local_play(), bot_token=None)
    LocalTables(pages, name, language, clock=clock)

    async def anyone(chat_id: int, user_id: int) -> bool:
        return True

    await pages.start(service, Translators("en"), clock, anyone)
    app = web.Application()
    app.add_routes(pages.routes())
    # As `gaple-bot local` does: a page left open does not hold the server's stop up.
    app.on_shutdown.append(pages.close_sockets)
    try:
        async with TestServer(app, host="127.0.0.1") as server:
            yield service, server
    finally:
        await pages.stop()
        await service.close()


async def open_group_table(service: GameService, kind: str, opener: Person) -> tuple[int, str]:
    """/gaple (or /gap) in the group, by `opener`: the game and its page token."""
    await service.players.private_chat_opened(opener)
    lobby = await service.lobbies.open(service.registry.get(kind), GROUP, "The group", None, opener)
    assert lobby.join_token is not None
    return lobby.game_id, lobby.join_token


async def chat_move(
    service: GameService, game_id: int, user_id: int, version: int, code: int
) -> None:
    """A move button tapped in the private chat, as the chat front end runs it."""
    await service.commands.move(game_id, user_id, version, code)


def first_move(state: JSON) -> tuple[int, int] | None:
    """(version, code) of the first move the viewer's hand offers, if any."""
    hand = state.get("hand") or {}
    for item in hand.get("items", []):
        for move in item.get("moves", []):
            return state["revision"], move["code"]
    return None
