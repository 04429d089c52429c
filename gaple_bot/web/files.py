"""The page's own files: its HTML shell (with its security headers), its scripts and styles, and
each game kind's drawing script."""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources

from aiohttp import web

from ..games.registry import Registry

CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; "
    "img-src 'self' data: https://t.me; connect-src 'self' ws: wss:; frame-ancestors *; "
    "base-uri 'none'; form-action 'none'"
)
"""The page runs only its own files and Telegram's script, and talks only to this server; the
only pictures from elsewhere are the players' Telegram photos, which Telegram serves from t.me."""
TELEGRAM_SCRIPT = b'  <script src="https://telegram.org/js/telegram-web-app.js"></script>\n'
"""Telegram's script in the page's head, as Telegram asks of a Mini App."""
STATIC_NAME = re.compile(r"[a-z][a-z0-9_-]*\.(js|css|html|svg)")
CONTENT_TYPES = {
    "js": "text/javascript",
    "css": "text/css",
    "html": "text/html",
    "svg": "image/svg+xml",
}


class PageFiles:
    """Serves the page's files (`local`: local play, where Telegram's script is left out)."""

    def __init__(self, *, local: bool, registry: Callable[[], Registry]) -> None:
        self._local = local
        self._registry = registry

    def routes(self) -> list[web.RouteDef]:
        """The files' routes, under /app."""
        return [
            web.get("/app", self.index),
            web.get("/app/", self.index),
            web.get("/app/static/{name}", self.static),
            web.get("/app/games/{kind}.js", self.game_script),
        ]

    async def index(self, request: web.Request) -> web.Response:
        body = _static_file("index.html")
        assert body is not None
        if self._local:
            # Local play: no Telegram, whose script would only be a request to the internet.
            body = body.replace(TELEGRAM_SCRIPT, b"")
        return web.Response(
            body=body,
            content_type="text/html",
            charset="utf-8",
            headers={
                "Content-Security-Policy": CSP,
                "Cache-Control": "no-cache",
                "Referrer-Policy": "no-referrer",
                "X-Content-Type-Options": "nosniff",
            },
        )

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        body = _static_file(name) if STATIC_NAME.fullmatch(name) else None
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=body,
            headers={
                "Content-Type": CONTENT_TYPES[name.rsplit(".", 1)[1]] + "; charset=utf-8",
                "Cache-Control": "no-cache",
                "X-Content-Type-Options": "nosniff",
            },
        )

    async def game_script(self, request: web.Request) -> web.Response:
        try:
            kind = self._registry().get(request.match_info["kind"])
        except KeyError:
            raise web.HTTPNotFound() from None
        return web.Response(
            text=kind.presentation.page_script(),
            headers={
                "Content-Type": "text/javascript; charset=utf-8",
                "Cache-Control": "no-cache",
                "X-Content-Type-Options": "nosniff",
            },
        )


def _static_file(name: str) -> bytes | None:
    path = resources.files(__package__).joinpath("static", name)
    return path.read_bytes() if path.is_file() else None
