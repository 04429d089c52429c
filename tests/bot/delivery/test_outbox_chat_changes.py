"""The group outbox when Telegram changes the chat under it: the bot removed while results wait,
the group upgraded (announced or learned from a refused send), the bot muted without a word."""

from __future__ import annotations

import asyncio
import gc
import html
import logging
import random
import re
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest

from gaple_bot.bot.deps import Deps, GapleApplication
from gaple_bot.service.outbox import GroupLedger
from gaple_bot.store import GameRecord, GameStatus
from tests.bot.driver import play_until, seat_and_start, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, load_engine_game, running_bot
from tests.bot.outbox_kit import GROUP_WRITES, migrated_store, outbox_clock
from tests.fakes.clock import ManualClock
from tests.fakes.telegram_server import FakeTelegram, running_fake

ANA, BUDI = 1301, 1302
BASIC_GROUP = -4_005_678
"""A basic group (not yet a supergroup): the only kind Telegram upgrades."""
BUDGET = "5"
WAIT = 60.0


def _bot(
    fake: FakeTelegram, database: Path, clock: ManualClock, budget: str = BUDGET
) -> AbstractAsyncContextManager[GapleApplication]:
    """The bot with a small group budget counted on the manual clock, and turns that never
    run out (the people play when the test says)."""
    return running_bot(
        fake,
        database,
        outbox_clock=outbox_clock(clock),
        GROUP_MESSAGES_PER_MINUTE=budget,
        DEFAULT_TURN_SECONDS="3600",
    )


def _world(fake: FakeTelegram, chat_id: int) -> None:
    fake.add_user(ANA, "Ana")
    fake.add_user(BUDI, "Budi")
    fake.add_group(chat_id, GROUP_TITLE, admins=(ANA,), members=(BUDI,))


async def _game(deps: Deps, game_id: int) -> GameRecord:
    async with deps.service.store.read() as tx:
        return await tx.games.get(game_id)


