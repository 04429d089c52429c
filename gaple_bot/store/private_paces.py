"""Each private chat's pace shared by every worker, on the database server's clock
(PostgreSQL): one message at a time to a person's chat, the next one starting no earlier than
its spacing after the last one's answer, whichever worker sends it."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

LEASE_SECONDS = 15.0
"""How long a message in flight holds its chat: a worker that died while sending lets the
others in after this long."""
POLL_SECONDS = 0.02
"""How soon to ask again for a chat that is not free (the wait is short: a message in flight,
or the rest of a second)."""

_NOW = "EXTRACT(EPOCH FROM clock_timestamp())"
# Taken in one statement (a row lock on the chat's row): free and not in flight, the chat is
# this caller's until its answer, its lease being the moment it ends (its token too).
_TAKE = text(
    f"WITH now AS (SELECT {_NOW} AS t)"
    " INSERT INTO private_paces AS p (chat_id, free_at, busy_until)"
    " SELECT :chat, 0, now.t + :lease FROM now"
    " ON CONFLICT (chat_id) DO UPDATE SET busy_until = EXCLUDED.busy_until"
    " WHERE p.busy_until <= EXCLUDED.busy_until - :lease"
    " AND p.free_at <= EXCLUDED.busy_until - :lease"
    " RETURNING p.busy_until"
)
_WAIT = text(f"SELECT GREATEST(free_at - {_NOW}, :poll) FROM private_paces WHERE chat_id = :chat")
# Only the lease's holder ends it: one that outlived its lease leaves the next holder's be.
_ANSWERED = text(
    f"UPDATE private_paces SET free_at = GREATEST(free_at, {_NOW} + :spacing),"
    " busy_until = CASE WHEN busy_until = :lease THEN 0 ELSE busy_until END"
    " WHERE chat_id = :chat"
)
_FORGET = text(
    f"DELETE FROM private_paces WHERE free_at < {_NOW} - :age AND busy_until < {_NOW} - :age"
)
KEEP_SECONDS = 60.0
"""A chat's row is of no use once its moment is this long past (its person is not kept)."""


class PrivatePaces:
    """The shared pace of private chats, on a database several workers share."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def take(self, chat_id: int) -> tuple[float | None, float]:
        """(the chat's lease, a token for `answered`; 0) if it is this caller's to send one
        message to now; else (None, the seconds to wait before asking again): another
        message is in flight there, or the rest of its spacing."""
        async with self._engine.begin() as connection:
            lease = await connection.scalar(_TAKE, {"chat": chat_id, "lease": LEASE_SECONDS})
            if lease is not None:
                return float(lease), 0.0
            wait = await connection.scalar(_WAIT, {"chat": chat_id, "poll": POLL_SECONDS})
        return None, float(wait if wait is not None else POLL_SECONDS)

    async def answered(self, chat_id: int, lease: float, spacing: float) -> None:
        """The message sent under `lease` got its answer: the lease goes (if it is still
        this one) and the chat's next message starts `spacing` after now at the earliest
        (Telegram counts a message when it takes it, no later than its answer)."""
        params = {"chat": chat_id, "lease": lease, "spacing": spacing}
        async with self._engine.begin() as connection:
            await connection.execute(_ANSWERED, params)

    async def forget_old(self) -> None:
        """Drop the rows whose moment is long past."""
        async with self._engine.begin() as connection:
            await connection.execute(_FORGET, {"age": KEEP_SECONDS})
