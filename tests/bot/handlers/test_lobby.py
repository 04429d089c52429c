"""End-to-end tests of lobbies in a group: opening, joining, leaving, starting, closing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gaple_bot.bot.callback_data import Action, decode
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.bot.timers import arm_lobby_expiry, cancel_lobby_expiry, lobby_job_name
from gaple_bot.store import GameStatus
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, lobby_message, running_bot
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

ANA, BUDI, CITRA, DEWI, EKO = 101, 102, 103, 104, 105
BOT_LINK = "https://t.me/gaple_test_bot"
QUIET = 0.1
"""Seconds without a Bot API call after which the bot counts as done with an update."""
LOBBY_BUTTONS = ["✋ Join", "🚪 Leave", "🤖 Add computer", "▶️ Start", "✖️ Cancel"]


def populate(fake: FakeTelegram) -> None:
    """Ana administers the group; Budi, Dewi and Eko are members with a private chat; Citra is
    a member who never opened a private chat with the bot."""
    fake.add_user(ANA, "Ana")
    fake.add_user(BUDI, "Budi")
    fake.add_user(CITRA, "Citra", started=False)
    fake.add_user(DEWI, "Dewi")
    fake.add_user(EKO, "Eko")
    fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI, CITRA, DEWI, EKO))


async def say(
    fake: FakeTelegram, user: int, chat: int, text: str, *, thread_id: int | None = None
) -> FakeMessage:
    """The user writes `text` in the chat; returns the bot's first message after it."""
    sent = await fake.send_message(user, chat, text, thread_id=thread_id)
    after = int(sent["message_id"])

    def answers() -> list[FakeMessage]:
        return [m for m in fake.bot_messages(chat) if m.message_id > after]

    await fake.wait_for(lambda: bool(answers()), message=f"no answer to {text!r}")
    await fake.wait_idle(quiet=QUIET)
    return answers()[0]


async def open_private_chats(fake: FakeTelegram, *users: int) -> None:
    """These people send /start in their private chat, so the bot may send them tiles."""
    for user in users or (ANA, BUDI, DEWI, EKO):
        await say(fake, user, user, "/start")


async def open_lobby(fake: FakeTelegram, user: int, chat: int = GROUP) -> FakeMessage:
    """The user types /gaple in the group; returns the lobby message."""
    lobby = await say(fake, user, chat, "/gaple")
    assert "Seats taken" in lobby.text, lobby.text
    return lobby


def game_of(lobby: FakeMessage) -> int:
    """The game id the lobby's buttons carry."""
    for _, data in lobby.buttons():
        if data and data.startswith(Action.JOIN.value + ":"):
            return decode(data).field("game")
    raise AssertionError(f"no Join button in {lobby.buttons()}")


async def tap(fake: FakeTelegram, user: int, message: FakeMessage, label: str) -> dict[str, Any]:
    """The user taps the labelled button; returns the callback answer once the bot is done
    (a refusal comes as an alert; anything else redraws the message)."""
    edits = len(fake.message(message.chat_id, message.message_id).versions)
    query = await fake.press_button(user, message.chat_id, message.message_id, label)
    answer = await fake.wait_callback_answer(query)
    if not answer.get("show_alert"):
        await fake.wait_for(
            lambda: len(fake.message(message.chat_id, message.message_id).versions) > edits,
            message=f"{label!r} did not redraw the message",
        )
    await fake.wait_idle(quiet=QUIET)
    return answer


async def join_payload(app: GapleApplication, game_id: int) -> str:
    """The /start payload of the lobby's join link: its secret token, not its id."""
    async with deps_of(app).service.store.read() as tx:
        token = (await tx.games.get(game_id)).join_token
    assert token is not None
    return f"join_{token}"


async def status_of(app: GapleApplication, game_id: int) -> GameStatus:
    async with deps_of(app).service.store.read() as tx:
        return (await tx.games.get(game_id)).status


async def test_gaple_opens_a_lobby_with_its_buttons_and_seats_the_opener(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, BUDI)
            assert lobby.button_texts() == LOBBY_BUTTONS
            assert "Gaple · classic · first to 100" in lobby.text
            assert "Seats taken: 1 of 4" in lobby.text
            assert "1. Budi" in lobby.text
            game_id = game_of(lobby)
            async with deps_of(app).service.store.read() as tx:
                record = await tx.games.get(game_id)
                seats = await tx.seats.of_game(game_id)
            assert record.status is GameStatus.LOBBY
            assert record.opener_id == BUDI
            assert record.message_id == lobby.message_id
            assert [s.user_id for s in seats] == [BUDI]


