"""The whole bot's pace: at most 30 messages in any second, one a second in a private chat,
private messages first when they wait, answers to button presses never held, and a 429 holding
everything back as long as Telegram says. Time is a manual clock: nothing here waits for real."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from telegram.error import RetryAfter

from gaple_bot.bot.outbox import OutboxClock
from gaple_bot.bot.pacing.limits import (
    AGED_SECONDS,
    MARGIN_SECONDS,
    WINDOW_SECONDS,
    WITHDRAWABLE_AGED_SECONDS,
)
from gaple_bot.bot.pacing.pacer import Pacer
from gaple_bot.bot.pacing.withdrawable import Withdrawable, Withdrawn
from tests.fakes.clock import ManualClock

WINDOW = WINDOW_SECONDS + MARGIN_SECONDS
EPSILON = 1e-6
"""Float noise at the manual clock's epoch seconds."""
GROUPS = [-1000 - n for n in range(100)]


class Telegram:
    """Answers every request at once and writes down when each one started, in order; a send
    is answered with its message, numbered from 1."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.started: list[tuple[str, int | None, float]] = []
        self.refuse: list[float] = []
        """Retry-after seconds for the next requests, one each."""
        self.message_ids = itertools.count(1)

    def callback(
        self, endpoint: str, chat_id: int | None
    ) -> Callable[[], Awaitable[bool | dict[str, Any]]]:
        async def call() -> bool | dict[str, Any]:
            self.started.append((endpoint, chat_id, self.clock.now()))
            if self.refuse:
                raise RetryAfter(int(self.refuse.pop(0)))
            if endpoint.startswith("send"):
                return {"message_id": next(self.message_ids), "chat": {"id": chat_id}}
            return True

        return call


def request(
    pacer: Pacer,
    telegram: Telegram,
    endpoint: str,
    chat_id: int | None,
    withdrawable: Withdrawable | None = None,
) -> asyncio.Task[Any]:
    """A request through the pacer, as python-telegram-bot makes it."""
    data: dict[str, Any] = {} if chat_id is None else {"chat_id": chat_id}
    call = telegram.callback(endpoint, chat_id)

    async def run() -> Any:
        return await pacer.process_request(call, (), {}, endpoint, data, withdrawable)

    return asyncio.create_task(run())


async def settle() -> None:
    """Let every task that can run do so."""
    for _ in range(20):
        await asyncio.sleep(0)


def pacer_on(clock: ManualClock, **options: Any) -> Pacer:
    return Pacer(clock=OutboxClock(now=clock.now, sleep=clock.sleep), **options)


async def two_hands_a_window(
    pacer: Pacer, telegram: Telegram, clock: ManualClock, users: Iterator[int], windows: int
) -> list[asyncio.Task[Any]]:
    """Two new hands to new people in each of `windows` windows, the clock moved on after
    each; returns their requests."""
    tasks: list[asyncio.Task[Any]] = []
    for _ in range(windows):
        tasks += [request(pacer, telegram, "sendMessage", next(users)) for _ in range(2)]
        await settle()
        clock.advance(WINDOW)
        await settle()
    return tasks


def assert_windows_hold(started: list[tuple[str, int | None, float]], per_second: int) -> None:
    """No more than `per_second` paced requests start within any window."""
    times = sorted(t for endpoint, chat, t in started if chat is not None)
    for first, last in zip(times, times[per_second:], strict=False):
        assert last - first >= WINDOW - EPSILON, (first, last)


async def test_at_most_thirty_a_second_over_all_chats() -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock)
    tasks = [request(pacer, telegram, "editMessageText", chat) for chat in GROUPS]
    await settle()
    assert len(telegram.started) == 30
    for _ in range(5):
        clock.advance(WINDOW)
        await settle()
    await asyncio.gather(*tasks)
    assert len(telegram.started) == 100
    assert_windows_hold(telegram.started, 30)


async def test_one_a_second_in_a_private_chat_while_other_chats_go_on() -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock)
    tasks = [request(pacer, telegram, "sendMessage", 501) for _ in range(3)]
    tasks.append(request(pacer, telegram, "sendMessage", 502))
    tasks.append(request(pacer, telegram, "editMessageText", GROUPS[0]))
    await settle()
    # One for Ana, and the others' at once.
    assert sorted(chat for _, chat, _ in telegram.started) == [GROUPS[0], 501, 502]
    clock.advance(WINDOW / 2)
    await settle()
    assert [chat for _, chat, _ in telegram.started].count(501) == 1
    clock.advance(WINDOW / 2)
    await settle()
    assert [chat for _, chat, _ in telegram.started].count(501) == 2
    clock.advance(WINDOW)
    await settle()
    await asyncio.gather(*tasks)
    times = [t for _, chat, t in telegram.started if chat == 501]
    assert all(b - a >= WINDOW - EPSILON for a, b in itertools.pairwise(times))


async def test_waiting_private_messages_go_before_group_ones() -> None:
    """The window is full of table edits; a hand queued after more table edits still goes
    first when a place frees."""
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=2)
    first = [request(pacer, telegram, "editMessageText", chat) for chat in GROUPS[:2]]
    await settle()
    later_groups = [request(pacer, telegram, "editMessageText", chat) for chat in GROUPS[2:5]]
    await settle()
    hand = request(pacer, telegram, "sendMessage", 501)
    await settle()
    assert len(telegram.started) == 2
    clock.advance(WINDOW)
    await settle()
    assert [chat for _, chat, _ in telegram.started[2:4]] == [501, GROUPS[2]]
    for _ in range(3):
        clock.advance(WINDOW)
        await settle()
    await asyncio.gather(*first, *later_groups, hand)
    assert_windows_hold(telegram.started, 2)


async def test_answers_to_button_presses_and_reads_are_never_held() -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=1)
    held = [request(pacer, telegram, "sendMessage", chat) for chat in GROUPS[:3]]
    await settle()
    answers = [request(pacer, telegram, "answerCallbackQuery", None) for _ in range(5)]
    member = request(pacer, telegram, "getChatMember", GROUPS[0])
    await asyncio.gather(*answers, member)
    assert len(telegram.started) == 1 + 5 + 1
    for _ in range(3):
        clock.advance(WINDOW)
        await settle()
    await asyncio.gather(*held)


async def test_a_429_holds_every_request_as_long_as_telegram_says() -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock)
    telegram.refuse = [3]
    refused = request(pacer, telegram, "sendMessage", 501)
    await settle()
    others = [request(pacer, telegram, "editMessageText", chat) for chat in GROUPS[:3]]
    await settle()
    assert len(telegram.started) == 1
    clock.advance(2.9)
    await settle()
    assert len(telegram.started) == 1
    clock.advance(0.2)
    await settle()
    await asyncio.gather(refused, *others)
    assert [chat for _, chat, _ in telegram.started] == [501, 501, *GROUPS[:3]]


async def test_a_429_after_the_last_retry_reaches_the_caller() -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, retries=1)
    telegram.refuse = [1, 1]
    refused = request(pacer, telegram, "sendMessage", GROUPS[0])
    await settle()
    clock.advance(1.1)
    await settle()
    with pytest.raises(RetryAfter):
        await refused
    # Its place is given back: the next request goes once the hold is over.
    clock.advance(1.1)
    later = request(pacer, telegram, "sendMessage", GROUPS[1])
    await settle()
    assert (await later)["chat"]["id"] == GROUPS[1]


async def test_a_cancelled_waiter_gives_its_place_back() -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=1)
    first = request(pacer, telegram, "sendMessage", GROUPS[0])
    waiting = request(pacer, telegram, "sendMessage", GROUPS[1])
    after = request(pacer, telegram, "sendMessage", GROUPS[2])
    await settle()
    waiting.cancel()
    await settle()
    clock.advance(WINDOW)
    await settle()
    await asyncio.gather(first, after)
    assert [chat for _, chat, _ in telegram.started] == [GROUPS[0], GROUPS[2]]
    await pacer.shutdown()


async def test_a_long_waiting_group_message_goes_before_newer_private_ones() -> None:
    """More hands than the window allows, all the time: a new group's lobby still goes out,
    once it has waited AGED_SECONDS, and the hands queued after it wait their turn."""
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=2)
    users = itertools.count(1)
    tasks = [request(pacer, telegram, "sendMessage", next(users)) for _ in range(2)]
    lobby = request(pacer, telegram, "sendMessage", GROUPS[0])
    edit = request(pacer, telegram, "editMessageText", GROUPS[1])
    await settle()
    steps = round(AGED_SECONDS / WINDOW) + 2
    for _ in range(steps):
        # Two new hands every window: private ones alone would fill it for ever.
        tasks += [request(pacer, telegram, "sendMessage", next(users)) for _ in range(2)]
        await settle()
        clock.advance(WINDOW)
        await settle()
    assert lobby.done() and edit.done()
    start = clock.now() - steps * WINDOW
    lobby_at = next(t for _, chat, t in telegram.started if chat == GROUPS[0])
    edit_at = next(t for _, chat, t in telegram.started if chat == GROUPS[1])
    # Neither waited more than a window past aging; the new message went before the edit.
    assert lobby_at - start <= AGED_SECONDS + WINDOW + EPSILON
    assert lobby_at <= edit_at <= start + AGED_SECONDS + 2 * WINDOW + EPSILON
    for _ in range(steps * 2):
        clock.advance(WINDOW)
        await settle()
    await asyncio.gather(*tasks, lobby, edit)
    assert_windows_hold(telegram.started, 2)


async def test_a_new_group_message_goes_before_a_group_edit() -> None:
    """A table edit can be merged with the next one while it waits; a new message cannot."""
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=1)
    first = request(pacer, telegram, "sendMessage", GROUPS[0])
    await settle()
    edit = request(pacer, telegram, "editMessageText", GROUPS[1])
    await settle()
    notice = request(pacer, telegram, "sendMessage", GROUPS[2])
    await settle()
    for _ in range(3):
        clock.advance(WINDOW)
        await settle()
    await asyncio.gather(first, edit, notice)
    assert [chat for _, chat, _ in telegram.started] == [GROUPS[0], GROUPS[2], GROUPS[1]]


class RecordingPace:
    """A shared pace that lends every chat at once and notes what each answer asked for."""

    def __init__(self) -> None:
        self.answered_with: list[float] = []

    async def take(self, chat_id: int) -> tuple[float | None, float]:
        return 1.0, 0.0

    async def answered(self, chat_id: int, lease: float, spacing: float) -> None:
        self.answered_with.append(spacing)


async def test_a_private_chat_s_429_holds_it_for_every_worker() -> None:
    """Telegram's wait goes to the shared pace, so other workers wait it out too; an answer
    asks for the plain spacing."""
    clock = ManualClock()
    telegram = Telegram(clock)
    telegram.refuse = [5.0]
    pacer = pacer_on(clock)
    shared = RecordingPace()
    pacer.share_private_pace(shared)
    task = request(pacer, telegram, "sendMessage", 501)
    await settle()
    clock.advance(5.0 + WINDOW)
    await settle()
    assert (await task)["chat"]["id"] == 501
    assert shared.answered_with == [5.0, WINDOW]


async def test_a_withdrawable_request_goes_after_every_other_kind() -> None:
    """The edit taking a tapped hand's buttons off waits behind hands, new group messages and
    table edits alike."""
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=1)
    first = request(pacer, telegram, "sendMessage", GROUPS[0])
    await settle()
    retire = request(pacer, telegram, "editMessageText", 501, Withdrawable())
    table_edit = request(pacer, telegram, "editMessageText", GROUPS[1])
    lobby = request(pacer, telegram, "sendMessage", GROUPS[2])
    hand = request(pacer, telegram, "sendMessage", 502)
    await settle()
    for _ in range(5):
        clock.advance(WINDOW)
        await settle()
    await asyncio.gather(first, retire, table_edit, lobby, hand)
    assert [chat for _, chat, _ in telegram.started] == [GROUPS[0], 502, GROUPS[2], GROUPS[1], 501]


async def test_a_withdrawn_request_is_never_made_and_takes_no_place() -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=1)
    first = request(pacer, telegram, "sendMessage", GROUPS[0])
    await settle()
    ticket = Withdrawable()
    retire = request(pacer, telegram, "editMessageText", 501, ticket)
    await settle()
    assert ticket.withdraw() is True
    with pytest.raises(Withdrawn):
        await retire
    # The person's next hand in the same message goes in the next window, alone.
    in_place = request(pacer, telegram, "editMessageText", 501)
    clock.advance(WINDOW)
    await settle()
    await asyncio.gather(first, in_place)
    assert [chat for _, chat, _ in telegram.started] == [GROUPS[0], 501]
    await pacer.shutdown()


async def test_a_request_withdrawn_before_it_reached_the_pacer_is_never_made() -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock)
    ticket = Withdrawable()
    assert ticket.withdraw() is True
    with pytest.raises(Withdrawn):
        await request(pacer, telegram, "editMessageText", 501, ticket)
    assert telegram.started == []


async def test_a_request_whose_turn_came_cannot_be_withdrawn() -> None:
    """Its answer then comes before the chat's next request starts (one at a time there)."""
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock)
    ticket = Withdrawable()
    retire = request(pacer, telegram, "editMessageText", 501, ticket)
    await settle()
    assert ticket.withdraw() is False
    assert await retire is True
    in_place = request(pacer, telegram, "editMessageText", 501)
    await settle()
    assert len(telegram.started) == 1
    clock.advance(WINDOW)
    await settle()
    await in_place
    assert [t for _, _, t in telegram.started][1] - telegram.started[0][2] >= WINDOW - EPSILON


