"""Beside other workers a group's messages and edits wait in one queue in the database: they
reach the group in the order the workers queued them, each edit reaches the message of its
game as stored when its turn comes, and a worker that stops leaves its part to the others."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from functools import partial

import pytest

from gaple_bot.bot.outbox import GroupOutbox, open_outbox
from gaple_bot.service.outbox import GroupLedger
from gaple_bot.service.runtime import GameService
from gaple_bot.service.views import Person
from gaple_bot.store import Store
from tests.bot.outbox_kit import assert_window_holds, outbox_clock
from tests.fakes.clock import ManualClock
from tests.fakes.telegram_server import FakeTelegram, running_fake

GROUP = -1004
ANA = Person(1, "Ana", "id")


async def _settle(fake: FakeTelegram, clock: ManualClock, *outboxes: GroupOutbox) -> None:
    """Wait until every outbox has sent all it may now: idle, or asleep on the clock."""
    await fake.wait_for(
        lambda: (
            fake.requests_in_flight == 0
            and (clock.next_wake is not None or not any(outbox.busy for outbox in outboxes))
        ),
        timeout=30,
        message="the outboxes did not settle",
    )


@pytest.fixture
async def game_id(two_workers: tuple[Store, Store]) -> AsyncIterator[int]:
    """A game whose lobby or table the workers show in GROUP."""
    service = GameService(two_workers[0], rng=random.Random(1))
    await service.players.private_chat_opened(ANA)
    lobby = await service.lobbies.open(service.registry.get("gaple"), GROUP, "Group", None, ANA)
    yield lobby.game_id


async def test_each_edit_reaches_the_table_of_its_round_whichever_worker_posted_it(
    two_workers: tuple[Store, Store], game_id: int
) -> None:
    clock = ManualClock()
    async with (
        running_fake(group_limit_per_minute=100, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_group(GROUP, "Shared")
        first, second = (
            open_outbox(bot, 100, ledger=GroupLedger(store), clock=outbox_clock(clock))
            for store in two_workers
        )
        # As under the game's lock: each worker's part is stored before the next one's.
        first.send(GROUP, game_id=game_id, text="round 1")
        await first.flush()
        second.edit(second.game_message(GROUP, game_id), text="round 1, a move")
        await second.flush()
        second.send(GROUP, game_id=game_id, text="round 2")
        await second.flush()
        # The first worker's own handle is on round 1's message; the edit goes to the game's.
        first.edit(first.game_message(GROUP, game_id), text="round 2, a move")
        await first.flush()
        await _settle(fake, clock, first, second)
        shown = [[v.text for v in m.versions] for m in fake.bot_messages(GROUP)]
        assert shown == [["round 1", "round 1, a move"], ["round 2", "round 2, a move"]]
        async with two_workers[1].read() as tx:
            stored = (await tx.games.get(game_id)).message_id
        assert stored == fake.bot_messages(GROUP)[-1].message_id
        for outbox in (first, second):
            await outbox.close(10)
        fake.assert_no_violations()


async def test_edits_of_one_message_waiting_for_the_budget_go_as_one(
    two_workers: tuple[Store, Store], game_id: int
) -> None:
    clock = ManualClock()
    per_minute = 2
    async with (
        running_fake(group_limit_per_minute=per_minute, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_group(GROUP, "Shared")
        first, second = (
            open_outbox(bot, per_minute, ledger=GroupLedger(store), clock=outbox_clock(clock))
            for store in two_workers
        )
        first.send(GROUP, text="notice 1")
        first.send(GROUP, game_id=game_id, text="table")
        await first.flush()
        await _settle(fake, clock, first, second)
        for n, outbox in enumerate((second, first, second, first)):
            outbox.edit(outbox.game_message(GROUP, game_id), text=f"table, move {n}")
            await outbox.flush()
        second.send(GROUP, text="notice 2")
        await second.flush()
        await _settle(fake, clock, first, second)
        # Each worker's /metrics counts the group's whole queue, the others' part too.
        assert await first.queued_now() == await second.queued_now() == (5, 5)
        for _ in range(5):
            clock.advance(61.0)
            await _settle(fake, clock, first, second)
        messages = fake.bot_messages(GROUP)
        assert [m.text for m in messages] == ["notice 1", "table, move 3", "notice 2"]
        # Four edits waited behind the budget: one request carried the last.
        assert [v.text for v in messages[1].versions] == ["table", "table, move 3"]
        assert_window_holds(fake, GROUP, per_minute)
        async with two_workers[0].read() as tx:
            assert await tx.outbox.waiting(GROUP) == []
        for outbox in (first, second):
            await outbox.close(10)


async def test_what_a_stopped_worker_left_waiting_is_sent_by_another(
    two_workers: tuple[Store, Store],
) -> None:
    clock = ManualClock()
    per_minute = 2
    async with (
        running_fake(group_limit_per_minute=per_minute, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_group(GROUP, "Shared")
        first, second = (
            open_outbox(bot, per_minute, ledger=GroupLedger(store), clock=outbox_clock(clock))
            for store in two_workers
        )
        for n in range(4):
            first.send(GROUP, text=f"result {n}")
        await first.flush()
        await _settle(fake, clock, first)
        assert [m.text for m in fake.bot_messages(GROUP)] == ["result 0", "result 1"]
        await first.close(10)  # it stops at the budget with two waiting
        await second.restore()
        for _ in range(3):
            clock.advance(61.0)
            await _settle(fake, clock, second)
        assert [m.text for m in fake.bot_messages(GROUP)] == [f"result {n}" for n in range(4)]
        assert_window_holds(fake, GROUP, per_minute)
        await second.close(10)


class LettingGoLedger(GroupLedger):
    """A ledger that runs `before_letting_go` once, at the end of a group turn it held, before
    the turn is let go."""

    before_letting_go: Callable[[], Awaitable[None]] | None = None

    @asynccontextmanager
    async def group_turn_if_free(self, chat_id: int) -> AsyncIterator[bool]:
        async with super().group_turn_if_free(chat_id) as ours:
            yield ours
            hook, self.before_letting_go = self.before_letting_go, None
            if ours and hook is not None:
                await hook()


async def test_a_worker_never_waits_for_a_turn_another_holds_and_the_holder_sends_its_part(
    two_workers: tuple[Store, Store],
) -> None:
    clock = ManualClock()
    async with (
        running_fake(group_limit_per_minute=100, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_group(GROUP, "Shared")
        holder_ledger = LettingGoLedger(two_workers[1])
        other = open_outbox(bot, 100, ledger=GroupLedger(two_workers[0]), clock=outbox_clock(clock))
        holder = open_outbox(bot, 100, ledger=holder_ledger, clock=outbox_clock(clock))

        async def queued_meanwhile() -> None:
            # The holder found nothing more to send and is about to let the turn go: the other
            # worker stores a message now and, finding the turn held, does not wait for it.
            other.send(GROUP, text="two")
            await other.flush()
            await fake.wait_for(lambda: not other.busy, timeout=30, message="it waited")

        holder_ledger.before_letting_go = queued_meanwhile
        holder.send(GROUP, text="one")
        await holder.flush()
        # Nobody kicks the group again (no sweep here): the holder looks once it let go.
        await _settle(fake, clock, other, holder)
        assert [m.text for m in fake.bot_messages(GROUP)] == ["one", "two"]
        assert holder_ledger.before_letting_go is None
        for outbox in (other, holder):
            await outbox.close(10)
        fake.assert_no_violations()


async def test_a_forgotten_table_is_not_edited_again_by_any_worker(
    two_workers: tuple[Store, Store], game_id: int
) -> None:
    """A paused game's table is left where it is: once the game goes on, the next edit from
    whichever worker posts a fresh one, and the edits after it go there."""
    clock = ManualClock()
    async with (
        running_fake(group_limit_per_minute=100, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_group(GROUP, "Shared")
        first, second = (
            open_outbox(bot, 100, ledger=GroupLedger(store), clock=outbox_clock(clock))
            for store in two_workers
        )
        first.send(GROUP, game_id=game_id, text="table")
        first.edit(first.game_message(GROUP, game_id), text="table, paused")
        first.forget_game_message(GROUP, game_id)
        await first.flush()
        for n, outbox in enumerate((second, first)):
            outbox.edit(outbox.game_message(GROUP, game_id), text=f"going on {n}")
            await outbox.flush()
        await _settle(fake, clock, first, second)
        shown = [[v.text for v in m.versions] for m in fake.bot_messages(GROUP)]
        assert shown[0] == ["table", "table, paused"]
        assert shown[1][-1] == "going on 1" and len(shown) == 2
        for outbox in (first, second):
            await outbox.close(10)


PACE = 5.0
"""The table's pace in the tests of it."""


