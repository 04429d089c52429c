"""/privacy and /deletemydata end to end: nothing of the person stays, nobody else's standings
move, and a running game plays on with the computer in their seat."""

from __future__ import annotations

import html
import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from gaple_bot.bot.callback_data import Action, encode
from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.store import (
    GLOBAL_SCOPE,
    Board,
    ComputerLevel,
    GameStatus,
    Period,
    Store,
    is_former_player,
)
from gaple_bot.store.models import Base, Move
from tests.bot.driver import play_until, seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, lobby_message, running_bot
from tests.fakes.telegram_server import FakeTelegram, running_fake
from tests.store.forgotten import rows_mentioning
from tests.store.kit import Player, play_game

ANA, BUDI = 101, 102
OTHER_GROUP = -1009876543210
LEAVER = 7_300_000_007
LEAVER_NAME = "Zaskia Quintessa"
KIT_NAME = f"User {LEAVER}"
"""The name the history's games were stored under before Telegram's name replaced it."""
LEAVER_SEAT = 1
ROOMY = 60.0
"""Seconds to wait for the bot: generous, so a busy machine does not fail the test."""


async def _history(store: Store) -> None:
    """Finished games in the group: the leaver, Ana, Budi and computers."""
    config = GameConfig(RuleSet.CLASSIC, 4, 30)
    lineups: list[list[Player]] = [
        [LEAVER, ANA, BUDI, ComputerLevel.NORMAL],
        [ANA, LEAVER, ComputerLevel.EASY, BUDI],
        [BUDI, ANA, LEAVER, ComputerLevel.HARD],
        [ANA, BUDI, ComputerLevel.EASY, ComputerLevel.NORMAL],
    ]
    for seed, players in enumerate(lineups):
        await play_game(store, GROUP, config, players, seed, moves_per_unit=50)


async def _ask(fake: FakeTelegram, user: int, chat: int, text: str) -> str:
    """Send a command and return the bot's answer (its newest message in the chat)."""
    await fake.send_message(user, chat, text)
    await fake.wait_idle(timeout=ROOMY)
    answer = fake.last_bot_text(chat)
    assert answer is not None
    return answer


async def _standings(fake: FakeTelegram) -> dict[str, str]:
    """Every board's answer in the group, and Ana's and Budi's /stats."""
    asked = ["/top", "/top wins", "/top points", "/top week", "/top wins week", "/top global"]
    answers = {command: await _ask(fake, ANA, GROUP, command) for command in asked}
    answers["ana"] = await _ask(fake, ANA, GROUP, "/stats")
    answers["budi"] = await _ask(fake, BUDI, GROUP, "/stats")
    return answers


async def _board_rows(store: Store) -> dict[tuple[int, Board, Period], list[Any]]:
    async with store.read() as tx:
        return {
            (scope, board, period): await tx.boards.top("gaple", scope, board, period, limit=50)
            for scope in (GROUP, GLOBAL_SCOPE)
            for board in Board
            for period in Period
        }


BOOKKEEPING = frozenset({"answered_taps"})
"""The taps the bot answered (their query ids alone, nobody's data): every tap adds one."""


