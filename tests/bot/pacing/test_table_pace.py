"""The group's table message is edited at most every TABLE_EDIT_SECONDS while a game is played
in chat: the moves made meanwhile show in one edit, and none is lost."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gaple_bot.bot.pacing.table_pace import TablePace
from gaple_bot.games.gaple.present.tiles import line_text
from gaple_bot.service.views import SeatInfo, TableView
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
            handed = _hand_offs(deps_of(app).presenter.group.pace)
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
            # The people's moves and the computers' between them, in fewer edits.
            assert 1 <= len(edits) < TURNS, len(edits)
            # The outbox may merge an edit that still waited into the next.
            assert len(edits) <= len(handed), (handed, edits)
            # The pace spaces the edits it hands to the outbox. Where Telegram receives them,
            # an edit that waited in the outbox behind other messages comes that much closer
            # to the next one, so the gaps are measured at the hand-off, not at the fake.
            gaps = [later - earlier for earlier, later in itertools.pairwise(handed)]
            assert all(gap >= PACE - EPSILON for gap in gaps), gaps


def _hand_offs(pace: TablePace) -> list[float]:
    """The event loop's time of each table edit `pace` hands on from now on."""
    handed: list[float] = []
    edit = pace._edit

    def recorded(table: TableView[Any]) -> None:
        handed.append(asyncio.get_running_loop().time())
        edit(table)

    pace._edit = recorded
    return handed


@dataclass
class _Table:
    """What the pace reads of a table: its game and its seats."""

    game_id: int
    seats: tuple[SeatInfo, ...] = (SeatInfo(0, ANA, "Ana"),)


class _NoPages:
    def is_open(self, game_id: int, user_id: int) -> bool:
        return False


async def test_a_busy_bot_widens_the_table_pace_by_its_queue() -> None:
    """With messages already waiting their turn (seconds of them), a chat table's next edit
    is held that much longer, so the moves made meanwhile join it rather than queue apart."""
    edits: list[object] = []
    backlog = 0.0
    pace = TablePace(
        _NoPages(),  # type: ignore[arg-type]
        edits.append,
        chat_interval=1.0,
        backlog=lambda: backlog,
    )
    loop = asyncio.get_running_loop()
    first, second, third = _Table(1), _Table(1), _Table(1)
    pace.show(first)  # type: ignore[arg-type]
    assert edits == [first]
    backlog = 40.0
    shown_at = loop.time()
    pace.show(second)  # type: ignore[arg-type]
    pace.show(third)  # type: ignore[arg-type]
    assert edits == [first]
    held = pace._held[1]
    assert held.table is third
    # Due a second after the last edit, plus the forty seconds of queue.
    assert held.timer.when() - shown_at > 40.0 - 1.0
    pace.flush(1)
    assert edits == [first, third]
    # Once the queue is gone the pace is its own again.
    backlog = 0.0
    pace.show(_Table(2))  # type: ignore[arg-type]
    pace.show(_Table(2))  # type: ignore[arg-type]
    assert pace._held[2].timer.when() - loop.time() <= 1.0
    pace.forget(2)
