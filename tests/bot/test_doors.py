"""End-to-end tests of who may sit at a table: join links carry a lobby's secret, only members
of its group get in, and a button only works in the chat (and topic) it belongs to."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from gaple_bot.bot.callback_data import Action, encode
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.bot.doors import Membership
from tests.bot.handlers.test_lobby import (
    ANA,
    BUDI,
    CITRA,
    QUIET,
    game_of,
    join_payload,
    open_lobby,
    open_private_chats,
    populate,
    say,
    tap,
)
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, running_bot
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake

OSKAR = 201
"""An outsider: he talks to the bot and has a group of his own, but is not in GROUP."""
SLOW_TURNS = {"DEFAULT_TURN_SECONDS": "600"}
"""Turns long enough that no reminder edits the table while a test compares it."""
OTHER = -1009876543210
OTHER_TITLE = "Oskar's den"
NOT_A_MEMBER = "Only members of the group can use its table."
BAD_LINK = "This join link is not valid."
BAD_BUTTON = "That button is not valid."
CLOSED = "This table has already started or closed."


def populate_with_outsider(fake: FakeTelegram) -> None:
    """GROUP as in the lobby tests; Oskar and Budi are both in Oskar's own group."""
    populate(fake)
    fake.add_user(OSKAR, "Oskar")
    fake.add_group(OTHER, OTHER_TITLE, admins=(OSKAR,), members=(BUDI,))


Snapshot = tuple[list[tuple[int, str, list[int | None]]], list[tuple[int, str, int]]]


async def snapshot(app: GapleApplication, fake: FakeTelegram) -> Snapshot:
    """Every game of both groups with its seats, and every message in both groups as shown."""
    games: list[tuple[int, str, list[int | None]]] = []
    async with deps_of(app).service.store.read() as tx:
        for chat_id in (GROUP, OTHER):
            for record in await tx.games.recent(chat_id, limit=100):
                seats = await tx.seats.of_game(record.id)
                games.append((record.id, record.status.value, [s.user_id for s in seats]))
    messages = [
        (m.chat_id, m.text, len(m.versions))
        for chat_id in (GROUP, OTHER)
        for m in fake.messages(chat_id)
    ]
    return games, messages


async def bot_message_in_other(fake: FakeTelegram) -> FakeMessage:
    """A message of the bot in Oskar's group, to forge button presses on."""
    return await say(fake, OSKAR, OTHER, "/help")


async def forge(
    fake: FakeTelegram, user: int, message: FakeMessage, data: str, *, viewer: bool = False
) -> dict[str, Any]:
    """The user sends callback data the message never carried; returns the bot's answer."""
    query = await fake.press(
        user, message.chat_id, message.message_id, data, check_button=False, viewer=viewer
    )
    answer = await fake.wait_callback_answer(query, timeout=30)
    await fake.wait_idle(quiet=QUIET)
    return answer


async def test_a_guessed_link_seats_nobody(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA, OSKAR)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            before = await snapshot(app, fake)
            # The old form named the game id, and ids come one after another.
            for payload in (f"join_{game_id}", "join_AAAAAAAAAAAAAAAAAAAAAA", "join_"):
                answer = await say(fake, OSKAR, OSKAR, f"/start {payload}")
                assert answer.text == BAD_LINK
            assert await snapshot(app, fake) == before
            assert not any(GROUP_TITLE in text for text in fake.all_texts_sent_to(OSKAR))


async def test_an_outsider_with_the_real_link_is_refused(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA, OSKAR)
            lobby = await open_lobby(fake, ANA)
            payload = await join_payload(app, game_of(lobby))
            before = await snapshot(app, fake)
            answer = await say(fake, OSKAR, OSKAR, f"/start {payload}")
            assert answer.text == NOT_A_MEMBER
            assert await snapshot(app, fake) == before
            assert not any(GROUP_TITLE in text for text in fake.all_texts_sent_to(OSKAR))
            asked = [r.params for r in fake.requests_for("getChatMember")]
            assert {"chat_id": GROUP, "user_id": OSKAR} in asked


