"""End-to-end tests of the commands: /stop, /rules, /help, /settings, /top and /stats."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path

from gaple_bot.bot.callback_data import Action, decode, encode
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.store import GameStatus
from tests.bot.driver import play_until, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, gaple_options, lobby_message, running_bot
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA, BUDI, CITRA = 101, 102, 103
PEOPLE = (ANA, BUDI)
QUIET = 0.1
"""Seconds without a Bot API call after which the bot counts as done with an update."""
NOT_ALLOWED = "Only whoever opened the table, or a group admin, can do that."
SETTINGS_REFUSED = "Only group admins can change the settings."
RULES, TARGET = 0, 1
"""Option indexes of the /settings buttons."""


def populate(fake: FakeTelegram) -> None:
    """Ana administers the group; Budi and Citra are members."""
    fake.add_user(ANA, "Ana")
    fake.add_user(BUDI, "Budi")
    fake.add_user(CITRA, "Citra")
    fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI, CITRA))


async def say(fake: FakeTelegram, user: int, chat: int, text: str, **kwargs: int) -> FakeMessage:
    """The user writes `text` in the chat; returns the bot's first message after it."""
    sent = await fake.send_message(user, chat, text, **kwargs)
    after = int(sent["message_id"])

    def answers() -> list[FakeMessage]:
        return [m for m in fake.bot_messages(chat) if m.message_id > after]

    await fake.wait_for(lambda: bool(answers()), message=f"no answer to {text!r}")
    await fake.wait_idle(quiet=QUIET)
    return answers()[0]


async def tap(fake: FakeTelegram, user: int, chat: int, message_id: int, data: str) -> str:
    """The user taps a button of the message; returns the answer's text."""
    query = await fake.press(user, chat, message_id, data)
    answer = await fake.wait_callback_answer(query)
    await fake.wait_idle(quiet=QUIET)
    return str(answer.get("text", ""))


async def start_game(fake: FakeTelegram, app: GapleApplication, opener: int) -> int:
    """Everyone opens their private chat; `opener` opens a table, the other person joins, the
    opener starts. Returns the game id once a person has move buttons."""
    for user in (ANA, BUDI, CITRA):
        await say(fake, user, user, "/start")
    await say(fake, opener, GROUP, "/gaple")
    lobby = lobby_message(fake)
    other = BUDI if opener == ANA else ANA
    for user, action in ((other, Action.JOIN), (opener, Action.START)):
        await tap(fake, user, GROUP, lobby.message_id, encode(action, game_of(lobby)))
    await fake.wait_for(
        lambda: any(turn_message(fake, user) is not None for user in PEOPLE),
        message="nobody got move buttons",
    )
    await fake.wait_idle(quiet=QUIET)
    game_id = await deps_of(app).service.active_game(GROUP, None)
    assert game_id is not None
    return game_id


def retired(fake: FakeTelegram, chat: int, message_id: int) -> Callable[[], bool]:
    """Whether the message has lost its buttons."""
    return lambda: fake.message(chat, message_id).buttons() == []


def answered(fake: FakeTelegram, chat: int, after: int) -> Callable[[], bool]:
    """Whether the bot wrote in the chat after the message `after`."""
    return lambda: any(m.message_id > after for m in fake.bot_messages(chat))


def game_of(lobby: FakeMessage) -> int:
    """The game id the lobby's Join button carries."""
    data = dict(lobby.buttons()).get("✋ Join")
    assert data is not None, lobby.buttons()
    return decode(data).field("game")


async def play_to_the_end(
    fake: FakeTelegram, app: GapleApplication, game_id: int, rng: random.Random
) -> None:
    """Ana and Budi play legal moves until the game is finished."""

    async def finished() -> bool:
        return await status_of(app, game_id) is GameStatus.FINISHED

    await play_until(fake, PEOPLE, finished, rng)


async def status_of(app: GapleApplication, game_id: int) -> GameStatus:
    async with deps_of(app).service.store.read() as tx:
        return (await tx.games.get(game_id)).status


async def choose_setting(fake: FakeTelegram, option: int, choice: int) -> FakeMessage:
    """Ana opens /settings and taps a choice; returns the menu."""
    menu = await say(fake, ANA, GROUP, "/settings")
    assert await tap(
        fake, ANA, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, option, choice)
    )
    await fake.wait_for(lambda: len(fake.message(GROUP, menu.message_id).versions) > 1)
    await fake.wait_idle(quiet=QUIET)
    return fake.message(GROUP, menu.message_id)


