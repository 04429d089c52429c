"""Pictures in real games over HTTP: every round end and the final standings come as photos
with the text as caption, /stats as a card, and text alone in a chat that turned them off."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from gaple_bot.bot.callback_data import Action, decode, encode
from gaple_bot.bot.deps import Deps
from gaple_bot.bot.render.settings import menu_options
from gaple_bot.games.gap.kind import GapKind
from gaple_bot.games.gaple.kind import GapleKind
from gaple_bot.games.gaple.present import GaplePresentation
from gaple_bot.games.pictures import Picture, PictureError
from gaple_bot.games.pictures.standings import standings_picture
from gaple_bot.games.views import RoundReveal
from gaple_bot.service.seen import table_view
from gaple_bot.store import GameStatus, Store
from tests.bot.driver import GAP_CARDS, Players, play_until, seat_and_start
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
from tests.bot.test_gap import ANA as GAP_ANA
from tests.bot.test_gap import BUDI as GAP_BUDI
from tests.bot.test_gap import card, gap_match, gap_setting, gap_world, start_gap
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA, BUDI = 101, 102
OPTIONS = menu_options(GapleKind())
TARGET, PICTURES = OPTIONS.index("target"), OPTIONS.index("pictures")
ON, OFF = 0, 1
"""Choice indexes of the pictures option."""
PLAY_AGAIN = "🔁 Play again"


async def open_gaple(fake: FakeTelegram, *, pictures: int = ON) -> None:
    """Ana (an admin) sets the smallest target and the pictures option, then Ana and Budi sit
    at a Gaple table that computers fill."""
    await fake.send_message(ANA, GROUP, "/settings")
    await fake.wait_idle()
    menu = fake.last_bot_message(GROUP)
    assert menu is not None
    await fake.press(ANA, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, TARGET, 0))
    await fake.press(
        ANA, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, PICTURES, pictures)
    )
    await fake.wait_idle()
    await seat_and_start(fake, ANA, BUDI)
    await fake.wait_idle()


async def finished(store: Store, game_id: int) -> bool:
    """Whether the game is over."""
    async with store.read() as tx:
        return (await tx.games.get(game_id)).status is GameStatus.FINISHED


async def assert_pictures_are_the_games(deps: Deps, game_id: int, shown: list[FakeMessage]) -> None:
    """Every round-end photo's data is the kind's round_end_picture of that round as the
    service shows it (its table() of the match replayed to the round's end), and the last
    photo's is the standings of the whole game."""
    live = await deps.service.cache.get(game_id)
    async with deps.service.store.read() as tx:
        stored = await tx.load_play(game_id)
    kind = live.kind
    *round_ends, standings = shown
    assert len(round_ends) == len(stored.rounds)
    for number, message in enumerate(round_ends, start=1):
        live.match = kind.replay(stored.config, stored.rounds[:number])
        table = table_view(live)
        reveal = RoundReveal(table, live.match.revealed())
        t = deps.presenter.render.group_t(table.language)
        expected = kind.presentation.round_end_picture(t, reveal)
        assert message.photo is not None and message.photo.data == expected.data, number
    table = table_view(live)
    history = live.match.totals_by_round() if live.match else ()
    expected = standings_picture(deps.presenter.render.group_t(table.language), table, history)
    assert standings.photo is not None and standings.photo.data == expected.data


async def test_gaple_round_ends_standings_and_stats_come_as_pictures(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            deps = deps_of(app)
            store = deps.service.store
            await open_gaple(fake)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            await play_until(
                fake, (ANA, BUDI), lambda: finished(store, game_id), random.Random(3), 200
            )
            await fake.wait_idle()
            game = await load_engine_game(store, game_id)
            shown = fake.photos(GROUP)
            # One photo per round, then the standings: nothing else is a photo.
            assert len(shown) == len(game.rounds) + 1
            for number, (message, played) in enumerate(
                zip(shown, game.rounds, strict=False), start=1
            ):
                assert message.text.startswith(f"🏁 Round {number}:"), message.text
                assert message.photo is not None and message.photo.width == 1080
                drawn = message.photo.strings()
                # The whole line of the round, and every name of the caption, is drawn.
                for a, b in played.line:
                    assert f"[{a}|{b}]" in drawn, (number, a, b)
                for name in ("Ana", "Budi"):
                    assert any(name in s for s in drawn)
                assert message.buttons() == []
            # Each picture is exactly the one the service's own views make: the round's end
            # replayed from the stored moves, shown through the same table() and reveal.
            await assert_pictures_are_the_games(deps, game_id, shown)
            last = shown[-1]
            assert "wins the game" in last.text
            assert [label for label, _ in last.buttons()] == [PLAY_AGAIN]
            assert last.photo is not None
            totals = [p["total"] for p in last.photo.data["players"]]
            assert totals == sorted(game.scores, reverse=True)
            # Round-end texts are not sent a second time beside their photos.
            ended = [m for m in fake.bot_messages(GROUP) if m.text.startswith("🏁")]
            assert ended == shown[:-1]

            secrets = await load_secrets(store, game_id)
            assert_group_saw_nothing_hidden(fake, GROUP, secrets)
            assert_player_saw_only_their_own(fake, ANA, 0, secrets)
            assert_player_saw_only_their_own(fake, BUDI, 1, secrets)

            # /stats answers with a card that says what its caption says.
            await fake.send_message(ANA, GROUP, "/stats")
            await fake.wait_idle()
            card_message = fake.last_bot_message(GROUP)
            assert card_message is not None and card_message.photo is not None
            assert card_message.text.startswith("Ana in this chat")
            assert card_message.reply_to_message_id is not None
            data = card_message.photo.data
            assert len(data["ratings"]) == 1
            drawn = " ".join(card_message.photo.strings())
            assert "Ana" in drawn

            # Play again works from the photo.
            _label, again = last.buttons()[0]
            assert again is not None and decode(again).action is Action.PLAY_AGAIN
            query = await fake.press(ANA, GROUP, last.message_id, again)
            answer = await fake.wait_callback_answer(query)
            assert answer is not None and answer.get("text") == "A new table is open."
            await fake.wait_idle()
            assert lobby_message(fake).message_id > last.message_id
            fake.assert_no_violations()


async def test_with_pictures_off_everything_is_text(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            deps = deps_of(app)
            store = deps.service.store
            await open_gaple(fake, pictures=OFF)
            menu = next(m for m in fake.bot_messages(GROUP) if "Settings for new games" in m.text)
            assert "Pictures: off, text only" in menu.text
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            await play_until(
                fake, (ANA, BUDI), lambda: finished(store, game_id), random.Random(3), 200
            )
            await fake.wait_idle()
            game = await load_engine_game(store, game_id)
            await fake.send_message(ANA, GROUP, "/stats")
            await fake.wait_idle()
            assert fake.requests_for("sendPhoto") == []
            shown = fake.bot_messages(GROUP)
            assert fake.photos(GROUP) == []
            assert sum(m.text.startswith("🏁") for m in shown) == len(game.rounds)
            standings = next(m for m in shown if "wins the game" in m.text)
            assert [label for label, _ in standings.buttons()] == [PLAY_AGAIN]
            assert shown[-1].text.startswith("Ana in this chat")


async def test_gap_round_ends_come_as_pictures_of_the_collections(tmp_path: Path) -> None:
    async with gap_world(tmp_path) as (fake, database), running_bot(fake, database) as app:
        deps = deps_of(app)
        store = deps.service.store
        people = (GAP_ANA, GAP_BUDI)
        game_id, _ = await start_gap(fake, people)
        await Players(fake, people, GAP_CARDS).play_until(
            lambda: finished(store, game_id), random.Random(5)
        )
        await fake.wait_idle()
        match = await gap_match(store, game_id)
        results = match.game.results
        shown = fake.photos(GROUP)
        assert len(shown) == len(results) + 1
        for message, result in zip(shown, results, strict=False):
            assert message.text.startswith("🏁"), message.text
            assert message.photo is not None
            seats = message.photo.data["seats"]
            for seat, collected in zip(seats, result.collections, strict=True):
                drawn = [c for column in seat["columns"] for c in column["cards"]]
                assert sorted(drawn) == sorted(card(c) for c in collected)
        assert "wins the game" in shown[-1].text
        await assert_pictures_are_the_games(deps, game_id, shown)
        secrets = await load_secrets(store, game_id)
        assert_group_saw_nothing_hidden(fake, GROUP, secrets)
        # Gap's own pictures setting is its own: turning it off there leaves Gaple's on.
        await gap_setting(fake, menu_options(GapKind()).index("pictures"), OFF)
        async with store.read() as tx:
            settings = await tx.chats.get(GROUP)
        assert settings is not None
        assert settings.options["gap"]["pictures"] == "off"
        assert "pictures" not in settings.options.get("gaple", {})


async def test_a_picture_that_cannot_be_built_leaves_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round-end picture whose data fails to build never stops the game: the round's text
    goes alone and the next round is dealt as usual."""

    def broken(self: GaplePresentation, t: object, reveal: object) -> Picture:
        raise PictureError("a drawer that cannot read its round")

    monkeypatch.setattr(GaplePresentation, "round_end_picture", broken)
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            deps = deps_of(app)
            store = deps.service.store
            await open_gaple(fake)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None
            await play_until(
                fake, (ANA, BUDI), lambda: finished(store, game_id), random.Random(3), 200
            )
            await fake.wait_idle()
            game = await load_engine_game(store, game_id)
            ended = [m for m in fake.bot_messages(GROUP) if m.text.startswith("🏁")]
            assert len(ended) == len(game.rounds) and all(m.photo is None for m in ended)
            # The standings are drawn as usual.
            [standings] = fake.photos(GROUP)
            assert "wins the game" in standings.text
