"""The fake Bot API's HTTP side: the aiohttp routes, the Bot API methods the bot may call
(each request checked against the spec), their faults and delays, and webhook delivery."""

from __future__ import annotations

import asyncio
import contextlib
import io
import math
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Unpack

import aiohttp
import telegram
from aiohttp import web

from tests.fakes.formatting import EntityParseError, parse_text, trim_text
from tests.fakes.spec_check import Upload
from tests.fakes.world import (
    _BAD_QUERY,
    _BOT_COMMAND_NAME_RE,
    _CONFLICT,
    _IMAGE_FAILED,
    _LANGUAGE_CODE_RE,
    _NON_ACTION_BUTTON_FIELDS,
    _NOT_MODIFIED,
    _URL_SCHEME_RE,
    ANSWER_WINDOW_SECONDS,
    BUTTON_STYLES,
    CHAT_ACTIONS,
    DEFAULT_ALLOWED_UPDATES,
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
    FakeChat,
    FakeMessage,
    FakeOptions,
    FakePhoto,
    FakeRequest,
    FakeWorld,
    JsonDict,
    _applies,
    _BuilderT,
    _Call,
    _Delay,
    _Failure,
    _scope_key,
)


class BotApiEndpoints(FakeWorld):
    """The Bot API methods a bot calls over HTTP, served on 127.0.0.1 (see FakeTelegram)."""

    def __init__(self, **options: Unpack[FakeOptions]) -> None:
        super().__init__(**options)
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
            "savePreparedInlineMessage": self._api_save_prepared_inline_message,
        }

        self.prepared_messages: list[JsonDict] = []
        """savePreparedInlineMessage's parameters, each with the id it was given."""

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

    def hold_next(
        self,
        method: str,
        *,
        chat_id: int | None = None,
        matching: Callable[[JsonDict], bool] | None = None,
    ) -> asyncio.Event:
        """The next call of ``method`` (to ``chat_id``, if given, and whose parameters
        ``matching`` accepts) reaches the server only once the returned event is set: a
        request the test holds in flight for as long as it needs."""
        canonical = self.spec.canonical_method(method)
        if canonical is None:
            raise ValueError(f"unknown Bot API method {method!r}")
        released = asyncio.Event()
        self._delays.append(_Delay(canonical, 0.0, 1, chat_id, matching, until=released))
        return released

    @property
    def delays_planned(self) -> int:
        """Delays asked for with `delay_next` that no call has met yet."""
        return len(self._delays)

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
            if delay.until is not None:
                await delay.until.wait()
            else:
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
        tapped_at = self.callback_tapped_at.get(query_id)
        if tapped_at is not None and self.clock() - tapped_at > ANSWER_WINDOW_SECONDS:
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

    async def _api_save_prepared_inline_message(self, params: JsonDict) -> JsonDict:
        user_id: int = params["user_id"]
        if user_id not in self.users:
            raise ApiError(400, "Bad Request: user not found")
        result: JsonDict = params["result"]
        if not 1 <= len(str(result["id"]).encode()) <= 64:
            raise ApiError(400, "Bad Request: RESULT_ID_INVALID")
        for key in ("photo_url", "thumbnail_url", "gif_url", "video_url", "url"):
            if key in result and not re.match(r"(?i)https?://\S+$", str(result[key])):
                raise ApiError(400, f"Bad Request: {key.upper()}_INVALID")
        self._render_caption(result, too_long="Bad Request: MEDIA_CAPTION_TOO_LONG")
        prepared = f"prepared-{len(self.prepared_messages) + 1}"
        self.prepared_messages.append({**params, "id": prepared})
        # Telegram keeps a prepared message for a while; a day here.
        return {"id": prepared, "expiration_date": int(time.time()) + 86_400}

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