@asynccontextmanager
async def _paced_workers(
    two_workers: tuple[Store, Store], clock: ManualClock
) -> AsyncIterator[tuple[FakeTelegram, GroupOutbox, GroupOutbox]]:
    """The fake, with GROUP, and two workers' outboxes keeping the table's pace of PACE."""
    async with (
        running_fake(group_limit_per_minute=100, clock=clock.now, sleep=clock.sleep) as fake,
        fake.make_bot() as bot,
    ):
        fake.add_group(GROUP, "Shared")
        first, second = (
            open_outbox(
                bot,
                100,
                ledger=GroupLedger(store),
                clock=outbox_clock(clock),
                table_edit_seconds=PACE,
            )
            for store in two_workers
        )
        yield fake, first, second
        for outbox in (first, second):
            await outbox.close(10)
        fake.assert_no_violations()


async def _until(fake: FakeTelegram, done: Callable[[], bool], what: str) -> None:
    """Wait for `done` with the clock standing still."""
    await fake.wait_for(done, timeout=30, message=what)


async def _advance_until(
    fake: FakeTelegram, clock: ManualClock, done: Callable[[], bool], what: str
) -> None:
    """Until `done`: wait for a worker to sleep on the clock (its pace's kick), move the clock
    to when it wakes, and wait for what the kick leads to: `done`, or a later sleep."""
    while True:
        await fake.wait_for(lambda: done() or clock.next_wake is not None, 30, what)
        if done():
            return
        wake = clock.next_wake
        assert wake is not None
        clock.advance(max(0.0, wake - clock.now()))
        await fake.wait_for(partial(_woken_or_done, clock, wake, done), 30, what)


