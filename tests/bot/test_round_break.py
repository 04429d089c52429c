"""The break after a round's end in chat: the next round's hand comes at once, but a move in it is
refused until the break's timer ends the break; then the round is played."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from gaple_bot.bot.timers import break_job_name
from tests.bot.driver import Players, seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, running_bot
from tests.clock import TestClock
from tests.fakes.telegram_server import running_fake

ANA = 101
BREAK = 60
"""Seconds: longer than the test, whose clock stands still; the test runs the break's timer."""
TURN = 60


async def test_a_move_waits_for_the_break_timer_and_the_round_goes_on(tmp_path: Path) -> None:
    clock = TestClock(frozen=True)
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(
            fake,
            tmp_path / "gaple.sqlite3",
            clock=clock,
            ROUND_BREAK_SECONDS=str(BREAK),
            DEFAULT_TURN_SECONDS=str(TURN),
        ) as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            commands = deps.service.commands
            people = Players(fake, (ANA,))
            # Her moves with this generator win her the first round: she leads the second.
            rng = random.Random(8)

            async def second_round() -> bool:
                return (await commands.table(game_id)).round_number >= 2

            await people.play_until(second_round, rng)
            await fake.wait_idle()
            snapshot = await commands.snapshot(game_id)
            table = snapshot.table
            assert snapshot.round_break is not None and table is not None
            assert snapshot.round_break.until == clock() + timedelta(seconds=BREAK)
            assert app.job_queue is not None
            (job,) = app.job_queue.get_jobs_by_name(break_job_name(game_id))
            ana = people.player(ANA)
            if table.to_move == 0:
                # Ana leads: her hand came with the deal, her turn runs from the break's end.
                assert table.deadline == snapshot.round_break.until + timedelta(seconds=TURN)
                message = ana.turn()
                assert message is not None
                _label, data = ana.moves.first(message)[0]
                answer = await ana.tap(message, data)
                assert "begins in a moment" in str(answer.get("text")), answer
            await fake.wait_idle()
            # Nobody moved during the break, whoever leads.
            assert (await commands.table(game_id)).version == table.version
            await job.run(app)
            await fake.wait_idle()
            assert (await commands.snapshot(game_id)).round_break is None
            # The round is played: Ana moves when her turn comes (the computers' before).
            played = await people.play_a_turn(rng)
            assert played == ANA
            assert (await commands.table(game_id)).version > table.version
