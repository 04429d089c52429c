"""Whole games with two people and two computers, for each rule set, over real HTTP."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gaple_bot.bot.callback_data import Action, encode
from gaple_bot.store import GameStatus
from tests.bot.driver import play_until, seat_and_start
from tests.bot.harness import (
    GROUP,
    GROUP_TITLE,
    deps_of,
    load_engine_game,
    lobby_message,
    running_bot,
)
from tests.bot.leaks import (
    assert_group_saw_nothing_hidden,
    assert_player_saw_only_their_own,
    load_secrets,
)
from tests.fakes.telegram_server import running_fake

ANA, BUDI = 101, 102


TURN_JOBS = ("remind:", "turn:")
"""Names of a game's turn jobs (flow.turn_job_names)."""


@pytest.mark.parametrize("rules_choice", [0, 1])
async def test_whole_game_two_people_two_computers(database: Path | str, rules_choice: int) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, database) as app:
            deps = deps_of(app)
            await fake.start_private(ANA)
            await fake.start_private(BUDI)
            # Rules and a short target from the admin's settings menu.
            await fake.send_message(ANA, GROUP, "/settings")
            await fake.wait_idle()
            menu = fake.last_bot_message(GROUP)
            assert menu is not None
            await fake.press(
                ANA, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, 0, rules_choice)
            )
            await fake.press(ANA, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, 1, 0))
            await fake.wait_idle()
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake)
            query = await fake.press_button(BUDI, GROUP, lobby.message_id, "✋ Join")
            await fake.wait_callback_answer(query)
            query = await fake.press_button(ANA, GROUP, lobby.message_id, "▶️ Start")
            await fake.wait_callback_answer(query)
            await fake.wait_idle()
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            rng = random.Random(7)

            async def finished() -> bool:
                async with deps.service.store.read() as tx:
                    return (await tx.games.get(game_id)).status is GameStatus.FINISHED

            await play_until(fake, (ANA, BUDI), finished, rng, seconds=200)
            await fake.wait_idle()
            texts = fake.all_texts_sent_to(GROUP)
            assert any("wins the game" in text for text in texts)
            # Nothing hidden reached anyone: the group saw the line, each person their hand.
            game = await load_engine_game(deps.service.store, game_id)
            secrets = await load_secrets(deps.service.store, game_id)
            assert_group_saw_nothing_hidden(fake, GROUP, secrets)
            assert_player_saw_only_their_own(fake, ANA, 0, secrets)
            assert_player_saw_only_their_own(fake, BUDI, 1, secrets)
            # The final standings show the scores the database holds.
            async with deps.service.store.read() as tx:
                results = await tx.results.of_game(game_id)
            assert [r.points for r in results] == game.scores
            assert max(game.scores) >= game.config.target
            # Every turn's reminder and time-up were cancelled as the game moved on.
            assert app.job_queue is not None
            turn_jobs = [j.name for j in app.job_queue.jobs() if j.name.startswith(TURN_JOBS)]
            assert turn_jobs == []


async def test_computer_players_think_in_a_worker_process(tmp_path: Path) -> None:
    """The production setting: decisions run in a separate process, off the event loop."""
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "gaple.sqlite3", COMPUTER_PROCESSES="1") as app,
    ):
        deps = deps_of(app)
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        await seat_and_start(fake, ANA)
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None

        async def finished() -> bool:
            async with deps.service.store.read() as tx:
                return (await tx.games.get(game_id)).status is GameStatus.FINISHED

        await play_until(fake, (ANA,), finished, random.Random(1), seconds=200)
        game = await load_engine_game(deps.service.store, game_id)
        assert game.winner is not None and max(game.scores) >= game.config.target