def _woken_or_done(clock: ManualClock, woke: float, done: Callable[[], bool]) -> bool:
    """Whether `done`, or a worker sleeps on the clock again, past the wake at `woke`."""
    return done() or (clock.next_wake is not None and clock.next_wake > woke)


def _edited_at(fake: FakeTelegram, text: str) -> float:
    """When (on the manual clock) the fake got the edit that showed `text`."""
    [at] = [
        r.time for r in fake.requests if r.method == "editMessageText" and r.params["text"] == text
    ]
    return at


async def test_a_tables_edits_keep_its_pace_whichever_worker_queued_them(
    two_workers: tuple[Store, Store], game_id: int
) -> None:
    """A paced table edit heading the group's queue waits until the table's pace has passed
    since the group's last request, the edits queued meanwhile by either worker merging into
    it; any worker's message queued behind it lets it go at once, and an edit not paced (a
    round's end) never waits."""
    clock = ManualClock()
    async with _paced_workers(two_workers, clock) as (fake, first, second):

        def versions() -> list[str | None]:
            return [v.text for v in fake.bot_messages(GROUP)[0].versions]

        def texts() -> list[str | None]:
            return [m.text for m in fake.bot_messages(GROUP)]

        async def edit(outbox: GroupOutbox, text: str, *, paced: bool = True) -> None:
            outbox.edit(outbox.game_message(GROUP, game_id), text=text, paced=paced)
            await outbox.flush()

        first.send(GROUP, game_id=game_id, text="table")
        await first.flush()
        await _until(fake, lambda: texts() == ["table"], "the table was not sent")
        table_at = clock.now()
        await edit(second, "move 1")
        await edit(first, "move 2")
        await _advance_until(fake, clock, lambda: versions()[-1] == "move 2", "no edit")
        # The two edits went as one, once the pace had passed since the table was sent.
        assert versions() == ["table", "move 2"]
        assert _edited_at(fake, "move 2") >= table_at + PACE
        # An edit waits; the other worker's notice behind it lets it go, the clock still.
        await edit(second, "move 3")
        notice_at = clock.now()
        first.send(GROUP, text="Ana ran out of time")
        await first.flush()
        await _until(
            fake,
            lambda: texts()[1:] == ["Ana ran out of time"] and versions()[-1] == "move 3",
            "the notice behind the edit did not let it go",
        )
        assert _edited_at(fake, "move 3") == notice_at
        # A round's end is shown at once, though the last edit was just now.
        await edit(first, "round over", paced=False)
        await _until(fake, lambda: versions()[-1] == "round over", "the round's end waited")
        assert _edited_at(fake, "round over") == notice_at


