"""The game never freezes or dead-ends: failures resume, absent players end a game cleanly."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from gaple_bot.bot.callback_data import Action, encode
from gaple_bot.bot.timers import lobby_job_name
from gaple_bot.games.seam import GameKind
from gaple_bot.store import GameStatus
from tests.bot.driver import play_until, seat_and_start, turn_message
from tests.bot.harness import (
    GROUP,
    GROUP_TITLE,
    deps_of,
    load_engine_game,
    lobby_message,
    running_bot,
)
from tests.clock import TestClock
from tests.fakes.telegram_server import FakeTelegram, running_fake

ANA, BUDI, CITRA = 601, 602, 603


def _people(fake: FakeTelegram, *users: tuple[int, str, str]) -> None:
    for user_id, name, language in users:
        fake.add_user(user_id, name, language_code=language)
    fake.add_group(GROUP, GROUP_TITLE, admins=(users[0][0],), members=[u[0] for u in users[1:]])


async def test_a_failed_computer_decision_does_not_freeze_the_game(tmp_path: Path) -> None:
    rng = random.Random(3)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3") as app,
    ):
        deps = deps_of(app)
        _people(fake, (ANA, "Ana", "en"), (BUDI, "Budi", "en"))
        await seat_and_start(fake, ANA, BUDI)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None
        computer = deps.service.computer
        real_choose = computer.choose
        failures = [RuntimeError("the worker died")]

        async def flaky(kind: GameKind, level: str, view: object, rng: random.Random) -> int:
            if failures:
                raise failures.pop()
            return await real_choose(kind, level, view, rng)

        computer.choose = flaky  # type: ignore[method-assign]
        before = (await load_engine_game(deps.service.store, game_id)).round.moves[:]

        async def moved_on_after_the_failure() -> bool:
            game = await load_engine_game(deps.service.store, game_id)
            return not failures and (len(game.round.moves) > len(before) + 4 or game.is_over)

        # The people keep playing: the failed update is resumed from the database shortly.
        await play_until(fake, (ANA, BUDI), moved_on_after_the_failure, rng, seconds=200)
        await fake.wait_idle()
        assert turn_message(fake, ANA) is not None or turn_message(fake, BUDI) is not None


async def test_everyone_away_stops_the_game_without_results(tmp_path: Path) -> None:
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS="1") as app,
    ):
        deps = deps_of(app)
        _people(fake, (ANA, "Ana", "en"))
        await seat_and_start(fake, ANA)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None
        # Ana never plays: two timeouts and nobody is left, so the game stops.
        await fake.wait_for(
            lambda: any(
                "Everyone at the table is away" in m.text for m in fake.bot_messages(GROUP)
            ),
            timeout=60,
            message="the abandoned game was not announced",
        )
        async with deps.service.store.read() as tx:
            assert (await tx.games.get(game_id)).status is GameStatus.ABORTED
            assert await tx.results.of_game(game_id) == []
        assert turn_message(fake, ANA) is None


async def test_an_unblocked_player_is_offered_their_seat_back(tmp_path: Path) -> None:
    rng = random.Random(2)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3") as app,
    ):
        deps = deps_of(app)
        _people(fake, (ANA, "Ana", "en"), (BUDI, "Budi", "en"))
        await seat_and_start(fake, ANA, BUDI)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None
        fake.block_user(BUDI)

        async def budi_on_autoplay() -> bool:
            async with deps.service.store.read() as tx:
                return (await tx.seats.of_game(game_id))[1].autoplay

        await play_until(fake, (ANA,), budi_on_autoplay, rng, seconds=200)
        fake.unblock_user(BUDI)

        def offered() -> bool:
            return any(
                (d or "").startswith(Action.TAKE_BACK_SEAT.value + ":")
                for m in fake.bot_messages(BUDI)
                for _, d in m.buttons()
            )

        await fake.wait_for(offered, message="no take-back offer after unblocking")


async def test_a_failed_table_send_is_sent_with_the_next_change(tmp_path: Path) -> None:
    rng = random.Random(6)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3") as app,
    ):
        deps = deps_of(app)
        _people(fake, (ANA, "Ana", "en"), (BUDI, "Budi", "en"))
        await seat_and_start(fake, ANA, BUDI)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None
        await fake.wait_idle()
        # The next round's table message fails once; the round's next edit sends it instead.
        game = await load_engine_game(deps.service.store, game_id)
        fake.fail_next("sendMessage", 400, "Bad Request: chat not found", chat_id=GROUP, count=1)

        async def later_round() -> bool:
            now = await load_engine_game(deps.service.store, game_id)
            return now.round_number > game.round_number + 1 or now.is_over

        await play_until(fake, (ANA, BUDI), later_round, rng, seconds=180)
        await fake.wait_idle()
        failed = [r for r in fake.requests if r.method == "sendMessage" and r.status == 400]
        assert failed
        rounds_shown = {
            n
            for m in fake.bot_messages(GROUP)
            for n in range(1, 30)
            if f"round {n} ·" in m.text and "My hand" in " ".join(m.button_texts())
        }
        now = await load_engine_game(deps.service.store, game_id)
        if not now.is_over:
            assert now.round_number in rounds_shown


async def test_play_again_follows_the_chats_rules_as_they_are_now(tmp_path: Path) -> None:
    rng = random.Random(9)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3") as app,
    ):
        deps = deps_of(app)
        _people(fake, (ANA, "Ana", "en"), (BUDI, "Budi", "en"), (CITRA, "Citra", "en"))
        for user in (ANA, BUDI, CITRA):
            await fake.start_private(user)
        # A five-seat discards game with a low target...
        await fake.send_message(ANA, GROUP, "/settings")
        await fake.wait_idle()
        menu = fake.last_bot_message(GROUP)
        assert menu is not None
        for option, choice in ((0, 1), (1, 0)):
            await fake.press(
                ANA, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, option, choice)
            )
        await fake.wait_idle()
        await fake.send_message(ANA, GROUP, "/gaple")
        await fake.wait_idle()
        lobby = lobby_message(fake).message_id
        for user in (BUDI, CITRA):
            await fake.wait_callback_answer(await fake.press_button(user, GROUP, lobby, "✋ Join"))
        for _ in range(2):
            await fake.wait_callback_answer(
                await fake.press_button(ANA, GROUP, lobby, "🤖 Add computer")
            )
        await fake.wait_callback_answer(await fake.press_button(ANA, GROUP, lobby, "▶️ Start"))
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None

        async def finished() -> bool:
            async with deps.service.store.read() as tx:
                return (await tx.games.get(game_id)).status is GameStatus.FINISHED

        await play_until(fake, (ANA, BUDI, CITRA), finished, rng, seconds=200)
        await fake.wait_idle()
        # ... then the chat switches to classic (four seats) before playing again.
        await fake.press(ANA, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, 0, 0))
        await fake.wait_idle()
        standings = fake.bot_messages(GROUP)[-1]
        query = await fake.press_button(BUDI, GROUP, standings.message_id, "🔁 Play again")
        await fake.wait_callback_answer(query)
        await fake.wait_idle()
        again = lobby_message(fake)
        assert "Seats taken: 4 of 4" in again.text
        for name in ("Ana", "Budi", "Citra"):
            assert name in again.text
        answer = await fake.wait_callback_answer(
            await fake.press_button(ANA, GROUP, again.message_id, "▶️ Start")
        )
        assert answer is not None and not answer.get("show_alert"), answer


async def test_group_replies_speak_the_chats_language(tmp_path: Path) -> None:
    async with (
        running_fake() as fake,
        running_bot(fake, tmp_path / "db.sqlite3"),
    ):
        _people(fake, (ANA, "Ana", "id"), (BUDI, "Budi", "de"))
        await fake.start_private(ANA)
        await fake.send_message(ANA, GROUP, "/gaple")  # the chat now speaks Indonesian
        await fake.wait_idle()
        await fake.send_message(BUDI, GROUP, "/help")
        await fake.wait_idle()
        help_text = fake.bot_messages(GROUP)[-1].text
        assert "/gaple" in help_text
        assert "Freunden" not in help_text and "friends" not in help_text


async def test_a_lobby_keeps_its_remaining_time_across_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    clock = TestClock(frozen=True)
    async with running_fake() as fake:
        _people(fake, (ANA, "Ana", "en"))
        async with running_bot(fake, database, clock=clock, LOBBY_TIMEOUT_SECONDS="600") as app:
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake).message_id
            game_id = await deps_of(app).service.active_game(GROUP, None)
            assert game_id is not None
        # 595 of its 600 seconds pass while the bot is down: five are left, not ten minutes.
        clock.advance(595)
        before = datetime.now(UTC)
        async with running_bot(fake, database, clock=clock, LOBBY_TIMEOUT_SECONDS="600") as app:
            after = datetime.now(UTC)
            assert app.job_queue is not None
            (expiry,) = app.job_queue.get_jobs_by_name(lobby_job_name(game_id))
            assert expiry.next_t is not None
            slack = timedelta(milliseconds=1)
            assert before + timedelta(seconds=5) - slack <= expiry.next_t
            assert expiry.next_t <= after + timedelta(seconds=5) + slack
            await fake.wait_for(
                lambda: "Nobody started this table" in fake.message(GROUP, lobby).text,
                timeout=60,
                message="the lobby did not expire",
            )


async def test_a_turn_that_ran_out_while_the_bot_was_down_starts_afresh(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    clock = TestClock()
    async with running_fake(group_limit_per_minute=1000) as fake:
        _people(fake, (ANA, "Ana", "en"), (BUDI, "Budi", "en"))
        async with running_bot(fake, database, clock=clock, DEFAULT_TURN_SECONDS="600") as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA, BUDI)
            await fake.wait_idle()
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            moves_before = len((await load_engine_game(deps.service.store, game_id)).round.moves)
        clock.advance(3600)  # the turn's deadline passes while the bot is down
        async with running_bot(fake, database, clock=clock, DEFAULT_TURN_SECONDS="600") as app:
            deps = deps_of(app)
            await fake.wait_idle()
            game = await load_engine_game(deps.service.store, game_id)
            # Nobody's turn was taken by the computer at start: the person to move plays on.
            assert len(game.round.moves) == moves_before
            async with deps.service.store.read() as tx:
                seats = await tx.seats.of_game(game_id)
                record = await tx.games.get(game_id)
            assert all(s.timeouts == 0 for s in seats)
            assert record.turn_deadline is not None and record.turn_deadline > clock()
            assert turn_message(fake, ANA) is not None or turn_message(fake, BUDI) is not None
