"""What a test does as a person in the fake Bot API (write, tap, start a private chat,
leave, edit, post in a channel, ...) and how it waits for the bot to answer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from tests.fakes.formatting import utf16_len
from tests.fakes.world import (
    _COMMAND_RE,
    _MENTION_RE,
    FakeMessage,
    FakeWorld,
    JsonDict,
)


class PersonActions(FakeWorld):
    """A test acting as the people of the world, and waiting for the bot (see FakeTelegram)."""

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

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """Someone (an admin, for a bot's message in a group) deletes a message: editing it
        fails with "message to edit not found" from then on."""
        self.message(chat_id, message_id).deleted = True
        self._touch()

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
