"""Nothing the groups were meant to see is lost at shutdown: it goes out after the restart."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import ParseMode

from gaple_bot.bot.outbox import open_outbox
from gaple_bot.service.outbox import GroupLedger
from gaple_bot.store import GameStatus
from tests.bot.driver import play_until, seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, load_engine_game, running_bot
from tests.bot.outbox_kit import assert_window_holds, migrated_store, outbox_clock, settle
from tests.fakes.clock import ManualClock
from tests.fakes.telegram_server import running_fake

ANA, BUDI = 1201, 1202


async def test_sends_queued_at_shutdown_go_out_after_the_restart(tmp_path: Path) -> None:
    clock = ManualClock()
    async with (
        running_fake(group_limit_per_minute=5, clock=clock.now, sleep=clock.sleep) as fake,
        migrated_store(tmp_path / "db.sqlite3") as store,
        fake.make_bot() as bot,
    ):
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        ledger = GroupLedger(store)
        first = open_outbox(bot, 5, ledger=ledger, clock=outbox_clock(clock))
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="again")]])
        texts = [f"<b>result</b> {n}" for n in range(12)]
        for text in texts:
            first.send(GROUP, text=text, parse_mode=ParseMode.HTML, reply_markup=markup)
        await settle(fake, clock, first)
        assert len(fake.bot_messages(GROUP)) == 5
        await first.close(10)
        assert len(await ledger.pending()) == 7

        clock.advance(30.0)
        second = open_outbox(bot, 5, ledger=ledger, clock=outbox_clock(clock))
        assert await second.restore() == 7
        while second.busy:
            await settle(fake, clock, second)
            clock.advance(61.0)
        # Every message once, in the order it was queued, with its buttons.
        shown = fake.bot_messages(GROUP)
        assert [m.text for m in shown] == [f"result {n}" for n in range(12)]
        assert all(m.buttons() == [("Again", "again")] for m in shown)
        assert all(m.entities == [{"type": "bold", "offset": 0, "length": 6}] for m in shown)
        assert await ledger.pending() == []
        assert_window_holds(fake, GROUP, 5)


async def test_round_results_queued_at_a_restart_are_shown_once_in_order(tmp_path: Path) -> None:
    """The group is at its budget when round 1 ends, and the bot restarts: the results it
    had not shown go out after the restart, in order, exactly once."""
    clock = ManualClock()
    database = tmp_path / "db.sqlite3"
    rng = random.Random(9)
    async with running_fake(group_limit_per_minute=5, clock=clock.now, sleep=clock.sleep) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(
            fake,
            database,
            outbox_clock=outbox_clock(clock),
            GROUP_MESSAGES_PER_MINUTE="5",
            DEFAULT_TURN_SECONDS="3600",
        ) as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None

            async def round_over() -> bool:
                game = await load_engine_game(deps.service.store, game_id)
                return game.round_number > 1 or game.is_over

            await play_until(fake, (ANA, BUDI), round_over, rng)
            await settle(fake, clock, deps.outbox)
            assert not any("🏁 Round 1" in m.text for m in fake.bot_messages(GROUP))
        async with migrated_store(database) as store:
            stored = [s.params["text"] for s in await GroupLedger(store).pending()]
        assert any("🏁 Round 1" in text for text in stored)

        async with running_bot(
            fake,
            database,
            outbox_clock=outbox_clock(clock),
            GROUP_MESSAGES_PER_MINUTE="5",
            DEFAULT_TURN_SECONDS="3600",
        ) as app:
            deps = deps_of(app)
            ledger = deps.service.ledger
            for _ in range(10):
                await settle(fake, clock, deps.outbox)
                if not await ledger.pending():
                    break
                clock.advance(61.0)
            assert await ledger.pending() == []
            async with deps.service.store.read() as tx:
                assert (await tx.games.get(game_id)).status is GameStatus.RUNNING
        texts = [m.text for m in fake.bot_messages(GROUP)]
        shown = [t for t in texts if any(_same(t, s) for s in stored)]
        assert len(shown) == len(stored)
        assert all(_same(t, s) for t, s in zip(shown, stored, strict=True))
        assert sum("🏁 Round 1" in t for t in texts) == 1
        assert_window_holds(fake, GROUP, 5)


def _same(shown: str, stored_html: str) -> bool:
    """Whether a message shown in the group is the stored HTML text (tags removed)."""
    return shown == html.unescape(re.sub(r"<[^>]+>", "", stored_html)).strip()
