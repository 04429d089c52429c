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
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import math
import re
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, TypedDict, TypeVar, Unpack

import aiohttp
import telegram
from aiohttp import web

from tests.fakes.formatting import EntityParseError, parse_text, trim_text, utf16_len
from tests.fakes.spec_check import BotApiSpec, Upload, default_spec

if TYPE_CHECKING:
    from telegram.ext import ApplicationBuilder

JsonDict = dict[str, Any]
ChatType = Literal["private", "group", "supergroup", "channel"]

DEFAULT_TOKEN: Final = "123456:TEST-token"
DEFAULT_BOT_USERNAME: Final = "gaple_test_bot"
DEFAULT_BOT_NAME: Final = "Gaple Test Bot"

MAX_TEXT_LENGTH: Final = 4096
MAX_CAPTION_LENGTH: Final = 1024
"""A caption is 0-1024 characters after entity parsing."""
MAX_PHOTO_BYTES: Final = 10 * 1024 * 1024
"""sendPhoto: "The photo must be at most 10 MB in size"."""
MAX_PHOTO_SIDES: Final = 10_000
"""sendPhoto: "The photo's width and height must not exceed 10000 in total"."""
MAX_PHOTO_RATIO: Final = 20
"""sendPhoto: "Width and height ratio must be at most 20"."""
PHOTO_FORMATS: Final = frozenset({"PNG", "JPEG"})
"""What the fake takes as a photo (Pillow's format names); anything else fails to process."""
PHOTO_SIZE_BOXES: Final = (("s", 90), ("m", 320), ("x", 800), ("y", 1280), ("w", 2560))
"""The boxes Telegram scales a photo into: a PhotoSize per box up to the first that holds the
whole photo (its longer side at most the box)."""
MAX_UPLOAD_BYTES: Final = 50 * 1024 * 1024
"""A multipart request of a bot may carry 50 MB; a longer body is refused with 413."""
GROUP_WRITE_METHODS: Final = frozenset(
    {"sendMessage", "sendPhoto", "editMessageText", "editMessageCaption", "editMessageReplyMarkup"}
)
"""The methods that count against a group's per-minute limit (sends and edits alike)."""
MAX_CALLBACK_DATA_BYTES: Final = 64
MAX_ALERT_LENGTH: Final = 200
MAX_INLINE_BUTTONS: Final = 100
RATE_WINDOW_SECONDS: Final = 60.0
SECOND_WINDOW_SECONDS: Final = 1.0
"""The window of the optional per-second limits (all chats, one private chat)."""

# Update kinds Telegram sends when allowed_updates is empty/unset.
DEFAULT_ALLOWED_UPDATES: Final = frozenset(
    {
        "message",
        "edited_message",
        "channel_post",
        "edited_channel_post",
        "business_connection",
        "business_message",
        "edited_business_message",
        "deleted_business_messages",
        "inline_query",
        "chosen_inline_result",
        "callback_query",
        "shipping_query",
        "pre_checkout_query",
        "purchased_paid_media",
        "poll",
        "poll_answer",
        "my_chat_member",
        "chat_join_request",
        "chat_boost",
        "removed_chat_boost",
    }
)
CHAT_ACTIONS: Final = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
BUTTON_STYLES: Final = frozenset({"danger", "success", "primary"})
_NON_ACTION_BUTTON_FIELDS: Final = frozenset({"text", "icon_custom_emoji_id", "style"})
ANONYMOUS_ADMIN: Final = {
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
}
"""The ``from`` of a message an admin sent anonymously, on behalf of the group."""
CHANNEL_BOT: Final = {
    "id": 136817688,
    "is_bot": True,
    "first_name": "Channel",
    "username": "Channel_Bot",
}
"""The ``from`` of a message sent on behalf of a channel."""
_COMMAND_RE: Final = re.compile(r"/([A-Za-z0-9_]{1,32})(?:@([A-Za-z0-9_]{1,64}))?(?![A-Za-z0-9_@])")
_MENTION_RE: Final = re.compile(r"(?<![A-Za-z0-9_@])@[A-Za-z0-9_]{3,32}")
_BOT_COMMAND_NAME_RE: Final = re.compile(r"[a-z0-9_]{1,32}")
_LANGUAGE_CODE_RE: Final = re.compile(r"[a-z]{2}")
_CONFLICT: Final = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
_NOT_MODIFIED: Final = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)
_BAD_QUERY: Final = (
    "Bad Request: query is too old and response timeout expired or query ID is invalid"
)
_IMAGE_FAILED: Final = "Bad Request: IMAGE_PROCESS_FAILED"
_URL_SCHEME_RE: Final = re.compile(r"(?i)https?://")

_BuilderT = TypeVar("_BuilderT", bound="ApplicationBuilder[Any, Any, Any, Any, Any, Any]")


