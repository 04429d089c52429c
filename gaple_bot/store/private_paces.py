"""Each private chat's pace shared by every worker: when the next message to it may start, on
the database server's clock (PostgreSQL), so two workers never write to one person's chat in
the same second."""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

_NOW = "EXTRACT(EPOCH FROM clock_timestamp())"
# One statement takes the chat's next free moment and moves it on by `spacing`: two workers
# asking at once get moments `spacing` apart, whatever their own clocks say.
_RESERVE = text(
    "INSERT INTO private_paces AS p (chat_id, free_at)"
    f" VALUES (:chat, {_NOW} + :spacing)"
    " ON CONFLICT (chat_id) DO UPDATE"
    f" SET free_at = GREATEST(p.free_at, {_NOW}) + :spacing"
    f" RETURNING p.free_at - :spacing - {_NOW}"
)
_ANSWERED = text(
    f"UPDATE private_paces SET free_at = GREATEST(free_at, {_NOW} + :spacing) WHERE chat_id = :chat"
)
_FORGET = text(f"DELETE FROM private_paces WHERE free_at < {_NOW} - :age")
KEEP_SECONDS = 60.0
"""A chat's row is of no use once its moment is this long past (its person is not kept)."""


class PrivatePaces:
    """The shared pace of private chats, on a database several workers share."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def reserve(self, chat_id: int, spacing: float) -> float:
        """Take the chat's next moment for a message: the seconds to wait before sending it
        (0 or less: at once). The next one's moment is `spacing` later, or later still
        once `answered` says when this one's answer came."""
        async with self._engine.begin() as connection:
            wait = await connection.scalar(_RESERVE, {"chat": chat_id, "spacing": spacing})
        return float(wait or 0.0)

    async def answered(self, chat_id: int, spacing: float) -> None:
        """The message's answer came: the chat's next one starts `spacing` after now at the
        earliest (Telegram counts a message when it takes it, no earlier than it was sent)."""
        async with self._engine.begin() as connection:
            await connection.execute(_ANSWERED, {"chat": chat_id, "spacing": spacing})

    async def forget_old(self) -> None:
        """Drop the rows whose moment is long past."""
        async with self._engine.begin() as connection:
            await connection.execute(_FORGET, {"age": KEEP_SECONDS})
