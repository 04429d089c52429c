"""Who is playing along in their private chat: a move tapped lately on a hand message that is
still the newest there, so that their next hand edits it in place instead of ringing."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

CHATS_KEPT = 50_000
"""How many private chats' newest message ids are remembered (a bound on the memory; a chat
forgotten gets its next hand as a new message)."""
PLAYING_ALONG_SECONDS = 60.0
"""How long after a tap a person still counts as looking at their hand: between two of their
turns come the others' (three thinks at four seats, rarely a minute in all). After that pause
their next hand is a new message, which rings."""


@dataclass(frozen=True, slots=True)
class _Along:
    game_id: int
    message_id: int
    tapped_at: float


class PlayingAlong:
    """The hand message each person tapped a move on lately, forgotten once anything else is
    written in their private chat (by the bot or by them) or the pause is too long. One
    worker's view: a person whose taps reach another worker gets new messages, as before."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self._clock = clock
        self._along: OrderedDict[int, _Along] = OrderedDict()
        """By person, the oldest tap first (so the stale ones are dropped from the front)."""
        self._newest: OrderedDict[int, int] = OrderedDict()
        """Each private chat's newest message id seen, the chat written in longest ago first."""

    def tapped(self, user_id: int, game_id: int, message_id: int) -> None:
        """The person tapped a move of `game_id` on their hand message `message_id` (which
        counts only if nothing is known to be below it)."""
        now = self._now()
        self._along.pop(user_id, None)
        if self._newest.get(user_id) == message_id:
            self._along[user_id] = _Along(game_id, message_id, now)
        while self._along:
            oldest = next(iter(self._along.values()))
            if now - oldest.tapped_at < PLAYING_ALONG_SECONDS:
                break
            self._along.popitem(last=False)

    def message_seen(self, user_id: int, message_id: int) -> None:
        """A message came into the person's private chat (any sender): a hand above it is no
        longer the newest there."""
        newest = self._newest.pop(user_id, 0)
        self._newest[user_id] = max(newest, message_id)
        if len(self._newest) > CHATS_KEPT:
            self._newest.popitem(last=False)
        along = self._along.get(user_id)
        if along is not None and message_id > along.message_id:
            del self._along[user_id]

    def hand_to_edit(self, user_id: int, game_id: int) -> int | None:
        """The message to show the person's next hand of `game_id` in, if they play along."""
        along = self._along.get(user_id)
        if along is None or along.game_id != game_id:
            return None
        if self._now() - along.tapped_at >= PLAYING_ALONG_SECONDS:
            del self._along[user_id]
            return None
        return along.message_id

    def forget(self, user_id: int) -> None:
        """The person's next hand is a new message whatever came before (an edit failed)."""
        self._along.pop(user_id, None)

    def _now(self) -> float:
        return self._clock().timestamp()
