"""The bot's HTTP client for the Bot API: python-telegram-bot's request interface on aiohttp,
which spends a fraction of httpx's CPU per call (every move makes several)."""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

CONNECTIONS = 256
"""At most this many requests at once (python-telegram-bot's default pool)."""
READ_TIMEOUT = 5.0
CONNECT_TIMEOUT = 5.0
POOL_TIMEOUT = 1.0
WRITE_TIMEOUT = 5.0
MEDIA_WRITE_TIMEOUT = 20.0
"""Seconds for a request that uploads a file (a picture)."""
JSON_BODY = {"Content-Type": "application/json"}


class AiohttpRequest(BaseRequest):
    """Bot API requests over one aiohttp session with a pool of keep-alive connections.

    Timeouts as python-telegram-bot's defaults: `connect` covers waiting for a free connection
    and opening it; `read` each wait for the answer; a request's own write timeout bounds the
    whole request when it uploads a file (aiohttp has no separate write timeout)."""

    def __init__(
        self,
        connections: int = CONNECTIONS,
        *,
        read_timeout: float | None = READ_TIMEOUT,
        connect_timeout: float | None = CONNECT_TIMEOUT,
        pool_timeout: float | None = POOL_TIMEOUT,
        failed: Callable[[str], None] | None = None,
    ) -> None:
        self._connections = connections
        self._read_timeout = read_timeout
        self._connect_timeout = connect_timeout
        self._pool_timeout = pool_timeout
        self._session: aiohttp.ClientSession | None = None
        self._failed = failed
        """Told of each request that failed, by kind (see `failure_kind`), for /metrics."""

    @property
    def read_timeout(self) -> float | None:
        """The default seconds to wait for an answer."""
        return self._read_timeout

    async def initialize(self) -> None:
        """Open the session (inside the running loop)."""
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._connections, force_close=False)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}
            )

    async def shutdown(self) -> None:
        """Close the session and its connections."""
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """Make the request; python-telegram-bot turns the status and body into a result."""
        session = self._session
        if session is None or session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized")
        uploads = request_data.multipart_data if request_data else None
        read = _given(read_timeout, self._read_timeout)
        connect = _add(
            _given(connect_timeout, self._connect_timeout), _given(pool_timeout, self._pool_timeout)
        )
        total = None
        if uploads:
            total = _add(_given(write_timeout, MEDIA_WRITE_TIMEOUT), read)
        timeout = aiohttp.ClientTimeout(total=total, connect=connect, sock_read=read)
        data: aiohttp.FormData | bytes | None = None
        headers: dict[str, str] | None = None
        if request_data is not None:
            if uploads:
                data = _form(request_data.json_parameters, uploads)
            else:
                # One JSON body, as the Bot API takes it: a fraction of the CPU of a form
                # with each parameter encoded apart.
                data = json.dumps(request_data.parameters).encode()
                headers = JSON_BODY
        try:
            async with session.request(
                method, url, data=data, headers=headers, timeout=timeout
            ) as response:
                answer = response.status, await response.read()
        except (TimeoutError, aiohttp.ServerTimeoutError) as error:
            self._count_failure("timed_out")
            raise TimedOut from error
        except aiohttp.ClientError as error:
            self._count_failure("network")
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {error}") from error
        if answer[0] >= HTTPStatus.BAD_REQUEST:
            self._count_failure(failure_kind(answer[0]))
        return answer

    def _count_failure(self, kind: str) -> None:
        if self._failed is not None:
            self._failed(kind)


def failure_kind(status: int) -> str:
    """What a Bot API error status means, as /metrics labels it."""
    if status == HTTPStatus.TOO_MANY_REQUESTS:
        return "flood_wait"
    if status == HTTPStatus.FORBIDDEN:
        return "forbidden"
    if status == HTTPStatus.BAD_REQUEST:
        return "bad_request"
    if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
        return "server_error"
    return "other"


def _given(value: Any, default: float | None) -> float | None:
    """A request's own timeout, or the default when it gave none."""
    if value is BaseRequest.DEFAULT_NONE:
        return default
    return value if value is None else float(value)


def _add(one: float | None, other: float | None) -> float | None:
    return None if one is None or other is None else one + other


def _form(parameters: dict[str, str], uploads: dict[str, Any]) -> aiohttp.FormData:
    """A multipart form: the parameters, then each file as (name, content, type)."""
    form = aiohttp.FormData()
    for name, value in parameters.items():
        form.add_field(name, value)
    for name, upload in uploads.items():
        filename, content, mimetype = upload
        form.add_field(name, content, filename=filename, content_type=mimetype)
    return form