async def test_a_member_who_left_the_group_before_tapping_the_link_is_refused(
    tmp_path: Path,
) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA)
            lobby = await open_lobby(fake, ANA)
            payload = await join_payload(app, game_of(lobby))
            # Citra never opened a private chat: Join hands her the link...
            answer = await tap(fake, CITRA, lobby, "✋ Join")
            assert answer.get("url", "").endswith(f"?start={payload}")
            # ...and she leaves the group before she follows it.
            fake.leave_group(CITRA, GROUP)
            before = await snapshot(app, fake)
            answer = await say(fake, CITRA, CITRA, f"/start {payload}")
            assert answer.text == NOT_A_MEMBER
            assert await snapshot(app, fake) == before


async def test_the_link_of_a_closed_lobby_no_longer_seats_anyone(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3", **SLOW_TURNS) as app:
            await open_private_chats(fake, ANA, BUDI)
            cancelled = await open_lobby(fake, ANA)
            cancelled_link = await join_payload(app, game_of(cancelled))
            await tap(fake, ANA, cancelled, "✖️ Cancel")
            started = await open_lobby(fake, ANA)
            started_link = await join_payload(app, game_of(started))
            assert started_link != cancelled_link
            await tap(fake, ANA, started, "▶️ Start")
            await fake.wait_idle(quiet=QUIET)
            before = await snapshot(app, fake)
            for payload in (cancelled_link, started_link):
                answer = await say(fake, BUDI, BUDI, f"/start {payload}")
                assert answer.text == CLOSED
            assert await snapshot(app, fake) == before


async def test_a_forged_join_from_another_chat_is_refused(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA, BUDI, OSKAR)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            elsewhere = await bot_message_in_other(fake)
            before = await snapshot(app, fake)
            # Budi belongs to both groups: the button still has to be pressed in the game's.
            for user in (OSKAR, BUDI):
                for action in (Action.JOIN, Action.START, Action.CANCEL, Action.ADD_COMPUTER):
                    answer = await forge(fake, user, elsewhere, encode(action, game_id))
                    assert answer == {"text": BAD_BUTTON, "show_alert": True}
            assert await snapshot(app, fake) == before


async def test_a_lobby_button_forged_in_another_topic_of_the_forum_is_refused(
    tmp_path: Path,
) -> None:
    forum = -1005555555555
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        fake.add_group(forum, "Gaple forum", forum=True, admins=(ANA,), members=(BUDI,))
        gaple_topic = fake.add_topic(forum, "Gaple")
        chatter_topic = fake.add_topic(forum, "Chatter")
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA, BUDI)
            lobby = await say(fake, ANA, forum, "/gaple", thread_id=gaple_topic)
            game_id = game_of(lobby)
            elsewhere = await say(fake, BUDI, forum, "/help", thread_id=chatter_topic)
            assert elsewhere.thread_id == chatter_topic
            answer = await forge(fake, BUDI, elsewhere, encode(Action.JOIN, game_id))
            assert answer == {"text": BAD_BUTTON, "show_alert": True}
            async with deps_of(app).service.store.read() as tx:
                seats = await tx.seats.of_game(game_id)
            assert [s.user_id for s in seats] == [ANA]
            assert "Budi" not in fake.message(forum, lobby.message_id).text
            # The same button in the lobby's own topic seats him.
            answer = await forge(fake, BUDI, lobby, encode(Action.JOIN, game_id))
            assert answer.get("text") == "You joined. Your tiles will come in our private chat."


async def test_someone_viewing_a_public_group_cannot_use_its_lobby(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA, OSKAR)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            before = await snapshot(app, fake)
            for action in (Action.JOIN, Action.LEAVE, Action.ADD_COMPUTER, Action.START):
                answer = await forge(fake, OSKAR, lobby, encode(action, game_id), viewer=True)
                assert answer == {"text": NOT_A_MEMBER, "show_alert": True}
            assert await snapshot(app, fake) == before


