"""The one interface both drivers offer the bot: queue group messages, and shut down."""

from __future__ import annotations

from typing import Any, Protocol

from ...games.pictures import Picture
from .handle import MessageHandle, OnSent


class GroupOutbox(Protocol):
    """Group messages in order and within each group's per-minute budget, merging edits that
    wait in line; sends wait in the database until Telegram accepts them, and the budget
    survives a restart."""

    @property
    def shared(self) -> bool:
        """Whether the groups' queues are in the database, shared with other workers."""

    @property
    def busy(self) -> bool:
        """Whether any group message is still waiting to go out (or to be stored)."""

    def queued(self) -> tuple[int, int]:
        """Group messages waiting their turn here: in all, and in the longest queue."""

    async def queued_now(self) -> tuple[int, int]:
        """As `queued`, but beside other workers the shared queues in the database."""

    def send(
        self,
        chat_id: int,
        on_sent: OnSent | None = None,
        *,
        game_id: int | None = None,
        **kwargs: Any,
    ) -> MessageHandle:
        """Queue a sendMessage (keyword arguments as the Bot API's)."""

    def send_photo(
        self,
        chat_id: int,
        picture: Picture,
        *,
        caption: str,
        on_sent: OnSent | None = None,
        **kwargs: Any,
    ) -> MessageHandle:
        """Queue a photo of `picture` with its HTML caption (as text if it cannot be)."""

    def edit(self, handle: MessageHandle, **kwargs: Any) -> None:
        """Queue an edit of the handle's message."""

    def existing(
        self,
        chat_id: int,
        message_id: int,
        *,
        thread_id: int | None = None,
        on_sent: OnSent | None = None,
        game_id: int | None = None,
    ) -> MessageHandle:
        """A handle for a message sent earlier."""

    def game_message(
        self, chat_id: int, game_id: int, *, thread_id: int | None = None
    ) -> MessageHandle:
        """A handle on the game's lobby or table message, as stored when an edit goes."""

    def forget_game_message(self, chat_id: int, game_id: int) -> None:
        """The game's message is not edited again (beside other workers)."""

    async def restore(self) -> int:
        """Queue again the stored sends not accepted yet; returns how many were adopted."""

    async def drain(self) -> None:
        """Wait until every queue is empty (or, once closed, has stopped at the budget)."""

    async def close(self, timeout: float) -> None:  # noqa: ASYNC109 - a shutdown bound
        """At shutdown: send what the budget allows now, leave the rest stored."""

    def close_painter(self) -> None:
        """At shutdown, after `close`: the painter's workers stop."""

    async def forget_chat(self, chat_id: int) -> None:
        """The bot left the group: drop whatever waits for it."""

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """The group became a supergroup: what waits for it follows."""

    async def flush(self) -> None:
        """Wait until the database holds every send and request time this outbox knows."""
