"""Reviews asked for while being prepared: posted once ready, to each chat that asked (once per
chat), in the language of the ask; old asks forgotten; one taken back is not posted."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from gaple_bot.bot.review_requests import KEEP_ASKED, Asked, ReviewRequests
from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.games.registry import default_registry
from gaple_bot.games.review import GameReview, SeatSummary
from gaple_bot.games.views import SeatInfo
from gaple_bot.i18n import Translators
from gaple_bot.service.reviews import FinishedGame, FinishedSeat

START = datetime(2026, 12, 6, 16, 0, tzinfo=UTC)
GAME = FinishedGame(
    game_id=5,
    chat_id=-100,
    thread_id=None,
    kind="gaple",
    config=dict(GameConfig(RuleSet.CLASSIC, 2, 101).to_dict()),
    finished_at=START,
    replay_token="t",
    seats=(FinishedSeat(SeatInfo(0, 1, "Ana"), 1, 101), FinishedSeat(SeatInfo(1, 2, "Budi"), 2, 3)),
)
REVIEW = GameReview((), (SeatSummary(0, 3, 90.0, 0.5, None), SeatSummary(1, 2, 80.0, 1.0, None)))


class FakeReviews:
    def __init__(self) -> None:
        self.ready: list[Any] = []

    def when_ready(self, ready: Any) -> None:
        self.ready.append(ready)

    async def game(self, game_id: int) -> FinishedGame:
        return GAME

    async def review(self, game_id: int) -> GameReview:
        return REVIEW

    async def history(self, game_id: int) -> list[tuple[dict[str, Any], list[int]]]:
        return []  # no round to replay: moves are named from their codes


class FakeService:
    def __init__(self) -> None:
        self.reviews = FakeReviews()
        self.registry = default_registry()


class FakeOutbox:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.changed = asyncio.Event()

    def send(self, chat_id: int, **kwargs: Any) -> None:
        self.sent.append({"chat_id": chat_id, **kwargs})
        self.changed.set()


async def _requests() -> tuple[ReviewRequests, FakeService, FakeOutbox, list[datetime]]:
    now = [START]
    service, outbox = FakeService(), FakeOutbox()
    requests = ReviewRequests(service, outbox, Translators(), lambda: now[0])  # type: ignore[arg-type]
    return requests, service, outbox, now


async def _settled(outbox: FakeOutbox, count: int) -> None:
    async with asyncio.timeout(30):
        while len(outbox.sent) < count:
            outbox.changed.clear()
            await outbox.changed.wait()


async def test_each_chat_that_asked_gets_the_review_once_in_its_language() -> None:
    requests, service, outbox, now = await _requests()
    assert requests.ask(5, Asked(-100, None, 10, "en", now[0]))
    assert not requests.ask(5, Asked(-100, None, 11, "en", now[0]))  # that chat waits already
    assert requests.ask(5, Asked(-200, 7, 12, "de", now[0]))
    (ready,) = service.reviews.ready
    ready(5)
    await _settled(outbox, 2)
    english, german = sorted(outbox.sent, key=lambda sent: -sent["chat_id"])
    assert english["reply_parameters"].message_id == 10 and "accuracy 90" in english["text"]
    assert german["message_thread_id"] == 7 and "Genauigkeit 80" in german["text"]
    ready(5)  # a second analysis of the same game posts nothing more
    await asyncio.sleep(0)
    assert len(outbox.sent) == 2


async def test_an_ask_taken_back_or_too_old_is_not_posted() -> None:
    requests, service, outbox, now = await _requests()
    taken = Asked(-100, None, 10, "en", now[0])
    requests.ask(5, taken)
    assert requests.withdraw(5, taken)
    assert not requests.withdraw(5, taken)
    requests.ask(6, Asked(-300, None, 13, "en", now[0]))
    now[0] += KEEP_ASKED + timedelta(seconds=1)
    requests.ask(7, Asked(-400, None, 14, "en", now[0]))  # asking forgets the old ones
    (ready,) = service.reviews.ready
    ready(5)
    ready(6)
    ready(7)
    await _settled(outbox, 1)
    await asyncio.sleep(0)
    assert [sent["chat_id"] for sent in outbox.sent] == [-400]


async def test_an_ask_too_old_is_not_posted_even_when_nobody_asks_after_it() -> None:
    requests, service, outbox, now = await _requests()
    requests.ask(6, Asked(-300, None, 13, "en", now[0]))
    requests.ask(7, Asked(-400, None, 14, "en", now[0] + KEEP_ASKED))
    now[0] += KEEP_ASKED + timedelta(seconds=1)
    (ready,) = service.reviews.ready
    ready(6)  # its review comes too late: nothing is posted for it
    ready(7)
    await _settled(outbox, 1)
    assert [sent["chat_id"] for sent in outbox.sent] == [-400]