async def test_a_withdrawable_request_waits_at_most_its_own_aging() -> None:
    """Under more hands than the window allows, the edit still goes once it has waited
    WITHDRAWABLE_AGED_SECONDS."""
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=2)
    users = itertools.count(1000)
    tasks = [request(pacer, telegram, "sendMessage", next(users)) for _ in range(2)]
    retire = request(pacer, telegram, "editMessageText", 501, Withdrawable())
    await settle()
    start = clock.now()
    steps = round(WITHDRAWABLE_AGED_SECONDS / WINDOW) + 2
    tasks += await two_hands_a_window(pacer, telegram, clock, users, steps)
    assert retire.done()
    retire_at = next(t for _, chat, t in telegram.started if chat == 501)
    assert retire_at - start >= WITHDRAWABLE_AGED_SECONDS - EPSILON
    assert retire_at - start <= WITHDRAWABLE_AGED_SECONDS + WINDOW + EPSILON
    for _ in range(steps * 2):
        clock.advance(WINDOW)
        await settle()
    await asyncio.gather(*tasks)
    assert_windows_hold(telegram.started, 2)


async def test_the_messages_sent_to_private_chats_are_heard() -> None:
    """What lets a hand be edited in place: the bot knows each private chat's newest message."""
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock)
    heard: list[tuple[int, int]] = []
    pacer.on_private_message(lambda chat, message: heard.append((chat, message)))
    await request(pacer, telegram, "sendMessage", 501)
    await request(pacer, telegram, "sendMessage", GROUPS[0])
    clock.advance(WINDOW)
    await request(pacer, telegram, "editMessageText", 501)
    clock.advance(WINDOW)
    await request(pacer, telegram, "sendPhoto", 501)
    assert heard == [(501, 1), (501, 3)]


