"""A page's short-lived session: who it is and which game, signed by the server, for its socket.

After its initData is checked the page gets a session; its socket shows it on every (re)connect
and is given a fresh one each time, so a page that stays connected never runs out. The key is
derived from the bot token (every worker of one bot accepts every other's sessions); local play
signs with a key made at its start, so its sessions are never accepted by the Telegram front
end, nor the reverse.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

SESSION_LIFETIME = timedelta(minutes=30)
LOCAL_SESSION_LIFETIME = timedelta(days=1)
"""Local play's page keeps the session it signed in with across reloads (its tab's storage)
for a whole game, however long it lasts; only the one person on 127.0.0.1 can hold it."""
MAX_SESSION = 2048
"""Room for the longest name Telegram allows (128 characters, 4 bytes each in UTF-8) and a
photo's address, in base64, beside the rest."""


class SessionRefused(ValueError):
    """Not a session this server signed, or an expired one."""


@dataclass(frozen=True, slots=True)
class PageSession:
    """A checked session: the person, the game whose token they opened, and its expiry."""

    user_id: int
    name: str
    language: str | None
    game_id: int
    expires: datetime
    photo: str | None = None


class SessionSigner:
    """Signs and checks page sessions with one key."""

    def __init__(self, key: bytes, lifetime: timedelta = SESSION_LIFETIME) -> None:
        self._key = key
        self.lifetime = lifetime

    @classmethod
    def for_bot(cls, bot_token: str) -> SessionSigner:
        """The signer every worker of the bot with this token shares."""
        return cls(
            hmac.new(bot_token.encode(), b"gaple-bot page sessions", hashlib.sha256).digest()
        )

    @classmethod
    def for_local_play(cls) -> SessionSigner:
        """A signer with a key made now and known to nobody else, its sessions good for
        LOCAL_SESSION_LIFETIME."""
        return cls(secrets.token_bytes(32), LOCAL_SESSION_LIFETIME)

    def issue(
        self,
        user_id: int,
        name: str,
        language: str | None,
        game_id: int,
        now: datetime,
        photo: str | None = None,
    ) -> str:
        """A session for the person at the game, good for `lifetime` from `now`."""
        payload: dict[str, object] = {
            "u": user_id,
            "n": name,
            "l": language,
            "g": game_id,
            "e": int((now + self.lifetime).timestamp()),
        }
        if photo is not None:
            payload["p"] = photo
        body = base64.urlsafe_b64encode(
            json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()
        ).decode()
        return f"{body}.{self._mac(body)}"

    def check(self, session: str, now: datetime) -> PageSession:
        """The session's contents (raises SessionRefused)."""
        if not session or len(session) > MAX_SESSION:
            raise SessionRefused("no session")
        body, _, mac = session.partition(".")
        if not hmac.compare_digest(mac.encode(), self._mac(body).encode()):
            raise SessionRefused("a session this server did not sign")
        try:
            payload = json.loads(base64.urlsafe_b64decode(body.encode()))
            expires = datetime.fromtimestamp(int(payload["e"]), now.tzinfo)
            photo = payload.get("p")
            checked = PageSession(
                int(payload["u"]),
                str(payload["n"]),
                payload["l"],
                int(payload["g"]),
                expires,
                photo if isinstance(photo, str) else None,
            )
        except (ValueError, KeyError, TypeError, OverflowError):
            raise SessionRefused("a malformed session") from None
        if expires <= now:
            raise SessionRefused("an expired session")
        return checked

    def _mac(self, body: str) -> str:
        return hmac.new(self._key, body.encode(), hashlib.sha256).hexdigest()