async def _wait_game(
    deps: Deps, game_id: int, what: str, check: Callable[[GameRecord], bool]
) -> GameRecord:
    """Poll the stored game until `check(record)` holds (generous deadline)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        record = await _game(deps, game_id)
        if check(record):
            return record
        assert loop.time() < deadline, f"game {game_id}: {what} did not happen"
        await asyncio.sleep(0.05)


async def _short_games(deps: Deps, chat_id: int) -> None:
    """Games in the chat end after their first round (target 1), to keep the tests short."""
    async with deps.service.store.transaction() as tx:
        await tx.chats.ensure(chat_id, GROUP_TITLE)
        await tx.chats.set_option(chat_id, "gaple", "target", "1")


async def _quiet(fake: FakeTelegram, app: GapleApplication, clock: ManualClock) -> None:
    """Wait until the bot has handled every update and sent all the group budget allows on
    the manual clock: nothing in flight, the outbox idle or asleep on the clock."""
    outbox = deps_of(app).outbox

    def quiet() -> bool:
        return (
            fake.pending_updates == 0
            and fake.requests_in_flight == 0
            and app.update_queue.empty()
            and app.update_processor.current_concurrent_updates == 0
            and (not outbox.busy or clock.next_wake is not None)
        )

    # Twice, a moment apart: a hook task may start a request just after the first look.
    for _ in range(2):
        await fake.wait_for(quiet, timeout=WAIT, message="the bot did not settle")
        await asyncio.sleep(0.2)
    await fake.wait_for(quiet, timeout=WAIT, message="the bot did not settle")


async def _pending_texts(deps: Deps, chat_id: int) -> list[str]:
    """The stored group sends still waiting for a chat, oldest first."""
    return [s.params["text"] for s in await deps.service.ledger.pending() if s.chat_id == chat_id]


async def _deliver_all(fake: FakeTelegram, app: GapleApplication, clock: ManualClock) -> None:
    """Let the manual clock run, a budget window at a time, until nothing stored waits."""
    deps = deps_of(app)
    for _ in range(20):
        await _quiet(fake, app, clock)
        if not await deps.service.ledger.pending() and not deps.outbox.busy:
            return
        clock.advance(61.0)
    raise AssertionError("stored group messages were never delivered")


def _no_task_died(caplog: pytest.LogCaptureFixture) -> None:
    """No outbox worker ended with an error (asyncio reports it once the task is collected)."""
    gc.collect()
    died = [r.getMessage() for r in caplog.records if r.name == "asyncio"]
    assert died == []


def _group_requests(fake: FakeTelegram, chat_id: int, since: int) -> list[str]:
    """Every group send or edit the bot tried in a chat since request number `since`."""
    return [r.method for r in fake.requests[since:] if r.chat_id == chat_id]


def _same(shown: str, stored_html: str) -> bool:
    """Whether a message shown in the group is the stored HTML text (tags removed)."""
    return shown == html.unescape(re.sub(r"<[^>]+>", "", stored_html)).strip()


def _shown_once_in_order(fake: FakeTelegram, chat_id: int, stored: list[str]) -> None:
    """Each stored text was shown in the chat exactly once, in the order it was stored."""
    texts = [m.text for m in fake.bot_messages(chat_id)]
    shown = [t for t in texts if any(_same(t, s) for s in stored)]
    assert len(shown) == len(stored), (shown, stored)
    assert all(_same(t, s) for t, s in zip(shown, stored, strict=True)), (shown, stored)


async def _start(fake: FakeTelegram, deps: Deps, chat_id: int) -> int:
    """Ana opens a table in the chat, Budi joins, Ana starts; returns the game id."""
    for user in (ANA, BUDI):
        await fake.start_private(user)
    await fake.send_message(ANA, chat_id, "/gaple")
    lobby = await _lobby(fake, chat_id)
    query = await fake.press_button(BUDI, chat_id, lobby, "✋ Join")
    await fake.wait_callback_answer(query, timeout=WAIT)
    query = await fake.press_button(ANA, chat_id, lobby, "▶️ Start")
    await fake.wait_callback_answer(query, timeout=WAIT)
    game_id = await deps.service.active_game(chat_id, None)
    assert game_id is not None
    await _wait_game(deps, game_id, "start", lambda g: g.status is GameStatus.RUNNING)
    return game_id


async def _lobby(fake: FakeTelegram, chat_id: int) -> int:
    """The lobby message's id once it is in the group."""
    await fake.wait_for(
        lambda: any("✋ Join" in m.button_texts() for m in fake.bot_messages(chat_id)),
        timeout=WAIT,
        message="no lobby message",
    )
    return next(m.message_id for m in fake.bot_messages(chat_id) if "✋ Join" in m.button_texts())


async def _play_round_one(fake: FakeTelegram, deps: Deps, game_id: int, seed: int) -> None:
    """Ana and Budi play until the first round is over (the computers play their seats)."""

    async def round_over() -> bool:
        game = await load_engine_game(deps.service.store, game_id)
        return game.round_number > 1 or game.is_over

    await play_until(fake, (ANA, BUDI), round_over, random.Random(seed))


async def _scores_right(deps: Deps, game_id: int) -> None:
    game = await load_engine_game(deps.service.store, game_id)
    async with deps.service.store.read() as tx:
        results = await tx.results.of_game(game_id)
    assert results and [r.points for r in results] == game.scores


