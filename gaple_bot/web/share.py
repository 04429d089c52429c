"""Share: a finished game's standings picture, prepared by the bot as an inline message that
the page offers with Telegram's shareMessage, and the picture itself served for Telegram.

The page asks `POST /app/api/share` with its session; a person who sat at the game, or a
member of its group who watched it, gets the prepared message's id. The result is a photo by
address (InlineQueryResultPhoto), drawn here from the game's history: it needs no earlier
upload (the group may have pictures off, and its own end picture may still wait in the
outbox), no stored file id across workers, and no message sent anywhere to get one."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import io
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from http import HTTPStatus
from typing import TYPE_CHECKING, Protocol

from aiohttp import web
from PIL import Image

from ..games.pictures import Picture
from ..games.pictures.render import render
from ..games.pictures.standings import standings_picture
from ..games.texts import standings
from ..i18n import Translator
from ..service.errors import GameNotRunning, NoSuchGame
from ..service.progress import GameOver
from .sessions import SessionRefused, SessionSigner
from .sign_in import json_body, refused

if TYPE_CHECKING:
    from .app import PageDeps

log = logging.getLogger(__name__)

THUMB_WIDTH = 320
"""The thumbnail Telegram shows in its share dialog, in pixels across."""
JPEG_QUALITY = 88
PICTURES_KEPT = 16
"""Drawn pictures kept for Telegram's fetches (a photo and its thumbnail per game and language)."""
PREPARED_KEPT = 1024
PREPARED_MARGIN = timedelta(minutes=5)
"""A prepared message this close to its expiry is prepared afresh: the person may still be
choosing a chat when it runs out."""
MAX_CAPTION = 1024


@dataclass(frozen=True, slots=True)
class Prepared:
    """A prepared inline message: its id and when Telegram forgets it."""

    id: str
    expires: datetime


class PrepareShare(Protocol):
    """The bot's part (the composition root gives it; local play has none): has Telegram store
    a photo by address as an inline message `user_id` may send, and returns the message's id
    and its expiry, or None if Telegram refused (logged there)."""

    async def __call__(
        self,
        user_id: int,
        *,
        result_id: str,
        photo_url: str,
        thumbnail_url: str,
        width: int,
        height: int,
        caption: str,
    ) -> tuple[str, datetime] | None: ...


def share_texts(t: Translator) -> dict[str, str]:
    """The page's words for Share's outcome, in the viewer's language (added to the shell's,
    which names the button)."""
    return {
        "shared": t.gettext("Shared."),
        "share_failed": t.gettext("The standings could not be shared."),
        "share_unavailable": t.gettext("Sharing is not available here."),
    }


def share_refusal(t: Translator, reason: str) -> web.Response:
    """A refused Share that is Share's own, in the refusals' shape (see sign_in.refused)."""
    texts = {
        "no_share": (t.gettext("Sharing is not available here."), HTTPStatus.NOT_IMPLEMENTED),
        "not_over": (
            t.gettext("The standings can be shared once the game is over."),
            HTTPStatus.CONFLICT,
        ),
        "share_failed": (
            t.gettext("Telegram could not prepare the picture: try again."),
            HTTPStatus.BAD_GATEWAY,
        ),
    }
    text, status = texts[reason]
    return web.json_response({"reason": reason, "text": text}, status=status.value)


