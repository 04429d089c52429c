"""Tests of the fake Telegram Bot API server, driven by a real python-telegram-bot client."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import io
import json
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import aiohttp
import pytest
import telegram
from PIL import Image
from telegram import (
    BotCommand,
    BotCommandScopeChat,
    BotCommandScopeDefault,
    ChatMemberRestricted,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    Update,
)
from telegram.error import BadRequest, Conflict, Forbidden, RetryAfter
from telegram.ext import (
    Application,
    ApplicationBuilder,
    BaseHandler,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from gaple_bot.games.pictures.canvas import encode
from tests.fakes.formatting import parse_html, parse_markdown_v2, utf16_len
from tests.fakes.telegram_server import FakeTelegram, running_fake
from tests.fakes.world import ANSWER_WINDOW_SECONDS

GROUP = -1001000000001
ANA, BUDI, CITRA = 1, 2, 3


# ---------------------------------------------------------------------------- helpers


@contextlib.asynccontextmanager
async def bot_for(fake: FakeTelegram) -> AsyncIterator[telegram.Bot]:
    async with fake.make_bot() as bot:
        yield bot


@contextlib.asynccontextmanager
async def polling_app(
    fake: FakeTelegram, handlers: Sequence[BaseHandler[Any, Any, Any]]
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    """A real PTB Application polling the fake (1 s long-poll timeout)."""
    app = fake.configure(ApplicationBuilder()).build()
    for handler in handlers:
        app.add_handler(handler)
    async with app:
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(timeout=1)
        try:
            yield app
        finally:
            await app.updater.stop()
            await app.stop()


async def raw_call(fake: FakeTelegram, method: str, **fields: Any) -> tuple[int, dict[str, Any]]:
    """POST form fields the way PTB encodes them (strings raw, everything else JSON)."""
    data = {k: v if isinstance(v, str) else json.dumps(v) for k, v in fields.items()}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.api_url}{fake.token}/{method}", data=data) as response,
    ):
        body: dict[str, Any] = await response.json()
        return response.status, body


def keyboard(*pairs: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(text, callback_data=data)] for text, data in pairs]
    )


def retry_seconds(error: RetryAfter) -> float:
    value = error.retry_after
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ---------------------------------------------------------------------------- getUpdates


async def test_get_me_and_base_url(fake: FakeTelegram) -> None:
    assert fake.base_url.startswith("http://127.0.0.1:")
    async with bot_for(fake) as bot:
        me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (123456, "gaple_test_bot", True)
    assert me.can_read_all_group_messages is False  # privacy mode, like a new bot


async def test_long_poll_returns_as_soon_as_an_update_arrives(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        polls = fake.polls_received
        # Far longer than the test waits for it: the poll can only end by waking up.
        poll = asyncio.create_task(bot.get_updates(timeout=600))
        await fake.wait_for(lambda: fake.polls_received > polls, message="no long poll arrived")
        assert not poll.done()
        await fake.send_message(ANA, ANA, "hello")
        updates = await asyncio.wait_for(poll, 60)
        assert [u.message.text for u in updates if u.message] == ["hello"]

        # Not confirmed yet: delivered again.
        again = await bot.get_updates(timeout=0)
        assert [u.update_id for u in again] == [updates[0].update_id]
        # offset confirms it.
        assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=0) == ()
        assert fake.pending_updates == 0

        # Empty long poll ends after its timeout, not before.
        loop = asyncio.get_running_loop()
        started = loop.time()
        assert await asyncio.wait_for(bot.get_updates(timeout=1), 60) == ()
        assert loop.time() - started >= 0.9


async def test_limit_and_allowed_updates(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        for i in range(3):
            await fake.send_message(ANA, ANA, f"m{i}")
        first = await bot.get_updates(limit=2)
        assert [u.message.text for u in first if u.message] == ["m0", "m1"]
        sent = await bot.send_message(ANA, "pick", reply_markup=keyboard(("A", "a")))
        await fake.press(ANA, ANA, sent.message_id, "a")
        only_callbacks = await bot.get_updates(
            offset=first[-1].update_id + 1, allowed_updates=["callback_query"]
        )
        assert [u.callback_query.data for u in only_callbacks if u.callback_query] == ["a"]
    assert fake.requests_for("getUpdates")[-1].params["allowed_updates"] == ["callback_query"]


async def test_second_poller_terminates_the_first_with_conflict(fake: FakeTelegram) -> None:
    # Two Bot instances: one PTB Bot sends getUpdates through a single-connection pool.
    async with bot_for(fake) as bot, bot_for(fake) as other:
        polls = fake.polls_received
        first = asyncio.create_task(bot.get_updates(timeout=600))
        await fake.wait_for(lambda: fake.polls_received > polls, message="no long poll arrived")
        second = asyncio.create_task(other.get_updates(timeout=600))
        with pytest.raises(Conflict, match="terminated by other getUpdates request"):
            await asyncio.wait_for(first, 60)
        await fake.send_message(ANA, ANA, "x")
        assert len(await asyncio.wait_for(second, 60)) == 1


# ---------------------------------------------------------------------------- messages


async def test_message_ids_are_per_chat(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        a1 = await bot.send_message(GROUP, "one")
        p1 = await bot.send_message(ANA, "private one")
        await fake.send_message(CITRA, GROUP, "/join")
        a3 = await bot.send_message(GROUP, "three")
        p2 = await bot.send_message(ANA, "private two")
    assert (a1.message_id, a3.message_id) == (1, 3)
    assert (p1.message_id, p2.message_id) == (1, 2)
    assert [m.message_id for m in fake.messages(GROUP)] == [1, 2, 3]
    assert [m.from_bot for m in fake.messages(GROUP)] == [True, False, True]
    assert fake.last_bot_text(ANA) == "private two"


async def test_edit_returns_the_message_and_records_history(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        sent = await bot.send_message(GROUP, "Pick a tile", reply_markup=keyboard(("6|6", "t:66")))
        edited = await bot.edit_message_text(
            "Played 6|6", GROUP, sent.message_id, reply_markup=keyboard(("Pass", "p"))
        )
        assert isinstance(edited, telegram.Message)
        assert edited.text == "Played 6|6"
        assert edited.edit_date is not None
        assert edited.reply_markup == keyboard(("Pass", "p"))
        only_markup = await bot.edit_message_reply_markup(GROUP, sent.message_id)
        assert isinstance(only_markup, telegram.Message)
        assert only_markup.reply_markup is None
        # editMessageText without reply_markup removes the keyboard, as on Telegram.
        await bot.edit_message_reply_markup(
            GROUP, sent.message_id, reply_markup=keyboard(("x", "x"))
        )
        await bot.edit_message_text("Final", GROUP, sent.message_id)
    current = fake.message(GROUP, sent.message_id)
    assert (current.text, current.reply_markup) == ("Final", None)
    assert [v.text for v in current.versions] == [
        "Pick a tile",
        "Played 6|6",
        "Played 6|6",
        "Played 6|6",
        "Final",
    ]
    texts = fake.all_texts_sent_to(GROUP)
    for expected in ("Pick a tile", "6|6", "t:66", "Pass", "p", "Final"):
        assert expected in texts


async def test_not_modified_and_not_found(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        sent = await bot.send_message(GROUP, "same", reply_markup=keyboard(("A", "a")))
        with pytest.raises(BadRequest, match="not modified"):
            await bot.edit_message_text(
                "same", GROUP, sent.message_id, reply_markup=keyboard(("A", "a"))
            )
        with pytest.raises(BadRequest, match="not modified"):
            await bot.edit_message_reply_markup(
                GROUP, sent.message_id, reply_markup=keyboard(("A", "a"))
            )
        with pytest.raises(BadRequest, match="Message to edit not found"):
            await bot.edit_message_text("x", GROUP, 999)
        user_message = await fake.send_message(ANA, GROUP, "/hi")
        with pytest.raises(BadRequest, match="can't be edited"):
            await bot.edit_message_text("x", GROUP, user_message["message_id"])
        assert await bot.delete_message(GROUP, sent.message_id)
        with pytest.raises(BadRequest, match="Message to delete not found"):
            await bot.delete_message(GROUP, sent.message_id)
        with pytest.raises(BadRequest, match="Message to edit not found"):
            await bot.edit_message_text("y", GROUP, sent.message_id)
    assert [m.text for m in fake.messages(GROUP)] == ["/hi"]
    assert "same" in fake.all_texts_sent_to(GROUP)  # deleted messages stay in the leak log


async def test_private_chat_needs_start_and_blocking_forbids(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
            await bot.send_message(BUDI, "hi")
        with pytest.raises(Forbidden, match="initiate"):
            await bot.send_chat_action(BUDI, "typing")
        await fake.start_private(BUDI, "join-42")
        assert (await bot.send_message(BUDI, "welcome")).message_id == 2
        fake.block_user(BUDI)
        with pytest.raises(Forbidden, match="bot was blocked by the user"):
            await bot.send_message(BUDI, "hi again")
        updates = await bot.get_updates()
    kinds = [("message" if u.message else "my_chat_member") for u in updates]
    assert kinds == ["message", "my_chat_member"]
    assert updates[0].message is not None
    assert updates[0].message.text == "/start join-42"
    assert updates[1].my_chat_member is not None
    assert updates[1].my_chat_member.new_chat_member.status == "kicked"


async def test_kicked_bot_and_dropped_updates(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        await fake.send_message(CITRA, GROUP, "/start")
        assert (await bot.get_webhook_info()).pending_update_count == 1
        await bot.delete_webhook(drop_pending_updates=True)
        assert fake.pending_updates == 0
        fake.kick_bot(GROUP)
        with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
            await bot.send_message(GROUP, "hello?")
        (update,) = await bot.get_updates()
    assert update.my_chat_member is not None
    assert update.my_chat_member.new_chat_member.status == "kicked"
    assert update.my_chat_member.from_user.id == ANA


async def test_bot_restricted_then_unrestricted_then_removed() -> None:
    async with running_fake() as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, "Room", admins=(ANA,))
        async with bot_for(fake) as bot:
            fake.restrict_bot(GROUP)
            with pytest.raises(BadRequest, match="Not enough rights to send text messages"):
                await bot.send_message(GROUP, "hello?")
            member = await bot.get_chat_member(GROUP, fake.bot_id)
            assert member.status == "restricted"
            fake.unrestrict_bot(GROUP)
            assert (await bot.send_message(GROUP, "back")).text == "back"
            fake.remove_bot(GROUP)
            with pytest.raises(Forbidden, match="bot is not a member of the supergroup chat"):
                await bot.send_message(GROUP, "hello?")
            updates = await bot.get_updates()
    statuses = [u.my_chat_member.new_chat_member.status for u in updates if u.my_chat_member]
    assert statuses == ["restricted", "member", "left"]
    restricted = updates[0].my_chat_member
    assert restricted is not None
    assert isinstance(restricted.new_chat_member, telegram.ChatMemberRestricted)
    assert not restricted.new_chat_member.can_send_messages


async def test_group_upgraded_to_a_supergroup() -> None:
    basic = -4001
    async with running_fake() as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(basic, "Room", admins=(ANA,))
        async with bot_for(fake) as bot:
            new_id = fake.migrate_group(basic, announce=("from", "to"))
            with pytest.raises(telegram.error.ChatMigrated) as raised:
                await bot.send_message(basic, "hello?")
            assert raised.value.new_chat_id == new_id
            assert (await bot.get_chat(new_id)).type == "supergroup"
            assert (await bot.send_message(new_id, "here")).chat.id == new_id
            updates = await bot.get_updates()
    messages = [u.message for u in updates if u.message]
    assert [(m.chat.id, m.migrate_from_chat_id, m.migrate_to_chat_id) for m in messages] == [
        (new_id, basic, None),
        (basic, None, new_id),
    ]


async def test_group_rate_limit_raises_retry_after() -> None:
    clock = FakeClock()
    async with running_fake(clock=clock) as fake:
        fake.add_user(1, "Ana")
        fake.add_group(GROUP, "Room", admins=(1,))
        async with bot_for(fake) as bot:
            first = await bot.send_message(GROUP, "m0")
            for i in range(1, 19):
                clock.now += 0.5
                await bot.send_message(GROUP, f"m{i}")
            clock.now += 0.5
            await bot.edit_message_text("edits count too", GROUP, first.message_id)  # 20th
            await bot.send_message(ANA, "private chats are not limited")
            clock.now += 0.5  # 10 s after the first message
            with pytest.raises(RetryAfter) as caught:
                await bot.send_message(GROUP, "too many")
            assert retry_seconds(caught.value) == 50
            clock.now += 50  # the first message leaves the 60 s window
            await bot.send_message(GROUP, "fits again")
            with pytest.raises(RetryAfter) as caught:
                await bot.send_message(GROUP, "but only one")
            assert retry_seconds(caught.value) == 1
        last = fake.requests[-1]
        assert (last.status, last.description) == (429, "Too Many Requests: retry after 1")
        assert len(fake.bot_messages(GROUP)) == 20


async def test_text_and_button_limits(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        assert (await bot.send_message(GROUP, "x" * 4096)).text == "x" * 4096
        with pytest.raises(BadRequest, match="Message is too long"):
            await bot.send_message(GROUP, "x" * 4097)
        with pytest.raises(BadRequest, match="Button_data_invalid"):
            await bot.send_message(GROUP, "k", reply_markup=keyboard(("A", "d" * 65)))
        assert await bot.send_message(GROUP, "k", reply_markup=keyboard(("A", "é" * 32)))
        with pytest.raises(BadRequest, match=r"(?i)text buttons are unallowed"):
            await bot.send_message(
                GROUP, "k", reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("A")]])
            )
        with pytest.raises(BadRequest, match="Message text is empty"):
            await bot.send_message(GROUP, "   ")


async def test_parse_modes(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        sent = await bot.send_message(ANA, "🀄 <b>Ana</b> &amp; <i>Budi</i>", parse_mode="HTML")
        assert sent.text == "🀄 Ana & Budi"
        assert [(e.type, e.offset, e.length) for e in sent.entities] == [
            ("bold", 3, 3),
            ("italic", 9, 4),
        ]
        with pytest.raises(BadRequest, match="Can't parse entities: unsupported start tag"):
            await bot.send_message(ANA, "score <5>", parse_mode="HTML")
        with pytest.raises(BadRequest, match=r"(?i)character '\.' is reserved"):
            await bot.send_message(ANA, "Round 1.", parse_mode="MarkdownV2")
        escaped = await bot.send_message(ANA, r"*Round* 1\.", parse_mode="MarkdownV2")
        assert escaped.text == "Round 1."


async def test_forum_topics(fake: FakeTelegram) -> None:
    fake.add_user(10, "Dewi")
    fake.add_group(-1002000000002, "Forum", forum=True, admins=(10,))
    topic = fake.add_topic(-1002000000002, "Table 1")
    async with bot_for(fake) as bot:
        sent = await bot.send_message(-1002000000002, "in topic", message_thread_id=topic)
        assert sent.message_thread_id == topic
        assert sent.is_topic_message
        with pytest.raises(BadRequest, match="Message thread not found"):
            await bot.send_message(-1002000000002, "nowhere", message_thread_id=999)
        incoming = await fake.send_message(10, -1002000000002, "/play", thread_id=topic)
        assert incoming["message_thread_id"] == topic
        await bot.send_message(-1002000000002, "general")
    assert [m.text for m in fake.messages(-1002000000002, thread_id=topic)] == ["in topic", "/play"]
    assert [m.text for m in fake.messages(-1002000000002)] == ["in topic", "/play", "general"]


async def test_commands_are_stored_per_scope_and_language(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        await bot.set_my_commands([BotCommand("newgame", "Start a game")])
        await bot.set_my_commands([BotCommand("main", "Mulai")], language_code="id")
        scope = BotCommandScopeChat(GROUP)
        await bot.set_my_commands([BotCommand("join", "Join")], scope=scope)
        assert [c.command for c in await bot.get_my_commands()] == ["newgame"]
        assert [c.command for c in await bot.get_my_commands(language_code="id")] == ["main"]
        assert [c.command for c in await bot.get_my_commands(scope=scope)] == ["join"]
        await bot.delete_my_commands(scope=BotCommandScopeDefault())
        assert await bot.get_my_commands() == ()
        with pytest.raises(BadRequest, match="Bot_command_invalid"):
            await bot.set_my_commands([BotCommand("NewGame", "bad")])
    assert fake.bot_commands({"type": "chat", "chat_id": GROUP}) == [
        {"command": "join", "description": "Join"}
    ]


async def test_chat_members_and_admins(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        admins = await bot.get_chat_administrators(GROUP)
        assert [(a.user.id, a.status) for a in admins] == [(ANA, "creator")]
        assert (await bot.get_chat_member(GROUP, CITRA)).status == "member"
        fake.add_user(4, "Eko")
        assert (await bot.get_chat_member(GROUP, 4)).status == "left"
        with pytest.raises(BadRequest, match="User not found"):
            await bot.get_chat_member(GROUP, 99)
        chat = await bot.get_chat(GROUP)
        assert (chat.title, chat.type) == ("Gaple room", "supergroup")
        with pytest.raises(BadRequest, match="Chat not found"):
            await bot.get_chat(-42)


async def test_leaving_a_group_and_pressing_as_a_viewer(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        sent = await bot.send_message(
            GROUP,
            "pick",
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("a", callback_data="a")]]),
        )
        fake.leave_group(CITRA, GROUP)
        assert (await bot.get_chat_member(GROUP, CITRA)).status == "left"
        await fake.press(CITRA, GROUP, sent.message_id, "a", viewer=True)
        assert (await bot.get_chat_member(GROUP, CITRA)).status == "left"
        await fake.press(CITRA, GROUP, sent.message_id, "a")
        assert (await bot.get_chat_member(GROUP, CITRA)).status == "member"
        fake.leave_group(ANA, GROUP)
        assert (await bot.get_chat_member(GROUP, ANA)).status == "left"
        fake.restrict_user(BUDI, GROUP, is_member=True)
        restricted = await bot.get_chat_member(GROUP, BUDI)
        assert isinstance(restricted, ChatMemberRestricted) and restricted.is_member
        fake.restrict_user(BUDI, GROUP, is_member=False)
        restricted = await bot.get_chat_member(GROUP, BUDI)
        assert isinstance(restricted, ChatMemberRestricted) and not restricted.is_member


async def test_injected_failures(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        fake.fail_next("sendMessage", 429, "Too Many Requests: retry after 7", retry_after=7)
        with pytest.raises(RetryAfter) as caught:
            await bot.send_message(ANA, "x")
        assert retry_seconds(caught.value) == 7
        fake.fail_next("sendMessage", 403, "Forbidden: user is deactivated", chat_id=CITRA)
        await bot.send_message(ANA, "other chats are fine")
        with pytest.raises(Forbidden, match="deactivated"):
            await bot.send_message(CITRA, "x")
        await bot.send_message(CITRA, "only once")


# ---------------------------------------------------------------------------- spec checks


async def test_spec_violations_are_recorded(fake: FakeTelegram) -> None:
    status, body = await raw_call(fake, "sendMessage", chat_id=ANA, text="hi", colour="red")
    assert (status, body["ok"], body["error_code"]) == (400, False, 400)
    assert "unknown parameter 'colour'" in body["description"]

    await raw_call(fake, "sendMessage", chat_id=ANA)
    await raw_call(fake, "deleteMessage", chat_id=ANA, message_id="seven")
    await raw_call(
        fake,
        "sendMessage",
        chat_id=ANA,
        text="k",
        reply_markup={"inline_keyboard": [[{"text": "A", "callback_data": "a", "colour": 1}]]},
    )
    await raw_call(fake, "setMyCommands", commands=[], scope={"type": "chatt", "chat_id": 1})
    await raw_call(fake, "sendMesage", chat_id=ANA, text="typo")

    found = fake.violations[:]
    fake.violations.clear()  # expected ones; the fixture would fail the test otherwise
    assert len(found) == 6, found
    assert "sendMessage: unknown parameter 'colour'" in found[0]
    assert "missing required parameter 'text'" in found[1]
    assert "deleteMessage.message_id: expected Integer" in found[2]
    assert "unknown field 'colour' for InlineKeyboardButton" in found[3]
    assert "'chatt' is not a valid BotCommandScope" in found[4]
    assert "unknown Bot API method 'sendMesage'" in found[5]
    assert fake.bot_messages(ANA) == []
    assert fake.requests[0].status == 400


async def test_json_bodies_are_checked_strictly(fake: FakeTelegram) -> None:
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api_url}{fake.token}/sendMessage"
        async with session.post(url, json={"chat_id": ANA, "text": "json"}) as ok:
            assert (await ok.json())["result"]["text"] == "json"
        async with session.post(url, json={"chat_id": ANA, "text": "x", "protect_content": "1"}):
            pass
        async with session.post(f"{fake.api_url}wrong:token/getMe") as bad_token:
            assert bad_token.status == 401
    assert len(fake.violations) == 2
    assert "protect_content: expected Boolean" in fake.violations[0]
    fake.violations.clear()


async def test_running_fake_fails_on_violations() -> None:
    with pytest.raises(AssertionError, match=r"(?s)1 Bot API violation.*unknown parameter 'bogus'"):
        async with running_fake() as fake:
            fake.add_user(1, "Ana")
            await raw_call(fake, "getMe", bogus="1")


async def test_what_ptb_sends_is_valid(fake: FakeTelegram) -> None:
    """Exercise many PTB features; the fixture fails on any spec violation."""
    async with bot_for(fake) as bot:
        first = await bot.send_message(GROUP, "first")
        await bot.send_message(
            GROUP,
            "<b>reply</b>",
            parse_mode="HTML",
            reply_to_message_id=first.message_id,
            disable_notification=True,
            link_preview_options=telegram.LinkPreviewOptions(is_disabled=True),
            reply_markup=InlineKeyboardMarkup(
                [[InlineKeyboardButton("Rules", url="https://example.org/rules")]]
            ),
        )
        await bot.send_message(GROUP, "r", reply_markup=telegram.ReplyKeyboardRemove())
        pin_me = await bot.send_message(ANA, "pin me")
        assert await bot.pin_chat_message(ANA, pin_me.message_id)
        assert (await bot.get_chat(ANA)).pinned_message == pin_me
        with pytest.raises(BadRequest, match="Not enough rights"):
            await bot.pin_chat_message(GROUP, first.message_id)
        await bot.send_chat_action(GROUP, "typing")
        with pytest.raises(BadRequest, match="Message to be replied not found"):
            await bot.send_message(GROUP, "x", reply_to_message_id=77)
        await bot.send_message(GROUP, "x", reply_to_message_id=77, allow_sending_without_reply=True)
    replied = fake.messages(GROUP)[1]
    assert replied.reply_to_message_id == 1
    assert replied.buttons() == [("Rules", "https://example.org/rules")]
    assert fake.chat_actions == [(GROUP, "typing", None)]


# ---------------------------------------------------------------------------- with an Application


async def test_application_echo_buttons_and_callback_answers(fake: FakeTelegram) -> None:
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_text(
            f"Hi! args={context.args}", reply_markup=keyboard(("Join", "join"), ("Alert", "alert"))
        )

    async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None and update.effective_message.text
        await update.effective_message.reply_text(update.effective_message.text.upper())

    async def button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None and query.message is not None
        if query.data == "alert":
            await query.answer("x" * 201, show_alert=True)  # too long: BadRequest
            return
        await query.answer(f"{query.from_user.first_name} joined")
        await query.edit_message_text(f"Players: {query.from_user.first_name}")

    async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        errors.append(context.error)

    errors: list[BaseException | None] = []
    async with polling_app(
        fake,
        [
            CommandHandler("start", start),
            CallbackQueryHandler(button),
            MessageHandler(filters.TEXT & ~filters.COMMAND, echo),
        ],
    ) as app:
        app.add_error_handler(on_error)
        await fake.send_message(CITRA, GROUP, "/start@gaple_test_bot now")
        await fake.send_message(CITRA, GROUP, "plain group chatter")  # privacy mode: not delivered
        await fake.send_message(CITRA, CITRA, "hello bot")
        await fake.wait_idle()
        greeting = fake.last_bot_message(GROUP)
        assert greeting is not None
        assert greeting.text == "Hi! args=['now']"
        assert fake.last_bot_text(CITRA) == "HELLO BOT"
        assert len(fake.bot_messages(GROUP)) == 1

        alert_id = await fake.press_button(CITRA, GROUP, greeting.message_id, "Alert")
        await fake.wait_idle()
        assert fake.callback_answer(alert_id) is None  # the too-long alert failed

        query_id = await fake.press(ANA, GROUP, greeting.message_id, "join")
        answer = await fake.wait_callback_answer(query_id)
        assert answer == {"text": "Ana joined"}
        await fake.wait_for(
            lambda: fake.message(GROUP, greeting.message_id).text == "Players: Ana",
            message="the greeting was not edited",
        )
        assert fake.message(GROUP, greeting.message_id).reply_markup is None

    assert len(errors) == 1 and isinstance(errors[0], BadRequest)
    assert "Message_too_long" in str(errors[0])
    assert fake.pending_updates == 0


async def test_odd_updates_match_the_spec_and_queries_can_be_answered(
    fake: FakeTelegram,
) -> None:
    fake.add_channel(-1002000000001, "News")
    sent = await fake.send_message(ANA, ANA, "/start")
    async with bot_for(fake) as bot:
        await fake.edit_message(ANA, ANA, sent["message_id"], "/help")
        post = await fake.post_in_channel(-1002000000001, "/gaple@gaple_test_bot")
        await fake.edit_channel_post(-1002000000001, post["message_id"], "hi")
        await fake.inline_query(CITRA, "dominoes", chat_type="sender")
        inline = await fake.press_any(CITRA, "lj:1", inline_message_id="AAAB")
        forged = await fake.press_any(ANA, "\x00ü" * 10, chat_id=ANA, message_id=1)
        game = await fake.press_any(ANA, None, chat_id=ANA, message_id=1)
        updates = await bot.get_updates(timeout=0)
        assert [u.effective_message.text for u in updates[:4] if u.effective_message] == [
            "/start",
            "/help",
            "/gaple@gaple_test_bot",
            "hi",
        ]
        assert updates[1].edited_message is not None
        assert updates[2].channel_post is not None and updates[2].effective_user is None
        assert updates[2].channel_post.sender_chat is not None
        assert updates[3].edited_channel_post is not None
        assert updates[4].inline_query is not None and updates[4].inline_query.query == "dominoes"
        query = updates[5].callback_query
        assert query is not None and query.message is None
        assert query.inline_message_id == "AAAB"
        assert updates[6].callback_query is not None
        assert updates[6].callback_query.data == "\x00ü" * 10
        assert updates[7].callback_query is not None
        assert updates[7].callback_query.game_short_name == "gaple"
        assert updates[7].callback_query.data is None
        await bot.answer_callback_query(inline)
        await bot.answer_callback_query(forged, "no", show_alert=True)
        await bot.answer_callback_query(game)
    assert fake.callback_answer(inline) == {}
    assert fake.callback_answer(forged) == {"text": "no", "show_alert": True}
    assert not fake.violations


async def test_messages_on_behalf_of_a_chat(fake: FakeTelegram) -> None:
    fake.add_channel(-1002000000001, "News")
    async with bot_for(fake) as bot:
        await fake.send_on_behalf(GROUP, "/stop@gaple_test_bot")
        await fake.send_on_behalf(GROUP, "/top", as_chat=-1002000000001)
        await fake.send_on_behalf(GROUP, "chatter")  # privacy mode: not delivered
        updates = await bot.get_updates(timeout=0)
    assert len(updates) == 2
    anonymous, channel = (u.message for u in updates)
    assert anonymous is not None and channel is not None
    assert anonymous.from_user is not None and anonymous.from_user.username == "GroupAnonymousBot"
    assert anonymous.sender_chat is not None and anonymous.sender_chat.id == GROUP
    assert channel.from_user is not None and channel.from_user.username == "Channel_Bot"
    assert channel.sender_chat is not None and channel.sender_chat.id == -1002000000001
    assert not fake.violations


async def test_wait_for_times_out_with_message(fake: FakeTelegram) -> None:
    with pytest.raises(AssertionError, match="never true"):
        await fake.wait_for(lambda: False, timeout=0.05, message="never true")
    await fake.send_message(ANA, ANA, "nobody polls")
    with pytest.raises(AssertionError, match="1 unconfirmed update"):
        await fake.wait_idle(quiet=0.01, timeout=0.1)


# ---------------------------------------------------------------------------- formatting


def test_html_offsets_are_utf16() -> None:
    text, entities = parse_html(
        '🁣 <a href="https://t.me/x">link</a> <pre><code class="language-py">x</code></pre>'
    )
    assert text == "🁣 link x"
    assert utf16_len("🁣") == 2
    assert entities == [
        {"type": "text_link", "offset": 3, "length": 4, "url": "https://t.me/x"},
        {"type": "pre", "offset": 8, "length": 1, "language": "py"},
    ]


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ("<b>bold", "Can't find end tag corresponding to start tag b"),
        ("a <x> b", 'Unsupported start tag "x" at byte offset 2'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
    ],
)
def test_html_errors(source: str, error: str) -> None:
    from tests.fakes.formatting import EntityParseError

    with pytest.raises(EntityParseError) as caught:
        parse_html(source)
    assert str(caught.value) == error


def test_markdown_v2() -> None:
    text, entities = parse_markdown_v2(r"*bold _both_* __u__ ||s|| [l](https://x.org) \_")
    assert text == "bold both u s l _"
    assert [e["type"] for e in entities] == ["bold", "italic", "underline", "spoiler", "text_link"]


# ---------------------------------------------------------------------------- photos


def png(width: int = 400, height: int = 300, data: dict[str, Any] | None = None) -> bytes:
    """A PNG the way the bot draws one: its data (if any) in the picture's text chunk."""
    if data is not None:
        return encode(Image.new("RGB", (width, height), (22, 84, 58)), data)
    out = io.BytesIO()
    # One bit per pixel: a picture of thousands of pixels stays small to build and send.
    Image.new("1", (width, height)).save(out, format="PNG")
    return out.getvalue()


