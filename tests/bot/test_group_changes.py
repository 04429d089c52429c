"""The group changes under a game: an admin deletes the table message, a player blocks the bot."""

from __future__ import annotations

import random
from pathlib import Path

from tests.bot.driver import play_until, seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, load_engine_game, running_bot
from tests.fakes.telegram_server import running_fake

ANA, BUDI = 1401, 1402


async def test_a_deleted_table_message_is_posted_again_and_play_goes_on(tmp_path: Path) -> None:
    rng = random.Random(6)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3", DEFAULT_TURN_SECONDS="3600") as app,
    ):
        deps = deps_of(app)
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        await seat_and_start(fake, ANA, BUDI)
        await fake.wait_idle()
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None

        async def table_message() -> int | None:
            async with deps.service.store.read() as tx:
                return (await tx.games.get(game_id)).message_id

        async def moves() -> int:
            game = await load_engine_game(deps.service.store, game_id)
            return sum(len(r.moves) for r in game.rounds)

        old = await table_message()
        assert old is not None and "round 1 ·" in fake.message(GROUP, old).text
        fake.delete_message(GROUP, old)
        made = await moves()

        async def moved_on(count: int) -> bool:
            return await moves() >= count

        await play_until(fake, (ANA, BUDI), lambda: moved_on(made + 1), rng)
        await fake.wait_idle()
        new = await table_message()
        assert new is not None and new != old
        table = fake.message(GROUP, new)
        assert "round 1 ·" in table.text
        assert deps.service.cache.games[game_id].message_id == new
        # Play goes on, on the new message.
        edits = len(table.versions)
        made = await moves()
        await play_until(fake, (ANA, BUDI), lambda: moved_on(made + 1), rng)
        await fake.wait_idle()
        assert len(fake.message(GROUP, new).versions) > edits
        assert await table_message() == new


async def test_a_player_who_blocked_the_bot_is_announced_once(tmp_path: Path) -> None:
    rng = random.Random(2)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3") as app,
    ):
        deps = deps_of(app)
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        await seat_and_start(fake, ANA, BUDI)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None
        fake.block_user(BUDI)

        async def third_round() -> bool:
            game = await load_engine_game(deps.service.store, game_id)
            return game.round_number >= 3 or game.is_over

        await play_until(fake, (ANA,), third_round, rng, seconds=120)
        await fake.wait_idle()
        game = await load_engine_game(deps.service.store, game_id)
        assert game.round_number >= 3, "the game ended before a third round: pick another seed"
        # Each new round tried to send Budi his hand, and was refused...
        refused = [r for r in fake.requests if r.chat_id == BUDI and r.status == 403]
        assert len(refused) >= 2
        # ...but the group heard about it once.
        notices = [m.text for m in fake.bot_messages(GROUP) if "can't reach Budi" in m.text]
        assert len(notices) == 1