async def _dump(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but the bot's bookkeeping."""
    dump: dict[str, list[tuple[Any, ...]]] = {}
    async with store.read() as tx:
        for table in Base.metadata.sorted_tables:
            if table.name in BOOKKEEPING:
                continue
            rows = (await tx.session.execute(select(table))).all()
            dump[table.name] = sorted(map(tuple, rows), key=repr)
    return dump


async def _moves_of_seat(store: Store, game_id: int, seat: int) -> int:
    async with store.read() as tx:
        count = await tx.session.scalar(
            select(func.count()).where(Move.game_id == game_id, Move.seat == seat)
        )
    return int(count or 0)


RANK = re.compile(r"^\d+\. ")
RATING_LINE = re.compile(r"^(Rating: [-\d.]+) · rank \d+ of \d+$")


def _without_ranks(text: str, leaver_line: str | None = None) -> list[str]:
    """A rating board's lines without their rank numbers (ranks move up when a rating above
    goes; the store tests check by how much), the leaver's line left out."""
    return [RANK.sub("", line) for line in text.splitlines() if line != leaver_line]


def _without_rank_of(text: str) -> list[str]:
    """A /stats answer with its rating line cut to the rating itself."""
    return [RATING_LINE.sub(r"\1", line) for line in text.splitlines()]


async def test_delete_my_data_forgets_the_person_and_keeps_the_others(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_user(LEAVER, "Zaskia", last_name="Quintessa", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI, LEAVER))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            deps = deps_of(app)
            store = deps.service.store
            await _history(store)
            await seat_and_start(fake, ANA, LEAVER, BUDI)
            await fake.wait_idle(timeout=ROOMY)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            await _ask(fake, LEAVER, LEAVER, "/language")  # a stored language choice

            # /privacy answers in any chat; /deletemydata in a group points to private.
            assert "Telegram id" in await _ask(fake, LEAVER, GROUP, "/privacy")
            assert "/deletemydata" in await _ask(fake, LEAVER, LEAVER, "/privacy")
            assert "private chat" in await _ask(fake, LEAVER, GROUP, "/deletemydata")
            standings = await _standings(fake)
            rows_before = await _board_rows(store)
            assert LEAVER_NAME in standings["/top wins"]

            # Cancel changes nothing.
            await _ask(fake, LEAVER, LEAVER, "/deletemydata")
            question = fake.last_bot_message(LEAVER)
            assert question is not None
            snapshot = await _dump(store)
            query = await fake.press_button(LEAVER, LEAVER, question.message_id, "Cancel")
            await fake.wait_callback_answer(query, timeout=ROOMY)
            await fake.wait_idle(timeout=ROOMY)
            assert fake.message(LEAVER, question.message_id).text == "Nothing was deleted."
            assert await _dump(store) == snapshot
            moves_before = await _moves_of_seat(store, game_id, LEAVER_SEAT)

            # Confirming deletes.
            await _ask(fake, LEAVER, LEAVER, "/deletemydata")
            question = fake.last_bot_message(LEAVER)
            assert question is not None
            query = await fake.press_button(LEAVER, LEAVER, question.message_id, "🗑 Delete my data")
            await fake.wait_callback_answer(query, timeout=ROOMY)
            await fake.wait_idle(timeout=ROOMY)
            assert fake.message(LEAVER, question.message_id).text.startswith("Done")

            for name in (LEAVER_NAME, KIT_NAME, "Zaskia"):
                assert await rows_mentioning(store, LEAVER, name) == []
            async with store.read() as tx:
                seat = (await tx.seats.of_game(game_id))[LEAVER_SEAT]
            assert is_former_player(seat.user_id) and seat.autoplay

            # Everyone else's standings read as before; the leaver is "a former player".
            after = await _standings(fake)
            former = "a former player"
            for command in ("/top wins", "/top points", "/top wins week"):
                assert after[command] == standings[command].replace(LEAVER_NAME, former)
            for command in ("/top", "/top week", "/top global"):
                leaver_line = next(
                    line for line in standings[command].splitlines() if LEAVER_NAME in line
                )
                assert former not in after[command]
                assert _without_ranks(after[command]) == _without_ranks(
                    standings[command], leaver_line
                )
            for person in ("ana", "budi"):
                assert _without_rank_of(after[person]) == _without_rank_of(standings[person])
            rows_after = await _board_rows(store)
            for key, rows in rows_before.items():
                others_before = [
                    (e.player_id, e.name, e.value, e.games) for e in rows if e.player_id != LEAVER
                ]
                others_after = [
                    (e.player_id, e.name, e.value, e.games)
                    for e in rows_after[key]
                    if not is_former_player(e.player_id)
                ]
                assert others_after == others_before

            # The table plays on: the computer moves for the former player's seat.
            table = fake.message(GROUP, (await store_message_id(store, game_id)))
            assert f"{former} 🤖" in table.text
            assert html.escape(LEAVER_NAME) not in table.text

            async def seat_moved_or_over() -> bool:
                async with store.read() as tx:
                    if (await tx.games.get(game_id)).status is not GameStatus.RUNNING:
                        return True
                return await _moves_of_seat(store, game_id, LEAVER_SEAT) > moves_before

            await play_until(fake, (ANA, BUDI), seat_moved_or_over, random.Random(3), seconds=120)
            async with store.read() as tx:
                record = await tx.games.get(game_id)
            assert record.status is not GameStatus.ABORTED
            assert await _moves_of_seat(store, game_id, LEAVER_SEAT) > moves_before
            # Nothing was sent to the person after the goodbye.
            assert fake.last_bot_message(LEAVER) == fake.message(LEAVER, question.message_id)

            # A new /start makes them a stranger starting afresh.
            await fake.start_private(LEAVER)
            await fake.wait_idle(timeout=ROOMY)
            async with store.read() as tx:
                fresh = await tx.users.get(LEAVER)
                assert await tx.seats.running_for_user(LEAVER) == []
                assert await tx.boards.player_stats("gaple", GROUP, LEAVER) is not None
            assert fresh is not None and fresh.language is None
            stats = await _ask(fake, LEAVER, GROUP, "/stats")
            assert "has not finished a game" in stats


async def store_message_id(store: Store, game_id: int) -> int:
    """The group message that shows the game's table."""
    async with store.read() as tx:
        message_id = (await tx.games.get(game_id)).message_id
    assert message_id is not None
    return message_id


async def test_deleting_frees_a_lobby_seat_and_closes_a_lobby_one_opened(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(LEAVER, "Zaskia", last_name="Quintessa", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(LEAVER,))
        fake.add_group(OTHER_GROUP, "Pojok Domino", admins=(LEAVER,), members=(ANA,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            deps = deps_of(app)
            store = deps.service.store
            for user in (ANA, LEAVER):
                await fake.start_private(user)
            await _ask(fake, ANA, GROUP, "/gaple")
            await _ask(fake, LEAVER, OTHER_GROUP, "/gaple")
            joined = lobby_message(fake, GROUP)
            query = await fake.press_button(LEAVER, GROUP, joined.message_id, "✋ Join")
            await fake.wait_callback_answer(query, timeout=ROOMY)
            own = lobby_message(fake, OTHER_GROUP)
            query = await fake.press_button(ANA, OTHER_GROUP, own.message_id, "✋ Join")
            await fake.wait_callback_answer(query, timeout=ROOMY)
            await fake.wait_idle(timeout=ROOMY)
            assert LEAVER_NAME in fake.message(GROUP, joined.message_id).text
            ana_lobby = await deps.service.active_game(GROUP, None)
            own_lobby = await deps.service.active_game(OTHER_GROUP, None)
            assert ana_lobby is not None and own_lobby is not None

            # A forged copy of the confirm button, pressed in a group, deletes nothing.
            query = await fake.press(
                LEAVER, GROUP, joined.message_id, encode(Action.FORGET, 1), check_button=False
            )
            answer = await fake.wait_callback_answer(query, timeout=ROOMY)
            assert answer.get("show_alert")
            async with store.read() as tx:
                assert await tx.users.get(LEAVER) is not None

            await _ask(fake, LEAVER, LEAVER, "/deletemydata")
            question = fake.last_bot_message(LEAVER)
            assert question is not None
            query = await fake.press_button(LEAVER, LEAVER, question.message_id, "🗑 Delete my data")
            await fake.wait_callback_answer(query, timeout=ROOMY)
            await fake.wait_idle(timeout=ROOMY)

            async with store.read() as tx:
                ana_seats = await tx.seats.of_game(ana_lobby)
                ana_game = await tx.games.get(ana_lobby)
                own_game = await tx.games.get(own_lobby)
            # Ana's lobby stays open with Ana alone; the leaver's own lobby is closed.
            assert [s.user_id for s in ana_seats] == [ANA]
            assert ana_game.status is GameStatus.LOBBY
            assert own_game.status is GameStatus.ABORTED
            assert is_former_player(own_game.opener_id)
            assert LEAVER_NAME not in fake.message(GROUP, joined.message_id).text
            closed = fake.message(OTHER_GROUP, own.message_id)
            assert "closed" in closed.text and LEAVER_NAME not in closed.text
            assert await rows_mentioning(store, LEAVER, LEAVER_NAME) == []


async def test_the_last_person_at_a_table_leaving_stops_the_game(tmp_path: Path) -> None:
    """With nobody left, the computer does not play the game out in former players' names."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(LEAVER, "Zaskia", last_name="Quintessa", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(LEAVER,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            deps = deps_of(app)
            store = deps.service.store
            await seat_and_start(fake, LEAVER)
            await fake.wait_idle(timeout=ROOMY)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            await _ask(fake, LEAVER, LEAVER, "/deletemydata")
            question = fake.last_bot_message(LEAVER)
            assert question is not None
            query = await fake.press_button(LEAVER, LEAVER, question.message_id, "🗑 Delete my data")
            await fake.wait_callback_answer(query, timeout=ROOMY)
            await fake.wait_idle(timeout=ROOMY)
            async with store.read() as tx:
                assert (await tx.games.get(game_id)).status is GameStatus.ABORTED
                assert await tx.results.of_game(game_id) == []
            assert await rows_mentioning(store, LEAVER, LEAVER_NAME) == []
            assert await rows_mentioning(store, LEAVER, "Zaskia") == []


async def test_play_again_does_not_seat_a_former_player(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            store = deps_of(app).service.store
            config = GameConfig(RuleSet.CLASSIC, 4, 30)
            lineup: list[Player] = [LEAVER, ANA, ComputerLevel.EASY, BUDI]
            game_id, _ = await play_game(store, GROUP, config, lineup, 1, moves_per_unit=50)
            async with store.transaction() as tx:
                former = await tx.forget_user(LEAVER)
            assert former is not None
            await fake.start_private(ANA)
            help_message = await _ask(fake, ANA, GROUP, "/help")
            assert help_message
            anchor = fake.last_bot_message(GROUP)
            assert anchor is not None
            query = await fake.press(
                ANA,
                GROUP,
                anchor.message_id,
                encode(Action.PLAY_AGAIN, game_id),
                check_button=False,
            )
            await fake.wait_callback_answer(query, timeout=ROOMY)
            await fake.wait_idle(timeout=ROOMY)
            new_game = await deps_of(app).service.active_game(GROUP, None)
            assert new_game is not None and new_game != game_id
            async with store.read() as tx:
                seated = [s.user_id for s in await tx.seats.of_game(new_game)]
            assert former not in seated
            assert seated[:2] == [ANA, BUDI]
            assert "a former player" not in lobby_message(fake).text


async def test_a_second_tap_on_the_answered_question_fails_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Cancel (or Delete) tapped twice: the answer is already in place, and that is fine."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(LEAVER, "Zaskia", last_name="Quintessa", language_code="en")
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            await fake.start_private(LEAVER)
            await _ask(fake, LEAVER, LEAVER, "/deletemydata")
            question = fake.last_bot_message(LEAVER)
            assert question is not None
            with caplog.at_level(logging.ERROR):
                for choice in (0, 0, 1, 1):
                    data = encode(Action.FORGET, choice)
                    query = await fake.press(
                        LEAVER, LEAVER, question.message_id, data, check_button=False
                    )
                    assert await fake.wait_callback_answer(query, timeout=ROOMY) is not None
                    await fake.wait_idle(timeout=ROOMY)
                # A forged answer on a message that is not the question (the person's own
                # command) is answered in a new message instead.
                command = next(m for m in fake.messages(LEAVER) if not m.from_bot)
                data = encode(Action.FORGET, 0)
                query = await fake.press(
                    LEAVER, LEAVER, command.message_id, data, check_button=False
                )
                assert await fake.wait_callback_answer(query, timeout=ROOMY) is not None
                await fake.wait_idle(timeout=ROOMY)
            assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
            assert fake.message(LEAVER, question.message_id).text.startswith("Done:")
            assert fake.last_bot_text(LEAVER) == "Nothing was deleted."
        fake.assert_no_violations()
