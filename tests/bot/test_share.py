"""Share through the real bot: a player's page asks for the finished game's standings, the bot
has the fake Bot API (which checks every request against the spec) store them as a prepared
inline message for that player, and the photo's address serves the picture as JPEG."""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
from PIL import Image

from tests.bot.driver import Player
from tests.fakes.telegram_server import running_fake
from tests.web.test_open_table import (
    PAGE_URL,
    bot_with_page,
    open_table_url,
    play_to_the_end,
    sign_in,
    token_of,
)

from .harness import GROUP, GROUP_TITLE, deps_of, lobby_message

ANA = 801


async def test_the_bot_prepares_the_standings_for_the_player_who_shares_them(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with (
            bot_with_page(fake, tmp_path / "gaple.sqlite3") as (app, origin),
            aiohttp.ClientSession() as http,
        ):
            service = deps_of(app).service
            # One round decides the game.
            await service.players.chat(GROUP, GROUP_TITLE)
            async with service.store.transaction() as tx:
                await tx.chats.set_option(GROUP, "gaple", "target", "1")
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake)
            status, answer = await sign_in(http, origin, fake, ANA, token_of(open_table_url(lobby)))
            assert status == 200, answer
            session = answer["session"]
            query = await fake.press_button(ANA, GROUP, lobby.message_id, "▶️ Start")
            await fake.wait_callback_answer(query)
            await fake.wait_idle()
            game_id = await service.active_game(GROUP, None)
            assert game_id is not None
            await play_to_the_end(service, game_id, {}, [Player(fake, ANA)], set())
            await fake.wait_idle()

            async with http.post(f"{origin}/app/api/share", json={"session": session}) as got:
                assert got.status == 200, await got.text()
                shared = await got.json()

            (prepared,) = fake.prepared_messages
            assert shared["id"] == prepared["id"]
            assert prepared["user_id"] == ANA
            result = prepared["result"]
            assert result["type"] == "photo" and result["id"] == f"standings-{game_id}"
            assert result["photo_url"].startswith(f"{PAGE_URL}/app/share/{game_id}/en/")
            assert "Ana" in result["caption"]
            assert prepared["allow_user_chats"] and prepared["allow_group_chats"]
            # What Telegram fetches at that address (served here on 127.0.0.1).
            async with http.get(origin + urlsplit(result["photo_url"]).path) as photo:
                assert photo.status == 200 and photo.content_type == "image/jpeg"
                image = Image.open(io.BytesIO(await photo.read()))
            assert image.format == "JPEG"
            assert image.size == (result["photo_width"], result["photo_height"])