class ApiError(Exception):
    """An error answer of the Bot API: ``{"ok": false, "error_code": ..., "description": ...}``."""

    def __init__(
        self,
        code: int,
        description: str,
        *,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id

    def body(self) -> JsonDict:
        body: JsonDict = {"ok": False, "error_code": self.code, "description": self.description}
        if self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        if self.migrate_to_chat_id is not None:
            body["parameters"] = {"migrate_to_chat_id": self.migrate_to_chat_id}
        return body


@dataclass
class FakeUser:
    """A Telegram user the tests act as."""

    user_id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str = "en"
    started: bool = True  # has opened a private chat with the bot
    blocked: bool = False  # has blocked the bot

    def to_api(self) -> JsonDict:
        data: JsonDict = {"id": self.user_id, "is_bot": False, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass(frozen=True, eq=False)
class FakePhoto:
    """A photo the bot uploaded, as the fake keeps it: each of its file_ids sends it again.

    ``width``/``height``/``size``/``raw`` are the upload itself (Telegram shows a re-encoded
    copy; the PhotoSize list in ``sizes`` says what Telegram would return, sizes estimated).
    ``data`` is the JSON the picture carries (``decode_data``; None when it carries none).
    """

    file_id: str
    """The file_id of the largest size (any size's file_id resends the photo)."""
    file_unique_id: str
    width: int
    height: int
    size: int
    """Bytes uploaded."""
    format: str
    """"PNG" or "JPEG" (Pillow's name)."""
    raw: bytes = field(repr=False)
    data: JsonDict | None = None
    sizes: tuple[JsonDict, ...] = ()
    """The PhotoSize objects of the Message, smallest first."""

    def strings(self) -> list[str]:
        """Every string in ``data`` (dict keys too), depth first: what the picture may show."""
        return list(_strings_in(self.data))


def _strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings_in(key)
            yield from _strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings_in(item)


@dataclass(frozen=True)
class MessageVersion:
    """The content of a message at one point in time (the original or an edit).

    For a photo message ``text``/``entities`` are the caption and its entities, and ``photo``
    is the picture (None for every other message)."""

    text: str
    entities: tuple[JsonDict, ...]
    reply_markup: JsonDict | None
    photo: FakePhoto | None = None


@dataclass
class FakeMessage:
    """A message in a fake chat, in its current state (see ``versions`` for its history).

    A photo message has ``photo``; its ``text``/``entities`` are the caption's plain text
    ("" for none) and caption entities, so whatever reads a chat's texts reads captions too.
    """

    chat_id: int
    message_id: int
    from_user_id: int
    from_bot: bool
    date: int
    text: str
    entities: list[JsonDict] = field(default_factory=list)
    reply_markup: JsonDict | None = None
    thread_id: int | None = None
    reply_to_message_id: int | None = None
    edit_date: int | None = None
    deleted: bool = False
    service: JsonDict | None = None  # e.g. {"forum_topic_created": {...}}
    sender_chat_id: int | None = None  # sent on behalf of a chat (anonymous admin, channel)
    versions: list[MessageVersion] = field(default_factory=list)
    photo: FakePhoto | None = None
    caption_above: bool = False  # show_caption_above_media
    spoiler: bool = False  # has_spoiler: the photo is covered until tapped

    @property
    def caption(self) -> str | None:
        """A photo's caption ("" for none); None for a message that is not a photo."""
        return self.text if self.photo is not None else None

    def button_rows(self) -> list[list[tuple[str, str | None]]]:
        """Keyboard rows as (text, callback_data or url or None) pairs."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard") or self.reply_markup.get("keyboard") or []
        return [[_button_pair(button) for button in row] for row in rows]

    def buttons(self) -> list[tuple[str, str | None]]:
        """All buttons, flattened, as (text, callback_data or url or None) pairs."""
        return [pair for row in self.button_rows() for pair in row]

    def button_texts(self) -> list[str]:
        return [text for text, _ in self.buttons()]


def _button_pair(button: object) -> tuple[str, str | None]:
    if isinstance(button, dict):
        target = button.get("callback_data") or button.get("url")
        return str(button.get("text", "")), None if target is None else str(target)
    return str(button), None


@dataclass
class FakeChat:
    """A private chat, a group or a channel known to the fake."""

    chat_id: int
    type: ChatType
    title: str | None = None
    username: str | None = None
    forum: bool = False
    admins: list[int] = field(default_factory=list)  # the first non-bot admin is the creator
    members: set[int] = field(default_factory=set)
    restricted: dict[int, bool] = field(default_factory=dict)  # user id -> is_member
    bot_status: Literal["member", "administrator", "kicked", "left", "restricted"] = "member"
    migrated_to: int | None = None  # a group upgraded to this supergroup
    messages: dict[int, FakeMessage] = field(default_factory=dict)
    topics: dict[int, str] = field(default_factory=dict)
    pinned_message_id: int | None = None
    next_message_id: int = 1

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")


@dataclass(frozen=True)
class FakeRequest:
    """One Bot API call made by the bot."""

    method: str
    params: JsonDict
    chat_id: int | None
    time: float
    status: int
    description: str | None


@dataclass
class _Call:
    method: str
    params: JsonDict = field(default_factory=dict)


@dataclass
class _Delay:
    method: str
    seconds: float
    count: int
    chat_id: int | None
    matching: Callable[[JsonDict], bool] | None = None


@dataclass
class _Failure:
    method: str
    error_code: int
    description: str
    retry_after: int | None
    count: int
    chat_id: int | None
    matching: Callable[[JsonDict], bool] | None = None


def _applies(
    chat_id: int | None, matching: Callable[[JsonDict], bool] | None, params: JsonDict
) -> bool:
    """Whether a planned delay or failure is for this call (its chat, its own test)."""
    if chat_id is not None and params.get("chat_id") != chat_id:
        return False
    return matching is None or matching(params)


class FakeOptions(TypedDict, total=False):
    """Keyword arguments of :class:`FakeTelegram` (for :func:`running_fake`)."""

    token: str
    bot_username: str
    bot_first_name: str
    group_limit_per_minute: int
    global_limit_per_second: int | None
    private_limit_per_second: int | None
    keep_history: bool
    privacy_mode: bool
    clock: Callable[[], float]
    sleep: Callable[[float], Awaitable[None]]
    spec: BotApiSpec


class FakeTelegram:
    """In-process fake of the Telegram Bot API, driven by tests acting as users.

    Bot side (HTTP): getMe, getUpdates (offset, limit, long-poll timeout, allowed_updates, 409
    when a newer poll starts), setWebhook (updates then go out with ``deliver_to_webhook``),
    deleteWebhook, getWebhookInfo, set/get/deleteMyCommands (per scope + language_code),
    sendMessage (parse_mode HTML/MarkdownV2/Markdown parsed like Telegram, message_thread_id,
    reply_parameters), sendPhoto (a PNG/JPEG upload or a file_id the fake issued; caption
    parsed like text; counted, checked and stored like a message), editMessageText,
    editMessageCaption, editMessageReplyMarkup, deleteMessage, answerCallbackQuery, getChat,
    getChatMember, getChatAdministrators, pin/unpinChatMessage, sendChatAction. Any other
    method is a violation.

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

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_username: str = DEFAULT_BOT_USERNAME,
        bot_first_name: str = DEFAULT_BOT_NAME,
        group_limit_per_minute: int = 20,
        global_limit_per_second: int | None = None,
        private_limit_per_second: int | None = None,
        keep_history: bool = True,
        privacy_mode: bool = True,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        spec: BotApiSpec | None = None,
    ) -> None:
        bot_id, sep, _ = token.partition(":")
        if not sep or not bot_id.isdigit():
            raise ValueError(f"token must look like '123456:secret', got {token!r}")
        self.token = token
        self.bot_id = int(bot_id)
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        self.group_limit_per_minute = group_limit_per_minute
        self.global_limit_per_second = global_limit_per_second
        self.private_limit_per_second = private_limit_per_second
        self.keep_history = keep_history
        self.privacy_mode = privacy_mode
        self.clock = clock
        self.sleep = sleep
        self.spec = spec if spec is not None else default_spec()

        self.violations: list[str] = []
        self.requests: list[FakeRequest] = []
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.callback_answers: dict[str, JsonDict | None] = {}
        self.chat_actions: list[tuple[int, str, int | None]] = []  # (chat_id, action, thread)
        self._commands: dict[tuple[str, int | None, int | None, str], list[JsonDict]] = {}
        self._photo_files: dict[str, FakePhoto] = {}  # every size's file_id -> its photo
        self._next_photo = 1

        self._updates: list[JsonDict] = []  # unconfirmed updates, oldest first
        self.webhook: JsonDict | None = None  # setWebhook's parameters while one is set
        self._next_update_id = 1
        self._next_query_id = 1
        self._allowed_updates: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self._changed = asyncio.Event()
        self._poll_generation = 0
        self._group_events: dict[int, deque[float]] = {}
        self._private_events: dict[int, deque[float]] = {}
        self._global_events: deque[float] = deque()
        self.limit_hits: dict[str, int] = {"group": 0, "private": 0, "global": 0}
        """429s answered, by the limit that refused the write."""
        self.message_listeners: list[Callable[[FakeMessage, bool], None]] = []
        self.answer_listeners: list[Callable[[str, JsonDict], None]] = []
        self._failures: list[_Failure] = []
        self._delays: list[_Delay] = []
        self._active_requests = 0
        self.busy_checks: list[Callable[[], bool]] = []
        """Extra signs that the bot is still working (e.g. an update being handled with no
        request in flight); ``wait_idle`` waits until every one says no."""
        self._last_activity = time.monotonic()
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._port: int | None = None
        self._handlers: dict[str, Callable[[JsonDict], Awaitable[Any]]] = {
            "getMe": self._api_get_me,
            "getUpdates": self._api_get_updates,
            "setWebhook": self._api_set_webhook,
            "deleteWebhook": self._api_delete_webhook,
            "getWebhookInfo": self._api_get_webhook_info,
            "setMyCommands": self._api_set_my_commands,
            "getMyCommands": self._api_get_my_commands,
            "deleteMyCommands": self._api_delete_my_commands,
            "sendMessage": self._api_send_message,
            "sendPhoto": self._api_send_photo,
            "editMessageText": self._api_edit_message_text,
            "editMessageCaption": self._api_edit_message_caption,
            "editMessageReplyMarkup": self._api_edit_message_reply_markup,
            "deleteMessage": self._api_delete_message,
            "answerCallbackQuery": self._api_answer_callback_query,
            "getChat": self._api_get_chat,
            "getChatMember": self._api_get_chat_member,
            "getChatAdministrators": self._api_get_chat_administrators,
            "pinChatMessage": self._api_pin_chat_message,
            "unpinChatMessage": self._api_unpin_chat_message,
            "sendChatAction": self._api_send_chat_action,
        }

    # ================================================================== lifecycle

    async def start(self) -> None:
        """Start serving on 127.0.0.1 on a free port."""
        if self._runner is not None:
            raise RuntimeError("FakeTelegram is already running")
        self._closing = False
        # aiohttp refuses bodies over 1 MiB by default; Telegram takes 50 MB uploads and
        # answers a photo over 10 MB itself.
        app = web.Application(client_max_size=MAX_UPLOAD_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/file/bot{token}/{path:.*}", self._handle_file)
        runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=1.0
        )
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self._runner = runner
        address = runner.addresses[0]
        self._port = int(address[1])

    async def stop(self) -> None:
        """Stop the server; pending long polls return immediately."""
        self._closing = True
        self._notify()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` (the server must be started)."""
        if self._port is None:
            raise RuntimeError("FakeTelegram is not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_url(self) -> str:
        """Value for ``base_url`` of PTB's Bot/ApplicationBuilder (PTB appends the token)."""
        return f"{self.base_url}/bot"

    @property
    def file_url(self) -> str:
        """Value for ``base_file_url`` of PTB's Bot/ApplicationBuilder."""
        return f"{self.base_url}/file/bot"

    def configure(self, builder: _BuilderT) -> _BuilderT:
        """Point a PTB ``ApplicationBuilder`` at this server (token, base_url, base_file_url)."""
        builder.token(self.token).base_url(self.api_url).base_file_url(self.file_url)
        return builder

    def make_bot(self) -> telegram.Bot:
        """A plain PTB ``Bot`` talking to this server (use ``async with bot:``)."""
        return telegram.Bot(self.token, base_url=self.api_url, base_file_url=self.file_url)

    def assert_no_violations(self) -> None:
        if self.violations:
            listing = "\n".join(f"  - {v}" for v in self.violations)
            raise AssertionError(
                f"{len(self.violations)} Bot API violation(s) by the bot:\n{listing}"
            )

    # ================================================================== test-side: world

    @property
    def bot_user(self) -> JsonDict:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    def add_user(
        self,
        user_id: int,
        first_name: str,
        *,
        username: str | None = None,
        last_name: str | None = None,
        language_code: str = "en",
        started: bool = True,
    ) -> FakeUser:
        """Register a user. ``started=False``: never opened a private chat with the bot."""
        if user_id <= 0:
            raise ValueError("user ids are positive")
        if user_id in self.users or user_id in self.chats:
            raise ValueError(f"user {user_id} already exists")
        user = FakeUser(
            user_id,
            first_name,
            username=username,
            last_name=last_name,
            language_code=language_code,
            started=started,
        )
        self.users[user_id] = user
        self.chats[user_id] = FakeChat(user_id, "private", members={user_id})
        return user

    def add_group(
        self,
        chat_id: int,
        title: str,
        *,
        forum: bool = False,
        admins: Iterable[int] = (),
        members: Iterable[int] = (),
        supergroup: bool | None = None,
        username: str | None = None,
    ) -> FakeChat:
        """Register a group the bot is in.

        ``admins``: user ids (the first non-bot one is the creator); include the bot's id
        (``fake.bot_id``) to make the bot an administrator. Forums are always supergroups;
        otherwise ids like -100xxxxxxxxxx are supergroups unless ``supergroup`` says otherwise.
        """
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        if chat_id in self.chats:
            raise ValueError(f"chat {chat_id} already exists")
        if supergroup is None:
            supergroup = forum or chat_id <= -1_000_000_000_000
        if forum and not supergroup:
            raise ValueError("forums are supergroups")
        admin_ids = list(dict.fromkeys(admins))
        for uid in [*admin_ids, *members]:
            if uid != self.bot_id and uid not in self.users:
                raise ValueError(f"unknown user {uid}; call add_user first")
        chat = FakeChat(
            chat_id,
            "supergroup" if supergroup else "group",
            title=title,
            username=username,
            forum=forum,
            admins=admin_ids,
            members={uid for uid in [*admin_ids, *members] if uid != self.bot_id},
            bot_status="administrator" if self.bot_id in admin_ids else "member",
        )
        self.chats[chat_id] = chat
        return chat

    def add_topic(self, chat_id: int, name: str, *, creator_id: int | None = None) -> int:
        """Create a forum topic (with its service message); returns its message_thread_id."""
        chat = self._group(chat_id)
        if not chat.forum:
            raise ValueError(f"chat {chat_id} is not a forum")
        creator = creator_id if creator_id is not None else self._creator_id(chat)
        message = self._store_message(
            chat,
            from_user_id=creator if creator is not None else self.bot_id,
            from_bot=creator is None,
            text="",
            service={"forum_topic_created": {"name": name, "icon_color": 0x6FB9F0}},
        )
        message.thread_id = message.message_id
        chat.topics[message.message_id] = name
        return message.message_id

    def add_channel(self, chat_id: int, title: str, *, username: str | None = None) -> FakeChat:
        """Register a channel with the bot as its administrator (it gets every post)."""
        if chat_id > -1_000_000_000_000:
            raise ValueError("channel ids look like -100xxxxxxxxxx")
        if chat_id in self.chats:
            raise ValueError(f"chat {chat_id} already exists")
        chat = FakeChat(chat_id, "channel", title=title, username=username)
        chat.bot_status = "administrator"
        self.chats[chat_id] = chat
        return chat

    def block_user(self, user_id: int) -> None:
        """The user blocks the bot: sends to them fail with 403 until they write again."""
        user = self._user(user_id)
        if user.blocked:
            return
        user.blocked = True
        self._queue_my_chat_member(self.chats[user_id], user, "member", "kicked")

    def unblock_user(self, user_id: int) -> None:
        user = self._user(user_id)
        if not user.blocked:
            return
        user.blocked = False
        self._queue_my_chat_member(self.chats[user_id], user, "kicked", "member")

    def leave_group(self, user_id: int, chat_id: int) -> None:
        """The user leaves the group: getChatMember says "left" until they write there again."""
        chat = self._group(chat_id)
        self._user(user_id)
        chat.members.discard(user_id)
        if user_id in chat.admins:
            chat.admins.remove(user_id)

    def restrict_user(self, user_id: int, chat_id: int, *, is_member: bool) -> None:
        """An admin restricts the user in the group; getChatMember says "restricted" with
        ``is_member`` (False: restricted, and no longer in the group)."""
        chat = self._group(chat_id)
        self._user(user_id)
        chat.restricted[user_id] = is_member

    def kick_bot(self, chat_id: int, *, by_user_id: int | None = None) -> None:
        """Remove the bot from a group: further sends there fail with 403."""
        self._set_bot_status(chat_id, "kicked", by_user_id)

    def remove_bot(self, chat_id: int, *, by_user_id: int | None = None) -> None:
        """Remove the bot from a group without banning it (status "left"): sends fail with 403."""
        self._set_bot_status(chat_id, "left", by_user_id)

    def restrict_bot(
        self, chat_id: int, *, by_user_id: int | None = None, announce: bool = True
    ) -> None:
        """An admin forbids the bot to send messages in a supergroup: sends and edits there fail
        with 400 "not enough rights". ``announce=False``: no my_chat_member update reaches the
        bot (Telegram does not promise one), so it learns it only from a refused request."""
        self._set_bot_status(chat_id, "restricted", by_user_id, announce=announce)

    def unrestrict_bot(self, chat_id: int, *, by_user_id: int | None = None) -> None:
        """The bot may send in the supergroup again (a plain member)."""
        self._set_bot_status(chat_id, "member", by_user_id)

    def migrate_group(
        self, chat_id: int, *, announce: Iterable[Literal["to", "from"]] = ("to", "from")
    ) -> int:
        """Upgrade a basic group to a supergroup with a new id; returns the new id. Sends to
        the old id fail with 400 and migrate_to_chat_id. ``announce``: which service messages
        the bot receives, in order: "to" (migrate_to_chat_id in the old group), "from"
        (migrate_from_chat_id in the new one)."""
        old = self._group(chat_id)
        if old.type != "group" or old.migrated_to is not None:
            raise ValueError(f"chat {chat_id} is not a basic group")
        new_id = -(1_000_000_000_000 + abs(chat_id))
        new = FakeChat(
            new_id,
            "supergroup",
            title=old.title,
            admins=list(old.admins),
            members=set(old.members),
            bot_status=old.bot_status,
        )
        self.chats[new_id] = new
        old.migrated_to = new_id
        actor = self._creator_id(old)
        sender = actor if actor is not None else self.bot_id
        for kind in announce:
            if kind == "to":
                chat, service = old, {"migrate_to_chat_id": new_id}
            else:
                chat, service = new, {"migrate_from_chat_id": chat_id}
            message = self._store_message(
                chat, from_user_id=sender, from_bot=actor is None, text="", service=service
            )
            self._queue_update("message", self._message_json(message))
        return new_id

    def _set_bot_status(
        self,
        chat_id: int,
        status: Literal["member", "kicked", "left", "restricted"],
        by_user_id: int | None,
        *,
        announce: bool = True,
    ) -> None:
        chat = self._group(chat_id)
        old = chat.bot_status
        chat.bot_status = status
        actor = by_user_id if by_user_id is not None else self._creator_id(chat)
        if actor is not None and announce:
            self._queue_my_chat_member(chat, self._user(actor), old, status)

    # ================================================================== test-side: acting

    async def send_message(
        self,
        user_id: int,
        chat_id: int,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to_message_id: int | None = None,
    ) -> JsonDict:
        """``user_id`` writes ``text`` in ``chat_id`` (their private chat when chat_id == user_id).

        Returns the Message as the bot would see it. In groups with privacy mode on (the
        default) the bot only gets commands, replies to its messages and @mentions of it, like
        on Telegram (unless the bot is an admin).
        """
        user = self._user(user_id)
        chat = self._chat(chat_id)
        if chat.type == "private":
            if chat_id != user_id:
                raise ValueError("in private chats chat_id == user_id")
            if user.blocked:
                self.unblock_user(user_id)
            user.started = True
        else:
            chat.members.add(user_id)
        if thread_id is not None:
            if not chat.forum:
                raise ValueError(f"chat {chat_id} is not a forum; no thread_id there")
            chat.topics.setdefault(thread_id, f"Topic {thread_id}")
        replied: FakeMessage | None = None
        if reply_to_message_id is not None:
            replied = self.message(chat_id, reply_to_message_id)
            if thread_id is None:
                thread_id = replied.thread_id
        message = self._store_message(
            chat,
            from_user_id=user_id,
            from_bot=False,
            text=text,
            entities=_user_entities(text),
            thread_id=thread_id,
            reply_to_message_id=reply_to_message_id,
        )
        data = self._message_json(message)
        if self._bot_sees(chat, text, replied):
            self._queue_update("message", data)
        return data

    async def start_private(self, user_id: int, payload: str | None = None) -> JsonDict:
        """The user opens the private chat with the bot (``/start`` or ``/start payload``)."""
        text = "/start" if payload is None else f"/start {payload}"
        return await self.send_message(user_id, user_id, text)

    async def press(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        callback_data: str,
        *,
        check_button: bool = True,
        viewer: bool = False,
    ) -> str:
        """``user_id`` presses the inline button with ``callback_data``; returns the query id.

        With ``check_button=False`` any data can be sent (e.g. a stale or forged button).
        Pressing in a group makes the user a member of it, unless ``viewer``: someone looking
        at a public group without joining it.
        """
        user = self._user(user_id)
        chat = self._chat(chat_id)
        if chat.type == "private" and chat_id != user_id:
            raise ValueError(f"user {user_id} can't see the private chat {chat_id}")
        message = self.message(chat_id, message_id)
        if check_button:
            datas = [
                button.get("callback_data")
                for row in (message.reply_markup or {}).get("inline_keyboard", [])
                for button in row
            ]
            if callback_data not in datas:
                raise ValueError(
                    f"message {message_id} in chat {chat_id} has no button with callback_data "
                    f"{callback_data!r}; it has {message.buttons()}"
                )
        if chat.is_group and not viewer:
            chat.members.add(user_id)
        query_id = str(4_000_000_000 + self._next_query_id)
        self._next_query_id += 1
        self.callback_answers[query_id] = None
        self._queue_update(
            "callback_query",
            {
                "id": query_id,
                "from": user.to_api(),
                "message": self._message_json(message),
                "chat_instance": str(-7_000_000 - abs(chat_id) % 1_000_000_007),
                "data": callback_data,
            },
        )
        return query_id

    async def press_button(self, user_id: int, chat_id: int, message_id: int, text: str) -> str:
        """Press the callback button whose label is ``text``; returns the query id."""
        message = self.message(chat_id, message_id)
        for row in (message.reply_markup or {}).get("inline_keyboard", []):
            for button in row:
                if button.get("text") == text and "callback_data" in button:
                    return await self.press(user_id, chat_id, message_id, button["callback_data"])
        raise ValueError(
            f"message {message_id} in chat {chat_id} has no callback button {text!r}; "
            f"it has {message.buttons()}"
        )

    async def edit_message(self, user_id: int, chat_id: int, message_id: int, text: str) -> None:
        """``user_id`` edits their own message; the bot gets an ``edited_message`` when it would
        have seen the new text."""
        chat = self._chat(chat_id)
        message = self.message(chat_id, message_id)
        if message.from_bot or message.from_user_id != user_id:
            raise ValueError(f"message {message_id} in chat {chat_id} is not {user_id}'s")
        self._apply_edit(message, text, _user_entities(text), None)
        replied = (
            chat.messages.get(message.reply_to_message_id)
            if message.reply_to_message_id is not None
            else None
        )
        if self._bot_sees(chat, text, replied):
            self._queue_update("edited_message", self._message_json(message))

    async def send_on_behalf(self, chat_id: int, text: str, *, as_chat: int | None = None) -> None:
        """An anonymous admin writes ``text`` in the group (``as_chat`` None), or someone
        writes on behalf of the channel ``as_chat``; the bot gets it like any group message."""
        chat = self._group(chat_id)
        on_behalf = self._chat(as_chat if as_chat is not None else chat_id)
        if on_behalf is not chat and on_behalf.type != "channel":
            raise ValueError(f"chat {on_behalf.chat_id} is not a channel")
        message = self._store_message(
            chat, from_user_id=0, from_bot=False, text=text, entities=_user_entities(text)
        )
        message.sender_chat_id = on_behalf.chat_id
        if self._bot_sees(chat, text, None):
            self._queue_update("message", self._message_json(message))

    async def post_in_channel(self, chat_id: int, text: str) -> JsonDict:
        """A post in a channel (no sender user); the bot, an admin there, gets ``channel_post``."""
        chat = self._chat(chat_id)
        if chat.type != "channel":
            raise ValueError(f"chat {chat_id} is not a channel")
        message = self._store_message(
            chat, from_user_id=0, from_bot=False, text=text, entities=_user_entities(text)
        )
        data = self._message_json(message)
        self._queue_update("channel_post", data)
        return data

    async def edit_channel_post(self, chat_id: int, message_id: int, text: str) -> None:
        """An admin edits a channel post: the bot gets ``edited_channel_post``."""
        message = self.message(chat_id, message_id)
        if message.from_bot or self._chat(chat_id).type != "channel":
            raise ValueError(f"message {message_id} in chat {chat_id} is not a channel post")
        self._apply_edit(message, text, _user_entities(text), None)
        self._queue_update("edited_channel_post", self._message_json(message))

    async def inline_query(self, user_id: int, query: str, *, chat_type: str | None = None) -> str:
        """``user_id`` types ``@bot query`` in some chat; returns the inline query id."""
        user = self._user(user_id)
        query_id = str(5_000_000_000 + self._next_query_id)
        self._next_query_id += 1
        payload: JsonDict = {"id": query_id, "from": user.to_api(), "query": query, "offset": ""}
        if chat_type is not None:
            payload["chat_type"] = chat_type
        self._queue_update("inline_query", payload)
        return query_id

    async def press_any(
        self,
        user_id: int,
        data: str | None,
        *,
        chat_id: int | None = None,
        message_id: int | None = None,
        inline_message_id: str | None = None,
    ) -> str:
        """A forged or odd callback query: any ``data`` (None: a game button, with
        ``game_short_name`` instead) on a message of ``chat_id``, or, with
        ``inline_message_id``, on a message sent in inline mode (no message in the query).
        Returns the query id; the bot must answer it like any other."""
        user = self._user(user_id)
        payload: JsonDict = {"id": "", "from": user.to_api()}
        if inline_message_id is not None:
            payload["inline_message_id"] = inline_message_id
            payload["chat_instance"] = "-7000000"
        else:
            if chat_id is None or message_id is None:
                raise ValueError("a query needs a message (chat_id, message_id) or an inline one")
            chat = self._chat(chat_id)
            if chat.type == "private" and chat_id != user_id:
                raise ValueError(f"user {user_id} can't see the private chat {chat_id}")
            payload["message"] = self._message_json(self.message(chat_id, message_id))
            payload["chat_instance"] = str(-7_000_000 - abs(chat_id) % 1_000_000_007)
        if data is None:
            payload["game_short_name"] = "gaple"
        else:
            payload["data"] = data
        query_id = str(4_000_000_000 + self._next_query_id)
        self._next_query_id += 1
        payload["id"] = query_id
        self.callback_answers[query_id] = None
        self._queue_update("callback_query", payload)
        return query_id

    def callback_answer(self, query_id: str) -> JsonDict | None:
        """The parameters of answerCallbackQuery for this query, or None if not answered yet."""
        if query_id not in self.callback_answers:
            raise KeyError(f"unknown callback query {query_id}")
        return self.callback_answers[query_id]

    async def wait_callback_answer(
        self,
        query_id: str,
        timeout: float = 30.0,  # noqa: ASYNC109 - part of the documented test API
    ) -> JsonDict:
        await self.wait_for(
            lambda: self.callback_answer(query_id) is not None,
            timeout=timeout,
            message=f"callback query {query_id} was not answered within {timeout}s",
        )
        answer = self.callback_answers[query_id]
        assert answer is not None
        return answer

    def fail_next(
        self,
        method: str,
        error_code: int,
        description: str,
        retry_after: int | None = None,
        count: int = 1,
        *,
        chat_id: int | None = None,
        matching: Callable[[JsonDict], bool] | None = None,
    ) -> None:
        """Answer the next ``count`` valid calls of ``method`` (to ``chat_id``, if given, and
        whose parameters ``matching`` accepts) with an error, e.g.
        ``fail_next("sendMessage", 429, "Too Many Requests: retry after 3", 3)``."""
        canonical = self.spec.canonical_method(method)
        if canonical is None:
            raise ValueError(f"unknown Bot API method {method!r}")
        self._failures.append(
            _Failure(canonical, error_code, description, retry_after, count, chat_id, matching)
        )

    def delay_next(
        self,
        method: str,
        seconds: float,
        count: int = 1,
        *,
        chat_id: int | None = None,
        matching: Callable[[JsonDict], bool] | None = None,
    ) -> None:
        """The next ``count`` calls of ``method`` (to ``chat_id``, if given, and whose
        parameters ``matching`` accepts) reach the server ``seconds`` late (waited with
        ``sleep``): like a slow network, Telegram receives them at the end of the delay and
        answers at once."""
        canonical = self.spec.canonical_method(method)
        if canonical is None:
            raise ValueError(f"unknown Bot API method {method!r}")
        self._delays.append(_Delay(canonical, seconds, count, chat_id, matching))

    @property
    def delays_planned(self) -> int:
        """Delays asked for with `delay_next` that no call has met yet."""
        return len(self._delays)

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """Someone (an admin, for a bot's message in a group) deletes a message: editing it
        fails with "message to edit not found" from then on."""
        self.message(chat_id, message_id).deleted = True
        self._touch()

    # ================================================================== test-side: reading

    def message(self, chat_id: int, message_id: int) -> FakeMessage:
        """A (not deleted) message; raises LookupError if there is none."""
        message = self._chat(chat_id).messages.get(message_id)
        if message is None or message.deleted:
            raise LookupError(f"no message {message_id} in chat {chat_id}")
        return message

    def messages(self, chat_id: int, thread_id: int | None = None) -> list[FakeMessage]:
        """Current (edited, not deleted, non-service) messages, oldest first.

        ``thread_id`` None means all messages of the chat; otherwise only that forum topic.
        """
        return [
            m
            for m in self._chat(chat_id).messages.values()
            if not m.deleted
            and m.service is None
            and (thread_id is None or m.thread_id == thread_id)
        ]

    def bot_messages(self, chat_id: int, thread_id: int | None = None) -> list[FakeMessage]:
        return [m for m in self.messages(chat_id, thread_id) if m.from_bot]

    def last_bot_message(self, chat_id: int, thread_id: int | None = None) -> FakeMessage | None:
        found = self.bot_messages(chat_id, thread_id)
        return found[-1] if found else None

    def last_bot_text(self, chat_id: int, thread_id: int | None = None) -> str | None:
        message = self.last_bot_message(chat_id, thread_id)
        return message.text if message else None

    def photos(self, chat_id: int, thread_id: int | None = None) -> list[FakeMessage]:
        """The bot's photo messages in the chat (current, not deleted), oldest first: each has
        ``photo`` (a FakePhoto: width, height, size, raw, data) and ``caption``."""
        return [m for m in self.bot_messages(chat_id, thread_id) if m.photo is not None]

    def last_photo(self, chat_id: int, thread_id: int | None = None) -> FakeMessage | None:
        """The bot's latest photo message in the chat, or None."""
        found = self.photos(chat_id, thread_id)
        return found[-1] if found else None

    def group_writes(self, chat_id: int) -> list[FakeRequest]:
        """The accepted requests that counted against the chat's per-minute limit (sends and
        edits of every kind, ``GROUP_WRITE_METHODS``), in the order the fake got them."""
        return [
            r
            for r in self.requests
            if r.chat_id == chat_id and r.method in GROUP_WRITE_METHODS and r.status == 200
        ]

    def all_texts_sent_to(self, chat_id: int) -> list[str]:
        """Everything the bot ever showed in the chat: every version of every message (deleted
        ones included; a photo's caption and every string of its picture's data), link URLs,
        and every button's text, callback data and URL.
        """
        texts: list[str] = []
        for message in self._chat(chat_id).messages.values():
            if not message.from_bot:
                continue
            for version in message.versions:
                texts.append(version.text)
                if version.photo is not None:
                    texts.extend(version.photo.strings())
                texts.extend(str(e["url"]) for e in version.entities if "url" in e)
                markup = version.reply_markup or {}
                for row in markup.get("inline_keyboard", []) + markup.get("keyboard", []):
                    for button in row:
                        if isinstance(button, dict):
                            texts.extend(
                                str(button[k])
                                for k in ("text", "callback_data", "url", "copy_text")
                                if k in button
                            )
        return texts

    def requests_for(self, method: str) -> list[FakeRequest]:
        return [r for r in self.requests if r.method == method]

    def bot_commands(
        self, scope: Mapping[str, Any] | None = None, language_code: str = ""
    ) -> list[JsonDict] | None:
        """Commands stored by setMyCommands for the scope (default scope when None)."""
        return self._commands.get(_scope_key(scope, language_code))

    @property
    def polls_received(self) -> int:
        """getUpdates calls received so far (a long poll counted here is already waiting)."""
        return self._poll_generation

    @property
    def requests_in_flight(self) -> int:
        """Bot API calls being handled right now (long polls not counted)."""
        return self._active_requests

    @property
    def pending_updates(self) -> int:
        """Updates not yet confirmed by the bot (through getUpdates' offset)."""
        return len(self._updates)

    def take_updates(self) -> list[JsonDict]:
        """Hand the waiting updates to the test (which passes them to the worker it picks, as
        a load balancer would) instead of to getUpdates."""
        taken, self._updates[:] = list(self._updates), []
        self._touch()
        return taken

    # ================================================================== test-side: waiting

    async def wait_for(
        self,
        predicate: Callable[[], bool],
        timeout: float = 30.0,  # noqa: ASYNC109 - part of the documented test API
        message: str = "condition not met",
    ) -> None:
        """Poll ``predicate`` every 10 ms; AssertionError(message) after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not predicate():
            if loop.time() >= deadline:
                raise AssertionError(f"{message} (waited {timeout}s)")
            await asyncio.sleep(0.01)

    async def wait_idle(
        self,
        quiet: float = 0.3,
        timeout: float = 30.0,  # noqa: ASYNC109 - part of the documented test API
    ) -> None:
        """Wait until the bot confirmed all queued updates and made no request for ``quiet`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            now = time.monotonic()
            idle_for = now - self._last_activity
            busy = any(check() for check in self.busy_checks)
            if not self._updates and self._active_requests == 0 and idle_for >= quiet and not busy:
                return
            if loop.time() >= deadline:
                raise AssertionError(
                    f"bot not idle after {timeout}s: {len(self._updates)} unconfirmed "
                    f"update(s) (is it polling?), {self._active_requests} request(s) in "
                    f"flight, last activity {idle_for:.2f}s ago"
                )
            await asyncio.sleep(0.01)

    # ================================================================== HTTP layer

    async def _handle_file(self, request: web.Request) -> web.Response:
        return web.json_response(
            {"ok": False, "error_code": 404, "description": "Not Found"}, status=404
        )

    async def _handle(self, request: web.Request) -> web.Response:
        method_raw = request.match_info["method"]
        method = self.spec.canonical_method(method_raw)
        polling = method == "getUpdates"
        if not polling:
            self._active_requests += 1
            self._touch()
        call = _Call(method=method or method_raw)
        try:
            try:
                raw, coerce = await self._read_params(request)
                call.params = dict(raw)
                result = await self._dispatch(request.match_info["token"], call, raw, coerce)
                status, body = 200, {"ok": True, "result": result}
            except ApiError as err:
                status, body = err.code, err.body()
            chat_id = call.params.get("chat_id")
            self.requests.append(
                FakeRequest(
                    method=call.method,
                    params=call.params if self.keep_history else {},
                    chat_id=chat_id if isinstance(chat_id, int) else None,
                    time=self.clock(),
                    status=status,
                    description=body.get("description"),
                )
            )
            return web.json_response(body, status=status)
        finally:
            if not polling:
                self._active_requests -= 1
                self._touch()

    async def _read_params(self, request: web.Request) -> tuple[dict[str, object], bool]:
        """Request parameters (query string + body) and whether they are form strings."""
        params: dict[str, object] = {}
        coerce = True
        items: list[tuple[str, object]] = list(request.query.items())
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError as exc:
                self._violation(f"request body is not valid JSON: {exc}")
                raise ApiError(400, "Bad Request: can't parse JSON body") from exc
            if not isinstance(body, dict):
                self._violation("JSON request body is not an object")
                raise ApiError(400, "Bad Request: JSON body must be an object")
            coerce = False
            if items:
                self._violation("parameters in both the query string and a JSON body")
            items.extend(body.items())
        elif request.method == "POST" and request.can_read_body:
            try:
                form = await request.post()
            except web.HTTPRequestEntityTooLarge as exc:
                raise ApiError(413, "Request Entity Too Large") from exc
            for key, part in form.items():
                if isinstance(part, web.FileField):
                    # A file part (it has a filename): read now, aiohttp spools it to a
                    # temporary file that does not outlive the request.
                    with part.file:
                        data = part.file.read()
                    items.append((key, Upload(key, part.filename, part.content_type, data)))
                elif isinstance(part, bytes | bytearray):
                    items.append((key, bytes(part).decode("utf-8", "replace")))
                else:
                    items.append((key, part))
        for key, value in items:
            if key in params:
                self._violation(f"parameter {key!r} given more than once")
            params[key] = value
        return params, coerce

    async def _dispatch(self, token: str, call: _Call, raw: dict[str, object], coerce: bool) -> Any:
        if token != self.token:
            self._violation(f"{call.method}: request with a wrong token {token!r}")
            raise ApiError(401, "Unauthorized")
        method = self.spec.canonical_method(call.method)
        if method is None:
            self._violation(f"unknown Bot API method {call.method!r}")
            raise ApiError(404, "Not Found")
        params, errors = self.spec.check_request(method, raw, coerce=coerce)
        if errors:
            for error in errors:
                self._violation(error)
            raise ApiError(400, "Bad Request: fake Bot API check failed: " + "; ".join(errors))
        call.params = params
        await self._maybe_delay(method, params)
        self._maybe_fail(method, params)
        handler = self._handlers.get(method)
        if handler is None:
            self._violation(f"{method} is valid but not implemented by the fake Telegram server")
            raise ApiError(400, f"Bad Request: fake Telegram does not implement {method}")
        result = await handler(params)
        self._self_check(result, self.spec.methods[method].returns, f"{method} result")
        return result

    async def _maybe_delay(self, method: str, params: JsonDict) -> None:
        for delay in self._delays:
            if delay.method != method or not _applies(delay.chat_id, delay.matching, params):
                continue
            delay.count -= 1
            if delay.count <= 0:
                self._delays.remove(delay)
            await self.sleep(delay.seconds)
            return

    def _maybe_fail(self, method: str, params: JsonDict) -> None:
        for failure in self._failures:
            if failure.method != method or not _applies(failure.chat_id, failure.matching, params):
                continue
            failure.count -= 1
            if failure.count <= 0:
                self._failures.remove(failure)
            raise ApiError(failure.error_code, failure.description, retry_after=failure.retry_after)

    # ================================================================== API methods

    async def _api_get_me(self, params: JsonDict) -> JsonDict:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _api_get_updates(self, params: JsonDict) -> list[JsonDict]:
        offset: int | None = params.get("offset")
        limit = min(max(int(params.get("limit", 100)), 1), 100)
        timeout = max(int(params.get("timeout", 0)), 0)
        allowed = params.get("allowed_updates")
        if allowed is not None:
            self._allowed_updates = frozenset(allowed) if allowed else DEFAULT_ALLOWED_UPDATES
        if offset is not None:
            if offset < 0:
                self._updates = self._updates[offset:]
            else:
                confirmed = [u for u in self._updates if u["update_id"] < offset]
                if confirmed:
                    self._updates = self._updates[len(confirmed) :]
                    self._touch()
        self._poll_generation += 1
        generation = self._poll_generation
        self._notify()  # terminates an older long poll with 409, as Telegram does
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            self._updates = [u for u in self._updates if _update_kind(u) in self._allowed_updates]
            if self._updates:
                self._touch()
                return self._updates[:limit]
            if self._closing:
                return []
            changed = self._changed
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(remaining):
                    await changed.wait()
            if generation != self._poll_generation:
                raise ApiError(409, _CONFLICT)

    async def _api_set_webhook(self, params: JsonDict) -> bool:
        url = str(params["url"])
        if not url:
            self.webhook = None
        else:
            self.webhook = dict(params)
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _api_delete_webhook(self, params: JsonDict) -> bool:
        self.webhook = None
        if params.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _api_get_webhook_info(self, params: JsonDict) -> JsonDict:
        return {
            "url": str(self.webhook["url"]) if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    async def _api_set_my_commands(self, params: JsonDict) -> bool:
        commands: list[JsonDict] = params["commands"]
        if len(commands) > 100:
            raise ApiError(400, "Bad Request: BOT_COMMANDS_TOO_MUCH")
        for command in commands:
            if not _BOT_COMMAND_NAME_RE.fullmatch(command["command"]):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(command["description"]) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
        key = self._command_key(params)
        if commands:
            self._commands[key] = [
                {"command": c["command"], "description": c["description"]} for c in commands
            ]
        else:
            self._commands.pop(key, None)
        return True

    async def _api_get_my_commands(self, params: JsonDict) -> list[JsonDict]:
        return list(self._commands.get(self._command_key(params), []))

    async def _api_delete_my_commands(self, params: JsonDict) -> bool:
        self._commands.pop(self._command_key(params), None)
        return True

    def _command_key(self, params: JsonDict) -> tuple[str, int | None, int | None, str]:
        language_code = params.get("language_code", "")
        if language_code and not _LANGUAGE_CODE_RE.fullmatch(language_code):
            raise ApiError(400, "Bad Request: LANG_CODE_INVALID")
        scope: JsonDict | None = params.get("scope")
        if scope and "chat_id" in scope:
            chat = self._resolve_chat(scope["chat_id"])
            scope = {**scope, "chat_id": chat.chat_id}
            if "user_id" in scope and scope["user_id"] not in chat.members:
                raise ApiError(400, "Bad Request: user not found")
        return _scope_key(scope, language_code)

    async def _api_send_message(self, params: JsonDict) -> JsonDict:
        chat, thread_id = self._send_target(params, rights="text messages")
        text, entities = self._render(params, too_long="Bad Request: message is too long")
        return self._deliver(chat, thread_id, params, text, entities)

    async def _api_send_photo(self, params: JsonDict) -> JsonDict:
        chat, thread_id = self._send_target(params, rights="photos")
        caption, entities = self._render_caption(
            params, too_long="Bad Request: message caption is too long"
        )
        photo = self._photo_of(params["photo"])
        return self._deliver(chat, thread_id, params, caption, entities, photo=photo)

    async def _api_edit_message_text(self, params: JsonDict) -> JsonDict:
        message, chat = self._editable_message(params)
        if message.photo is not None:
            # A photo has a caption, not a text: editMessageCaption changes it.
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text, entities = self._render(params, too_long="Bad Request: MESSAGE_TOO_LONG")
        markup: JsonDict | None = params.get("reply_markup")
        self._check_markup(markup)
        if text == message.text and entities == message.entities and markup == message.reply_markup:
            raise ApiError(400, _NOT_MODIFIED)
        self._rate_limit(chat)
        self._apply_edit(message, text, entities, markup)
        self._tell_listeners(message, edited=True)
        return self._message_json(message)

    async def _api_edit_message_caption(self, params: JsonDict) -> JsonDict:
        message, chat = self._editable_message(params)
        if message.photo is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        # No caption removes it, as on Telegram; an edit says MEDIA_CAPTION_TOO_LONG where a
        # send says "message caption is too long".
        caption, entities = self._render_caption(
            params, too_long="Bad Request: MEDIA_CAPTION_TOO_LONG"
        )
        markup: JsonDict | None = params.get("reply_markup")
        self._check_markup(markup)
        above = bool(params.get("show_caption_above_media", False))
        if (caption, entities, markup, above) == (
            message.text,
            message.entities,
            message.reply_markup,
            message.caption_above,
        ):
            raise ApiError(400, _NOT_MODIFIED)
        self._rate_limit(chat)
        message.caption_above = above
        self._apply_edit(message, caption, entities, markup)
        self._tell_listeners(message, edited=True)
        return self._message_json(message)

    async def _api_edit_message_reply_markup(self, params: JsonDict) -> JsonDict:
        message, chat = self._editable_message(params)
        markup: JsonDict | None = params.get("reply_markup")
        self._check_markup(markup)
        if markup == message.reply_markup:
            raise ApiError(400, _NOT_MODIFIED)
        self._rate_limit(chat)
        self._apply_edit(message, message.text, message.entities, markup)
        self._tell_listeners(message, edited=True)
        return self._message_json(message)

    async def _api_delete_message(self, params: JsonDict) -> bool:
        chat = self._resolve_chat(params["chat_id"])
        message = chat.messages.get(params["message_id"])
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to delete not found")
        if chat.is_group and not message.from_bot and chat.bot_status != "administrator":
            raise ApiError(400, "Bad Request: message can't be deleted")
        message.deleted = True
        return True

    async def _api_answer_callback_query(self, params: JsonDict) -> bool:
        query_id: str = params["callback_query_id"]
        if query_id not in self.callback_answers or self.callback_answers[query_id] is not None:
            raise ApiError(400, _BAD_QUERY)
        if len(params.get("text", "")) > MAX_ALERT_LENGTH:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        answer = {k: v for k, v in params.items() if k != "callback_query_id"}
        self.callback_answers[query_id] = answer
        for listener in self.answer_listeners:
            listener(query_id, answer)
        return True

    async def _api_get_chat(self, params: JsonDict) -> JsonDict:
        chat = self._resolve_chat(params["chat_id"])
        info: JsonDict = {
            **self._chat_json(chat),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": self._required_booleans("AcceptedGiftTypes", default=False),
        }
        if chat.pinned_message_id is not None:
            pinned = chat.messages.get(chat.pinned_message_id)
            if pinned is not None and not pinned.deleted:
                info["pinned_message"] = self._message_json(pinned)
        return info

    async def _api_get_chat_member(self, params: JsonDict) -> JsonDict:
        chat = self._resolve_chat(params["chat_id"])
        user_id: int = params["user_id"]
        if user_id != self.bot_id and user_id not in self.users:
            raise ApiError(400, "Bad Request: user not found")
        return self._chat_member_json(chat, user_id)

    async def _api_get_chat_administrators(self, params: JsonDict) -> list[JsonDict]:
        chat = self._resolve_chat(params["chat_id"])
        if not chat.is_group:
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        return [self._chat_member_json(chat, uid) for uid in chat.admins]

    async def _api_pin_chat_message(self, params: JsonDict) -> bool:
        chat = self._writable_chat(params["chat_id"])
        message = chat.messages.get(params["message_id"])
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to pin not found")
        if chat.is_group and chat.bot_status != "administrator":
            raise ApiError(
                400, "Bad Request: not enough rights to manage pinned messages in the chat"
            )
        chat.pinned_message_id = message.message_id
        return True

    async def _api_unpin_chat_message(self, params: JsonDict) -> bool:
        chat = self._writable_chat(params["chat_id"])
        if chat.is_group and chat.bot_status != "administrator":
            raise ApiError(
                400, "Bad Request: not enough rights to manage pinned messages in the chat"
            )
        chat.pinned_message_id = None
        return True

    async def _api_send_chat_action(self, params: JsonDict) -> bool:
        chat = self._writable_chat(params["chat_id"])
        if params["action"] not in CHAT_ACTIONS:
            raise ApiError(400, "Bad Request: wrong parameter action in request")
        thread_id: int | None = params.get("message_thread_id")
        if thread_id is not None:
            self._check_thread(chat, thread_id)
        self.chat_actions.append((chat.chat_id, params["action"], thread_id))
        return True

    # ================================================================== helpers: API side

    def _resolve_chat(self, chat_id: object) -> FakeChat:
        if isinstance(chat_id, str):
            if chat_id.startswith("@"):
                for candidate in self.chats.values():
                    if candidate.username and candidate.username.lower() == chat_id[1:].lower():
                        return candidate
                raise ApiError(400, "Bad Request: chat not found")
            try:
                chat_id = int(chat_id)
            except ValueError:
                raise ApiError(400, "Bad Request: chat not found") from None
        chat = self.chats.get(chat_id) if isinstance(chat_id, int) else None
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.type == "private" and not self.users[chat.chat_id].started:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        return chat

    def _writable_chat(self, chat_id: object, *, rights: str = "text messages") -> FakeChat:
        """The chat, if the bot may write there; Telegram's error otherwise (``rights``: what
        a restricted bot is told it may not send)."""
        chat = self._resolve_chat(chat_id)
        if chat.type == "private" and self.users[chat.chat_id].blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        kind = "supergroup" if chat.type == "supergroup" else "group"
        if chat.is_group and chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {kind} chat")
        if chat.is_group and chat.bot_status == "left":
            raise ApiError(403, f"Forbidden: bot is not a member of the {kind} chat")
        if chat.migrated_to is not None:
            raise ApiError(
                400,
                "Bad Request: group chat was upgraded to a supergroup chat",
                migrate_to_chat_id=chat.migrated_to,
            )
        if chat.is_group and chat.bot_status == "restricted":
            raise ApiError(400, f"Bad Request: not enough rights to send {rights} to the chat")
        return chat

    def _check_thread(self, chat: FakeChat, thread_id: int) -> None:
        if not chat.forum or thread_id not in chat.topics:
            raise ApiError(400, "Bad Request: message thread not found")

    def _send_target(self, params: JsonDict, *, rights: str) -> tuple[FakeChat, int | None]:
        """Where a send goes: a chat the bot may write to, and the forum topic if one is given
        (the same rules for every kind of message)."""
        chat = self._writable_chat(params["chat_id"], rights=rights)
        thread_id: int | None = params.get("message_thread_id")
        if thread_id is not None:
            self._check_thread(chat, thread_id)
        return chat, thread_id

    def _deliver(
        self,
        chat: FakeChat,
        thread_id: int | None,
        params: JsonDict,
        text: str,
        entities: list[JsonDict],
        *,
        photo: FakePhoto | None = None,
    ) -> JsonDict:
        """The rest of a send, the same for a text and a photo: its keyboard, the message it
        replies to, the group's rate limit, then the stored message as the bot gets it back."""
        markup: JsonDict | None = params.get("reply_markup")
        self._check_markup(markup)
        replied = self._reply_target(chat, params.get("reply_parameters"))
        if replied is not None and thread_id is None:
            thread_id = replied.thread_id
        self._rate_limit(chat)
        message = self._store_message(
            chat,
            from_user_id=self.bot_id,
            from_bot=True,
            text=text,
            entities=entities,
            reply_markup=markup,
            thread_id=thread_id,
            reply_to_message_id=replied.message_id if replied else None,
            photo=photo,
        )
        if photo is not None:
            message.caption_above = bool(params.get("show_caption_above_media", False))
            message.spoiler = bool(params.get("has_spoiler", False))
        self._tell_listeners(message, edited=False)
        return self._message_json(message)

    def _render_caption(self, params: JsonDict, *, too_long: str) -> tuple[str, list[JsonDict]]:
        """A caption parsed like a text (parse_mode or caption_entities, trimmed): it may be
        empty, and has at most 1024 characters after parsing."""
        return self._render(
            params,
            too_long=too_long,
            key="caption",
            entities_key="caption_entities",
            limit=MAX_CAPTION_LENGTH,
            required=False,
        )

    def _render(
        self,
        params: JsonDict,
        *,
        too_long: str,
        key: str = "text",
        entities_key: str = "entities",
        limit: int = MAX_TEXT_LENGTH,
        required: bool = True,
    ) -> tuple[str, list[JsonDict]]:
        """``params[key]`` as Telegram shows it: (plain text, entities), after parse_mode or
        ``params[entities_key]``. ``required``: an empty result is refused (a text must say
        something; a caption need not)."""
        raw: str = params.get(key, "")
        if not raw:
            if not required:
                return "", []
            raise ApiError(400, "Bad Request: message text is empty")
        if entities_key in params:
            text, entities = raw, list(params[entities_key])
        else:
            try:
                text, entities = parse_text(raw, params.get("parse_mode"), self._user_json)
            except EntityParseError as exc:
                raise ApiError(400, f"Bad Request: can't parse entities: {exc}") from exc
            except ValueError as exc:
                raise ApiError(400, "Bad Request: unsupported parse_mode") from exc
        text, entities = trim_text(text, entities)
        if not text and required:
            raise ApiError(400, "Bad Request: message text is empty")
        if len(text) > limit:
            raise ApiError(400, too_long)
        return text, entities

    def _photo_of(self, value: object) -> FakePhoto:
        """The photo sendPhoto's ``photo`` names: an upload, or a string for one Telegram has."""
        if isinstance(value, Upload):
            return self._stored_photo(value.data)
        text = str(value)
        if _URL_SCHEME_RE.match(text):
            # Telegram would fetch it; the fake reaches no web (the bot uploads what it draws).
            raise ApiError(400, "Bad Request: failed to get HTTP URL content")
        photo = self._photo_files.get(text)
        if photo is None:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        return photo

    def _stored_photo(self, raw: bytes) -> FakePhoto:
        """An uploaded photo checked as Telegram checks it, kept under new file_ids."""
        if not raw:
            raise ApiError(400, "Bad Request: file must be non-empty")
        if len(raw) > MAX_PHOTO_BYTES:
            # The server's word for a photo over the size limit, passed on by the Bot API.
            raise ApiError(400, "Bad Request: PHOTO_SAVE_FILE_INVALID")
        image_format, width, height = _probe_image(raw)
        number = self._next_photo
        self._next_photo += 1
        sizes: list[JsonDict] = []
        longest = max(width, height)
        for letter, box in PHOTO_SIZE_BOXES:
            scale = min(1.0, box / longest)
            sizes.append(
                {
                    "file_id": f"AgACAgIAAxkDAAI{number:05d}{letter}",
                    "file_unique_id": f"AQAD{number:05d}{letter}",
                    "width": max(1, round(width * scale)),
                    "height": max(1, round(height * scale)),
                    # Telegram re-encodes each size: a smaller one weighs about its area.
                    "file_size": max(1, round(len(raw) * scale * scale)),
                }
            )
            if scale == 1.0:
                break
        largest = sizes[-1]
        photo = FakePhoto(
            file_id=largest["file_id"],
            file_unique_id=largest["file_unique_id"],
            width=width,
            height=height,
            size=len(raw),
            format=image_format,
            raw=raw,
            data=_picture_data(raw),
            sizes=tuple(sizes),
        )
        for size in sizes:
            self._photo_files[size["file_id"]] = photo
        return photo

    def _check_markup(self, markup: JsonDict | None) -> None:
        if not markup or "inline_keyboard" not in markup:
            return
        buttons = [button for row in markup["inline_keyboard"] for button in row]
        if len(buttons) > MAX_INLINE_BUTTONS:
            raise ApiError(400, "Bad Request: reply markup is too long")
        for button in buttons:
            actions = [key for key in button if key not in _NON_ACTION_BUTTON_FIELDS]
            if not actions:
                raise ApiError(
                    400,
                    "Bad Request: can't parse inline keyboard button: "
                    "Text buttons are unallowed in the inline keyboard",
                )
            if len(actions) > 1:
                raise ApiError(
                    400,
                    "Bad Request: can't parse inline keyboard button: exactly one of the "
                    f"optional fields must be used, got {actions}",
                )
            if not button["text"]:
                raise ApiError(400, "Bad Request: BUTTON_TEXT_INVALID")
            if "callback_data" in button:
                size = len(button["callback_data"].encode("utf-8"))
                if not 1 <= size <= MAX_CALLBACK_DATA_BYTES:
                    raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
            if "url" in button and not re.match(r"(?i)(https?|tg)://\S+$", button["url"]):
                raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
            if "style" in button and button["style"] not in BUTTON_STYLES:
                raise ApiError(400, "Bad Request: BUTTON_STYLE_INVALID")

    def _reply_target(self, chat: FakeChat, reply: JsonDict | None) -> FakeMessage | None:
        if reply is None:
            return None
        target_chat = chat
        if "chat_id" in reply:
            target_chat = self._resolve_chat(reply["chat_id"])
        message = target_chat.messages.get(reply["message_id"])
        if message is None or message.deleted:
            if reply.get("allow_sending_without_reply"):
                return None
            raise ApiError(400, "Bad Request: message to be replied not found")
        return message if target_chat is chat else None

    def _editable_message(self, params: JsonDict) -> tuple[FakeMessage, FakeChat]:
        if "inline_message_id" in params:
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        if "chat_id" not in params:
            raise ApiError(400, "Bad Request: chat_id is empty")
        if "message_id" not in params:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        chat = self._writable_chat(params["chat_id"])
        message = chat.messages.get(params["message_id"])
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to edit not found")
        if not message.from_bot or message.service is not None:
            raise ApiError(400, "Bad Request: message can't be edited")
        return message, chat

    def _apply_edit(
        self,
        message: FakeMessage,
        text: str,
        entities: list[JsonDict],
        markup: JsonDict | None,
    ) -> None:
        message.text = text
        message.entities = list(entities)
        message.reply_markup = markup
        message.edit_date = int(time.time())
        if self.keep_history:
            message.versions.append(MessageVersion(text, tuple(entities), markup, message.photo))

    def _tell_listeners(self, message: FakeMessage, *, edited: bool) -> None:
        for listener in self.message_listeners:
            listener(message, edited)

    def _rate_limit(self, chat: FakeChat) -> None:
        """429 when a write to `chat` would pass a limit; otherwise it counts in each window
        it falls in (all checked first: a refused write counts in none)."""
        now = self.clock()
        windows: list[tuple[str, deque[float], float, int]] = []
        if chat.is_group:
            events = self._group_events.setdefault(chat.chat_id, deque())
            windows.append(("group", events, RATE_WINDOW_SECONDS, self.group_limit_per_minute))
        elif chat.type == "private" and self.private_limit_per_second is not None:
            events = self._private_events.setdefault(chat.chat_id, deque())
            windows.append(
                ("private", events, SECOND_WINDOW_SECONDS, self.private_limit_per_second)
            )
        if self.global_limit_per_second is not None:
            windows.append(
                ("global", self._global_events, SECOND_WINDOW_SECONDS, self.global_limit_per_second)
            )
        for name, events, window, limit in windows:
            while events and events[0] <= now - window:
                events.popleft()
            if len(events) >= limit:
                self.limit_hits[name] += 1
                retry_after = max(1, math.ceil(events[0] + window - now))
                raise ApiError(
                    429, f"Too Many Requests: retry after {retry_after}", retry_after=retry_after
                )
        for _name, events, _window, _limit in windows:
            events.append(now)

    # ================================================================== helpers: state

    def _user(self, user_id: int) -> FakeUser:
        user = self.users.get(user_id)
        if user is None:
            raise LookupError(f"unknown user {user_id}; call add_user first")
        return user

    def _chat(self, chat_id: int) -> FakeChat:
        chat = self.chats.get(chat_id)
        if chat is None:
            raise LookupError(f"unknown chat {chat_id}; call add_user/add_group first")
        return chat

    def _group(self, chat_id: int) -> FakeChat:
        chat = self._chat(chat_id)
        if not chat.is_group:
            raise ValueError(f"chat {chat_id} is not a group")
        return chat

    def _creator_id(self, chat: FakeChat) -> int | None:
        return next((uid for uid in chat.admins if uid != self.bot_id), None)

    def _user_json(self, user_id: int) -> JsonDict | None:
        if user_id == self.bot_id:
            return self.bot_user
        user = self.users.get(user_id)
        return user.to_api() if user else None

    def _store_message(
        self,
        chat: FakeChat,
        *,
        from_user_id: int,
        from_bot: bool,
        text: str,
        entities: list[JsonDict] | None = None,
        reply_markup: JsonDict | None = None,
        thread_id: int | None = None,
        reply_to_message_id: int | None = None,
        service: JsonDict | None = None,
        photo: FakePhoto | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            chat_id=chat.chat_id,
            message_id=chat.next_message_id,
            from_user_id=from_user_id,
            from_bot=from_bot,
            date=int(time.time()),
            text=text,
            entities=list(entities or []),
            reply_markup=reply_markup,
            thread_id=thread_id,
            reply_to_message_id=reply_to_message_id,
            service=service,
            photo=photo,
        )
        message.versions.append(MessageVersion(text, tuple(message.entities), reply_markup, photo))
        chat.messages[message.message_id] = message
        chat.next_message_id += 1
        self._touch()
        return message

    def _chat_json(self, chat: FakeChat) -> JsonDict:
        data: JsonDict = {"id": chat.chat_id, "type": chat.type}
        if chat.type == "private":
            user = self.users[chat.chat_id]
            data["first_name"] = user.first_name
            if user.last_name:
                data["last_name"] = user.last_name
            if user.username:
                data["username"] = user.username
        else:
            data["title"] = chat.title
            if chat.username:
                data["username"] = chat.username
            if chat.forum:
                data["is_forum"] = True
        return data

    def _message_json(self, message: FakeMessage, *, with_reply: bool = True) -> JsonDict:
        chat = self.chats[message.chat_id]
        sender = self._user_json(message.from_user_id)
        data: JsonDict = {"message_id": message.message_id}
        if message.thread_id is not None and chat.forum:
            data["message_thread_id"] = message.thread_id
            data["is_topic_message"] = True
        if message.sender_chat_id is not None:
            on_behalf = self.chats[message.sender_chat_id]
            data["from"] = ANONYMOUS_ADMIN if on_behalf is chat else CHANNEL_BOT
            data["sender_chat"] = self._chat_json(on_behalf)
        elif sender is not None:
            data["from"] = sender
        elif chat.type == "channel":
            data["sender_chat"] = self._chat_json(chat)
        data["date"] = message.date
        data["chat"] = self._chat_json(chat)
        if with_reply and message.reply_to_message_id is not None:
            replied = chat.messages.get(message.reply_to_message_id)
            if replied is not None and not replied.deleted:
                data["reply_to_message"] = self._message_json(replied, with_reply=False)
        if message.edit_date is not None:
            data["edit_date"] = message.edit_date
        if message.photo is not None:
            # A photo message has a caption where others have a text.
            data["photo"] = [dict(size) for size in message.photo.sizes]
            if message.text:
                data["caption"] = message.text
            if message.entities:
                data["caption_entities"] = list(message.entities)
            if message.caption_above:
                data["show_caption_above_media"] = True
            if message.spoiler:
                data["has_media_spoiler"] = True
        else:
            if message.text:
                data["text"] = message.text
            if message.entities:
                data["entities"] = list(message.entities)
        if message.reply_markup and "inline_keyboard" in message.reply_markup:
            data["reply_markup"] = message.reply_markup
        if message.service:
            data.update(message.service)
        return data

    def _chat_member_json(self, chat: FakeChat, user_id: int) -> JsonDict:
        user = self._user_json(user_id)
        status: str
        if user_id == self.bot_id:
            status = chat.bot_status
        elif chat.type == "private":
            status = "member" if user_id == chat.chat_id else "left"
        elif user_id == self._creator_id(chat):
            status = "creator"
        elif user_id in chat.admins:
            status = "administrator"
        elif user_id in chat.restricted:
            member = self._required_booleans("ChatMemberRestricted", default=False)
            member.update(
                status="restricted", user=user, is_member=chat.restricted[user_id], until_date=0
            )
            return member
        elif user_id in chat.members:
            status = "member"
        else:
            status = "left"
        if status == "creator":
            return {"status": "creator", "user": user, "is_anonymous": False}
        if status == "administrator":
            member = self._required_booleans("ChatMemberAdministrator", default=True)
            member.update(status=status, user=user, can_be_edited=False, is_anonymous=False)
            return member
        if status == "kicked":
            return {"status": "kicked", "user": user, "until_date": 0}
        if status == "restricted":
            return self._restricted_json(user)
        return {"status": status, "user": user}

    def _restricted_json(self, user: JsonDict | None) -> JsonDict:
        """A member who may not send anything (still in the chat)."""
        member = self._required_booleans("ChatMemberRestricted", default=False)
        member.update(status="restricted", user=user, is_member=True, until_date=0)
        return member

    def _required_booleans(self, type_name: str, *, default: bool) -> JsonDict:
        tspec = self.spec.types[type_name]
        return {
            f.name: default for f in tspec.fields.values() if f.required and f.types == ("Boolean",)
        }

    def _bot_sees(self, chat: FakeChat, text: str, replied: FakeMessage | None) -> bool:
        """Privacy mode: what a bot gets in groups (everything when it is an admin)."""
        if chat.bot_status in ("kicked", "left") or chat.migrated_to is not None:
            return False
        if not chat.is_group or not self.privacy_mode or chat.bot_status == "administrator":
            return True
        command = _COMMAND_RE.match(text)
        if command:
            target = command.group(2)
            return target is None or target.lower() == self.bot_username.lower()
        if replied is not None and replied.from_bot:
            return True
        return f"@{self.bot_username}".lower() in text.lower()

    def _queue_my_chat_member(
        self, chat: FakeChat, actor: FakeUser, old_status: str, new_status: str
    ) -> None:
        def member(status: str) -> JsonDict:
            if status == "kicked":
                return {"status": "kicked", "user": self.bot_user, "until_date": 0}
            if status == "restricted":
                return self._restricted_json(self.bot_user)
            if status == "administrator":
                data = self._required_booleans("ChatMemberAdministrator", default=True)
                data.update(
                    status=status, user=self.bot_user, can_be_edited=False, is_anonymous=False
                )
                return data
            return {"status": status, "user": self.bot_user}

        self._queue_update(
            "my_chat_member",
            {
                "chat": self._chat_json(chat),
                "from": actor.to_api(),
                "date": int(time.time()),
                "old_chat_member": member(old_status),
                "new_chat_member": member(new_status),
            },
        )

    async def deliver_to_webhook(
        self, *, secret: str | None = None, twice: bool = False
    ) -> list[int]:
        """POST every waiting update to the webhook the bot set, as Telegram does (with the
        secret it gave, unless `secret` overrides it); the ones answered 200 are delivered.
        `twice`: each is posted a second time, as Telegram retries a post whose answer it
        missed. Returns the HTTP status of each POST."""
        assert self.webhook is not None, "the bot set no webhook"
        header = secret if secret is not None else self.webhook.get("secret_token")
        headers = {"X-Telegram-Bot-Api-Secret-Token": str(header)} if header else {}
        statuses: list[int] = []
        async with aiohttp.ClientSession() as session:
            for update in list(self._updates):
                for _ in range(2 if twice else 1):
                    async with session.post(
                        str(self.webhook["url"]), json=update, headers=headers
                    ) as response:
                        statuses.append(response.status)
                if statuses[-1] == 200:
                    self._updates.remove(update)
        self._touch()
        return statuses

    def waiting_updates(self) -> list[JsonDict]:
        """The updates not delivered yet, oldest first (for a test that posts them itself,
        as Telegram does to several workers behind one webhook)."""
        return list(self._updates)

    async def post_update(self, session: aiohttp.ClientSession, update: JsonDict, url: str) -> int:
        """POST one waiting update to `url` with the secret the bot set, as Telegram posts to
        one worker of several behind the webhook; answered 200, it is delivered (a second post
        of a delivered one is a retry whose answer was missed). Returns the HTTP status."""
        assert self.webhook is not None, "the bot set no webhook"
        header = self.webhook.get("secret_token")
        headers = {"X-Telegram-Bot-Api-Secret-Token": str(header)} if header else {}
        async with session.post(url, json=update, headers=headers) as response:
            status = response.status
        if status == 200 and update in self._updates:
            self._updates.remove(update)
        self._touch()
        return status

    def _queue_update(self, kind: str, payload: JsonDict) -> None:
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self._self_check(update, ("Update",), "queued update")
        self._updates.append(update)
        self._touch()
        self._notify()

    def _self_check(self, value: object, types: Iterable[str], what: str) -> None:
        _, errors = self.spec.check_value(value, tuple(types), what, coerce=False)
        for error in errors:
            self._violation(f"fake server bug, {what} does not match the spec: {error}")

    def _violation(self, text: str) -> None:
        self.violations.append(text)

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def _touch(self) -> None:
        self._last_activity = time.monotonic()


def _probe_image(raw: bytes) -> tuple[str, int, int]:
    """(format, width, height) of a photo Telegram would take; its 400 error otherwise."""
    # Imported here: only a photo needs Pillow, and every test of the bot uses the fake.
    from PIL import Image

    try:
        with Image.open(io.BytesIO(raw)) as image:
            image_format = image.format or ""
            width, height = image.size
            if image_format not in PHOTO_FORMATS:
                raise ApiError(400, _IMAGE_FAILED)
            # Sides before pixels: decoding a huge picture only to refuse it costs memory.
            if width + height > MAX_PHOTO_SIDES or max(width, height) > MAX_PHOTO_RATIO * min(
                width, height
            ):
                raise ApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS")
            image.load()  # a truncated or corrupt file fails here
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise ApiError(400, _IMAGE_FAILED) from exc
    return image_format, width, height


def _picture_data(raw: bytes) -> JsonDict | None:
    """The JSON a picture the bot drew carries (None if it carries none): Telegram re-encodes
    what it shows, so only the upload itself has it, and only tests read it."""
    # Imported here, like Pillow: the fake serves tests that send no picture.
    from gaple_bot.games.pictures.canvas import decode_data

    try:
        return decode_data(raw)
    except ValueError:  # a text chunk that is not JSON: no data the tests can read
        return None


def _update_kind(update: Mapping[str, Any]) -> str:
    return next(key for key in update if key != "update_id")


def _scope_key(
    scope: Mapping[str, Any] | None, language_code: str
) -> tuple[str, int | None, int | None, str]:
    scope = scope or {"type": "default"}
    chat_id = scope.get("chat_id")
    user_id = scope.get("user_id")
    return (
        str(scope["type"]),
        int(chat_id) if chat_id is not None else None,
        int(user_id) if user_id is not None else None,
        language_code,
    )


def _user_entities(text: str) -> list[JsonDict]:
    """Entities Telegram adds to a user's message: a leading bot_command and @mentions."""
    entities: list[JsonDict] = []
    command = _COMMAND_RE.match(text)
    if command:
        entities.append({"type": "bot_command", "offset": 0, "length": utf16_len(command.group())})
    for mention in _MENTION_RE.finditer(text):
        if command and mention.start() < command.end():
            continue
        entities.append(
            {
                "type": "mention",
                "offset": utf16_len(text[: mention.start()]),
                "length": utf16_len(mention.group()),
            }
        )
    return entities


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
