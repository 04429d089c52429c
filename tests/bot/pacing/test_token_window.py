"""The token's window shared by the workers of one supervisor: one file, every worker's places
in it, so one worker may use what the others leave and together they never go over."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gaple_bot.bot.pacing.limits import MARGIN_SECONDS, WINDOW_SECONDS
from gaple_bot.bot.pacing.token_window import POLL_SECONDS, SharedTokenWindow
from tests.bot.pacing.test_pacing import Telegram, assert_windows_hold, pacer_on, request, settle
from tests.fakes.clock import ManualClock

WINDOW = WINDOW_SECONDS + MARGIN_SECONDS
NOW = 1_800_000_000.0
EPSILON = 1e-6
GROUPS = [-2000 - n for n in range(40)]


@pytest.fixture
def opened() -> Iterator[list[SharedTokenWindow]]:
    """The windows a test opens, closed after it."""
    windows: list[SharedTokenWindow] = []
    yield windows
    for window in windows:
        window.close()


@pytest.fixture
def two_workers(
    opened: list[SharedTokenWindow],
) -> Callable[[Path, int], tuple[SharedTokenWindow, SharedTokenWindow]]:
    """Two workers' windows on one file, slots 0 and 1."""

    def make(path: Path, per_second: int) -> tuple[SharedTokenWindow, SharedTokenWindow]:
        first = SharedTokenWindow(str(path), 0, 2, per_second)
        second = SharedTokenWindow(str(path), 1, 2, per_second)
        opened.extend((first, second))
        return first, second

    return make


Workers = Callable[[Path, int], tuple[SharedTokenWindow, SharedTokenWindow]]


def test_two_workers_share_one_window(tmp_path: Path, two_workers: Workers) -> None:
    first, second = two_workers(tmp_path / "pace", 3)
    assert first.try_take(NOW, WINDOW) and first.try_take(NOW, WINDOW)
    assert second.try_take(NOW, WINDOW)
    # Three in flight between them: neither may start another.
    assert not first.try_take(NOW, WINDOW)
    assert not second.try_take(NOW, WINDOW)
    assert first.free_at(NOW, WINDOW) == NOW + POLL_SECONDS  # only answers free places
    second.give_back(NOW + 0.2)
    # Answered, it still counts for a window from its answer.
    assert not first.try_take(NOW + 0.3, WINDOW)
    assert first.free_at(NOW + 0.3, WINDOW) == NOW + 0.2 + WINDOW
    assert first.try_take(NOW + 0.2 + WINDOW, WINDOW)


def test_one_worker_may_use_what_the_other_leaves(tmp_path: Path, two_workers: Workers) -> None:
    first, second = two_workers(tmp_path / "pace", 4)
    assert all(first.try_take(NOW, WINDOW) for _ in range(4))
    assert not second.try_take(NOW, WINDOW)
    assert first.free_at(NOW, WINDOW) is not None
    for _ in range(4):
        first.give_back(NOW)
    assert second.free_at(NOW + WINDOW, WINDOW) is None
    assert all(second.try_take(NOW + WINDOW, WINDOW) for _ in range(4))


def test_what_a_worker_had_in_flight_counts_as_answered_when_it_starts_again_or_closes(
    tmp_path: Path, two_workers: Workers, opened: list[SharedTokenWindow]
) -> None:
    """Requests in flight may have reached Telegram: they count as answered, not forgotten."""
    path = tmp_path / "pace"
    first, second = two_workers(path, 2)
    now = time.monotonic()
    assert first.try_take(now, WINDOW) and first.try_take(now, WINDOW)
    assert not second.try_take(now, WINDOW)
    # The first worker died with two in flight and starts again: still no place for a window.
    again = SharedTokenWindow(str(path), 0, 2, 2)
    opened.append(again)
    assert not second.try_take(now, WINDOW)
    later = time.monotonic() + WINDOW
    assert second.try_take(later, WINDOW) and again.try_take(later, WINDOW)
    again.close()
    again.close()  # a bot shut down twice
    assert not second.try_take(later, WINDOW)
    assert second.try_take(time.monotonic() + WINDOW, WINDOW)


def test_a_closed_window_goes_on_as_this_process_own(tmp_path: Path, two_workers: Workers) -> None:
    """A request still in flight when the bot shuts down gets its answer after the close."""
    first, _ = two_workers(tmp_path / "pace", 2)
    assert first.try_take(NOW, WINDOW)
    first.close()
    first.give_back(NOW)
    assert first.try_take(NOW, WINDOW)
    assert not first.try_take(NOW, WINDOW)
    assert first.free_at(NOW, WINDOW) == NOW + WINDOW


async def test_paced_workers_together_keep_the_limit_and_lend_what_they_leave(
    tmp_path: Path, two_workers: Workers
) -> None:
    clock = ManualClock()
    telegram = Telegram(clock)
    first_window, second_window = two_workers(tmp_path / "pace", 10)
    first = pacer_on(clock, window=first_window)
    second = pacer_on(clock, window=second_window)
    # The first worker alone: it takes the whole window, not half of it.
    alone = [request(first, telegram, "editMessageText", chat) for chat in GROUPS[:20]]
    await settle()
    assert len(telegram.started) == 10
    clock.advance(WINDOW)
    await settle()
    assert len(telegram.started) == 20
    await asyncio.gather(*alone)
    # Both at once: together no more than the window.
    clock.advance(WINDOW)
    both = [
        request(pacer, telegram, "editMessageText", chat)
        for chat in GROUPS[20:]
        for pacer in (first, second)
    ]
    for _ in range(6):
        await settle()
        clock.advance(WINDOW / 2)
    await settle()
    await asyncio.gather(*both)
    assert len(telegram.started) == 60
    assert_windows_hold(telegram.started, 10)
    await first.shutdown()
    await second.shutdown()
    await first.shutdown()  # the bot shuts its pacer down twice


def test_answers_leave_the_window_in_order_as_the_ring_turns(
    tmp_path: Path, two_workers: Workers
) -> None:
    first, second = two_workers(tmp_path / "pace", 2)
    times = [NOW + turn * 0.6 * WINDOW for turn in range(10)]
    for turn, at in enumerate(times):
        worker = (first, second)[turn % 2]
        assert worker.try_take(at, WINDOW)
        worker.give_back(at)
    # The last two answers are in the window: full until the older of them leaves it.
    assert not first.try_take(times[-1], WINDOW)
    assert first.free_at(times[-1], WINDOW) == times[-2] + WINDOW
    assert first.try_take(times[-2] + WINDOW + EPSILON, WINDOW)


@pytest.mark.timeout(120)
def test_a_raised_limit_costs_no_more_per_request(tmp_path: Path, two_workers: Workers) -> None:
    """Without Telegram's limits (a million a second) each request still touches only the
    ends of the ring, not every place in it."""
    first, second = two_workers(tmp_path / "pace", 1_000_000)
    for turn in range(20_000):
        worker = (first, second)[turn % 2]
        assert worker.try_take(NOW + turn * 1e-4, WINDOW)
        worker.give_back(NOW + turn * 1e-4)
    assert first.free_at(NOW + 2.0, WINDOW) is None
