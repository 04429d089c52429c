"""The group's table message is edited at most every TABLE_EDIT_SECONDS while a game is played
in chat: the moves made meanwhile show in one edit, and none is lost."""

from __future__ import annotations

import itertools
from pathlib import Path

from gaple_bot.games.gaple.present.tiles import line_text
from tests.bot.driver import seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, load_engine_game, running_bot
from tests.bot.test_hand_in_place import PEOPLE, play_a_turn
from tests.fakes.telegram_server import running_fake

ANA, BUDI = PEOPLE
PACE = 2
"""Seconds between two table edits in these tests (short, so that they stay quick)."""
TURNS = 6
"""People's turns played (with the computers' after each, well within a round)."""
EPSILON = 0.05
"""The fake's clock and the bot's timers need not agree to the millisecond."""


async def test_the_table_is_edited_at_its_pace_and_shows_every_move(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        for user, name in ((ANA, "Ana"), (BUDI, "Budi")):
            fake.add_user(user, name, language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, tmp_path / "db.sqlite3", TABLE_EDIT_SECONDS=str(PACE)) as app:
            await seat_and_start(fake, ANA, BUDI)
            await fake.wait_idle()
            table = fake.bot_messages(GROUP)[-1]
            for _ in range(TURNS):
                await play_a_turn(fake)
            # The held edit goes in the end: the table shows every tile on the line then.
            game_id = await deps_of(app).service.active_game(GROUP, None)
            assert game_id is not None
            game = await load_engine_game(deps_of(app).service.store, game_id)
            assert game.round.line, "a round ended: the table message is another one"
            line = line_text(tuple(game.round.line))

            def shown() -> bool:
                return line in fake.message(GROUP, table.message_id).text

            await fake.wait_for(shown, timeout=30, message=f"the table never showed {line}")
            edits = [
                r
                for r in fake.group_writes(GROUP)
                if r.method == "editMessageText" and r.params.get("message_id") == table.message_id
            ]
            gaps = [later.time - earlier.time for earlier, later in itertools.pairwise(edits)]
            # The people's moves and the computers' between them, in fewer edits.
            assert 1 <= len(edits) < TURNS, len(edits)
            assert all(gap >= PACE - EPSILON for gap in gaps), gaps