async def test_an_aged_withdrawable_request_goes_before_hands_that_came_after_it() -> None:
    """More hands than the window allows, piling up: the edit still goes once it has waited
    WITHDRAWABLE_AGED_SECONDS, before the aged hands that came after it."""
    clock = ManualClock()
    telegram = Telegram(clock)
    pacer = pacer_on(clock, per_second=1)
    users = itertools.count(1000)
    tasks = [request(pacer, telegram, "sendMessage", next(users))]
    retire = request(pacer, telegram, "editMessageText", 501, Withdrawable())
    await settle()
    start = clock.now()
    steps = round(WITHDRAWABLE_AGED_SECONDS / WINDOW) + 2
    # Two new hands a window where one fits: the queue of aged hands only grows.
    tasks += await two_hands_a_window(pacer, telegram, clock, users, steps)
    assert retire.done()
    retire_at = next(t for _, chat, t in telegram.started if chat == 501)
    assert retire_at - start <= WITHDRAWABLE_AGED_SECONDS + WINDOW + EPSILON
    for task in tasks:
        task.cancel()
    await settle()
    await pacer.shutdown()


async def test_a_request_withdrawn_in_flight_is_not_tried_again_after_a_429() -> None:
    """Its turn came, a newer edit took its place while it was in flight, and Telegram asked to
    wait: it is not made again after the wait (it would land after the newer one)."""
    clock = ManualClock()
    pacer = pacer_on(clock)
    ticket = Withdrawable()
    made: list[bool] = []

    async def call() -> bool:
        made.append(ticket.withdraw())  # in flight: too late to take back
        raise RetryAfter(1)

    retire = asyncio.create_task(
        pacer.process_request(call, (), {}, "editMessageText", {"chat_id": 501}, ticket)
    )
    await settle()
    assert made == [False]
    clock.advance(1 + WINDOW)
    await settle()
    with pytest.raises(Withdrawn):
        await retire
    assert made == [False]
