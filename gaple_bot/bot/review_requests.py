"""Reviews asked for with /review while still being prepared: posted in the group, as a reply
to the command, once this worker's analysis stores them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from telegram import ReplyParameters
from telegram.constants import ParseMode

from ..games.played import NamedMoves, named_moves
from ..games.review import GameReview
from ..games.seam import GameDataError
from ..i18n import Translator, Translators
from ..service.errors import ServiceError
from ..service.reviews import FinishedGame
from ..service.runtime import GameService
from .outbox import GroupOutbox
from .render.reviews import render_review

log = logging.getLogger(__name__)
KEEP_ASKED = timedelta(minutes=30)
"""How long a request waits for its review: a later one is forgotten (asking again works)."""


@dataclass(frozen=True, slots=True)
class Asked:
    """A /review that found its game's review still being prepared."""

    chat_id: int
    thread_id: int | None
    message_id: int
    """The command's message, which the review answers."""
    language: str
    """The language the answer is in (the chat's when it was asked)."""
    at: datetime


class ReviewRequests:
    """The /review commands waiting for their game's review on this worker (one per game and
    chat: asking again while it waits adds nothing)."""

    def __init__(
        self,
        service: GameService,
        outbox: GroupOutbox,
        translators: Translators,
        clock: Callable[[], datetime],
    ) -> None:
        self._service = service
        self._outbox = outbox
        self._translators = translators
        self._clock = clock
        self._waiting: dict[int, dict[int, Asked]] = {}
        """By game, then by chat."""
        self._posting: set[asyncio.Task[None]] = set()
        service.reviews.when_ready(self.ready)

    def ask(self, game_id: int, asked: Asked) -> bool:
        """Post the game's review for `asked` once it is stored; False if the chat already
        waits for it."""
        self._forget_old()
        waiting = self._waiting.setdefault(game_id, {})
        if asked.chat_id in waiting:
            return False
        waiting[asked.chat_id] = asked
        return True

    def withdraw(self, game_id: int, asked: Asked) -> bool:
        """Take `asked` back (its review turned out ready); False if it is not waiting (it
        is being posted, or another request of the chat waits)."""
        waiting = self._waiting.get(game_id, {})
        if waiting.get(asked.chat_id) is not asked:
            return False
        del waiting[asked.chat_id]
        if not waiting:
            del self._waiting[game_id]
        return True

    def ready(self, game_id: int) -> None:
        """The game's review was stored: post it for everyone who asked within KEEP_ASKED
        (soon, not awaited)."""
        self._forget_old()
        asks = self._waiting.pop(game_id, {})
        if not asks:
            return
        task = asyncio.create_task(self._post(game_id, list(asks.values())))
        self._posting.add(task)
        task.add_done_callback(self._posting.discard)

    @property
    def busy(self) -> bool:
        """Whether a review is on its way to the outbox."""
        return bool(self._posting)

    async def _post(self, game_id: int, asks: list[Asked]) -> None:
        try:
            await self._post_now(game_id, asks)
        except ServiceError:
            log.info("game %s: its review was asked for but the game is gone", game_id)
        except Exception:
            log.exception("game %s: its review could not be posted", game_id)

    async def _post_now(self, game_id: int, asks: list[Asked]) -> None:
        game = await self._service.reviews.game(game_id)
        review = await self._service.reviews.review(game_id)
        if review is None:
            return
        now = self._clock()
        for asked in asks:
            t = self._translators.get(asked.language)
            text = await review_text(self._service, t, game, review, now)
            self._outbox.send(
                asked.chat_id,
                message_thread_id=asked.thread_id,
                text=text,
                parse_mode=ParseMode.HTML,
                reply_parameters=ReplyParameters(
                    asked.message_id, allow_sending_without_reply=True
                ),
            )

    def _forget_old(self) -> None:
        """Drop the requests older than KEEP_ASKED (their analysis ran elsewhere, or failed)."""
        oldest = self._clock() - KEEP_ASKED
        for game_id in list(self._waiting):
            waiting = self._waiting[game_id]
            for chat_id in [c for c, asked in waiting.items() if asked.at < oldest]:
                del waiting[chat_id]
            if not waiting:
                del self._waiting[game_id]


async def review_text(
    service: GameService, t: Translator, game: FinishedGame, review: GameReview, now: datetime
) -> str:
    """/review's answer: the review summed up, each move made named as it was played and
    each better move as it would have been (the game replayed off the event loop; from
    their codes alone if it does not replay)."""
    named = NamedMoves()
    if game.kind in service.registry:
        kind = service.registry.get(game.kind)
        history = await service.reviews.history(game.game_id)
        best = {
            (seat.worst.round, seat.worst.ply): seat.worst.best
            for seat in review.seats
            if seat.worst is not None
        }
        try:
            named = await asyncio.to_thread(named_moves, kind, t, game.config, history, best)
        except GameDataError:
            log.warning(
                "game %s does not replay: its review names moves by their codes", game.game_id
            )
    return render_review(t, service.registry, game, review, now, named.played, named.better)