async def test_a_forged_play_again_from_another_chat_opens_nothing(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA, BUDI, OSKAR)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            await tap(fake, ANA, lobby, "✖️ Cancel")
            elsewhere = await bot_message_in_other(fake)
            before = await snapshot(app, fake)
            for user in (OSKAR, BUDI):
                answer = await forge(fake, user, elsewhere, encode(Action.PLAY_AGAIN, game_id))
                assert answer == {"text": BAD_BUTTON, "show_alert": True}
            # In the game's own group, but by someone only looking at it.
            answer = await forge(
                fake, OSKAR, lobby, encode(Action.PLAY_AGAIN, game_id), viewer=True
            )
            assert answer == {"text": NOT_A_MEMBER, "show_alert": True}
            assert await snapshot(app, fake) == before
            assert await deps_of(app).service.active_games() == []


async def test_in_game_buttons_only_work_where_they_were_sent(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3", **SLOW_TURNS):
            await open_private_chats(fake, ANA, BUDI, OSKAR)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            await tap(fake, BUDI, lobby, "✋ Join")
            await tap(fake, ANA, lobby, "▶️ Start")
            await fake.wait_idle(quiet=QUIET)
            elsewhere = await bot_message_in_other(fake)
            # Budi sits at the table, but 'My hand' belongs on the table's own message.
            answer = await forge(fake, BUDI, elsewhere, encode(Action.SHOW_HAND, game_id))
            assert answer == {"text": BAD_BUTTON, "show_alert": True}
            # 'Take my seat back' lives only in the person's private chat.
            answer = await forge(fake, BUDI, elsewhere, encode(Action.TAKE_BACK_SEAT, game_id))
            assert answer == {"text": BAD_BUTTON, "show_alert": True}
            table = next(
                m
                for m in reversed(fake.bot_messages(GROUP))
                if encode(Action.SHOW_HAND, game_id) in [d for _, d in m.buttons()]
            )
            answer = await forge(fake, BUDI, table, encode(Action.SHOW_HAND, game_id))
            assert answer.get("show_alert") is True
            assert answer["text"].startswith("Your hand: ["), answer


async def test_a_member_joins_through_the_link(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            await open_private_chats(fake, ANA)
            lobby = await open_lobby(fake, ANA)
            game_id = game_of(lobby)
            payload = await join_payload(app, game_id)
            assert re.fullmatch(r"join_[A-Za-z0-9_-]{22}", payload), payload
            answer = await tap(fake, CITRA, lobby, "✋ Join")
            assert answer.get("url") == f"https://t.me/gaple_test_bot?start={payload}"
            confirmation = await say(fake, CITRA, CITRA, f"/start {payload}")
            assert f"You joined the table in {GROUP_TITLE}" in confirmation.text
            assert "2. Citra" in fake.message(GROUP, lobby.message_id).text
            async with deps_of(app).service.store.read() as tx:
                seats = await tx.seats.of_game(game_id)
            assert [s.user_id for s in seats] == [ANA, CITRA]


async def test_a_members_yes_is_remembered_briefly_and_a_no_never(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        populate_with_outsider(fake)
        now = [datetime(2026, 12, 1, 6, 0, tzinfo=UTC)]
        async with fake.make_bot() as bot:
            members = Membership(bot, lambda: now[0], ttl=timedelta(seconds=60))

            def calls() -> int:
                return len(fake.requests_for("getChatMember"))

            assert await members.is_member(GROUP, BUDI)
            assert await members.is_member(GROUP, BUDI)
            assert calls() == 1
            # Taking a seat asks again, whatever is remembered.
            assert await members.is_member(GROUP, BUDI, fresh=True)
            assert calls() == 2
            fake.leave_group(BUDI, GROUP)
            now[0] += timedelta(seconds=59)
            assert await members.is_member(GROUP, BUDI)
            assert calls() == 2
            now[0] += timedelta(seconds=2)
            assert not await members.is_member(GROUP, BUDI)
            assert not await members.is_member(GROUP, BUDI)
            assert calls() == 4
            # An error from Telegram (here: an unknown person) means no.
            assert not await members.is_member(GROUP, 999)
            assert await members.is_member(GROUP, ANA)
            # Restricted people belong while Telegram says they are still in the group.
            fake.restrict_user(CITRA, GROUP, is_member=True)
            assert await members.is_member(GROUP, CITRA, fresh=True)
            fake.restrict_user(CITRA, GROUP, is_member=False)
            assert not await members.is_member(GROUP, CITRA, fresh=True)
