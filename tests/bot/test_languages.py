"""Each audience in its own language: the group in the chat's, every player in their own."""

from __future__ import annotations

import random
from pathlib import Path

from gaple_bot.bot.callback_data import Action, encode
from gaple_bot.i18n import SUPPORTED_LANGUAGES
from gaple_bot.store import GameStatus
from tests.bot.driver import play_until
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, lobby_message, running_bot
from tests.fakes.telegram_server import running_fake

ANA, BUDI = 501, 502


async def test_group_in_indonesian_and_a_player_in_french_then_german(tmp_path: Path) -> None:
    rng = random.Random(4)
    async with (
        running_fake(group_limit_per_minute=1000) as fake,
        running_bot(fake, tmp_path / "db.sqlite3") as app,
    ):
        deps = deps_of(app)
        fake.add_user(ANA, "Ana", language_code="id")
        fake.add_user(BUDI, "Budi", language_code="fr")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        await fake.start_private(ANA)
        await fake.start_private(BUDI)
        # The chat takes the language of whoever opens its first table.
        await fake.send_message(ANA, GROUP, "/gaple")
        await fake.wait_idle()
        lobby = lobby_message(fake)
        assert "✋ Ikut" in lobby.button_texts()
        await fake.wait_callback_answer(
            await fake.press_button(BUDI, GROUP, lobby.message_id, "✋ Ikut")
        )
        await fake.wait_callback_answer(
            await fake.press_button(ANA, GROUP, lobby.message_id, "▶️ Mulai")
        )
        await fake.wait_idle()
        table = fake.bot_messages(GROUP)[-1]
        assert "ronde 1" in table.text
        assert any("Ta main\N{NO-BREAK SPACE}:" in m.text for m in fake.bot_messages(BUDI))
        assert any("Kartumu:" in m.text for m in fake.bot_messages(ANA))
        assert not any("Your hand" in m.text for m in fake.bot_messages(BUDI))

        # Budi picks German for his private chat; the group stays Indonesian.
        await fake.send_message(BUDI, BUDI, "/language")
        await fake.wait_idle()
        menu = fake.bot_messages(BUDI)[-1]
        german = encode(Action.LANGUAGE, SUPPORTED_LANGUAGES.index("de"))
        await fake.wait_callback_answer(await fake.press(BUDI, BUDI, menu.message_id, german))
        seen = len(fake.bot_messages(BUDI))
        game_id = await deps.service.active_game(GROUP, None)
        assert game_id is not None

        async def budi_got_a_new_message() -> bool:
            # His next hand after the menu (later ones may come in the same message, in place).
            if any("Deine Hand:" in m.text for m in fake.bot_messages(BUDI)[seen:]):
                return True
            async with deps.service.store.read() as tx:
                return (await tx.games.get(game_id)).status is GameStatus.FINISHED

        await play_until(fake, (ANA, BUDI), budi_got_a_new_message, rng, seconds=180)
        later = [m.text for m in fake.bot_messages(BUDI)[seen:]]
        assert any("Deine Hand:" in text for text in later), later
        group_texts = [m.text for m in fake.bot_messages(GROUP)]
        assert not any("Deine Hand" in t or "Ta main" in t for t in group_texts)


async def test_command_menus_are_registered_in_every_language(tmp_path: Path) -> None:
    async with (
        running_fake() as fake,
        running_bot(fake, tmp_path / "db.sqlite3"),
    ):
        expected = {
            "id": "Buka meja Gaple di grup ini",
            "fr": "Ouvrir une table de Gaple dans ce groupe",
            "de": "Einen Gaple-Tisch in dieser Gruppe eröffnen",
            "en": "Open a Gaple table in this group",
        }
        for language, description in expected.items():
            commands = fake.bot_commands(language_code=language) or []
            assert {"command": "gaple", "description": description} in commands
        assert fake.bot_commands()  # the default menu for everyone else