async def test_two_tables_in_one_group_keep_their_pace_in_turn(
    two_workers: tuple[Store, Store], game_id: int
) -> None:
    """Two games in one group's topics: the other table's paced edits waiting behind one do
    not let it go early, so the group's edits stay at the pace while moves come quickly at
    both tables from both workers."""
    service = GameService(two_workers[0], rng=random.Random(2))
    await service.players.private_chat_opened(ANA)
    other = await service.lobbies.open(service.registry.get("gaple"), GROUP, "Group", 7, ANA)
    games = (game_id, other.game_id)
    clock = ManualClock()
    async with _paced_workers(two_workers, clock) as (fake, first, second):
        for game in games:
            first.send(GROUP, game_id=game, text=f"table {game}")
        await first.flush()
        await _until(fake, lambda: len(fake.bot_messages(GROUP)) == 2, "no tables")
        start = clock.now()
        for n in range(16):
            outbox = (first, second)[n % 2]
            game = games[n // 2 % 2]
            outbox.edit(outbox.game_message(GROUP, game), text=f"{game}: move {n}", paced=True)
            await outbox.flush()
            clock.advance(0.5)
            await fake.wait_for(lambda: fake.requests_in_flight == 0, timeout=30)
        last_moves = {f"table {games[0]}": f"{games[0]}: move 13"}
        last_moves[f"table {games[1]}"] = f"{games[1]}: move 15"

        def shown() -> dict[str | None, str | None]:
            return {m.versions[0].text: m.versions[-1].text for m in fake.bot_messages(GROUP)}

        await _advance_until(fake, clock, lambda: shown() == last_moves, "a move not shown")
        edits = [
            r.time - start
            for r in fake.requests
            if r.method == "editMessageText" and r.time >= start
        ]
        # Each edit at least the pace after the one before, whichever table it showed (how
        # many moves each carries depends on how fast the workers keep up with the clock).
        assert len(edits) >= 2
        assert all(b - a >= PACE for a, b in itertools.pairwise(edits)), edits


async def test_a_message_queued_while_another_worker_held_the_turn_lets_a_paced_edit_go(
    two_workers: tuple[Store, Store], game_id: int
) -> None:
    """The worker that finds a paced edit heading the queue holds the group's turn for a
    moment: a notice the other worker queues then (it does not wait for the turn) is seen
    once the turn is let go, and the edit goes with it, the clock standing still."""
    clock = ManualClock()
    async with running_fake(group_limit_per_minute=100, clock=clock.now, sleep=clock.sleep) as fake:
        fake.add_group(GROUP, "Shared")
        async with fake.make_bot() as bot:
            holder_ledger = LettingGoLedger(two_workers[1])
            other, holder = (
                open_outbox(
                    bot, 100, ledger=ledger, clock=outbox_clock(clock), table_edit_seconds=PACE
                )
                for ledger in (GroupLedger(two_workers[0]), holder_ledger)
            )
            holder.send(GROUP, game_id=game_id, text="table")
            await holder.flush()
            await _until(fake, lambda: len(fake.bot_messages(GROUP)) == 1, "no table")
            await _until(fake, lambda: not holder.busy, "the table's turn did not end")

            async def queued_meanwhile() -> None:
                other.send(GROUP, text="Budi ran out of time")
                await other.flush()
                await fake.wait_for(lambda: not other.busy, timeout=30, message="it waited")

            holder_ledger.before_letting_go = queued_meanwhile
            holder.edit(holder.game_message(GROUP, game_id), text="move 1", paced=True)
            await holder.flush()
            await _until(
                fake,
                lambda: (
                    [m.text for m in fake.bot_messages(GROUP)] == ["move 1", "Budi ran out of time"]
                ),
                "the edit waited for its pace with a notice behind it",
            )
            assert holder_ledger.before_letting_go is None
            for outbox in (other, holder):
                await outbox.close(10)