async def test_second_gaple_replies_to_the_running_lobby_instead_of_opening_another(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            answer = await say(fake, BUDI, GROUP, "/gaple")
            assert answer.message_id != lobby.message_id
            assert answer.reply_to_message_id == lobby.message_id
            assert "already open" in answer.text
            assert answer.buttons() == []
            lobbies = [m for m in fake.bot_messages(GROUP) if "Seats taken" in m.text]
            assert lobbies == [lobby]
            async with deps_of(app).service.store.read() as tx:
                assert [g.id for g in await tx.games.all_active()] == [game_of(lobby)]


async def test_gaple_in_a_private_chat_points_to_groups_with_an_add_to_group_button(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            answer = await say(fake, ANA, ANA, "/gaple")
            assert "Games live in groups" in answer.text
            assert answer.buttons() == [("👥 Add me to a group", f"{BOT_LINK}?startgroup=true")]
            assert await deps_of(app).service.active_games() == []


async def test_join_without_private_chat_offers_the_deep_link_and_start_completes_the_join(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            payload = await join_payload(app, game_id)
            link = f"{BOT_LINK}?start={payload}"
            answer = await tap(fake, CITRA, lobby, "✋ Join")
            assert answer.get("url") == link
            lobby = fake.message(GROUP, lobby.message_id)
            assert ("💬 Open my private chat", link) in lobby.buttons()
            assert "Citra" not in lobby.text
            assert "Seats taken: 1 of 4" in lobby.text

            confirmation = await say(fake, CITRA, CITRA, f"/start {payload}")
            lobby = fake.message(GROUP, lobby.message_id)
            assert "2. Citra" in lobby.text
            assert "Seats taken: 2 of 4" in lobby.text
            assert "You joined the table in Warung Gaple" in confirmation.text
            async with deps_of(app).service.store.read() as tx:
                seats = await tx.seats.of_game(game_id)
                citra = await tx.users.get(CITRA)
            assert [s.user_id for s in seats] == [ANA, CITRA]
            assert citra is not None and citra.can_message


async def test_leave_frees_the_seat_and_add_computer_seats_a_computer(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            answer = await tap(fake, BUDI, lobby, "✋ Join")
            assert answer.get("text") == "You joined. Your tiles will come in our private chat."
            assert "2. Budi" in fake.message(GROUP, lobby.message_id).text

            answer = await tap(fake, BUDI, lobby, "🚪 Leave")
            assert answer.get("text") == "You left the table."
            text = fake.message(GROUP, lobby.message_id).text
            assert "Budi" not in text
            assert "Seats taken: 1 of 4" in text

            answer = await tap(fake, DEWI, lobby, "🚪 Leave")
            assert answer.get("text") == "You are not at this table."
            assert answer.get("show_alert") is True

            # A passer-by cannot fill the table with computers.
            answer = await tap(fake, DEWI, lobby, "🤖 Add computer")
            assert answer.get("text") == "You are not at this table."
            assert "Seats taken: 1 of 4" in fake.message(GROUP, lobby.message_id).text

            answer = await tap(fake, ANA, lobby, "🤖 Add computer")
            assert answer.get("text") == "A computer player sat down."
            text = fake.message(GROUP, lobby.message_id).text
            assert "2. 🤖 Normal\n" in text
            assert "Seats taken: 2 of 4" in text
            async with deps_of(app).service.store.read() as tx:
                seats = await tx.seats.of_game(game_id)
            assert [(s.user_id, s.computer_level is not None) for s in seats] == [
                (ANA, False),
                (None, True),
            ]


async def test_leaving_moves_later_seats_up(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            await tap(fake, BUDI, lobby, "✋ Join")
            await tap(fake, DEWI, lobby, "✋ Join")
            await tap(fake, BUDI, lobby, "🚪 Leave")
            text = fake.message(GROUP, lobby.message_id).text
            assert "1. Ana" in text
            assert "2. Dewi" in text
            assert "Budi" not in text
            async with deps_of(app).service.store.read() as tx:
                seats = await tx.seats.of_game(game_of(lobby))
            assert [(s.seat, s.user_id) for s in seats] == [(0, ANA), (1, DEWI)]


async def test_full_table_refuses_another_join_and_another_computer(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            await tap(fake, BUDI, lobby, "✋ Join")
            await tap(fake, DEWI, lobby, "✋ Join")
            await tap(fake, ANA, lobby, "🤖 Add computer")
            assert "Seats taken: 4 of 4" in fake.message(GROUP, lobby.message_id).text

            answer = await tap(fake, EKO, lobby, "✋ Join")
            assert answer.get("text") == "This table is full."
            assert answer.get("show_alert") is True
            answer = await tap(fake, ANA, lobby, "🤖 Add computer")
            assert answer.get("text") == "This table is full."
            assert answer.get("show_alert") is True
            answer = await tap(fake, BUDI, lobby, "✋ Join")
            assert answer.get("text") == "You are already at this table."
            assert answer.get("show_alert") is True

            text = fake.message(GROUP, lobby.message_id).text
            assert "Eko" not in text
            assert "Seats taken: 4 of 4" in text
            async with deps_of(app).service.store.read() as tx:
                seats = await tx.seats.of_game(game_of(lobby))
            assert len(seats) == 4


async def test_start_by_someone_else_is_refused_and_the_opener_starts_with_computers(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            # Budi (not an admin) opens; Dewi (not an admin either) joins and tries to start.
            lobby = await open_lobby(fake, BUDI)
            game_id = game_of(lobby)
            await tap(fake, DEWI, lobby, "✋ Join")
            answer = await tap(fake, DEWI, lobby, "▶️ Start")
            assert answer.get("show_alert") is True
            assert answer.get("text") == (
                "Only whoever opened the table, or a group admin, can do that."
            )
            assert await status_of(app, game_id) is GameStatus.LOBBY
            assert "Join" in " ".join(fake.message(GROUP, lobby.message_id).button_texts())

            answer = await tap(fake, BUDI, lobby, "▶️ Start")
            assert answer.get("text") == "Let's play!"
            assert await status_of(app, game_id) is GameStatus.RUNNING
            lobby = fake.message(GROUP, lobby.message_id)
            assert "The game has started." in lobby.text
            assert lobby.buttons() == []
            for line in ("1. Budi", "2. Dewi", "3. 🤖 Normal 1", "4. 🤖 Normal 2"):
                assert line in lobby.text
            async with deps_of(app).service.store.read() as tx:
                seats = await tx.seats.of_game(game_id)
                record = await tx.games.get(game_id)
            assert [s.user_id for s in seats] == [BUDI, DEWI, None, None]
            assert record.config["seats"] == 4
            await fake.wait_for(lambda: any("round 1" in m.text for m in fake.bot_messages(GROUP)))
            await fake.wait_idle(quiet=QUIET)
            tables = [m for m in fake.bot_messages(GROUP) if "round 1" in m.text]
            assert len(tables) == 1
            table = tables[0]
            assert table.message_id > lobby.message_id
            assert "Gaple · round 1 · classic · first to 100" in table.text
            for name in ("Budi", "Dewi", "🤖 Normal 1", "🤖 Normal 2"):
                assert name in table.text
            assert record.message_id == table.message_id


async def test_an_admin_may_start_a_lobby_someone_else_opened(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, BUDI)
            game_id = game_of(lobby)
            answer = await tap(fake, ANA, lobby, "▶️ Start")
            assert answer.get("text") == "Let's play!"
            assert await status_of(app, game_id) is GameStatus.RUNNING


async def test_cancel_by_the_opener_closes_the_lobby(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, BUDI)
            game_id = game_of(lobby)
            answer = await tap(fake, DEWI, lobby, "✖️ Cancel")
            assert answer.get("show_alert") is True
            assert await status_of(app, game_id) is GameStatus.LOBBY

            answer = await tap(fake, BUDI, lobby, "✖️ Cancel")
            assert answer.get("text") == "The table is closed."
            assert await status_of(app, game_id) is GameStatus.ABORTED
            lobby = fake.message(GROUP, lobby.message_id)
            assert "This table was closed." in lobby.text
            assert lobby.buttons() == []
            assert await deps_of(app).service.active_game(GROUP, None) is None

            # The group is free for a new table.
            new_lobby = await open_lobby(fake, DEWI)
            assert new_lobby.message_id != lobby.message_id
            assert game_of(new_lobby) != game_id


async def test_an_unstarted_lobby_expires_by_itself(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3", LOBBY_TIMEOUT_SECONDS="1") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            await fake.wait_for(
                lambda: "closed" in fake.message(GROUP, lobby.message_id).text,
                timeout=60,
                message="the lobby did not expire",
            )
            await fake.wait_idle(quiet=QUIET)
            lobby = fake.message(GROUP, lobby.message_id)
            assert "Nobody started this table" in lobby.text
            assert "Type /gaple to open a new one." in lobby.text
            assert lobby.buttons() == []
            assert await status_of(app, game_id) is GameStatus.ABORTED


async def test_a_started_game_does_not_expire_like_a_lobby(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            assert app.job_queue is not None
            assert app.job_queue.get_jobs_by_name(lobby_job_name(game_id))
            await tap(fake, ANA, lobby, "▶️ Start")
            await fake.wait_idle(quiet=QUIET)
            # Starting cancels the expiry, and an expiry that runs anyway leaves the game be.
            assert not app.job_queue.get_jobs_by_name(lobby_job_name(game_id))
            arm_lobby_expiry(app.job_queue, game_id, 3600)
            (expiry,) = app.job_queue.get_jobs_by_name(lobby_job_name(game_id))
            await expiry.run(app)
            cancel_lobby_expiry(app.job_queue, game_id)
            await fake.wait_idle(quiet=QUIET)
            assert await status_of(app, game_id) is GameStatus.RUNNING
            assert "The game has started." in fake.message(GROUP, lobby.message_id).text


async def test_each_forum_topic_has_its_own_lobby(tmp_path: Path) -> None:
    forum = -1009876543210
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        fake.add_group(forum, "Gaple forum", forum=True, admins=(ANA,), members=(BUDI,))
        gaple_topic = fake.add_topic(forum, "Gaple")
        other_topic = fake.add_topic(forum, "Domino night")
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            first = await say(fake, ANA, forum, "/gaple", thread_id=gaple_topic)
            assert first == lobby_message(fake, forum)
            assert first.thread_id == gaple_topic
            assert "1. Ana" in first.text

            second = await say(fake, BUDI, forum, "/gaple", thread_id=other_topic)
            assert second == lobby_message(fake, forum)
            assert second.thread_id == other_topic
            assert second.message_id != first.message_id
            assert "1. Budi" in second.text
            assert game_of(first) != game_of(second)

            deps = deps_of(app)
            assert await deps.service.active_game(forum, gaple_topic) == game_of(first)
            assert await deps.service.active_game(forum, other_topic) == game_of(second)
            assert await deps.service.active_game(forum, None) is None

            # Each topic's lobby changes on its own.
            await tap(fake, BUDI, first, "✋ Join")
            assert "2. Budi" in fake.message(forum, first.message_id).text
            assert "Seats taken: 1 of 4" in fake.message(forum, second.message_id).text

            # A second /gaple in a topic answers inside that topic, about that topic's lobby.
            answer = await say(fake, BUDI, forum, "/gaple", thread_id=gaple_topic)
            assert answer.thread_id == gaple_topic
            assert answer.reply_to_message_id == first.message_id


async def test_join_links_that_cannot_seat_the_person_say_why(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            payload = await join_payload(app, game_id)
            answer = await say(fake, ANA, ANA, f"/start {payload}")
            assert answer.text == "You are already at this table."
            answer = await say(fake, BUDI, BUDI, "/start join_999")
            assert answer.text == "This join link is not valid."
            await tap(fake, ANA, lobby, "▶️ Start")
            answer = await say(fake, BUDI, BUDI, f"/start {payload}")
            assert answer.text == "This table has already started or closed."
            async with deps_of(app).service.store.read() as tx:
                seats = await tx.seats.of_game(game_id)
            assert BUDI not in {s.user_id for s in seats}


async def test_a_table_of_computers_only_cannot_start(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            await tap(fake, ANA, lobby, "🤖 Add computer")
            await tap(fake, ANA, lobby, "🚪 Leave")
            text = fake.message(GROUP, lobby.message_id).text
            assert "Ana" not in text
            assert "1. 🤖 Normal\n" in text
            answer = await tap(fake, ANA, lobby, "▶️ Start")
            assert answer.get("text") == "Someone has to join before the game can start."
            assert answer.get("show_alert") is True
            assert await status_of(app, game_id) is GameStatus.LOBBY
