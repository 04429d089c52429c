"""The log at DEBUG, set up exactly as `run()` sets it up, over a whole game: no hand, no
name, no token in any line."""

from __future__ import annotations

import io
import logging
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from gaple_bot.app import setup_logging
from gaple_bot.bot.callback_data import Action, encode
from gaple_bot.logs import LOGGER_FLOORS
from gaple_bot.settings import settings_from
from gaple_bot.store import GameStatus
from tests.bot.driver import play_until, seat_and_start
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, running_bot
from tests.bot.leaks import assert_log_names_no_tile
from tests.fakes.telegram_server import running_fake

KIRANA, BAMBANG = 301, 302
NAMES = ("Kirana", "Sulistyowati", "Bambang", "Pamungkas")
TOKEN = "987654:SecretPartOfTheBotToken"
WEBHOOK_SECRET = "WebhookSecretNeverLogged"


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """Every log line, at LOG_LEVEL=DEBUG, through run()'s own set-up; undone afterwards."""
    root = logging.getLogger()
    saved = {name: logging.getLogger(name).level for name in ("", *LOGGER_FLOORS)}
    stream = io.StringIO()
    settings = settings_from({"TELEGRAM_BOT_TOKEN": TOKEN, "LOG_LEVEL": "DEBUG"})
    handler = setup_logging(settings, WEBHOOK_SECRET, stream)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        for name, level in saved.items():
            logging.getLogger(name or None).setLevel(level)


async def test_a_whole_game_at_debug_logs_no_hand_name_or_token(
    tmp_path: Path, debug_log: io.StringIO
) -> None:
    async with running_fake(group_limit_per_minute=1000, token=TOKEN) as fake:
        fake.add_user(KIRANA, "Kirana", last_name="Sulistyowati", language_code="en")
        fake.add_user(BAMBANG, "Bambang", last_name="Pamungkas", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(KIRANA,), members=(BAMBANG,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            deps = deps_of(app)
            await fake.start_private(KIRANA)
            await fake.send_message(KIRANA, GROUP, "/settings")
            await fake.wait_idle(timeout=60)
            menu = fake.last_bot_message(GROUP)
            assert menu is not None
            # A short target, so the game ends soon.
            await fake.press(KIRANA, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, 1, 0))
            await fake.wait_idle(timeout=60)
            await seat_and_start(fake, KIRANA, BAMBANG)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None

            async def finished() -> bool:
                async with deps.service.store.read() as tx:
                    return (await tx.games.get(game_id)).status is GameStatus.FINISHED

            await play_until(fake, (KIRANA, BAMBANG), finished, random.Random(5), seconds=180)
            await fake.wait_idle(timeout=60)
            assert any("wins the game" in text for text in fake.all_texts_sent_to(GROUP))
            # A person's private chat and the group saw hands and names: the log must not.
            assert any("[" in text for text in fake.all_texts_sent_to(KIRANA)), (
                "the players were shown their tiles"
            )

    lines = debug_log.getvalue().splitlines()
    assert any(" DEBUG " in line for line in lines), "the log was not at DEBUG"
    assert any(" telegram" in line for line in lines), "the Telegram library's lines are missing"
    assert_log_names_no_tile(lines)
    secret = TOKEN.partition(":")[2]
    for line in lines:
        assert secret not in line and WEBHOOK_SECRET not in line, f"a secret in: {line!r}"
        for name in NAMES:
            assert name not in line, f"a name in the log: {line!r}"
