"""When Telegram changes the group under a game: the bot removed or banned, the group upgraded
to a supergroup, the bot forbidden to write (and allowed again), across a restart."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import cast

from telegram.ext import JobQueue

from gaple_bot.bot.callback_data import Action
from gaple_bot.bot.chat_changes import chat_unwritable
from gaple_bot.bot.deps import Deps, GapleApplication, GapleContext
from gaple_bot.store import GameRecord, GameStatus
from tests.bot.driver import legal_buttons, play_until, seat_and_start, turn_message, turn_version
from tests.bot.harness import (
    GROUP,
    GROUP_TITLE,
    deps_of,
    load_engine_game,
    lobby_message,
    running_bot,
)
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA, BUDI = 901, 902
BASIC_GROUP = -4_001_234
"""A basic group (not yet a supergroup): the only kind Telegram upgrades."""
WAIT = 60.0


def _world(fake: FakeTelegram, chat_id: int = GROUP) -> None:
    fake.add_user(ANA, "Ana")
    fake.add_user(BUDI, "Budi")
    fake.add_group(chat_id, GROUP_TITLE, admins=(ANA,), members=(BUDI,))


async def _game(deps: Deps, game_id: int) -> GameRecord:
    async with deps.service.store.read() as tx:
        return await tx.games.get(game_id)


async def _wait_game(deps: Deps, game_id: int, what: str, check: object) -> GameRecord:
    """Poll the stored game until `check(record)` holds (generous deadline)."""
    assert callable(check)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        record = await _game(deps, game_id)
        if check(record):
            return record
        assert loop.time() < deadline, f"game {game_id}: {what} did not happen"
        await asyncio.sleep(0.05)


async def _short_games(deps: Deps, chat_id: int, title: str) -> None:
    """Games in the chat end after their first round (target 1), to keep the tests short."""
    async with deps.service.store.transaction() as tx:
        await tx.chats.ensure(chat_id, title)
        await tx.chats.set_option(chat_id, "gaple", "target", "1")


def _game_jobs(app: GapleApplication, game_id: int) -> list[str]:
    """The names of the pending jobs (turn, reminder, lobby, recovery) of a game."""
    assert app.job_queue is not None
    return [
        job.name
        for job in app.job_queue.jobs()
        if job.name and job.name.split(":")[-1] == str(game_id)
    ]


def job_queue_of(app: GapleApplication) -> JobQueue[GapleContext]:
    """The running bot's job queue."""
    assert app.job_queue is not None
    return cast("JobQueue[GapleContext]", app.job_queue)


def _texts(fake: FakeTelegram, chat_id: int) -> list[str]:
    """The current text of every message the bot sent in a chat."""
    return [m.text for m in fake.bot_messages(chat_id)]


def _requests_to(fake: FakeTelegram, chat_id: int, since: int) -> list[str]:
    return [r.method for r in fake.requests[since:] if r.chat_id == chat_id]


def _tables(fake: FakeTelegram, chat_id: int) -> list[FakeMessage]:
    """The bot's table messages in a chat (the ones with the 'My hand' button)."""
    return [
        m
        for m in fake.bot_messages(chat_id)
        if any((data or "").startswith(Action.SHOW_HAND.value + ":") for _, data in m.buttons())
    ]


async def _until_past(deadline: datetime | None) -> None:
    """Let the wall clock pass a turn deadline (plus a second), so its timer would have fired."""
    assert deadline is not None
    await asyncio.sleep(max(0.0, (deadline - datetime.now(UTC)).total_seconds()) + 1.0)


async def _moves(deps: Deps, game_id: int) -> int:
    game = await load_engine_game(deps.service.store, game_id)
    return sum(len(r.moves) for r in game.rounds)