async def test_bot_removed_while_results_wait_gets_nothing_more(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Round results wait for the group's budget when the bot is removed: nothing more is
    tried there, now or after a restart, and nothing for it stays in the database."""
    caplog.set_level(logging.ERROR, logger="asyncio")
    clock = ManualClock()
    database = tmp_path / "db.sqlite3"
    async with running_fake(group_limit_per_minute=5, clock=clock.now, sleep=clock.sleep) as fake:
        _world(fake, GROUP)
        async with _bot(fake, database, clock) as app:
            deps = deps_of(app)
            game_id = await _start(fake, deps, GROUP)
            await _play_round_one(fake, deps, game_id, seed=3)
            await _quiet(fake, app, clock)
            assert any("🏁 Round 1" in t for t in await _pending_texts(deps, GROUP))

            fake.remove_bot(GROUP)
            await _wait_game(deps, game_id, "abort", lambda g: g.status is GameStatus.ABORTED)
            await _quiet(fake, app, clock)
            since = len(fake.requests)
            assert await _pending_texts(deps, GROUP) == []
            clock.advance(61.0)
            await _quiet(fake, app, clock)
            clock.advance(61.0)
            await _quiet(fake, app, clock)
            assert _group_requests(fake, GROUP, since) == []

        async with _bot(fake, database, clock) as app:
            deps = deps_of(app)
            for _ in range(3):
                await _quiet(fake, app, clock)
                clock.advance(61.0)
            await _quiet(fake, app, clock)
            assert _group_requests(fake, GROUP, since) == []
            assert await deps.service.ledger.pending() == []
            async with deps.service.store.read() as tx:
                assert await tx.outbox.stamps(GROUP, 0.0) == []
    _no_task_died(caplog)


@pytest.mark.parametrize("restart", [False, True], ids=["running", "across-a-restart"])
async def test_group_upgraded_while_results_wait_shows_them_in_the_new_chat(
    tmp_path: Path, restart: bool, caplog: pytest.LogCaptureFixture
) -> None:
    """Round results wait for the basic group's budget when it becomes a supergroup (while the
    bot runs, or while it is down): they go to the new chat (its budget carried over), in
    order, once, and nothing more is tried in the old one."""
    caplog.set_level(logging.ERROR, logger="asyncio")
    clock = ManualClock()
    database = tmp_path / "db.sqlite3"
    async with running_fake(group_limit_per_minute=5, clock=clock.now, sleep=clock.sleep) as fake:
        _world(fake, BASIC_GROUP)
        async with _bot(fake, database, clock) as app:
            deps = deps_of(app)
            game_id = await _start(fake, deps, BASIC_GROUP)
            await _play_round_one(fake, deps, game_id, seed=4)
            await _quiet(fake, app, clock)
            stored = await _pending_texts(deps, BASIC_GROUP)
            assert any("🏁 Round 1" in t for t in stored)
            since = len(fake.requests)
            if not restart:
                new_id = fake.migrate_group(BASIC_GROUP)
                await _wait_game(deps, game_id, "the move", lambda g: g.chat_id == new_id)
                await _deliver_all(fake, app, clock)
        if restart:
            # The announcements wait for the bot; what it stored starts queued for the old id.
            new_id = fake.migrate_group(BASIC_GROUP)
            async with _bot(fake, database, clock) as app:
                deps = deps_of(app)
                await _wait_game(deps, game_id, "the move", lambda g: g.chat_id == new_id)
                await _deliver_all(fake, app, clock)
        assert _group_requests(fake, BASIC_GROUP, since) == []
        _shown_once_in_order(fake, new_id, stored)
        assert await _ledger_empty(database)
    _no_task_died(caplog)


async def _ledger_empty(database: Path) -> bool:
    async with migrated_store(database) as store:
        return await GroupLedger(store).pending() == []


async def test_upgrade_learned_from_a_refused_send_moves_the_game(tmp_path: Path) -> None:
    """No service message tells the bot that the group became a supergroup: the next group
    request is refused with the new id, the game moves there and finishes with every score
    right, and a stored notice the old chat refused is shown in the new one."""
    clock = ManualClock()
    async with running_fake(group_limit_per_minute=3, clock=clock.now, sleep=clock.sleep) as fake:
        _world(fake, BASIC_GROUP)
        async with _bot(fake, tmp_path / "db.sqlite3", clock, budget="3") as app:
            deps = deps_of(app)
            await _short_games(deps, BASIC_GROUP)
            game_id = await _start(fake, deps, BASIC_GROUP)
            await _quiet(fake, app, clock)
            assert clock.next_wake is not None, "the group should be at its budget"
            since = len(fake.requests)
            new_id = fake.migrate_group(BASIC_GROUP, announce=())
            # Budi blocks the bot: on his turn the computer takes his seat and the group is
            # told in a stored notice, which waits behind the budget in the old chat.
            fake.block_user(BUDI)

            async def notice_waits() -> bool:
                return any("📵" in t for t in await _pending_texts(deps, BASIC_GROUP))

            await play_until(fake, (ANA,), notice_waits, random.Random(6))
            assert (await _game(deps, game_id)).status is GameStatus.RUNNING
            stored = await _pending_texts(deps, BASIC_GROUP)

            clock.advance(61.0)
            await _wait_game(deps, game_id, "the move", lambda g: g.chat_id == new_id)
            await play_until(
                fake, (ANA,), lambda: _finished(deps, game_id), random.Random(7), seconds=120
            )
            await _deliver_all(fake, app, clock)

            await _scores_right(deps, game_id)
            # Nothing was accepted in the old chat after the upgrade; whatever it refused that
            # was stored arrives in the new chat, once, and so does every other stored send.
            old = [r for r in fake.requests[since:] if r.chat_id == BASIC_GROUP]
            assert old and all(r.status == 400 for r in old)
            assert all(r.method in GROUP_WRITES for r in old)
            refused = [r.params.get("text") for r in old if r.method == "sendMessage"]
            refused_stored = [s for s in stored if s in refused]
            assert any("📵" in s for s in refused_stored), (refused, stored)
            _shown_once_in_order(fake, new_id, refused_stored)
            _shown_once_in_order(fake, new_id, stored)
            texts = [m.text for m in fake.bot_messages(new_id)]
            assert sum("📵" in t for t in texts) == 1
            assert sum("🏁 Round 1" in t for t in texts) == 1
            assert "wins the game" in texts[-1]
            assert await deps.service.ledger.pending() == []


async def _finished(deps: Deps, game_id: int) -> bool:
    return (await _game(deps, game_id)).status is GameStatus.FINISHED


async def test_muted_without_an_update_the_refused_send_pauses_the_game(tmp_path: Path) -> None:
    """The bot loses the right to write and no my_chat_member update says so: the refused
    table edit pauses the game (no computer moves in anyone's name, a private note to each
    person); allowed again, play resumes and finishes with every score right."""
    rng = random.Random(23)
    async with running_fake(group_limit_per_minute=1000) as fake:
        _world(fake, GROUP)
        async with running_bot(fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS="5") as app:
            deps = deps_of(app)
            await _short_games(deps, GROUP)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            await play_until(fake, (BUDI,), lambda: turn_message(fake, ANA) is not None, rng)
            await fake.wait_idle()

            fake.restrict_bot(GROUP, announce=False)
            assert fake.pending_updates == 0
            # Ana's move edits the table: Telegram refuses, and that is all the bot learns.
            await play_until(fake, (ANA,), lambda: turn_message(fake, ANA) is None, rng)
            paused = await _wait_game(deps, game_id, "the pause", lambda g: g.paused)
            await fake.wait_idle()
            assert paused.status is GameStatus.RUNNING
            for user in (ANA, BUDI):
                assert any("is paused" in m.text for m in fake.bot_messages(user))
            assert app.job_queue is not None
            timers = [
                job.name
                for job in app.job_queue.jobs()
                if job.name and job.name.startswith(("turn:", "remind:"))
            ]
            assert timers == []

            # Well past any turn's time, nothing moves and nobody is handed to the computer.
            moves = await _moves(deps, game_id)
            await asyncio.sleep(6.0)
            await fake.wait_idle()
            assert await _moves(deps, game_id) == moves
            async with deps.service.store.read() as tx:
                seats = await tx.seats.of_game(game_id)
            people = [s for s in seats if s.user_id in (ANA, BUDI)]
            assert len(people) == 2
            assert all(not s.autoplay and s.timeouts == 0 for s in people)

            fake.unrestrict_bot(GROUP)
            await _wait_game(deps, game_id, "the resume", lambda g: not g.paused)
            await play_until(fake, (ANA, BUDI), lambda: _finished(deps, game_id), rng, seconds=120)
            await fake.wait_idle()
            await _scores_right(deps, game_id)
            assert "wins the game" in fake.bot_messages(GROUP)[-1].text


async def _moves(deps: Deps, game_id: int) -> int:
    game = await load_engine_game(deps.service.store, game_id)
    return sum(len(r.moves) for r in game.rounds)