async def test_stop_by_the_opener_aborts_the_running_game(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            game_id = await start_game(fake, app, opener=BUDI)
            to_move = next(user for user in PEOPLE if turn_message(fake, user) is not None)
            hand = turn_message(fake, to_move)
            assert hand is not None
            table = next(m for m in fake.bot_messages(GROUP) if "round 1" in m.text)
            assert table.buttons()

            refusal = await say(fake, CITRA, GROUP, "/stop")
            assert refusal.text == NOT_ALLOWED
            assert await status_of(app, game_id) is GameStatus.RUNNING

            notice = await say(fake, BUDI, GROUP, "/stop")
            assert notice.text == (
                "The game was stopped. It counts as abandoned: no results, no rating changes."
            )
            await fake.wait_for(lambda: fake.message(GROUP, table.message_id).buttons() == [])
            await fake.wait_idle(quiet=QUIET)
            assert await status_of(app, game_id) is GameStatus.ABORTED
            table = fake.message(GROUP, table.message_id)
            assert table.text.endswith("This game was stopped.")
            assert table.buttons() == []
            hand = fake.message(to_move, hand.message_id)
            assert hand.text == "This game was stopped."
            assert hand.buttons() == []
            assert all(turn_message(fake, user) is None for user in PEOPLE)
            async with deps_of(app).service.store.read() as tx:
                assert await tx.results.of_game(game_id) == []

            # The group is free again.
            lobby = await say(fake, CITRA, GROUP, "/gaple")
            assert "1. Citra" in lobby.text


async def test_stop_by_an_admin_closes_someone_elses_lobby(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            lobby = await say(fake, BUDI, GROUP, "/gaple")
            game_id = game_of(lobby)
            assert (await say(fake, CITRA, GROUP, "/stop")).text == NOT_ALLOWED
            assert await status_of(app, game_id) is GameStatus.LOBBY

            await say(fake, ANA, GROUP, "/stop")
            await fake.wait_for(lambda: fake.message(GROUP, lobby.message_id).buttons() == [])
            assert "This table was closed." in fake.message(GROUP, lobby.message_id).text
            assert await status_of(app, game_id) is GameStatus.ABORTED


async def test_stop_without_a_game_says_there_is_none(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            answer = await say(fake, ANA, GROUP, "/stop")
            assert answer.text == "There is no game here to stop."
            answer = await say(fake, ANA, ANA, "/stop")
            assert answer.text == "There is no game here to stop."


async def test_rules_show_the_chats_rule_set(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            rules = await say(fake, BUDI, GROUP, "/rules")
            assert rules.text.startswith("Gaple rules here: classic, first to 100 points.")
            assert "The first round opens with [6|6]" in rules.text
            assert "discard" not in rules.text
            assert rules.text.endswith("Each turn lasts 60 seconds.")

            await choose_setting(fake, RULES, 1)
            rules = await say(fake, BUDI, GROUP, "/rules")
            assert rules.text.startswith("Gaple rules here: with discards, first to 100 points.")
            assert "One tile is turned up to start the line." in rules.text
            assert "If nothing fits, discard a tile face down: it still counts." in rules.text
            assert "[6|6]" not in rules.text


async def test_help_lists_the_commands(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            for chat in (GROUP, ANA):
                text = (await say(fake, ANA, chat, "/help")).text
                menu = fake.bot_commands()
                assert menu is not None
                for command in menu:
                    if command["command"] != "help":
                        assert f"/{command['command']}:" in text, command
                assert "Tap Join on a table to sit down." in text


async def test_every_command_help_names_gets_an_answer(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            await say(fake, ANA, ANA, "/start")
            text = (await say(fake, ANA, ANA, "/help")).text
            named = re.findall(r"^/([a-z]+):", text, re.MULTILINE)
            assert {"gaple", "rules", "top", "stats", "stop", "settings"} <= set(named)
            unanswered = []
            for name in named:
                sent = await fake.send_message(ANA, ANA, f"/{name}")
                try:
                    await fake.wait_for(answered(fake, ANA, int(sent["message_id"])), timeout=30)
                except AssertionError:
                    unanswered.append(name)
            assert unanswered == [], f"/help names commands the bot does not answer: {unanswered}"
            menu = fake.bot_commands()
            assert menu is not None
            in_menu = {command["command"] for command in menu}
            assert [name for name in named if name not in in_menu] == []


async def test_settings_are_for_admins_and_the_next_lobby_uses_them(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            refusal = await say(fake, BUDI, GROUP, "/settings")
            assert refusal.text == SETTINGS_REFUSED
            assert refusal.buttons() == []

            menu = await say(fake, ANA, GROUP, "/settings")
            assert "Settings for new games in this chat" in menu.text
            assert "Target: 100 points" in menu.text
            rows = menu.button_rows()
            assert [text for text, _ in rows[TARGET]] == ["50", "✅ 100", "150", "200"]
            assert rows[RULES][0][0] == "✅ Classic"

            # Someone who is not an admin taps a choice: refused, nothing changes.
            query = await fake.press(
                BUDI, GROUP, menu.message_id, encode(Action.SETTING, GROUP, 0, TARGET, 0)
            )
            answer = await fake.wait_callback_answer(query)
            assert answer.get("text") == SETTINGS_REFUSED
            assert answer.get("show_alert") is True
            settings = await gaple_options(deps_of(app).service.store, GROUP)
            assert settings is not None and settings["target"] == "100"

            menu = await choose_setting(fake, TARGET, 0)
            assert [text for text, _ in menu.button_rows()[TARGET]] == [
                "✅ 50",
                "100",
                "150",
                "200",
            ]
            assert "Target: 50 points" in menu.text
            settings = await gaple_options(deps_of(app).service.store, GROUP)
            assert settings is not None and settings["target"] == "50"

            lobby = await say(fake, BUDI, GROUP, "/gaple")
            assert "Gaple · classic · first to 50" in lobby.text
            game_id = game_of(lobby)
            async with deps_of(app).service.store.read() as tx:
                assert (await tx.games.get(game_id)).config["target"] == 50


async def test_settings_choice_for_another_chat_is_refused(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        other = -1005555555555
        fake.add_group(other, "Elsewhere", admins=(ANA,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            menu = await say(fake, ANA, GROUP, "/settings")
            await say(fake, ANA, other, "/settings")
            query = await fake.press(
                ANA,
                GROUP,
                menu.message_id,
                encode(Action.SETTING, other, 0, TARGET, 0),
                check_button=False,
            )
            answer = await fake.wait_callback_answer(query)
            assert answer.get("show_alert") is True
            assert answer.get("text") == "That setting does not exist."
            settings = await gaple_options(deps_of(app).service.store, other)
            assert settings is not None and settings["target"] == "100"


async def test_start_in_private_names_every_game_s_command(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            greeting = await say(fake, ANA, ANA, "/start")
            assert greeting.text == (
                "Hi Ana! I run game tables in groups. Add me to a group and type /gaple or "
                "/gap there; your hand will come here."
            )


async def board_after(fake: FakeTelegram, user: int, text: str) -> FakeMessage:
    """The user asks for a board in the group; returns the board (the game's own messages may
    come in between)."""
    sent = await fake.send_message(user, GROUP, text)
    after = int(sent["message_id"])

    def boards() -> list[FakeMessage]:
        return [
            m for m in fake.bot_messages(GROUP) if m.message_id > after and m.text.startswith("🏆")
        ]

    await fake.wait_for(lambda: bool(boards()), message=f"no board after {text!r}")
    return boards()[0]


async def test_an_empty_board_names_the_game_it_is_about(tmp_path: Path) -> None:
    """/top is the game's named, else the one last started in the chat: its empty board
    names that game's command."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            assert "Type /gaple to play!" in (await board_after(fake, ANA, "/top")).text
            assert "Type /gap to play!" in (await board_after(fake, ANA, "/top gap")).text
            for user in (ANA, BUDI):
                await say(fake, user, user, "/start")
            lobby = await say(fake, ANA, GROUP, "/gap")
            for user, action in ((BUDI, Action.JOIN), (ANA, Action.START)):
                await tap(fake, user, GROUP, lobby.message_id, encode(action, game_of(lobby)))
            game_id = await deps_of(app).service.active_game(GROUP, None)
            assert game_id is not None
            assert await status_of(app, game_id) is GameStatus.RUNNING
            board = await board_after(fake, CITRA, "/top")
            assert "Nobody has finished a game yet. Type /gap to play!" in board.text
            assert "/gaple" not in board.text
            assert "Type /gaple to play!" in (await board_after(fake, CITRA, "/top gaple")).text


async def test_top_and_stats_show_the_players_of_a_finished_game(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            empty = await say(fake, ANA, GROUP, "/top")
            assert "Nobody has finished a game yet." in empty.text
            await choose_setting(fake, TARGET, 0)
            game_id = await start_game(fake, app, opener=ANA)
            await play_to_the_end(fake, app, game_id, random.Random(11))
            await fake.wait_idle(quiet=QUIET)
            assert any("wins the game" in text for text in fake.all_texts_sent_to(GROUP))
            async with deps_of(app).service.store.read() as tx:
                results = {r.player_id: r for r in await tx.results.of_game(game_id)}
            assert {ANA, BUDI} <= set(results)

            board = await say(fake, CITRA, GROUP, "/top")
            assert board.text.startswith("🏆 Best rated — this chat")
            for name in ("Ana", "Budi"):
                assert re.search(rf"^\d+\. {name} — -?\d+\.\d \(1 game\)$", board.text, re.M)
            assert "Citra" not in board.text

            wins = await say(fake, CITRA, GROUP, "/top wins")
            assert wins.text.startswith("🏆 Most games won — this chat")
            points = await say(fake, CITRA, GROUP, "/top points week")
            assert points.text.startswith("🏆 Most points in the last 7 days — this chat")
            for name in ("Ana", "Budi"):
                line = re.search(rf"^\d+\. {name} — (\d+) \(1 game\)$", points.text, re.M)
                assert line is not None, points.text
                player = ANA if name == "Ana" else BUDI
                assert int(line.group(1)) == results[player].points
            world = await say(fake, CITRA, GROUP, "/top global")
            assert world.text.startswith("🏆 Best rated — all chats")
            assert "Ana" in world.text and "Budi" in world.text

            mine = await say(fake, ANA, GROUP, "/stats")
            assert mine.text.startswith("Ana in this chat")
            won = 1 if results[ANA].place == 1 else 0
            assert f"Games: 1 · won: {won}" in mine.text
            assert f"Points: {results[ANA].points}" in mine.text

            said = await fake.send_message(BUDI, GROUP, "good game!")
            theirs = await say(
                fake, ANA, GROUP, "/stats", reply_to_message_id=int(said["message_id"])
            )
            assert theirs.text.startswith("Budi in this chat")
            assert f"Points: {results[BUDI].points}" in theirs.text

            said = await fake.send_message(CITRA, GROUP, "I only watched")
            nobody = await say(
                fake, ANA, GROUP, "/stats", reply_to_message_id=int(said["message_id"])
            )
            assert nobody.text == "Citra has not finished a game in this chat yet."


async def test_stop_in_a_forum_topic_stops_only_that_topics_game(tmp_path: Path) -> None:
    forum = -1009876543210
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        fake.add_group(forum, "Gaple forum", forum=True, admins=(ANA,), members=(BUDI, CITRA))
        first_topic = fake.add_topic(forum, "Gaple")
        second_topic = fake.add_topic(forum, "Domino night")
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            first = await say(fake, BUDI, forum, "/gaple", thread_id=first_topic)
            second = await say(fake, CITRA, forum, "/gaple", thread_id=second_topic)
            first_game, second_game = game_of(first), game_of(second)
            first_edits = len(first.versions)
            notice = await say(fake, CITRA, forum, "/stop", thread_id=second_topic)
            assert notice.thread_id == second_topic
            await fake.wait_for(retired(fake, forum, second.message_id))
            assert await status_of(app, second_game) is GameStatus.ABORTED
            assert await status_of(app, first_game) is GameStatus.LOBBY
            assert len(fake.message(forum, first.message_id).versions) == first_edits


async def test_an_anonymous_admin_or_a_channel_cannot_open_stop_or_configure(
    tmp_path: Path,
) -> None:
    """Written on behalf of the group or a channel, /gaple, /stop and /settings name nobody:
    each is refused with one short line and nothing is opened or stopped."""
    async with running_fake() as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            service = deps_of(app).service
            for command in ("/gaple", "/settings"):
                before = len(fake.bot_messages(GROUP))
                await fake.send_on_behalf(GROUP, command)
                await fake.wait_for(lambda n=before: len(fake.bot_messages(GROUP)) > n)
                await fake.wait_idle(quiet=QUIET)
                assert "write as yourself" in (fake.last_bot_text(GROUP) or "")
                assert await service.active_game(GROUP, None) is None
            lobby = (await say(fake, ANA, GROUP, "/gaple")).message_id
            game = await service.active_game(GROUP, None)
            assert game is not None
            before = len(fake.bot_messages(GROUP))
            await fake.send_on_behalf(GROUP, "/stop")
            await fake.wait_for(lambda: len(fake.bot_messages(GROUP)) > before)
            await fake.wait_idle(quiet=QUIET)
            assert "write as yourself" in (fake.last_bot_text(GROUP) or "")
            assert (await service.cache.get(game)).status is GameStatus.LOBBY
            assert fake.message(GROUP, lobby).buttons()
        fake.assert_no_violations()
