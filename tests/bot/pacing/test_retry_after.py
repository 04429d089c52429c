"""A 429's wait is read as python-telegram-bot will give it (a timedelta), never through the
int it deprecates: the pacer and the group outbox handle a RetryAfter with its
PTBDeprecationWarning turned into an error, even in a process that has not opted in."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from telegram.error import RetryAfter
from telegram.warnings import PTBDeprecationWarning

from gaple_bot.bot.delivery.answers import RETRIES, Outcome
from gaple_bot.bot.delivery.base import send_job
from gaple_bot.bot.delivery.job import Job
from gaple_bot.bot.delivery.runtime import Hooks, Pauses
from gaple_bot.bot.delivery.sending import Sender
from gaple_bot.bot.outbox import OutboxClock
from gaple_bot.bot.pacing.budget import Budgets
from gaple_bot.bot.pacing.pacer import Pacer

GROUP = -1001
TELEGRAM_SAYS = 3


@pytest.fixture
def refusal(monkeypatch: pytest.MonkeyPatch) -> RetryAfter:
    """A 429 built where PTB_TIMEDELTA is not set (building one warns then, in the library)."""
    monkeypatch.delenv("PTB_TIMEDELTA", raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        return RetryAfter(TELEGRAM_SAYS)


@pytest.fixture
def deprecation_is_an_error() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("error", PTBDeprecationWarning)
        yield


class Waits:
    """The outbox's clock: it never waits for real, and writes down each wait."""

    def __init__(self) -> None:
        self.now = 0.0
        self.waited: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.waited.append(seconds)
        self.now += seconds

    def clock(self) -> OutboxClock:
        return OutboxClock(now=lambda: self.now, sleep=self.sleep)


class RefusingBot:
    """A Bot whose every sendMessage is refused with the same 429."""

    def __init__(self, refusal: RetryAfter) -> None:
        self.refusal = refusal
        self.sends = 0

    async def send_message(self, **arguments: object) -> None:
        self.sends += 1
        raise self.refusal


class NoWrites:
    def answered(self, chat_id: int, at: float, delivered: Job | None = None) -> None:
        """Nothing is counted here."""

    def finished(self, job: Job) -> None:
        """Nothing is stored here."""


async def test_the_pacer_holds_for_a_429_without_the_deprecated_int(
    refusal: RetryAfter, deprecation_is_an_error: None
) -> None:
    waits = Waits()
    pacer = Pacer(clock=waits.clock(), retries=0)

    async def call() -> bool:
        raise refusal

    with pytest.raises(RetryAfter):
        await pacer.process_request(call, (), {}, "sendMessage", {"chat_id": GROUP}, None)
    await pacer.shutdown()


async def test_the_group_outbox_waits_out_a_429_without_the_deprecated_int(
    refusal: RetryAfter, deprecation_is_an_error: None
) -> None:
    waits = Waits()
    bot = RefusingBot(refusal)
    sender = Sender(
        bot,  # type: ignore[arg-type]
        Budgets(20),
        NoWrites(),
        Pauses(waits.clock()),
        Hooks(),
        None,
    )
    outcome = await sender.run(send_job(GROUP, None, None, {"text": "Hello"}))
    assert outcome is Outcome.UNANSWERED
    assert bot.sends == RETRIES
    assert waits.waited == [TELEGRAM_SAYS] * RETRIES
