"""The turn timer: a reminder at half time, the computer at the end, two in a row hand over."""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime
from pathlib import Path

from gaple_bot.bot.callback_data import Action
from tests.bot.driver import play_until, seat_and_start, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, carries_moves, deps_of, running_bot
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA, BUDI = 201, 202


def _group_texts(fake: FakeTelegram) -> list[str]:
    return [m.text for m in fake.bot_messages(GROUP)]


def _take_back_offer(fake: FakeTelegram) -> FakeMessage | None:
    for message in reversed(fake.bot_messages(ANA)):
        if any((d or "").startswith(Action.TAKE_BACK_SEAT.value) for _, d in message.buttons()):
            return message
    return None


async def test_reminder_then_computer_then_handover_then_take_back(tmp_path: Path) -> None:
    rng = random.Random(3)
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        # Turns long enough for Budi to make his moves however busy the machine is.
        async with running_bot(fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS="10") as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None

            # Half time: a private nudge; the end: the computer plays and the group is told.
            await play_until(
                fake,
                (BUDI,),
                lambda: any("left." in m.text for m in fake.bot_messages(ANA)),
                rng,
                seconds=180,
            )
            await play_until(
                fake,
                (BUDI,),
                lambda: any(
                    "Ana ran out of time: the computer played" in t for t in _group_texts(fake)
                ),
                rng,
                seconds=180,
            )
            async with deps.service.store.read() as tx:
                ana = (await tx.seats.of_game(game_id))[0]
            assert ana.user_id == ANA and ana.timeouts >= 1

            # The second timeout in a row hands the seat to the computer.
            await play_until(
                fake, (BUDI,), lambda: _take_back_offer(fake) is not None, rng, seconds=180
            )
            # The group's notice goes through the outbox, maybe after the private offer.
            await fake.wait_for(
                lambda: any(
                    t.startswith("⏰ Ana") and "ran out of time twice" in t
                    for t in _group_texts(fake)
                ),
                message="the group was not told of the handover",
            )
            async with deps.service.store.read() as tx:
                ana = (await tx.seats.of_game(game_id))[0]
            assert ana.autoplay
            # No live move buttons are left behind in Ana's chat (the edit that takes them off
            # goes after the next hand, so it may still be on its way).
            await fake.wait_for(
                lambda: turn_message(fake, ANA) is None,
                message="Ana's last hand kept its live buttons",
            )

            offer = _take_back_offer(fake)
            assert offer is not None
            query = await fake.press_button(ANA, ANA, offer.message_id, "🙋 Take my seat back")
            answer = await fake.wait_callback_answer(query)
            assert answer is not None and not answer.get("show_alert")
            async with deps.service.store.read() as tx:
                ana = (await tx.seats.of_game(game_id))[0]
            assert not ana.autoplay and ana.timeouts == 0
            assert "yours again" in fake.message(ANA, offer.message_id).text
            # Her turn comes to her again.
            await play_until(
                fake, (BUDI,), lambda: turn_message(fake, ANA) is not None, rng, seconds=180
            )


async def test_a_turn_whose_hand_never_went_out_is_not_counted_against_the_person(
    tmp_path: Path,
) -> None:
    """Ana's hands fail to reach her twice in a row: the computer plays both turns when they
    run out, but neither counts against her, so her seat stays hers."""
    rng = random.Random(4)
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        fake.fail_next(
            "sendMessage",
            500,
            "Internal Server Error",
            count=2,
            chat_id=ANA,
            matching=carries_moves,
        )
        async with running_bot(fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS="6") as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None

            def ran_out() -> int:
                return sum("Ana ran out of time" in t for t in _group_texts(fake))

            await play_until(fake, (BUDI,), lambda: ran_out() >= 2, rng, seconds=180)
            # Her next turn's hand reaches her: the seat is still hers to play.
            await play_until(
                fake, (BUDI,), lambda: turn_message(fake, ANA) is not None, rng, seconds=180
            )
            assert not any("ran out of time twice" in t for t in _group_texts(fake))
            async with deps.service.store.read() as tx:
                ana = (await tx.seats.of_game(game_id))[0]
            assert ana.user_id == ANA and not ana.autoplay and ana.timeouts == 0


async def test_a_turn_timer_the_busy_bot_runs_late_still_ends_the_turn(tmp_path: Path) -> None:
    """The event loop is held up past the end of Ana's turn (a busy bot): the timer runs late,
    and the computer plays for her, instead of the turn waiting for ever."""
    turn_seconds = 10
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(
            fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS=str(turn_seconds)
        ) as app:
            await seat_and_start(fake, ANA)
            await fake.wait_for(lambda: turn_message(fake, ANA) is not None, timeout=60)
            assert app.job_queue is not None
            [timer] = [job for job in app.job_queue.jobs() if job.name.startswith("turn:")]
            assert timer.next_t is not None
            late = (timer.next_t - datetime.now(UTC)).total_seconds() + 2
            assert late > 2, "the turn ended before the test could hold the loop"
            # Blocking on purpose: nothing runs, the timers included, until two seconds past
            # the turn's end (more than the second of lateness the scheduler forgives).
            time.sleep(late)  # noqa: ASYNC251
            await fake.wait_for(
                lambda: any("Ana ran out of time" in t for t in _group_texts(fake)),
                timeout=60,
                message="the late timer never ended Ana's turn",
            )
            # The half-time reminder ran late too, past the turn's end: it said nothing.
            await fake.wait_idle()
            reminders = [m for m in fake.bot_messages(ANA) if "⏳ Your move" in (m.text or "")]
            assert reminders == []
