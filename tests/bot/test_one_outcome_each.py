"""The chat front end sends commands and applies the outcomes it gets back: each command it
sends in a whole scripted game publishes exactly one outcome, the one it returned."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gaple_bot.service.outcome import LobbyChanged, Played, Stopped, TurnStarted
from tests.bot.driver import play_one_turn
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, lobby_message, running_bot
from tests.fakes.telegram_server import running_fake
from tests.outcome_spy import OutcomeSpy

ANA, BUDI = 101, 102
TURNS = 6


async def test_each_chat_command_publishes_the_one_outcome_it_returns(
    database: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, database) as app:
            spy = OutcomeSpy(deps_of(app).service, monkeypatch)
            await fake.start_private(ANA)
            await fake.start_private(BUDI)
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake).message_id
            await fake.wait_callback_answer(await fake.press_button(BUDI, GROUP, lobby, "✋ Join"))
            await fake.wait_callback_answer(await fake.press_button(ANA, GROUP, lobby, "▶️ Start"))
            await fake.wait_idle()
            rng = random.Random(5)
            for _ in range(TURNS):
                movers = [
                    user
                    for user in (ANA, BUDI)
                    if (message := fake.last_bot_message(user)) and message.reply_markup
                ]
                if not movers:
                    break
                await play_one_turn(fake, movers[-1], rng)
                await fake.wait_idle()
            await fake.send_message(ANA, GROUP, "/stop")
            await fake.wait_idle()
            published = spy.check_one_each()
    kinds = [{type(effect) for effect in outcome.effects} for outcome in published]
    # Join, Start, the moves, /stop: each a command, each one outcome (nothing else published).
    assert LobbyChanged in kinds[0] and TurnStarted in kinds[1]
    assert sum(Played in k for k in kinds[2:-1]) == len(kinds) - 3 >= 1
    assert kinds[-1] == {Stopped}