async def test_bot_removed_mid_game_aborts_it_and_stops_everything(tmp_path: Path) -> None:
    rng = random.Random(5)
    async with running_fake(group_limit_per_minute=1000) as fake:
        _world(fake)
        async with running_bot(fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS="4") as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            await play_until(fake, (BUDI,), lambda: turn_message(fake, ANA) is not None, rng)
            deadline = (await _game(deps, game_id)).turn_deadline

            fake.remove_bot(GROUP)
            await _wait_game(deps, game_id, "abort", lambda g: g.status is GameStatus.ABORTED)
            await fake.wait_idle()
            since = len(fake.requests)
            assert _game_jobs(app, game_id) == []
            # Both players hear it privately; Ana's live buttons are gone.
            for user in (ANA, BUDI):
                assert any("I was removed from the group" in t for t in _texts(fake, user))
            assert turn_message(fake, ANA) is None
            ana_seen = len(fake.bot_messages(ANA))

            # Past the turn's time nothing happens: no computer move, nothing to anyone.
            moves = await _moves(deps, game_id)
            await _until_past(deadline)
            await fake.wait_idle()
            assert await _moves(deps, game_id) == moves
            assert _requests_to(fake, GROUP, since) == []
            assert len(fake.bot_messages(ANA)) == ana_seen
            async with deps.service.store.read() as tx:
                assert await tx.results.of_game(game_id) == []
                assert await tx.ratings.get("gaple", GROUP, ANA) is None
            assert await deps.service.active_game(GROUP, None) is None


async def test_bot_banned_while_a_lobby_is_open(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        _world(fake)
        async with running_bot(fake, tmp_path / "db.sqlite3") as app:
            deps = deps_of(app)
            for user in (ANA, BUDI):
                await fake.start_private(user)
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake).message_id
            await fake.wait_callback_answer(await fake.press_button(BUDI, GROUP, lobby, "✋ Join"))
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            assert _game_jobs(app, game_id) == [f"lobby:{game_id}"]
            await fake.wait_idle()
            since = len(fake.requests)

            fake.kick_bot(GROUP)
            await _wait_game(deps, game_id, "abort", lambda g: g.status is GameStatus.ABORTED)
            await fake.wait_idle()
            assert _game_jobs(app, game_id) == []
            for user in (ANA, BUDI):
                assert any("I was removed from the group" in t for t in _texts(fake, user))
            # Nothing more is even tried in the group.
            assert _requests_to(fake, GROUP, since) == []


async def test_group_upgraded_mid_game_finishes_there_with_its_standings(tmp_path: Path) -> None:
    rng = random.Random(8)
    async with running_fake(group_limit_per_minute=1000) as fake:
        _world(fake, BASIC_GROUP)
        async with running_bot(fake, tmp_path / "db.sqlite3") as app:
            deps = deps_of(app)
            await _short_games(deps, BASIC_GROUP, GROUP_TITLE)
            for user in (ANA, BUDI):
                await fake.start_private(user)

            async def play_game(chat_id: int) -> int:
                await fake.send_message(ANA, chat_id, "/gaple")
                await fake.wait_idle()
                lobby = lobby_message(fake, chat_id).message_id
                query = await fake.press_button(BUDI, chat_id, lobby, "✋ Join")
                await fake.wait_callback_answer(query, timeout=WAIT)
                query = await fake.press_button(ANA, chat_id, lobby, "▶️ Start")
                await fake.wait_callback_answer(query, timeout=WAIT)
                game_id = await deps.service.active_game(chat_id, None)
                assert game_id is not None
                return game_id

            # A first game in the basic group makes its standings.
            first = await play_game(BASIC_GROUP)
            await play_until(
                fake,
                (ANA, BUDI),
                lambda: _finished(deps, first),
                rng,
                seconds=120,
            )
            await fake.wait_idle()

            # A second game is under way when the group becomes a supergroup.
            second = await play_game(BASIC_GROUP)
            await play_until(fake, (BUDI,), lambda: turn_message(fake, ANA) is not None, rng)
            await fake.wait_idle()
            before = await _game(deps, second)
            new_id = fake.migrate_group(BASIC_GROUP)
            moved = await _wait_game(deps, second, "the move", lambda g: g.chat_id == new_id)
            await fake.wait_idle()
            # The table continues in the new chat, with the same turn and its timer intact.
            assert moved.turn_deadline == before.turn_deadline
            assert moved.version == before.version
            assert len(_tables(fake, new_id)) == 1
            assert any(name.startswith("turn:") for name in _game_jobs(app, second))
            async with deps.service.store.read() as tx:
                assert await tx.chats.get(BASIC_GROUP) is None
                settings = await tx.chats.get(new_id)
                assert settings is not None and settings.options["gaple"]["target"] == "1"
                assert await tx.ratings.get("gaple", new_id, ANA) is not None
                assert await tx.ratings.get("gaple", BASIC_GROUP, ANA) is None

            await play_until(fake, (ANA, BUDI), lambda: _finished(deps, second), rng, seconds=120)
            await fake.wait_idle()
            game = await load_engine_game(deps.service.store, second)
            async with deps.service.store.read() as tx:
                results = await tx.results.of_game(second)
            assert [r.points for r in results] == game.scores
            assert "wins the game" in fake.bot_messages(new_id)[-1].text

            # The new chat's board holds both games: the old chat's standings came along.
            await fake.send_message(ANA, new_id, "/top wins")
            await fake.wait_idle()
            board = fake.bot_messages(new_id)[-1].text
            assert "Ana — " in board and "Budi — " in board
            assert board.count("(2 games)") >= 2, board


