"""The fake Bot API's world: users, chats, messages and their state, the updates waiting for
the bot, and what a test reads of them."""

from __future__ import annotations

import asyncio
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, TypedDict, TypeVar

from aiohttp import web

from tests.fakes.spec_check import BotApiSpec, default_spec

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
ANSWER_WINDOW_SECONDS: Final = 15.0
"""How long after a tap Telegram takes its answer (on the fake's clock); later, or a second
time, answerCallbackQuery is refused with _BAD_QUERY."""
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
    until: asyncio.Event | None = None
    """Wait for this to be set instead of ``seconds``."""


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


class FakeWorld:
    """The people, chats and messages of a fake Telegram, the updates queued for the bot,
    and how a test builds the world and reads what the bot did (see FakeTelegram)."""

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
        self.callback_tapped_at: dict[str, float] = {}
        """When each callback query was made, on ``clock`` (its answer window starts)."""
        self.chat_actions: list[tuple[int, str, int | None]] = []  # (chat_id, action, thread)
        self._commands: dict[tuple[str, int | None, int | None, str], list[JsonDict]] = {}
        self._photo_files: dict[str, FakePhoto] = {}  # every size's file_id -> its photo
        self._next_photo = 1

        self._updates: list[JsonDict] = []  # unconfirmed updates, oldest first
        self._queued: dict[int, JsonDict] = {}  # every update ever queued, by id
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

    def _queue_update(self, kind: str, payload: JsonDict) -> None:
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        self._self_check(update, ("Update",), "queued update")
        if kind == "callback_query":
            self.callback_tapped_at[str(payload["id"])] = self.clock()
        self._queued[update["update_id"]] = update
        self._updates.append(update)
        self._touch()
        self._notify()

    def update_of_query(self, query_id: str) -> int:
        """The id of the update that carried this callback query."""
        for update_id, update in self._queued.items():
            if update.get("callback_query", {}).get("id") == query_id:
                return update_id
        raise KeyError(f"unknown callback query {query_id}")

    def queued_update(self, update_id: int) -> JsonDict:
        """An update as it was queued for the bot (its JSON, as Telegram sends it)."""
        return self._queued[update_id]

    def deliver_again(self, update_id: int) -> None:
        """Queue an update again, as Telegram does with one whose getUpdates the bot never
        confirmed (it stopped, or was killed, before its next poll): the same id and payload,
        in id order among those waiting."""
        update = self._queued[update_id]
        if update in self._updates:
            return
        self._updates.append(update)
        self._updates.sort(key=lambda waiting: int(waiting["update_id"]))
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
