"""Who opened the page: a Mini App's initData, checked as Telegram's documentation says.

Telegram signs the launch parameters it hands a Mini App: the data-check string (every field
but `hash`, as `key=value` lines sorted by key) keyed with HMAC-SHA256 of the bot token under
the key "WebAppData". Nothing the page says of itself (initDataUnsafe, its seat, its chat) is
trusted; only what this check accepts.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import parse_qsl

MAX_INIT_DATA = 4096
"""initData longer than this is not Telegram's."""


PHOTO_ORIGIN = "https://t.me/"
MAX_PHOTO_URL = 256


class InitDataRefused(ValueError):
    """The initData is not Telegram's for this bot, too old, or names nobody."""


@dataclass(frozen=True, slots=True)
class WebAppUser:
    """The person a checked initData names, and the page's start parameter."""

    user_id: int
    name: str
    language: str | None
    start_param: str
    signed_at: datetime
    photo: str | None = None
    """The person's photo (photo_url), when Telegram gives one from its own address."""


def secret_key(bot_token: str) -> bytes:
    """The key Telegram signs a bot's Mini App data with."""
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    """Every field but the hash, `key=value` sorted by key, one a line."""
    return "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")


def sign(fields: dict[str, str], bot_token: str) -> str:
    """The hash Telegram would give `fields` for this bot (for tests and local play)."""
    digest = hmac.new(secret_key(bot_token), data_check_string(fields).encode(), hashlib.sha256)
    return digest.hexdigest()


def check_init_data(
    init_data: str, bot_token: str, *, now: datetime, max_age: timedelta
) -> WebAppUser:
    """The person `init_data` names, once its hash, age and user are checked (raises
    InitDataRefused)."""
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise InitDataRefused("no initData, or too long")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise InitDataRefused("initData is not a query string") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise InitDataRefused("initData repeats a field")
    given = fields.get("hash", "")
    if not hmac.compare_digest(given.encode(), sign(fields, bot_token).encode()):
        raise InitDataRefused("initData is not signed for this bot")
    try:
        signed_at = datetime.fromtimestamp(int(fields["auth_date"]), now.tzinfo)
    except (KeyError, ValueError, OverflowError, OSError):
        raise InitDataRefused("initData has no auth_date") from None
    if now - signed_at > max_age or signed_at - now > timedelta(minutes=5):
        raise InitDataRefused("initData is too old")
    user_id, name, language, photo = _user(fields.get("user", ""))
    return WebAppUser(user_id, name, language, fields.get("start_param", ""), signed_at, photo)


def _user(raw: str) -> tuple[int, str, str | None, str | None]:
    """Id, display name, language and photo of the initData's user (raises
    InitDataRefused)."""
    try:
        user = json.loads(raw)
    except ValueError:
        user = None
    if not isinstance(user, dict):
        raise InitDataRefused("initData names no user")
    user_id = user.get("id")
    if not isinstance(user_id, int) or isinstance(user_id, bool) or user_id <= 0:
        raise InitDataRefused("initData's user has no id")
    parts = [user.get("first_name"), user.get("last_name")]
    name = " ".join(part for part in parts if isinstance(part, str) and part).strip()
    language = user.get("language_code")
    return (
        user_id,
        name or str(user_id),
        language if isinstance(language, str) else None,
        telegram_photo(user.get("photo_url")),
    )


def telegram_photo(url: object) -> str | None:
    """A photo address the page may show: Telegram's own (the page's security policy allows
    pictures from t.me only), of a sane length; else None."""
    if isinstance(url, str) and url.startswith(PHOTO_ORIGIN) and len(url) <= MAX_PHOTO_URL:
        return url
    return None
