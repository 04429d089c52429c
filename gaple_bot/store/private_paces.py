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
"""How soon to ask again while another worker's message to the chat is in flight."""

_NOW = "EXTRACT(EPOCH FROM clock_timestamp())"
# Taken in one statement (a row lock on the chat's row): free and not in flight, the chat is
# this caller's until its answer; else how long to wait before asking again.
_TAKE = text(
    f"WITH now AS (SELECT {_NOW} AS t),"
    " taken AS ("
    "  INSERT INTO private_paces AS p (chat_id, free_at, busy_until)"
    "  SELECT :chat, 0, now.t + :lease FROM now"
    "  ON CONFLICT (chat_id) DO UPDATE SET busy_until = EXCLUDED.busy_until"
    "  WHERE p.busy_until <= EXCLUDED.busy_until - :lease"
    "  AND p.free_at <= EXCLUDED.busy_until - :lease"
    "  RETURNING 1)"
    " SELECT CASE WHEN EXISTS (SELECT 1 FROM taken) THEN 0.0 ELSE ("
    "  SELECT GREATEST(p.free_at - now.t, :poll) FROM private_paces p, now"
    "  WHERE p.chat_id = :chat) END"
)
_ANSWERED = text(
    f"UPDATE private_paces SET free_at = {_NOW} + :spacing, busy_until = 0 WHERE chat_id = :chat"
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

    async def take(self, chat_id: int) -> float:
        """0 if the chat is this caller's to send one message to now (until `answered`);
        else the seconds to wait before asking again."""
        params = {"chat": chat_id, "lease": LEASE_SECONDS, "poll": POLL_SECONDS}
        async with self._engine.begin() as connection:
            wait = await connection.scalar(_TAKE, params)
        return float(wait if wait is not None else POLL_SECONDS)

    async def answered(self, chat_id: int, spacing: float) -> None:
        """The message's answer came: the chat's next one starts `spacing` after now at the
        earliest (Telegram counts a message when it takes it, no later than its answer)."""
        async with self._engine.begin() as connection:
            await connection.execute(_ANSWERED, {"chat": chat_id, "spacing": spacing})

    async def forget_old(self) -> None:
        """Drop the rows whose moment is long past."""
        async with self._engine.begin() as connection:
            await connection.execute(_FORGET, {"age": KEEP_SECONDS})
