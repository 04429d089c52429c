"""A fake Telegram Bot API server (aiohttp on 127.0.0.1) for end-to-end tests of the bot.

Usage from an async test::

    async with running_fake() as fake:
        fake.add_user(1, "Ana")
        fake.add_group(-1001, "Gaple room", admins=(1,))
        app = fake.configure(ApplicationBuilder()).build()
        ...  # start polling, then act as users:
        await fake.send_message(1, -1001, "/newgame")
        await fake.wait_idle()
        assert "Gaple" in fake.last_bot_message(-1001).text

Every request is checked against tests/data/bot-api.json; mismatches land in ``fake.violations``
and ``running_fake`` fails the test when any were recorded.

The fake is three modules put together here: ``world`` (users, chats, messages and their state),
``endpoints`` (the HTTP routes and Bot API methods, spec-checked) and ``actors`` (what a test
does as a person, and its waits). Import it from here.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Unpack

from tests.fakes.actors import PersonActions
from tests.fakes.endpoints import BotApiEndpoints
from tests.fakes.world import (
    ANONYMOUS_ADMIN,
    BUTTON_STYLES,
    CHANNEL_BOT,
    CHAT_ACTIONS,
    DEFAULT_ALLOWED_UPDATES,
    DEFAULT_BOT_NAME,
    DEFAULT_BOT_USERNAME,
    DEFAULT_TOKEN,
    GROUP_WRITE_METHODS,
    MAX_ALERT_LENGTH,
    MAX_CALLBACK_DATA_BYTES,
    MAX_CAPTION_LENGTH,
    MAX_INLINE_BUTTONS,
    MAX_PHOTO_BYTES,
    MAX_PHOTO_RATIO,
    MAX_PHOTO_SIDES,
    MAX_TEXT_LENGTH,
    MAX_UPLOAD_BYTES,
    PHOTO_FORMATS,
    PHOTO_SIZE_BOXES,
    RATE_WINDOW_SECONDS,
    SECOND_WINDOW_SECONDS,
    ApiError,
    ChatType,
    FakeChat,
    FakeMessage,
    FakeOptions,
    FakePhoto,
    FakeRequest,
    FakeUser,
    JsonDict,
    MessageVersion,
)

__all__ = [
    "ANONYMOUS_ADMIN",
    "BUTTON_STYLES",
    "CHANNEL_BOT",
    "CHAT_ACTIONS",
    "DEFAULT_ALLOWED_UPDATES",
    "DEFAULT_BOT_NAME",
    "DEFAULT_BOT_USERNAME",
    "DEFAULT_TOKEN",
    "GROUP_WRITE_METHODS",
    "MAX_ALERT_LENGTH",
    "MAX_CALLBACK_DATA_BYTES",
    "MAX_CAPTION_LENGTH",
    "MAX_INLINE_BUTTONS",
    "MAX_PHOTO_BYTES",
    "MAX_PHOTO_RATIO",
    "MAX_PHOTO_SIDES",
    "MAX_TEXT_LENGTH",
    "MAX_UPLOAD_BYTES",
    "PHOTO_FORMATS",
    "PHOTO_SIZE_BOXES",
    "RATE_WINDOW_SECONDS",
    "SECOND_WINDOW_SECONDS",
    "ApiError",
    "ChatType",
    "FakeChat",
    "FakeMessage",
    "FakeOptions",
    "FakePhoto",
    "FakeRequest",
    "FakeTelegram",
    "FakeUser",
    "JsonDict",
    "MessageVersion",
    "running_fake",
]


class FakeTelegram(PersonActions, BotApiEndpoints):
    """In-process fake of the Telegram Bot API, driven by tests acting as users.

    Bot side (HTTP): getMe, getUpdates (offset, limit, long-poll timeout, allowed_updates, 409
    when a newer poll starts), setWebhook (updates then go out with ``deliver_to_webhook``),
    deleteWebhook, getWebhookInfo, set/get/deleteMyCommands (per scope + language_code),
    sendMessage (parse_mode HTML/MarkdownV2/Markdown parsed like Telegram, message_thread_id,
    reply_parameters), sendPhoto (a PNG/JPEG upload or a file_id the fake issued; caption
    parsed like text; counted, checked and stored like a message), editMessageText,
    editMessageCaption, editMessageReplyMarkup, deleteMessage, answerCallbackQuery, getChat,
    getChatMember, getChatAdministrators, pin/unpinChatMessage, sendChatAction,
    savePreparedInlineMessage (kept in ``prepared_messages``). Any other method is a violation.

    Test side: ``add_user``/``add_group``/``add_topic``/``add_channel`` build the world;
    ``send_message``, ``start_private``, ``press``/``press_button``, ``block_user``,
    ``leave_group``, ``restrict_user``, ``kick_bot``, ``delete_message`` act; ``edit_message``,
    ``send_on_behalf``, ``post_in_channel``, ``edit_channel_post``, ``inline_query`` and
    ``press_any`` (forged data, inline buttons) act oddly; ``messages``, ``last_bot_message``,
    ``photos``, ``last_photo``, ``all_texts_sent_to``, ``requests``, ``group_writes``,
    ``callback_answer`` read; ``wait_for``/``wait_idle``/``wait_callback_answer`` wait;
    ``fail_next`` injects errors, ``delay_next`` slow requests.

    ``group_limit_per_minute``: sends + edits (``GROUP_WRITE_METHODS``, photos included)
    allowed per group in a sliding 60 s window before 429. ``global_limit_per_second`` and
    ``private_limit_per_second`` (None, the default: no such limit): the same writes allowed in
    a sliding 1 s window in all chats together, and in one private chat, before 429 (Telegram's
    30 a second and one a second; a refused write counts in no window). ``limit_hits`` counts
    the 429s of each limit. ``privacy_mode``: in groups the bot only gets commands, replies to
    it and @mentions (unless it is an admin there). ``clock``: time source of the rate limits
    and request log; ``sleep``: how ``delay_next`` waits (pair it with ``clock``).
    ``keep_history=False`` (for load runs, where memory would grow with every call): the
    request log keeps no parameters and a message no versions past its first.

    ``message_listeners`` are called as ``listener(message, edited)`` each time the bot sends
    a message (``edited`` False) or edits one (True), after the fake stored it;
    ``answer_listeners`` as ``listener(query_id, answer)`` when the bot answers a callback
    query. They run inside the request, so they must be quick (schedule work, do not await).
    """


@contextlib.asynccontextmanager
async def running_fake(**options: Unpack[FakeOptions]) -> AsyncIterator[FakeTelegram]:
    """Start a FakeTelegram, yield it, stop it, then fail if the bot violated the Bot API."""
    fake = FakeTelegram(**options)
    await fake.start()
    try:
        yield fake
    except BaseException as exc:
        await fake.stop()
        if fake.violations:
            exc.add_note("Bot API violations:\n" + "\n".join(fake.violations))
        raise
    await fake.stop()
    fake.assert_no_violations()