class StandingsShare:
    """Share's routes: the prepared message for a page, the picture for Telegram.
    `key` signs the pictures' addresses (derived from the bot's token, so every worker
    serves every other's); `public_url` is where Telegram reaches this server."""

    def __init__(
        self,
        signer: SessionSigner,
        key: bytes | None,
        public_url: str,
        ready: Callable[[], PageDeps],
    ) -> None:
        self._signer = signer
        self._key = key or secrets.token_bytes(32)
        self._public_url = public_url.rstrip("/")
        self._ready = ready
        self.prepare: PrepareShare | None = None
        self._prepared: OrderedDict[tuple[int, int, str], Prepared] = OrderedDict()
        self._pictures: OrderedDict[tuple[int, str, bool], bytes] = OrderedDict()

    @staticmethod
    def key_for_bot(bot_token: str) -> bytes:
        """The pictures' key every worker of the bot with this token shares."""
        return hmac.new(bot_token.encode(), b"gaple-bot shared pictures", hashlib.sha256).digest()

    def routes(self) -> list[web.RouteDef]:
        """Share's routes, under /app."""
        return [
            web.post("/app/api/share", self.share),
            web.get("/app/share/{game}/{language}/{tag}/{size}.jpg", self.picture),
        ]

    async def share(self, request: web.Request) -> web.Response:
        """A page's session → the id of the standings' prepared message, for shareMessage."""
        deps = self._ready()
        body = await json_body(request)
        t = deps.translators.get(None)
        session = body.get("session")
        if not isinstance(session, str):
            return refused(t, "session", HTTPStatus.FORBIDDEN)
        try:
            checked = self._signer.check(session, deps.clock())
        except SessionRefused as error:
            log.info("a Share's session was refused: %s", error)
            return refused(t, "session", HTTPStatus.FORBIDDEN)
        t = deps.translators.get(checked.language)
        if self.prepare is None:
            return share_refusal(t, "no_share")
        user_id, game_id = checked.user_id, checked.game_id
        commands = deps.service.page_commands
        try:
            facts = await commands.facts(game_id)
        except NoSuchGame:
            return refused(t, "no_table", HTTPStatus.NOT_FOUND)
        # A seat is proof enough; a spectator must still belong to the group, as Telegram
        # says now (the session only says they did when they opened the page).
        if facts.seat_of(user_id) is None and not await deps.is_member(facts.chat_id, user_id):
            return refused(t, "not_member", HTTPStatus.FORBIDDEN)
        try:
            over = await commands.final_standings(game_id)
        except GameNotRunning:
            return share_refusal(t, "not_over")
        prepared = await self._prepared_for(request, user_id, t, over)
        if prepared is None:
            return share_refusal(t, "share_failed")
        return web.json_response(
            {"id": prepared.id, "expires": int(prepared.expires.timestamp() * 1000)}
        )

    async def _prepared_for(
        self, request: web.Request, user_id: int, t: Translator, over: GameOver
    ) -> Prepared | None:
        """The person's prepared message of the game's standings in their language: the one
        made before while it has time left, else a new one."""
        assert self.prepare is not None
        game_id = over.table.game_id
        key = (game_id, user_id, t.language)
        now = self._ready().clock()
        kept = self._prepared.get(key)
        if kept is not None and kept.expires - PREPARED_MARGIN > now:
            return kept
        photo = await self._drawn(game_id, t, over, thumb=False)
        if photo is None:
            return None
        width, height = Image.open(io.BytesIO(photo)).size
        address = self._address(request, game_id, t.language)
        answer = await self.prepare(
            user_id,
            result_id=f"standings-{game_id}",
            photo_url=f"{address}/photo.jpg",
            thumbnail_url=f"{address}/thumb.jpg",
            width=width,
            height=height,
            caption=caption(t, over),
        )
        if answer is None:
            return None
        prepared = Prepared(*answer)
        self._prepared[key] = prepared
        while len(self._prepared) > PREPARED_KEPT:
            self._prepared.popitem(last=False)
        return prepared

    def _address(self, request: web.Request, game_id: int, language: str) -> str:
        """Where Telegram fetches the game's picture in `language` (its public address)."""
        origin = self._public_url or str(request.url.origin())
        return f"{origin}/app/share/{game_id}/{language}/{self._tag(game_id, language)}"

    def _tag(self, game_id: int, language: str) -> str:
        message = f"{game_id}:{language}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[:32]

    async def picture(self, request: web.Request) -> web.Response:
        """The standings picture (or its thumbnail) as JPEG, for an address this server made."""
        deps = self._ready()
        info = request.match_info
        size, language = info["size"], info["language"]
        try:
            game_id = int(info["game"])
        except ValueError:
            raise web.HTTPNotFound() from None
        if size not in ("photo", "thumb") or not hmac.compare_digest(
            info["tag"], self._tag(game_id, language)
        ):
            raise web.HTTPNotFound()
        t = deps.translators.get(language)
        try:
            over = await deps.service.page_commands.final_standings(game_id)
        except (NoSuchGame, GameNotRunning):
            raise web.HTTPNotFound() from None
        body = await self._drawn(game_id, t, over, thumb=size == "thumb")
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=body,
            content_type="image/jpeg",
            headers={"Cache-Control": "public, max-age=86400", "X-Content-Type-Options": "nosniff"},
        )

    async def _drawn(
        self, game_id: int, t: Translator, over: GameOver, *, thumb: bool
    ) -> bytes | None:
        """The picture as JPEG, drawn once and kept for a while (Telegram fetches it soon
        after it is prepared); None if it could not be drawn (logged)."""
        key = (game_id, t.language, thumb)
        kept = self._pictures.get(key)
        if kept is not None:
            self._pictures.move_to_end(key)
            return kept
        try:
            picture = standings_picture(t, over.table, over.history)
            # Drawing is CPU work: off the event loop, in its threads.
            loop = asyncio.get_running_loop()
            body = await loop.run_in_executor(None, jpeg_of, picture, thumb)
        except Exception:
            log.exception("game %s: the shared standings picture could not be drawn", game_id)
            return None
        self._pictures[key] = body
        while len(self._pictures) > PICTURES_KEPT:
            self._pictures.popitem(last=False)
        return body


def caption(t: Translator, over: GameOver) -> str:
    """The shared picture's caption: the chat's own standings text (HTML), whole lines only,
    within Telegram's caption length (a cut inside a line could split a mark)."""
    lines: list[str] = []
    for line in standings(t, over.table).text.split("\n"):
        if len("\n".join([*lines, line])) > MAX_CAPTION:
            break
        lines.append(line)
    return "\n".join(lines)


def jpeg_of(picture: Picture, thumb: bool) -> bytes:
    """A picture drawn, as JPEG (Telegram takes a photo by address only as JPEG), or its
    thumbnail."""
    image = Image.open(io.BytesIO(render(picture))).convert("RGB")
    if thumb:
        image.thumbnail((THUMB_WIDTH, THUMB_WIDTH * 4))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=JPEG_QUALITY, optimize=True)
    return out.getvalue()
