"""Signing in to a table's page: Telegram's signed initData and the table's token give a
session for the table's socket (or a refusal the page can show)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import timedelta
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from aiohttp import web

from ..i18n import Translator
from ..service.errors import BadInvite, GameNotRunning
from .initdata import InitDataRefused, check_init_data
from .sessions import SessionSigner
from .texts import page_refusal

if TYPE_CHECKING:
    from .app import PageDeps

log = logging.getLogger(__name__)
MAX_BODY = 8192


class SignIn:
    """The sign-in route: initData checked against the bot's token (None: local play, where
    nobody signs in through Telegram)."""

    def __init__(
        self,
        signer: SessionSigner,
        bot_token: str | None,
        login_age: timedelta,
        ready: Callable[[], PageDeps],
    ) -> None:
        self.signer = signer
        self._bot_token = bot_token
        self._login_age = login_age
        self._ready = ready

    async def sign_in(self, request: web.Request) -> web.Response:
        """initData and a table's token → a session for the table's socket."""
        deps = self._ready()
        body = await json_body(request)
        init_data, token = body.get("init_data"), body.get("table")
        t = deps.translators.get(None)
        if self._bot_token is None or not isinstance(init_data, str):
            return refused(t, "init_data", HTTPStatus.FORBIDDEN)
        try:
            user = check_init_data(
                init_data, self._bot_token, now=deps.clock(), max_age=self._login_age
            )
        except InitDataRefused as error:
            log.info("a page's sign-in was refused: %s", error)
            return refused(t, "init_data", HTTPStatus.FORBIDDEN)
        t = deps.translators.get(user.language)
        token = await self._table_vouched(token, user.start_param)
        if token is None:
            log.info("a page's sign-in named a table its signed start parameter does not vouch for")
            return refused(t, "other_table", HTTPStatus.FORBIDDEN)
        try:
            record = await deps.service.lobbies.opened_by(token)
        except (BadInvite, GameNotRunning):
            return refused(t, "no_table", HTTPStatus.NOT_FOUND)
        if not await deps.is_member(record.chat_id, user.user_id):
            return refused(t, "not_member", HTTPStatus.FORBIDDEN)
        return self.answer(
            user.user_id, user.name, user.language, record.id, record.kind, user.photo
        )

    async def _table_vouched(self, asked: object, start_param: str) -> str | None:
        """The token of the table a sign-in opens (None: refused, the page asked for another
        group's table than the one Telegram signed, or the signed table is unknown)."""
        named = asked if isinstance(asked, str) else ""
        if not start_param:
            # A private chat's web_app button: Telegram signs no start parameter, the page's
            # address names the table and the membership check guards it.
            return named
        if named in ("", start_param):
            return start_param
        # The direct link's start parameter is what Telegram vouches for. A page that followed
        # its table to the next one (Play again) keeps that link's initData: a table of the
        # same group (and topic) opens, another group's does not.
        lobbies = self._ready().service.lobbies
        signed_place = await lobbies.place_of(start_param)
        if signed_place is None or signed_place != await lobbies.place_of(named):
            return None
        return named

    def answer(
        self,
        user_id: int,
        name: str,
        language: str | None,
        game_id: int,
        kind: str,
        photo: str | None = None,
    ) -> web.Response:
        """The answer to a sign-in: a new session for the game."""
        deps = self._ready()
        session = self.signer.issue(user_id, name, language, game_id, deps.clock(), photo)
        return web.json_response(
            {"session": session, "game_id": game_id, "kind": kind, "language": language}
        )


def refused(t: Translator, reason: str, status: HTTPStatus) -> web.Response:
    """A refused sign-in, with a reason a page can show."""
    return web.json_response(
        {"reason": reason, "text": page_refusal(t, reason)}, status=status.value
    )


async def json_body(request: web.Request) -> dict[str, Any]:
    raw = await request.content.read(MAX_BODY + 1)
    if len(raw) > MAX_BODY:
        raise web.HTTPRequestEntityTooLarge(max_size=MAX_BODY, actual_size=len(raw))
    try:
        body = json.loads(raw or b"{}")
    except ValueError:
        raise web.HTTPBadRequest(text="not JSON\n") from None
    if not isinstance(body, dict):
        raise web.HTTPBadRequest(text="not an object\n")
    return body
