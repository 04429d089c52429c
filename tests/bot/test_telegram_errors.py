"""Telegram's errors never break a game: 403 hands the seat over, 429 waits, the budget holds."""

from __future__ import annotations

import random
from collections import deque
from pathlib import Path

from gaple_bot.store import GameStatus
from tests.bot.driver import play_until, seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, load_engine_game, running_bot
from tests.bot.outbox_kit import GROUP_WRITES
from tests.clock import TestClock
from tests.fakes.telegram_server import FakeTelegram, running_fake

ANA, BUDI = 401, 402


async def _open_and_start(fake: FakeTelegram) -> None:
    fake.add_user(ANA, "Ana")
    fake.add_user(BUDI, "Budi")
    fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
    await seat_and_start(fake, ANA, BUDI)


async def test_a_player_who_blocks_the_bot_is_played_by_the_computer(tmp_path: Path) -> None:
    rng = random.Random(2)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3") as app,
    ):
        deps = deps_of(app)
        await _open_and_start(fake)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None
        fake.block_user(BUDI)

        def told() -> bool:
            return any("can't reach Budi" in m.text for m in fake.bot_messages(GROUP))

        async def budi_on_autoplay() -> bool:
            async with deps.service.store.read() as tx:
                return (await tx.seats.of_game(game_id))[1].autoplay

        await play_until(fake, (ANA,), budi_on_autoplay, rng, seconds=200)
        await fake.wait_for(told, message="the group was not told")

        async def finished() -> bool:
            async with deps.service.store.read() as tx:
                return (await tx.games.get(game_id)).status is GameStatus.FINISHED

        # The game goes on to its end with Ana alone among computers.
        await play_until(fake, (ANA,), finished, rng, seconds=200)


async def test_429_and_not_modified_do_not_stop_the_game(tmp_path: Path) -> None:
    rng = random.Random(5)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3") as app,
    ):
        deps = deps_of(app)
        await _open_and_start(fake)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None
        fake.fail_next("editMessageText", 429, "Too Many Requests: retry after 1", 1, chat_id=GROUP)
        fake.fail_next(
            "editMessageText",
            400,
            "Bad Request: message is not modified: specified new message content and reply "
            "markup are exactly the same as a current content and reply markup of the message",
            chat_id=GROUP,
            count=2,
        )

        async def rounds_played(n: int) -> bool:
            game = await load_engine_game(deps.service.store, game_id)
            return game.round_number > n or game.is_over

        await play_until(fake, (ANA, BUDI), lambda: rounds_played(1), rng, seconds=180)
        statuses = [r.status for r in fake.requests if r.method == "editMessageText"]
        assert 429 in statuses and 400 in statuses
        # The table caught up with the game after the errors.
        await fake.wait_idle()
        game = await load_engine_game(deps.service.store, game_id)
        table = next(
            m
            for m in reversed(fake.bot_messages(GROUP))
            if f"round {game.round_number} ·" in m.text
        )
        assert f"round {game.round_number}" in table.text


async def test_group_budget_of_twenty_a_minute_holds_without_stalling(tmp_path: Path) -> None:
    rng = random.Random(8)
    # The clock stands still: the group's budget never refills during the test, so any move
    # that waited for it would wait for ever.
    clock = TestClock(frozen=True)
    async with (
        running_fake(group_limit_per_minute=20, clock=clock.seconds) as fake,
        running_bot(
            fake, tmp_path / "db.sqlite3", clock=clock, GROUP_MESSAGES_PER_MINUTE="20"
        ) as app,
    ):
        deps = deps_of(app)
        await _open_and_start(fake)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None

        async def many_moves() -> bool:
            game = await load_engine_game(deps.service.store, game_id)
            return sum(len(r.moves) for r in game.rounds) >= 40 or game.is_over

        # Forty moves need far more than twenty table edits: the people are never held up.
        await play_until(fake, (ANA, BUDI), many_moves, rng, seconds=240)
        group_writes = [r for r in fake.requests if r.chat_id == GROUP and r.method in GROUP_WRITES]
        assert all(r.status != 429 for r in group_writes)
        window: deque[float] = deque()
        for request in group_writes:
            window.append(request.time)
            while request.time - window[0] >= 60:
                window.popleft()
            assert len(window) <= 20
        # Edits waiting for the budget were merged: fewer writes than moves.
        assert len(group_writes) < 40
