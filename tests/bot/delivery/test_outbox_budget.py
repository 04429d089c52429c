"""The group budget as Telegram counts it: times taken after the answer, kept across restarts."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

from gaple_bot.bot.deps import GapleApplication
from gaple_bot.bot.outbox import GroupOutbox, open_outbox
from gaple_bot.service.outbox import GroupLedger
from tests.bot.driver import play_until, seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, load_engine_game, running_bot
from tests.bot.outbox_kit import (
    assert_window_holds,
    group_receipts,
    migrated_store,
    outbox_clock,
    settle,
)
from tests.fakes.clock import ManualClock
from tests.fakes.telegram_server import FakeTelegram, running_fake

ANA, BUDI = 1101, 1102


@asynccontextmanager
async def outbox_in_group(
    clock: ManualClock, per_minute: int
) -> AsyncIterator[tuple[FakeTelegram, GroupOutbox]]:
    """An outbox alone (no bot application) with `per_minute` for Ana's group, on the clock."""
    async with (
        running_fake(group_limit_per_minute=per_minute, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        yield fake, open_outbox(bot, per_minute, ledger=None, clock=outbox_clock(clock))


def budget_of_five(
    fake: FakeTelegram, database: Path, clock: ManualClock
) -> AbstractAsyncContextManager[GapleApplication]:
    """The bot with five group messages a minute on the manual clock, and turns that never
    run out during the test."""
    return running_bot(
        fake,
        database,
        outbox_clock=outbox_clock(clock),
        GROUP_MESSAGES_PER_MINUTE="5",
        DEFAULT_TURN_SECONDS="3600",
    )


async def test_a_slow_request_does_not_let_a_later_one_out_early() -> None:
    """The first request reaches Telegram 5 s after it started: the fourth of a budget of
    three may start only a window after that first answer, not after its start."""
    clock = ManualClock()
    start = clock.now()
    async with (
        running_fake(group_limit_per_minute=3, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        fake.delay_next("sendMessage", 5.0, chat_id=GROUP)
        outbox = open_outbox(bot, 3, ledger=None, clock=outbox_clock(clock))
        for n in range(1, 5):
            outbox.send(GROUP, text=f"message {n}")
        # The first request is on its way (the fake holds it on the clock).
        await fake.wait_for(lambda: clock.next_wake is not None, message="no slow request")
        clock.advance(5.0)
        await settle(fake, clock, outbox)
        assert group_receipts(fake, GROUP) == [start + 5.0] * 3
        wake = clock.next_wake
        assert wake is not None and wake >= start + 5.0 + 60.0
        clock.advance(wake - clock.now())
        await outbox.drain()
        assert [m.text for m in fake.bot_messages(GROUP)] == [f"message {n}" for n in range(1, 5)]
        assert_window_holds(fake, GROUP, 3)


async def test_a_restarted_outbox_knows_the_budget_spent_before(tmp_path: Path) -> None:
    clock = ManualClock()
    start = clock.now()
    async with (
        running_fake(group_limit_per_minute=5, clock=clock.now, sleep=clock.sleep) as fake,
        migrated_store(tmp_path / "db.sqlite3") as store,
        fake.make_bot() as bot,
    ):
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        first = open_outbox(bot, 5, ledger=GroupLedger(store), clock=outbox_clock(clock))
        for n in range(5):
            first.send(GROUP, text=f"before {n}")
        await first.drain()
        await first.close(10)
        clock.advance(20.0)
        # A new process 20 s later: its first message waits for the old ones' window.
        second = open_outbox(bot, 5, ledger=GroupLedger(store), clock=outbox_clock(clock))
        second.send(GROUP, text="after the restart")
        await settle(fake, clock, second)
        assert fake.last_bot_text(GROUP) == "before 4"
        wake = clock.next_wake
        assert wake is not None and wake >= start + 60.0
        clock.advance(wake - clock.now())
        await second.drain()
        assert fake.last_bot_text(GROUP) == "after the restart"
        assert_window_holds(fake, GROUP, 5)


async def test_a_restart_in_play_keeps_the_group_within_its_budget(tmp_path: Path) -> None:
    """The bot is restarted in the middle of the window: the tables it edits again at start
    wait for the budget the old process spent."""
    clock = ManualClock()
    database = tmp_path / "db.sqlite3"
    rng = random.Random(4)
    async with running_fake(group_limit_per_minute=5, clock=clock.now, sleep=clock.sleep) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with budget_of_five(fake, database, clock) as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None

            async def moved(n: int) -> bool:
                game = await load_engine_game(deps.service.store, game_id)
                return sum(len(r.moves) for r in game.rounds) >= n

            await play_until(fake, (ANA, BUDI), lambda: moved(4), rng)
            await settle(fake, clock, deps.outbox)
            assert len(group_receipts(fake, GROUP)) == 5
        clock.advance(20.0)
        async with budget_of_five(fake, database, clock) as app:
            deps = deps_of(app)
            await settle(fake, clock, deps.outbox)
            for _ in range(3):
                clock.advance(61.0)
                await settle(fake, clock, deps.outbox)
            await play_until(fake, (ANA, BUDI), lambda: moved(8), rng)
            await settle(fake, clock, deps.outbox)
        assert len(group_receipts(fake, GROUP)) > 5
        assert_window_holds(fake, GROUP, 5)


async def test_a_retry_waits_for_the_budget_like_any_request() -> None:
    """A request that failed on the way may have reached Telegram: it counts, and its retry
    waits for the budget instead of going out at once."""
    clock = ManualClock()
    start = clock.now()
    async with (
        running_fake(group_limit_per_minute=2, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        outbox = open_outbox(bot, 2, clock=outbox_clock(clock))
        outbox.send(GROUP, text="first")
        await outbox.drain()
        fake.fail_next("sendMessage", 502, "Bad Gateway", chat_id=GROUP)
        outbox.send(GROUP, text="second")
        await settle(fake, clock, outbox)
        assert [r.status for r in fake.requests_for("sendMessage")] == [200, 502]
        clock.advance(1.0)  # the pause before the retry
        await settle(fake, clock, outbox)
        assert len(fake.requests_for("sendMessage")) == 2
        wake = clock.next_wake
        assert wake is not None and wake >= start + 60.0
        while outbox.busy:
            clock.advance(clock.next_wake - clock.now() if clock.next_wake else 0.0)
            await settle(fake, clock, outbox)
        assert [m.text for m in fake.bot_messages(GROUP)] == ["first", "second"]
        assert fake.requests_for("sendMessage")[-1].time >= start + 60.0


async def test_an_edit_to_what_the_message_shows_is_not_made() -> None:
    """An edit equal to what the group sees, made at once or changed back to it while it
    waited for the budget, costs no request; a real change still goes out."""
    clock = ManualClock()
    async with outbox_in_group(clock, 2) as (fake, outbox):
        table = outbox.send(GROUP, text="table 1")
        outbox.send(GROUP, text="a notice")
        await settle(fake, clock, outbox)
        outbox.edit(table, text="table 1")
        # Over budget now: this edit waits for the budget, and is changed back meanwhile.
        outbox.edit(table, text="table 2")
        await settle(fake, clock, outbox)
        assert clock.next_wake is not None
        outbox.edit(table, text="table 1")
        await settle(fake, clock, outbox)
        clock.advance(61.0)
        await settle(fake, clock, outbox)
        await outbox.drain()
        edits = [r for r in fake.requests if r.method == "editMessageText"]
        assert edits == []
        outbox.edit(table, text="table 3")
        await outbox.drain()
        message_id = await table.wait()
        assert message_id is not None
        assert fake.message(GROUP, message_id).text == "table 3"
        assert [r.status for r in fake.requests if r.method == "editMessageText"] == [200]
        assert_window_holds(fake, GROUP, 2)


async def test_changing_back_while_an_edit_is_in_flight_still_goes_out() -> None:
    """Shown A, an edit to B on its way, then back to A: A is sent after B lands (a lobby
    where someone joins and leaves at once must not keep showing them)."""
    clock = ManualClock()
    async with outbox_in_group(clock, 100) as (fake, outbox):
        lobby = outbox.send(GROUP, text="A")
        await settle(fake, clock, outbox)
        fake.delay_next("editMessageText", 5.0, chat_id=GROUP)
        outbox.edit(lobby, text="B")
        await fake.wait_for(lambda: clock.next_wake is not None, message="no slow edit")
        outbox.edit(lobby, text="A")
        clock.advance(5.0)
        await outbox.drain()
        message_id = await lobby.wait()
        assert message_id is not None
        assert fake.message(GROUP, message_id).text == "A"
        assert [r.status for r in fake.requests if r.method == "editMessageText"] == [200, 200]


async def test_edits_of_a_message_known_by_id_merge_while_one_waits() -> None:
    """Two taps on a menu each ask for a handle of the same message: they get one handle, so
    the second edit merges with the first waiting for the budget, and the same content is
    not sent twice."""
    clock = ManualClock()
    async with outbox_in_group(clock, 1) as (fake, outbox):
        menu = outbox.send(GROUP, text="menu 1")
        await settle(fake, clock, outbox)
        message_id = await menu.wait()
        assert message_id is not None
        first = outbox.existing(GROUP, message_id)
        outbox.edit(first, text="menu 2")
        second = outbox.existing(GROUP, message_id)
        assert second is first
        outbox.edit(second, text="menu 2")
        await settle(fake, clock, outbox)
        clock.advance(61.0)
        await outbox.drain()
        assert fake.message(GROUP, message_id).text == "menu 2"
        assert [r.status for r in fake.requests if r.method == "editMessageText"] == [200]