async def _finished(deps: Deps, game_id: int) -> bool:
    return (await _game(deps, game_id)).status is GameStatus.FINISHED


async def test_group_upgrade_announced_only_in_the_new_chat_moves_the_lobby(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        _world(fake, BASIC_GROUP)
        async with running_bot(fake, tmp_path / "db.sqlite3") as app:
            deps = deps_of(app)
            for user in (ANA, BUDI):
                await fake.start_private(user)
            await fake.send_message(ANA, BASIC_GROUP, "/gaple")
            await fake.wait_idle()
            game_id = await deps.service.active_game(BASIC_GROUP, None)
            assert game_id is not None

            new_id = fake.migrate_group(BASIC_GROUP, announce=("from",))
            await _wait_game(deps, game_id, "the move", lambda g: g.chat_id == new_id)
            await fake.wait_idle()
            assert _game_jobs(app, game_id) == [f"lobby:{game_id}"]
            # A fresh lobby message in the new chat works like the old one did.
            lobby = lobby_message(fake, new_id).message_id
            query = await fake.press_button(BUDI, new_id, lobby, "✋ Join")
            answer = await fake.wait_callback_answer(query, timeout=WAIT)
            assert answer is not None and not answer.get("show_alert"), answer
            query = await fake.press_button(ANA, new_id, lobby, "▶️ Start")
            await fake.wait_callback_answer(query, timeout=WAIT)
            await _wait_game(deps, game_id, "start", lambda g: g.status is GameStatus.RUNNING)
            # A late announcement in the old chat changes nothing.
            await fake.wait_idle()
            assert (await _game(deps, game_id)).chat_id == new_id
            async with deps.service.store.transaction() as tx:
                assert await tx.move_chat(BASIC_GROUP, new_id) == []


async def _pause_at_anas_turn(
    fake: FakeTelegram, deps: Deps, game_id: int, rng: random.Random
) -> datetime | None:
    """Play until Ana is to move, then forbid the bot to write; returns the lost deadline."""
    await play_until(fake, (BUDI,), lambda: turn_message(fake, ANA) is not None, rng)
    deadline = (await _game(deps, game_id)).turn_deadline
    fake.restrict_bot(GROUP)
    await _wait_game(deps, game_id, "the pause", lambda g: g.paused)
    await fake.wait_idle()
    return deadline


async def _assert_paused(
    fake: FakeTelegram, app: GapleApplication, game_id: int, deadline: datetime | None
) -> None:
    """Nothing moves past the old deadline, and Ana's tap is refused with 'paused'."""
    deps = deps_of(app)
    assert not any(name.startswith(("turn:", "remind:")) for name in _game_jobs(app, game_id))
    moves = await _moves(deps, game_id)
    await _until_past(deadline)
    await fake.wait_idle()
    assert await _moves(deps, game_id) == moves
    async with deps.service.store.read() as tx:
        ana = (await tx.seats.of_game(game_id))[0]
    assert ana.user_id == ANA and not ana.autoplay and ana.timeouts == 0
    message = turn_message(fake, ANA)
    assert message is not None
    _label, data = legal_buttons(message)[0]
    answer = await fake.wait_callback_answer(
        await fake.press(ANA, ANA, message.message_id, data), timeout=WAIT
    )
    assert answer is not None and answer.get("show_alert"), answer
    assert "paused" in answer["text"]
    assert await _moves(deps, game_id) == moves


def _live_turns(fake: FakeTelegram, user_id: int) -> list[int | None]:
    """The versions of the person's private messages that still carry move buttons."""
    return [
        turn_version(message)
        for message in fake.bot_messages(user_id)
        if turn_version(message) is not None
    ]


async def _resume_and_finish(
    fake: FakeTelegram, deps: Deps, game_id: int, rng: random.Random
) -> None:
    tables = len(_tables(fake, GROUP))
    fake.unrestrict_bot(GROUP)
    # Unpausing and the next turn's deadline are two writes: wait for both.
    resumed = await _wait_game(
        deps, game_id, "the resume", lambda g: not g.paused and g.turn_deadline is not None
    )
    await fake.wait_idle()
    assert resumed.turn_deadline is not None
    assert len(_tables(fake, GROUP)) == tables + 1  # a fresh table message
    assert any("goes on" in text for text in _texts(fake, ANA))
    # The hand shown before the pause keeps no stale buttons beside the new turn's (after a
    # restart too: the stored turn message is the new worker's to retire).
    await fake.wait_for(
        lambda: _live_turns(fake, ANA) == [resumed.version],
        timeout=WAIT,
        message=f"Ana's live turn messages: {_live_turns(fake, ANA)}, not [{resumed.version}]",
    )
    await play_until(fake, (ANA, BUDI), lambda: _finished(deps, game_id), rng, seconds=120)
    game = await load_engine_game(deps.service.store, game_id)
    async with deps.service.store.read() as tx:
        results = await tx.results.of_game(game_id)
    assert [r.points for r in results] == game.scores


async def test_bot_forbidden_to_write_pauses_then_resumes(tmp_path: Path) -> None:
    rng = random.Random(13)
    async with running_fake(group_limit_per_minute=1000) as fake:
        _world(fake)
        async with running_bot(fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS="5") as app:
            deps = deps_of(app)
            await _short_games(deps, GROUP, GROUP_TITLE)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            deadline = await _pause_at_anas_turn(fake, deps, game_id, rng)
            for user in (ANA, BUDI):
                assert any("is paused" in t for t in _texts(fake, user))
            await _assert_paused(fake, app, game_id, deadline)
            await _resume_and_finish(fake, deps, game_id, rng)


async def test_a_pause_survives_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    rng = random.Random(17)
    async with running_fake(group_limit_per_minute=1000) as fake:
        _world(fake)
        async with running_bot(fake, database, DEFAULT_TURN_SECONDS="5") as app:
            deps = deps_of(app)
            await _short_games(deps, GROUP, GROUP_TITLE)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            deadline = await _pause_at_anas_turn(fake, deps, game_id, rng)

        async with running_bot(fake, database, DEFAULT_TURN_SECONDS="5", seed=2) as app:
            deps = deps_of(app)
            await fake.wait_idle()
            assert (await _game(deps, game_id)).paused
            await _assert_paused(fake, app, game_id, deadline)
            await _resume_and_finish(fake, deps, game_id, rng)


async def test_a_failed_group_send_pauses_or_ends_the_game_as_telegram_says(
    tmp_path: Path,
) -> None:
    """The hook the group outbox calls when a send is refused: Telegram's word on the bot's
    membership decides (no my_chat_member update arrives here)."""
    rng = random.Random(21)
    async with running_fake(group_limit_per_minute=1000) as fake:
        _world(fake)
        async with running_bot(fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS="30") as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            await play_until(fake, (BUDI,), lambda: turn_message(fake, ANA) is not None, rng)
            await fake.wait_idle()
            queue = job_queue_of(app)

            fake.chats[GROUP].bot_status = "restricted"
            await chat_unwritable(deps, queue, GROUP)
            assert (await _game(deps, game_id)).paused
            assert not any(n.startswith(("turn:", "remind:")) for n in _game_jobs(app, game_id))

            fake.chats[GROUP].bot_status = "kicked"
            await chat_unwritable(deps, queue, GROUP)
            assert (await _game(deps, game_id)).status is GameStatus.ABORTED
            assert _game_jobs(app, game_id) == []