def picture_as(image_format: str, width: int = 64, height: int = 48) -> bytes:
    """A small red picture in Pillow's `image_format` ("JPEG", "GIF", ...)."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 10, 10)).save(out, format=image_format)
    return out.getvalue()


STANDINGS = {"drawer": "standings", "data": {"rows": [{"name": "Ana", "score": 12}]}}


async def test_photo_upload_with_caption_and_markup(fake: FakeTelegram) -> None:
    picture = png(data=STANDINGS)
    async with bot_for(fake) as bot:
        await bot.send_message(GROUP, "before")
        sent = await bot.send_photo(
            GROUP,
            photo=picture,
            caption="🏁 <b>Game over</b> &amp; well played",
            parse_mode="HTML",
            reply_markup=keyboard(("Play again", "again")),
        )
        assert sent.message_id == 2  # a photo is a message of the chat like any other
        assert sent.text is None
        assert sent.caption == "🏁 Game over & well played"
        assert [(e.type, e.offset, e.length) for e in sent.caption_entities] == [("bold", 3, 9)]
        assert sent.reply_markup == keyboard(("Play again", "again"))
        # Telegram returns the photo in sizes, smallest first; the last holds it whole.
        assert [(p.width, p.height) for p in sent.photo] == [(90, 68), (320, 240), (400, 300)]
        assert len({p.file_id for p in sent.photo}) == 3
        plain = await bot.send_photo(ANA, photo=InputFile(picture_as("JPEG"), filename="card.jpg"))
        assert plain.caption is None and plain.photo[-1].width == 64

        query_id = await fake.press(ANA, GROUP, sent.message_id, "again")
        (update,) = await bot.get_updates()
        assert update.callback_query is not None and update.callback_query.id == query_id
        pressed = update.callback_query.message
        assert isinstance(pressed, telegram.Message)
        assert pressed.caption == sent.caption and pressed.photo == sent.photo

    (stored,) = fake.photos(GROUP)
    assert fake.last_photo(GROUP) is stored
    assert stored.message_id == sent.message_id
    assert stored.caption == stored.text == "🏁 Game over & well played"
    assert stored.buttons() == [("Play again", "again")]
    photo = stored.photo
    assert photo is not None
    assert (photo.width, photo.height, photo.format) == (400, 300, "PNG")
    assert (photo.size, photo.raw) == (len(picture), picture)
    assert photo.data == STANDINGS
    assert photo.file_id == sent.photo[-1].file_id
    assert stored.versions[0].photo is photo
    assert {"standings", "rows", "name", "Ana"} <= set(fake.all_texts_sent_to(GROUP))
    assert [m.text for m in fake.bot_messages(GROUP)] == ["before", stored.text]

    (card,) = fake.photos(ANA)
    assert card.caption == "" and card.photo is not None
    assert (card.photo.format, card.photo.data) == ("JPEG", None)
    assert fake.last_photo(CITRA) is None
    assert fake.message(GROUP, 1).caption is None  # a text message has no caption


async def test_photo_caption_limit_counts_characters_after_parsing(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        fits = await bot.send_photo(GROUP, png(), caption=f"<b>{'é' * 1024}</b>", parse_mode="HTML")
        assert fits.caption == "é" * 1024
        with pytest.raises(BadRequest, match="Message caption is too long"):
            await bot.send_photo(GROUP, png(), caption="x" * 1025)
        with pytest.raises(BadRequest, match="Can't parse entities"):
            await bot.send_photo(GROUP, png(), caption="<b>open", parse_mode="HTML")
        entities = [telegram.MessageEntity("italic", 0, 3)]
        given = await bot.send_photo(GROUP, png(), caption="Ana wins", caption_entities=entities)
        assert given.caption_entities == tuple(entities)
        blank = await bot.send_photo(GROUP, png(), caption="   ")
        assert blank.caption is None  # trimmed to nothing: no caption, and no error
    assert [m.caption for m in fake.photos(GROUP)] == ["é" * 1024, "Ana wins", ""]


def _cut(picture: bytes) -> bytes:
    """The first half of a picture: its header reads, its pixels do not."""
    return picture[: len(picture) // 2]


@pytest.mark.parametrize(
    ("build", "error"),
    [
        (lambda: b"not a picture at all", "Image_process_failed"),
        (lambda: _cut(png(data=STANDINGS)), "Image_process_failed"),
        (lambda: picture_as("GIF"), "Image_process_failed"),  # an image, not a photo's kind
        (lambda: b"", "File must be non-empty"),
        (lambda: png(5001, 5000), "Photo_invalid_dimensions"),
        (lambda: png(2100, 100), "Photo_invalid_dimensions"),
        (lambda: png(100, 2001), "Photo_invalid_dimensions"),
        (lambda: png() + b"\0" * (10 * 1024 * 1024), "Photo_save_file_invalid"),
    ],
    ids=[
        "not-an-image",
        "truncated",
        "gif",
        "empty",
        "sides-over-10000",
        "wider-than-20-to-1",
        "taller-than-20-to-1",
        "over-10-MB",
    ],
)
async def test_photos_telegram_cannot_take_are_refused(
    fake: FakeTelegram, build: Callable[[], bytes], error: str
) -> None:
    async with bot_for(fake) as bot:
        with pytest.raises(BadRequest, match=error):
            await bot.send_photo(GROUP, InputFile(build(), filename="picture.png"))
    assert fake.photos(GROUP) == []
    assert not fake.group_writes(GROUP)


async def test_photo_limits_are_inclusive(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        for width, height in [(2000, 100), (100, 2000), (5000, 5000)]:
            sent = await bot.send_photo(GROUP, png(width, height))
            assert sent.photo[-1].width <= 2560 and sent.photo[-1].height <= 2560
    assert [(m.photo.width, m.photo.height) for m in fake.photos(GROUP) if m.photo] == [
        (2000, 100),
        (100, 2000),
        (5000, 5000),
    ]


async def test_photo_follows_the_chat_rules_of_messages(fake: FakeTelegram) -> None:
    fake.add_user(10, "Dewi")
    forum = -1002000000002
    fake.add_group(forum, "Forum", forum=True, admins=(10,))
    topic = fake.add_topic(forum, "Table 1")
    async with bot_for(fake) as bot:
        in_topic = await bot.send_photo(forum, png(), message_thread_id=topic)
        assert in_topic.message_thread_id == topic
        with pytest.raises(BadRequest, match="Message thread not found"):
            await bot.send_photo(forum, png(), message_thread_id=999)
        reply = await bot.send_photo(
            forum, png(), reply_parameters=telegram.ReplyParameters(in_topic.message_id)
        )
        assert reply.reply_to_message is not None
        assert reply.reply_to_message.message_id == in_topic.message_id
        assert reply.message_thread_id == topic  # a reply stays in the topic of its message
        with pytest.raises(BadRequest, match="Message to be replied not found"):
            await bot.send_photo(forum, png(), reply_parameters=telegram.ReplyParameters(77))
        with pytest.raises(Forbidden, match="bot can't initiate conversation"):
            await bot.send_photo(BUDI, png())
        fake.restrict_bot(GROUP)
        with pytest.raises(BadRequest, match="Not enough rights to send photos to the chat"):
            await bot.send_photo(GROUP, png())
        fake.kick_bot(GROUP)
        with pytest.raises(Forbidden, match="bot was kicked from the supergroup chat"):
            await bot.send_photo(GROUP, png())
        fake.fail_next("sendPhoto", 403, "Forbidden: bot was blocked by the user", chat_id=ANA)
        with pytest.raises(Forbidden, match="blocked"):
            await bot.send_photo(ANA, png())
    assert [m.message_id for m in fake.photos(forum, thread_id=topic)] == [
        in_topic.message_id,
        reply.message_id,
    ]


async def test_photo_by_file_id_and_refused_strings(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        first = await bot.send_photo(GROUP, png(data=STANDINGS), caption="one")
        again = await bot.send_photo(ANA, first.photo[-1].file_id, caption="two")
        assert again.photo == first.photo  # the same photo, the same sizes and ids
        small = await bot.send_photo(GROUP, first.photo[0])  # any size names the photo
        assert small.photo == first.photo
        with pytest.raises(BadRequest, match=r"(?i)wrong file identifier/http url specified"):
            await bot.send_photo(GROUP, "AgACAgIAAxkDAAI99999w")
        with pytest.raises(BadRequest, match=r"(?i)failed to get http url content"):
            await bot.send_photo(GROUP, "https://example.org/table.png")
    group_photo = fake.photos(GROUP)[0].photo
    assert group_photo is not None
    assert fake.photos(ANA)[0].photo is group_photo
    assert group_photo.data == STANDINGS
    assert [m.caption for m in fake.photos(GROUP)] == ["one", ""]


async def test_photo_requests_are_checked_against_the_spec(fake: FakeTelegram) -> None:
    async def upload(**fields: Any) -> dict[str, Any]:
        form = aiohttp.FormData()
        for name, value in fields.items():
            if isinstance(value, bytes):
                form.add_field(name, value, filename="p.png", content_type="image/png")
            else:
                form.add_field(name, value if isinstance(value, str) else json.dumps(value))
        async with (
            aiohttp.ClientSession() as session,
            session.post(f"{fake.api_url}{fake.token}/sendPhoto", data=form) as response,
        ):
            body: dict[str, Any] = await response.json()
            return body

    ok = await upload(chat_id=GROUP, photo=png(), caption="hi", reply_markup=keyboard_json())
    assert ok["ok"] and ok["result"]["caption"] == "hi"
    assert ok["result"]["reply_markup"] == keyboard_json()
    assert not fake.violations

    refused = await upload(chat_id=GROUP, photo=png(), colour="red")
    assert refused["error_code"] == 400
    await upload(chat_id=GROUP, caption="no photo")
    await upload(chat_id=GROUP, photo="x", caption=png())
    await upload(chat_id=GROUP, photo=png(), reply_markup="{not json")
    await upload(chat_id=GROUP, photo=png(), has_spoiler="maybe")
    await upload(chat_id=GROUP, photo=png(), file1=png())
    found = fake.violations[:]
    fake.violations.clear()  # expected ones; the fixture would fail the test otherwise
    assert len(found) == 6, found
    assert "sendPhoto: unknown parameter 'colour'" in found[0]
    assert "sendPhoto: missing required parameter 'photo'" in found[1]
    assert "sendPhoto.caption: expected String, got <file 'p.png'>" in found[2]
    assert "sendPhoto.reply_markup" in found[3]
    assert "sendPhoto.has_spoiler: expected Boolean" in found[4]
    assert "sendPhoto: unknown parameter 'file1'" in found[5]
    assert len(fake.photos(GROUP)) == 1


def keyboard_json() -> dict[str, Any]:
    return {"inline_keyboard": [[{"text": "Play again", "callback_data": "again"}]]}


async def test_edit_message_text_on_a_photo_is_refused(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        sent = await bot.send_photo(GROUP, png(), caption="Round 1")
        with pytest.raises(BadRequest, match="There is no text in the message to edit"):
            await bot.edit_message_text("Round 2", GROUP, sent.message_id)
        text = await bot.send_message(GROUP, "a text")
        with pytest.raises(BadRequest, match="There is no caption in the message to edit"):
            await bot.edit_message_caption(GROUP, text.message_id, caption="x")
    stored = fake.message(GROUP, sent.message_id)
    assert [v.text for v in stored.versions] == ["Round 1"]


async def test_edit_message_caption_and_markup_of_a_photo(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        sent = await bot.send_photo(
            GROUP, png(data=STANDINGS), caption="Game over", reply_markup=keyboard(("Again", "a"))
        )
        edited = await bot.edit_message_caption(
            GROUP,
            sent.message_id,
            caption="<i>Game over</i>, again in 1 min",
            parse_mode="HTML",
            reply_markup=keyboard(("Join", "j")),
        )
        assert isinstance(edited, telegram.Message)
        assert edited.caption == "Game over, again in 1 min"
        assert [(e.type, e.offset, e.length) for e in edited.caption_entities] == [("italic", 0, 9)]
        assert edited.photo == sent.photo and edited.edit_date is not None
        assert edited.reply_markup == keyboard(("Join", "j"))
        with pytest.raises(BadRequest, match="not modified"):
            await bot.edit_message_caption(
                GROUP,
                sent.message_id,
                caption="<i>Game over</i>, again in 1 min",
                parse_mode="HTML",
                reply_markup=keyboard(("Join", "j")),
            )
        with pytest.raises(BadRequest, match="Media_caption_too_long"):
            await bot.edit_message_caption(GROUP, sent.message_id, caption="x" * 1025)
        only_markup = await bot.edit_message_reply_markup(GROUP, sent.message_id)
        assert isinstance(only_markup, telegram.Message)
        assert only_markup.reply_markup is None and only_markup.photo == sent.photo
        assert only_markup.caption == "Game over, again in 1 min"
        bare = await bot.edit_message_caption(GROUP, sent.message_id)  # no caption: removed
        assert isinstance(bare, telegram.Message) and bare.caption is None
    stored = fake.message(GROUP, sent.message_id)
    assert [v.text for v in stored.versions] == [
        "Game over",
        "Game over, again in 1 min",
        "Game over, again in 1 min",
        "",
    ]
    assert all(v.photo is stored.photo for v in stored.versions)
    assert fake.photos(GROUP) == [stored]


async def test_photos_and_caption_edits_count_in_the_group_budget() -> None:
    clock = FakeClock()
    async with running_fake(clock=clock, group_limit_per_minute=4) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, "Room", admins=(ANA,))
        async with bot_for(fake) as bot:
            await bot.send_message(GROUP, "table")
            clock.now += 1
            with pytest.raises(BadRequest, match="Image_process_failed"):
                await bot.send_photo(GROUP, b"junk")  # refused: it costs nothing
            photo = await bot.send_photo(GROUP, png(), caption="round over")
            clock.now += 1
            await bot.edit_message_caption(GROUP, photo.message_id, caption="round 1 over")
            await bot.edit_message_reply_markup(
                GROUP, photo.message_id, reply_markup=keyboard(("Again", "a"))
            )
            await bot.send_photo(ANA, png())  # private chats have no group limit
            with pytest.raises(RetryAfter) as caught:
                await bot.send_photo(GROUP, photo.photo[-1].file_id)
            assert retry_seconds(caught.value) == 58  # the table leaves the window at +60 s
            clock.now += 58
            await bot.send_photo(GROUP, photo.photo[-1].file_id)
        assert [r.method for r in fake.group_writes(GROUP)] == [
            "sendMessage",
            "sendPhoto",
            "editMessageCaption",
            "editMessageReplyMarkup",
            "sendPhoto",
        ]
        assert [r.status for r in fake.requests_for("sendPhoto")] == [400, 200, 200, 429, 200]


# ---------------------------------------------------------------------------- load options


async def test_global_limit_per_second_counts_writes_in_every_chat() -> None:
    clock = FakeClock()
    async with running_fake(clock=clock, global_limit_per_second=3) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, "Room", admins=(ANA,))
        async with bot_for(fake) as bot:
            first = await bot.send_message(GROUP, "table")
            await bot.send_message(ANA, "hand")
            clock.now += 0.5
            await bot.edit_message_text("table, edited", GROUP, first.message_id)  # 3rd
            with pytest.raises(RetryAfter) as caught:
                await bot.send_message(BUDI, "one too many")
            assert retry_seconds(caught.value) == 1
            query_id = await fake.press(ANA, GROUP, first.message_id, "x", check_button=False)
            await bot.answer_callback_query(query_id)  # not a write: no limit applies
            clock.now += 0.5  # the first two leave the 1 s window
            await bot.send_message(BUDI, "fits again")
            await bot.send_message(BUDI, "and another")
            with pytest.raises(RetryAfter):
                await bot.send_message(GROUP, "full again")
        assert fake.limit_hits == {"group": 0, "private": 0, "global": 2}
        # Refused writes counted in no window: the group saw two writes, not three.
        assert len(fake.group_writes(GROUP)) == 2


async def test_private_limit_per_second_is_per_chat() -> None:
    clock = FakeClock()
    async with running_fake(clock=clock, private_limit_per_second=1) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, "Room", admins=(ANA,))
        async with bot_for(fake) as bot:
            hand = await bot.send_message(ANA, "hand")
            await bot.send_message(BUDI, "another chat")
            await bot.send_message(GROUP, "groups have their own limit")
            await bot.send_message(GROUP, "per minute")
            clock.now += 0.9
            with pytest.raises(RetryAfter) as caught:
                await bot.edit_message_text("edits count too", ANA, hand.message_id)
            assert retry_seconds(caught.value) == 1
            clock.now += 0.1
            await bot.edit_message_text("a second later", ANA, hand.message_id)
        assert fake.limit_hits == {"group": 0, "private": 1, "global": 0}
        assert fake.message(ANA, hand.message_id).text == "a second later"


async def test_limits_per_second_are_off_by_default(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        for i in range(40):
            await bot.send_message(ANA, f"m{i}")
    assert fake.limit_hits == {"group": 0, "private": 0, "global": 0}


async def test_listeners_hear_sends_edits_and_answers() -> None:
    heard: list[tuple[int, int, str, bool]] = []
    answers: list[tuple[str, dict[str, Any]]] = []
    async with running_fake(keep_history=False) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_group(GROUP, "Room", admins=(ANA,))
        fake.message_listeners.append(
            lambda message, edited: heard.append(
                (message.chat_id, message.message_id, message.text, edited)
            )
        )
        fake.answer_listeners.append(lambda query_id, answer: answers.append((query_id, answer)))
        async with bot_for(fake) as bot:
            sent = await bot.send_message(ANA, "one", reply_markup=keyboard(("Tap", "tap")))
            await bot.edit_message_text("two", ANA, sent.message_id)
            await bot.send_photo(GROUP, png(), caption="round over")
            query_id = await fake.press(ANA, ANA, sent.message_id, "tap", check_button=False)
            await bot.answer_callback_query(query_id, text="done")
        assert heard == [
            (ANA, sent.message_id, "one", False),
            (ANA, sent.message_id, "two", True),
            (GROUP, 1, "round over", False),
        ]
        assert answers == [(query_id, {"text": "done"})]
        # keep_history=False: no parameters in the log, no versions past the first.
        assert all(request.params == {} for request in fake.requests)
        assert [v.text for v in fake.message(ANA, sent.message_id).versions] == ["one"]
        assert fake.message(ANA, sent.message_id).text == "two"


# ---------------------------------------------------------------------------- callback answers


async def test_an_answer_is_refused_after_fifteen_seconds_or_given_twice() -> None:
    clock = FakeClock()
    async with running_fake(clock=clock) as fake:
        fake.add_user(ANA, "Ana")
        async with bot_for(fake) as bot:
            sent = await bot.send_message(ANA, "hand", reply_markup=keyboard(("Tap", "tap")))
            late = await fake.press(ANA, ANA, sent.message_id, "tap")
            clock.now += ANSWER_WINDOW_SECONDS + 0.5
            with pytest.raises(BadRequest, match=r"(?i)query is too old"):
                await bot.answer_callback_query(late, text="late")
            assert fake.callback_answer(late) is None
            timely = await fake.press(ANA, ANA, sent.message_id, "tap")
            clock.now += ANSWER_WINDOW_SECONDS - 0.5
            await bot.answer_callback_query(timely, text="in time")
            with pytest.raises(BadRequest, match=r"(?i)query is too old"):
                await bot.answer_callback_query(timely, text="again")
            assert fake.callback_answer(timely) == {"text": "in time"}


async def test_an_update_not_confirmed_is_delivered_again_with_its_id(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        sent = await bot.send_message(ANA, "hand", reply_markup=keyboard(("Tap", "tap")))
        query_id = await fake.press(ANA, ANA, sent.message_id, "tap")
        update_id = fake.update_of_query(query_id)
        first = await bot.get_updates(timeout=0)
        assert [u.update_id for u in first] == [update_id]
        assert await bot.get_updates(offset=update_id + 1, timeout=0) == ()
        fake.deliver_again(update_id)
        again = await bot.get_updates(timeout=0)
        assert [u.update_id for u in again] == [update_id]
        assert again[0].callback_query is not None and again[0].callback_query.id == query_id


async def test_a_held_request_reaches_the_server_once_released(fake: FakeTelegram) -> None:
    async with bot_for(fake) as bot:
        sent = await bot.send_message(ANA, "one")
        released = fake.hold_next("editMessageText", chat_id=ANA)
        edit = asyncio.create_task(bot.edit_message_text("two", ANA, sent.message_id))
        # The call arrived (its hold is taken) and waits there, unapplied.
        await fake.wait_for(lambda: fake.delays_planned == 0, message="the edit never arrived")
        assert fake.message(ANA, sent.message_id).text == "one"
        assert not edit.done()
        released.set()
        await asyncio.wait_for(edit, 60)
        assert fake.message(ANA, sent.message_id).text == "two"
