"""Fuzzing the front door: arbitrary updates from anyone, anywhere, against the real bot.

The bot starts once (a running game, an open lobby, an aborted lobby, a group and a channel it
never saw); Hypothesis then sends batches of odd updates: forged button data (random bytes and
near-valid payloads of every action), commands with random arguments and mentions, edited
messages, channel posts, messages of anonymous admins and channels in groups, inline queries
and buttons without a message. Every generated action is one the bot must refuse or ignore, so
after each batch: no error was logged, the fake Bot API saw no violation, every button was
answered, and the database holds the same rows (a command may only add the chat's default
settings, and /start may only refresh its sender). A positive control at the end shows the
snapshot sees a legal move.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gaple_bot.bot.callback_data import FIELDS, Action, BadCallbackData, decode, encode
from gaple_bot.bot.deps import GapleApplication
from gaple_bot.bot.render.privacy import CONFIRM
from gaple_bot.bot.render.settings import choices, menu_options
from gaple_bot.games.gaple.rules import TILE_COUNT, Move
from gaple_bot.games.gaple.rules.moves import MOVE_CODES
from gaple_bot.games.registry import default_registry
from gaple_bot.i18n import SUPPORTED_LANGUAGES
from tests.bot.driver import turn_message
from tests.bot.harness import deps_of, lobby_message, running_bot
from tests.fakes.telegram_server import FakeTelegram, running_fake

T = TypeVar("T")

ANA, BUDI, CITRA, DEDI, EKA, FAJAR, GITA = 201, 202, 203, 204, 205, 206, 207
GROUP = -1001234567890  # Ana's supergroup: a running game (and an aborted lobby before it)
HOME = -4242  # Eka's basic group: an open lobby
UNSEEN = -1009999999999  # a supergroup the bot is an admin of but never heard from
CHANNEL = -1008888888888
BOT_NAMES = ("gaple_test_bot", "GAPLE_TEST_BOT", "other_bot", "x")
COMMANDS = (
    "start",
    "gaple",
    "stop",
    "rules",
    "help",
    "top",
    "stats",
    "games",
    "review",
    "settings",
    "language",
)
MEMBERS = {GROUP: (ANA, BUDI, CITRA), HOME: (EKA, FAJAR), UNSEEN: (DEDI, GITA)}
ADMINS = {GROUP: ANA, HOME: EKA, UNSEEN: DEDI}
PEOPLE = (ANA, BUDI, CITRA, DEDI, EKA, FAJAR, GITA)
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "40"))
"""Batches per run (FUZZ_EXAMPLES=500 FUZZ_RANDOM=1 for a longer hunt with a fresh seed)."""
WAIT = 60.0
"""Seconds to wait for the bot to answer or settle: generous, for a busy machine."""


@dataclass
class World:
    """What the fuzzer knows about the bot's state (it never changes: every action is refused)."""

    fake: FakeTelegram
    database: Path
    aborted: int
    running: int
    lobby: int
    version: int
    to_move: int
    legal_codes: frozenset[int]
    legal_tiles: frozenset[int]
    seated: dict[int, frozenset[int]]
    join_token: str
    """The secret of the open lobby's join link."""
    errors: list[logging.LogRecord] = field(default_factory=list)

    places: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """(chat, message) pairs each person can see and press a button on, fixed at the start so
    that the examples do not depend on what the bot sent since."""
    own: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    """Each person's own messages, which they may edit."""
    posts: list[int] = field(default_factory=list)
    """The channel's posts."""

    def freeze(self) -> None:
        """Note the messages there are now."""
        for user in PEOPLE:
            chats = [user, *(chat for chat, people in MEMBERS.items() if user in people)]
            if user == CITRA:
                chats.append(CHANNEL)  # a subscriber
            messages = [m for c in chats for m in self.fake.messages(c)]
            self.places[user] = [(m.chat_id, m.message_id) for m in messages]
            self.own[user] = [
                (m.chat_id, m.message_id)
                for m in messages
                if not m.from_bot and m.from_user_id == user
            ]
        self.posts = [m.message_id for m in self.fake.messages(CHANNEL)]


# ---------------------------------------------------------------------------- what is legal


def legal_button(world: World, user: int, chat: int | None, data: str | None) -> bool:
    """Whether the button could change the database (such buttons are not generated)."""
    if chat is None:
        return False  # the bot never sends messages in inline mode
    try:
        callback = decode(data)
    except BadCallbackData:
        return False
    action, values = callback.action, callback.values
    if action is Action.LANGUAGE:
        return 0 <= values[0] <= len(SUPPORTED_LANGUAGES)
    if action is Action.FORGET:
        # Deleting one's own data from one's private chat is legal (and not generated).
        return chat == user and values[0] == CONFIRM
    if action is Action.SETTING:
        target, kind_index, option, value = values
        kinds = list(default_registry())
        if target != chat or ADMINS.get(chat) != user or not 0 <= kind_index < len(kinds):
            return False
        kind = kinds[kind_index]
        options = menu_options(kind)
        if not 0 <= option < len(options):
            return False
        return 0 <= value < len(choices(kind, options[option]))
    if action in (Action.MOVE, Action.PICK):
        game, version, code = values
        if game != world.running or version != world.version or user != world.to_move:
            return False
        return code in (world.legal_codes if action is Action.MOVE else world.legal_tiles)
    game = values[0] if values else None
    if game != world.lobby or chat != HOME or user not in MEMBERS[HOME]:
        # A lobby button works only in its own chat, for members of that group.
        return False
    seated = user in world.seated[world.lobby]
    if action is Action.JOIN:
        return not seated
    if action in (Action.LEAVE, Action.ADD_COMPUTER):
        return seated or user == ADMINS[HOME]
    if action in (Action.START, Action.CANCEL):
        return user == ADMINS[HOME]
    return False


def command_target(text: str) -> tuple[str, list[str]] | None:
    """The command and its arguments if the text is a command for this bot."""
    if not text.startswith("/"):
        return None
    head, *args = text.split()
    name, _, mention = head[1:].partition("@")
    if mention and mention.lower() != "gaple_test_bot":
        return None
    return name.lower(), args


def legal_command(world: World, user: int, chat: int, text: str) -> bool:
    """Whether the command could open, stop or join a game (such commands are not
    generated)."""
    target = command_target(text)
    if target is None:
        return False
    name, args = target
    if user in (0, CHANNEL):
        return False  # on behalf of a chat nobody can be told apart: refused
    if name == "gaple":
        return chat == UNSEEN
    if name == "stop":
        return ADMINS.get(chat) == user
    if name == "start" and chat == user and args:
        # Only the open lobby's own link seats a member of its group who is not seated yet;
        # any other join_ payload (a guessed id, a wrong token) must be refused.
        seated = user in world.seated[world.lobby]
        return args[0] == f"join_{world.join_token}" and user in MEMBERS[HOME] and not seated
    return False


# ---------------------------------------------------------------------------- strategies


def numbers(world: World) -> st.SearchStrategy[int]:
    """Field values: real ids and versions, their neighbours, and extremes."""
    real = [world.aborted, world.running, world.lobby, world.version, *world.legal_codes]
    chats = [GROUP, HOME, UNSEEN, CHANNEL, *MEMBERS[GROUP]]
    near = [v + d for v in real for d in (-1, 1)]
    extremes = [0, -1, 2**63 - 1, -(2**63), 2**31, MOVE_CODES, TILE_COUNT]
    return st.one_of(
        st.sampled_from(real + chats + extremes),
        st.sampled_from(near),
        st.integers(-(2**63), 2**63 - 1),
        st.integers(0, MOVE_CODES),
    )


def field_text(world: World) -> st.SearchStrategy[str]:
    """A field as the bot writes it, or as a forger might."""
    return st.one_of(
        numbers(world).map(str),
        numbers(world).map(lambda n: f" {n}"),
        numbers(world).map(lambda n: f"+{n}"),
        st.sampled_from(["", "x", "1_0", "٣", "²", "1e3", str(2**63), str(-(2**63) - 1)]),
    )


def shaped(world: World, action: Action) -> st.SearchStrategy[str]:
    """Near-valid data for one action: as the bot writes it (the simplest draws), or forged
    with a field too few or too many, odd field texts, or another name."""
    count = len(FIELDS[action])
    names = st.sampled_from([a.value for a in Action] + ["", "zz", "LJ", "lj "])

    @st.composite
    def draw_shaped(draw: st.DrawFn) -> str:
        variation = draw(st.integers(0, 3))
        if variation == 0:
            return encode(action, *(draw(numbers(world)) for _ in range(count)))
        size = count if variation != 1 else draw(st.sampled_from([max(0, count - 1), count + 1]))
        name = draw(names) if variation == 3 else action.value
        return ":".join([name, *(draw(field_text(world)) for _ in range(size))])

    return draw_shaped()


def payloads(world: World) -> st.SearchStrategy[str | None]:
    """Button data: near-valid for any action, random bytes or text, or none at all (a game
    button)."""
    fits = st.text(st.characters(codec="utf-8"), max_size=64).filter(
        lambda s: len(s.encode()) <= 64
    )
    return st.one_of(
        st.sampled_from(list(Action)).flatmap(lambda action: shaped(world, action)),
        fits,
        st.binary(max_size=64).map(lambda b: b.decode("utf-8", "replace")),
        st.none(),
    )


def words() -> st.SearchStrategy[str]:
    """Command arguments: keywords the bot knows, deep-link payloads, mentions, anything."""
    return st.one_of(
        st.sampled_from(["global", "wins", "points", "week", "7d", "all", "rating", "WINS"]),
        st.sampled_from(["join_", "join_x", "join_²", "join_٣", "join_-1", "join_0"]),
        st.integers(-(2**70), 2**70).map(lambda n: f"join_{n}"),
        st.sampled_from(BOT_NAMES).map(lambda n: f"@{n}"),
        st.text(st.characters(codec="utf-8", exclude_categories=["Zs", "Cc"]), min_size=1),
    )


def command_texts(named: str | None = None) -> st.SearchStrategy[str]:
    """A command (`named`, or any) for this bot, another bot or none, with random arguments."""
    name = st.one_of(
        st.sampled_from(COMMANDS), st.from_regex(r"[A-Za-z0-9_]{1,32}", fullmatch=True)
    )
    if named is not None:
        name = st.sampled_from([named, named.upper()])
    mention = st.one_of(st.just(""), st.sampled_from(BOT_NAMES).map(lambda n: f"@{n}"))
    return st.builds(
        lambda n, m, args: " ".join([f"/{n}{m}", *args])[:4096],
        name,
        mention,
        st.lists(words(), max_size=3),
    )


def texts() -> st.SearchStrategy[str]:
    """What a person or a channel writes: mostly commands, sometimes chatter or mentions."""
    chatter = st.text(st.characters(codec="utf-8"), min_size=1, max_size=50).filter(str.strip)
    return st.one_of(
        command_texts(),
        command_texts(),
        chatter,
        chatter.map(lambda s: f"@gaple_test_bot {s}"),
    )


@dataclass(frozen=True)
class Odd:
    """One odd update to send: its kind and what it needs."""

    kind: str
    user: int = 0
    chat: int = 0
    message: int = 0
    """The message pressed or edited, or the one a new message replies to (0: none)."""
    data: str | None = None
    text: str = ""


def batches(world: World) -> st.SearchStrategy[list[Odd]]:
    """A few odd updates of any kind, a button of every action, every command and an inline
    button, each one the bot must refuse or ignore."""
    people = st.sampled_from(PEOPLE)

    @st.composite
    def button(draw: st.DrawFn, action: Action | None = None) -> Odd:
        user = draw(people)
        chat, message = draw(st.sampled_from(world.places[user]))
        data = shaped(world, action) if action is not None else payloads(world)
        return Odd("button", user, chat, message, draw(data.filter(refused(user, chat))))

    def refused(user: int, chat: int) -> Callable[[str | None], bool]:
        return lambda data: not legal_button(world, user, chat, data)

    @st.composite
    def inline_button(draw: st.DrawFn) -> Odd:
        any_action = st.sampled_from(list(Action)).flatmap(lambda action: shaped(world, action))
        return Odd("inline button", draw(people), data=draw(st.one_of(any_action, payloads(world))))

    @st.composite
    def command(draw: st.DrawFn, named: str | None = None) -> Odd:
        user = draw(people)
        chat = draw(st.sampled_from([c for c, _ in world.places[user] if c != CHANNEL]))
        text = texts() if named is None else command_texts(named)
        text = text.filter(lambda s: not legal_command(world, user, chat, s))
        # Sometimes a reply (/stats as a reply asks about the replied person, or bot).
        replies = [message for c, message in world.places[user] if c == chat]
        reply = draw(st.one_of(st.just(0), st.sampled_from(replies)))
        return Odd("message", user, chat, reply, text=draw(text))

    @st.composite
    def edit(draw: st.DrawFn) -> Odd:
        user = draw(people)
        chat, message = draw(st.sampled_from(world.own[user]))
        return Odd("edit", user, chat, message, text=draw(texts()))

    @st.composite
    def channel(draw: st.DrawFn) -> Odd:
        if draw(st.booleans()):
            return Odd("post", chat=CHANNEL, text=draw(texts()))
        return Odd(
            "edit post",
            chat=CHANNEL,
            message=draw(st.sampled_from(world.posts)),
            text=draw(texts()),
        )

    @st.composite
    def on_behalf(draw: st.DrawFn) -> Odd:
        # An anonymous admin (user 0) or the linked channel writes in a group.
        user = draw(st.sampled_from([0, CHANNEL]))
        chat = draw(st.sampled_from(list(MEMBERS)))
        text = texts().filter(lambda s: not legal_command(world, user, chat, s))
        return Odd("on behalf", user, chat, text=draw(text))

    @st.composite
    def inline_query(draw: st.DrawFn) -> Odd:
        return Odd("inline query", draw(people), text=draw(st.text(max_size=64)))

    odd = st.one_of(
        button(),
        command(),
        inline_button(),
        command(),
        on_behalf(),
        edit(),
        channel(),
        inline_query(),
    )
    # Every batch also presses a near-valid button of every action, sends every command and
    # presses a button without a message, so that each is fuzzed often whatever Hypothesis
    # favours.
    every_action = st.tuples(*(button(action) for action in Action))
    every_command = st.tuples(*(command(name) for name in COMMANDS))
    return st.builds(
        lambda some, actions, commands, inline: [*some, *actions, *commands, inline],
        st.lists(odd, min_size=1, max_size=3),
        every_action,
        every_command,
        inline_button(),
    )


# ---------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class Table:
    """A table's column names and rows."""

    columns: tuple[str, ...]
    rows: frozenset[tuple[Any, ...]]

    def without(self, ids: set[int], column: str | None = None) -> frozenset[tuple[Any, ...]]:
        """The rows, except those of `ids` (or, with `column`, those rows without it)."""
        if column is None:
            return frozenset(row for row in self.rows if row[0] not in ids)
        drop = self.columns.index(column)
        return frozenset(
            row[:drop] + row[drop + 1 :] if row[0] in ids else row for row in self.rows
        )


Rows = dict[str, Table]


def snapshot(database: Path) -> Rows:
    """Every row of every table, read straight from the file."""
    found: Rows = {}
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        tables = [
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        for table in tables:
            cursor = connection.execute(f'SELECT * FROM "{table}"')
            columns = tuple(column[0] for column in cursor.description)
            found[table] = Table(columns, frozenset(cursor))
    return found


BOOKKEEPING = frozenset({"group_stamps", "group_sends", "answered_taps"})
"""The bot's own records of requests made and waiting (a refusal in a group is a message too),
and of the taps it answered (each refused tap is answered once); they are not game state."""


def differences(before: Rows, after: Rows, chats: set[int], refreshed: set[int]) -> list[str]:
    """What changed beyond what commands may do: a command creates its chat's default settings
    (or notes it saw the chat again), and /start refreshes its sender."""
    found: list[str] = []
    empty = Table((), frozenset())
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name, empty), after.get(name, empty)
        if name in BOOKKEEPING:
            continue
        if name == "chats":
            old_rows, new_rows = old.without(chats, "updated_at"), new.without(chats, "updated_at")
            # A chat first seen by this command: it may appear.
            seen = {row[0] for row in old.rows}
            new_rows = frozenset(row for row in new_rows if row[0] in seen or row[0] not in chats)
        elif name == "chat_options":
            # The default settings of a chat first seen by this command may appear with it.
            seen = {row[0] for row in before.get("chats", empty).rows}
            old_rows = old.rows
            new_rows = frozenset(row for row in new.rows if row[0] in seen or row[0] not in chats)
        elif name == "users":
            old_rows, new_rows = old.without(refreshed), new.without(refreshed)
        else:
            old_rows, new_rows = old.rows, new.rows
        found += [f"{name} lost {row}" for row in sorted(old_rows - new_rows, key=repr)]
        found += [f"{name} gained {row}" for row in sorted(new_rows - old_rows, key=repr)]
    return found


class ErrorLog(logging.Handler):
    """Collects every record at ERROR or above, from any logger."""

    def __init__(self, records: list[logging.LogRecord]) -> None:
        super().__init__(logging.ERROR)
        self.records = records

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def errors_logged(records: list[logging.LogRecord]) -> Iterator[None]:
    handler = ErrorLog(records)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


async def send(world: World, odd: Odd) -> str | None:
    """Send the update; returns the callback query id if it was a button."""
    fake = world.fake
    if odd.kind == "button":
        return await fake.press_any(odd.user, odd.data, chat_id=odd.chat, message_id=odd.message)
    if odd.kind == "inline button":
        return await fake.press_any(odd.user, odd.data, inline_message_id="BAAAAF0AAAA")
    if odd.kind == "message":
        await fake.send_message(
            odd.user, odd.chat, odd.text, reply_to_message_id=odd.message or None
        )
    elif odd.kind == "on behalf":
        await fake.send_on_behalf(odd.chat, odd.text, as_chat=odd.user or None)
    elif odd.kind == "edit":
        await fake.edit_message(odd.user, odd.chat, odd.message, odd.text)
    elif odd.kind == "post":
        await fake.post_in_channel(CHANNEL, odd.text)
    elif odd.kind == "edit post":
        await fake.edit_channel_post(CHANNEL, odd.message, odd.text)
    else:
        await fake.inline_query(odd.user, odd.text, chat_type="group")
    return None


def describe(odd: Odd) -> str:
    """What kind of update this is, for Hypothesis' statistics."""
    if odd.kind in ("button", "inline button"):
        try:
            return f"{odd.kind} {decode(odd.data).action.name}"
        except BadCallbackData:
            return f"{odd.kind}, not ours"
    target = command_target(odd.text)
    if target is None:
        return f"{odd.kind}, not for this bot"
    return f"{odd.kind} /{target[0]}" if target[0] in COMMANDS else f"{odd.kind}, unknown command"


def allowed(odds: list[Odd]) -> tuple[set[int], set[int]]:
    """Chats whose default settings a command may create; people /start may refresh."""
    new_chats: set[int] = set()
    refreshed: set[int] = set()
    for odd in odds:
        target = command_target(odd.text) if odd.kind in ("message", "on behalf") else None
        if target is None:
            continue
        new_chats.add(odd.chat)
        if target[0] == "start" and odd.chat == odd.user:
            refreshed.add(odd.user)
    return new_chats, refreshed


async def check_batch(world: World, odds: list[Odd]) -> None:
    """Send the updates; nothing may fail, every button is answered, nothing illegal stored."""
    fake = world.fake
    await fake.wait_idle(quiet=0.1, timeout=WAIT)
    # Each example answers for itself: what an earlier (failing) one left behind goes.
    world.errors.clear()
    fake.violations.clear()
    before = snapshot(world.database)
    queries = [query for odd in odds if (query := await send(world, odd)) is not None]
    for query in queries:
        await fake.wait_callback_answer(query, timeout=WAIT)
    await fake.wait_idle(quiet=0.1, timeout=WAIT)
    assert not world.errors, "\n".join(map(logging.Formatter().format, world.errors))
    assert not fake.violations, fake.violations
    changed = differences(before, snapshot(world.database), *allowed(odds))
    assert not changed, changed


# ---------------------------------------------------------------------------- the world


async def build_world(fake: FakeTelegram, app: GapleApplication, database: Path) -> World:
    """Ana's group: an aborted lobby, then a running game with Budi; Eka's group: a lobby with
    Fajar. Dedi and Gita are in a group the bot never heard from; a channel posts once."""
    for user, name in ((ANA, "Ana"), (BUDI, "Budi"), (CITRA, "Citra"), (EKA, "Eka")):
        fake.add_user(user, name)
    fake.add_user(FAJAR, "Fajar", language_code="id")
    fake.add_user(DEDI, "Dedi", started=False)
    fake.add_user(GITA, "Gita", started=False, language_code="")
    fake.add_group(GROUP, "Warung Gaple", admins=(ANA,), members=(BUDI, CITRA))
    fake.add_group(HOME, "Rumah Eka", admins=(EKA,), members=(FAJAR,))
    fake.add_group(UNSEEN, "Never seen", admins=(DEDI, fake.bot_id), members=(GITA,))
    fake.add_channel(CHANNEL, "Gaple news")
    for user in (ANA, BUDI, CITRA, EKA, FAJAR):
        await fake.start_private(user)
    aborted = await open_lobby(fake, ANA, GROUP)
    await press(fake, ANA, GROUP, aborted, "✖️ Cancel")
    lobby = await open_lobby(fake, ANA, GROUP)
    await press(fake, BUDI, GROUP, lobby, "✋ Join")
    await press(fake, ANA, GROUP, lobby, "▶️ Start")
    await press(fake, FAJAR, HOME, await open_lobby(fake, EKA, HOME), "✋ Join")
    await fake.send_message(DEDI, UNSEEN, "halo semua")
    await fake.send_message(GITA, UNSEEN, "hi @gaple_test_bot")
    await fake.post_in_channel(CHANNEL, "Gaple tonight")
    await fake.wait_for(
        lambda: turn_message(fake, ANA) is not None or turn_message(fake, BUDI) is not None,
        timeout=WAIT,
        message="nobody got a turn",
    )
    await fake.wait_idle(quiet=0.1, timeout=WAIT)

    service = deps_of(app).service
    running = await service.active_game(GROUP, None)
    home = await service.active_game(HOME, None)
    assert running is not None and home is not None
    live = await service.cache.get(running)
    match = live.match
    assert match is not None and match.to_move is not None
    mover = live.seats[match.to_move].user_id
    assert mover in (ANA, BUDI)
    legal = [Move.from_code(code) for code in match.legal_codes()]
    return World(
        fake=fake,
        database=database,
        aborted=decode(aborted_data(fake)).field("game"),
        running=running,
        lobby=home,
        version=live.version,
        to_move=mover,
        legal_codes=frozenset(m.code for m in legal),
        legal_tiles=frozenset(m.tile for m in legal),
        seated={home: frozenset({EKA, FAJAR})},
        join_token=(await service.cache.get(home)).join_token or "",
    )


async def open_lobby(fake: FakeTelegram, user: int, chat: int) -> int:
    """The person types /gaple in the group; returns the lobby message."""
    await fake.send_message(user, chat, "/gaple")
    await fake.wait_for(
        lambda: (
            any(
                d and d.startswith(Action.START.value + ":")
                for _, d in lobby_message(fake, chat).buttons()
            )
            if any(m.buttons() for m in fake.bot_messages(chat))
            else False
        ),
        timeout=WAIT,
        message="no lobby",
    )
    await fake.wait_idle(quiet=0.1, timeout=WAIT)
    return lobby_message(fake, chat).message_id


async def press(fake: FakeTelegram, user: int, chat: int, message: int, label: str) -> None:
    """Tap a button by its label and wait for the answer."""
    query = await fake.press_button(user, chat, message, label)
    await fake.wait_callback_answer(query, timeout=WAIT)
    await fake.wait_idle(quiet=0.1, timeout=WAIT)


def aborted_data(fake: FakeTelegram) -> str:
    """The callback data of the first lobby message ever sent in Ana's group."""
    first = fake.bot_messages(GROUP)[0]
    for version in first.versions:
        for row in (version.reply_markup or {}).get("inline_keyboard", []):
            for button in row:
                if str(button.get("callback_data", "")).startswith(Action.JOIN.value + ":"):
                    return str(button["callback_data"])
    raise AssertionError("the first lobby had no Join button")


def run_in(loop: asyncio.AbstractEventLoop, coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on the bot's loop from Hypothesis' thread."""
    return asyncio.run_coroutine_threadsafe(coroutine, loop).result(timeout=10 * WAIT)


async def test_odd_updates_are_refused_or_ignored(tmp_path: Path) -> None:
    database = tmp_path / "gaple.sqlite3"
    records: list[logging.LogRecord] = []
    with errors_logged(records):
        async with (
            running_fake(group_limit_per_minute=100_000) as fake,
            running_bot(
                fake,
                database,
                DEFAULT_TURN_SECONDS="3600",
                LOBBY_TIMEOUT_SECONDS="36000",
            ) as app,
        ):
            world = await build_world(fake, app, database)
            world.errors = records
            world.freeze()
            assert not records, [r.getMessage() for r in records]
            loop = asyncio.get_running_loop()

            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                derandomize=not os.environ.get("FUZZ_RANDOM"),
                database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            )
            @given(odds=batches(world))
            def fuzz(odds: list[Odd]) -> None:
                for odd in odds:
                    event(describe(odd))
                run_in(loop, check_batch(world, odds))

            await asyncio.to_thread(fuzz)

            # Positive control: the same checks see a legal move (a real player's, in their
            # private chat, with the game's current version) change the game.
            move = encode(Action.MOVE, world.running, world.version, min(world.legal_codes))
            hand = fake.bot_messages(world.to_move)[-1].message_id
            odd = Odd("button", world.to_move, world.to_move, hand)
            assert legal_button(world, odd.user, odd.chat, move)
            try:
                await check_batch(world, [dataclasses.replace(odd, data=move)])
            except AssertionError as error:
                assert "moves gained" in str(error), error
            else:
                raise AssertionError("a legal move left the database as it was")
            assert not records, "\n".join(map(logging.Formatter().format, records))


# ---------------------------------------------------------------------------- what it found


@asynccontextmanager
async def lobby_in_group(tmp_path: Path) -> AsyncIterator[tuple[FakeTelegram, int]]:
    """Ana has opened a table in her group; Budi, a member, has started the bot."""
    async with running_fake(group_limit_per_minute=100_000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, "Warung Gaple", admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3") as app:
            for user in (ANA, BUDI):
                await fake.start_private(user)
            await open_lobby(fake, ANA, GROUP)
            game = await deps_of(app).service.active_game(GROUP, None)
            assert game is not None
            yield fake, game


async def test_a_button_without_a_message_is_refused(tmp_path: Path) -> None:
    """Buttons of inline-mode messages (the bot sends none) change nothing and fail nothing."""
    records: list[logging.LogRecord] = []
    with errors_logged(records):
        async with lobby_in_group(tmp_path) as (fake, game):
            before = snapshot(tmp_path / "gaple.sqlite3")
            for data in (encode(Action.JOIN, game), encode(Action.TAKE_BACK_SEAT, game)):
                query = await fake.press_any(BUDI, data, inline_message_id="BAAAAF0AAAA")
                answer = await fake.wait_callback_answer(query, timeout=WAIT)
                assert answer == {"text": "That button is not valid.", "show_alert": True}
            await fake.wait_idle(quiet=0.1, timeout=WAIT)
            assert differences(before, snapshot(tmp_path / "gaple.sqlite3"), set(), set()) == []
    assert not records, "\n".join(map(logging.Formatter().format, records))


async def test_an_edited_command_does_nothing(tmp_path: Path) -> None:
    """Editing an old message into /stop (or anything) is not a new command."""
    async with lobby_in_group(tmp_path) as (fake, _game):
        before = snapshot(tmp_path / "gaple.sqlite3")
        sent = len(fake.requests)
        gaple = next(m for m in fake.messages(GROUP) if m.from_user_id == ANA)
        await fake.edit_message(ANA, GROUP, gaple.message_id, "/stop")
        start = next(m for m in fake.messages(BUDI) if m.from_user_id == BUDI)
        await fake.edit_message(BUDI, BUDI, start.message_id, "/language")
        await fake.wait_idle(quiet=0.3, timeout=WAIT)
        assert fake.pending_updates == 0
        assert [r.method for r in fake.requests[sent:] if r.method != "getUpdates"] == []
        assert differences(before, snapshot(tmp_path / "gaple.sqlite3"), set(), set()) == []


async def test_odd_join_links_are_refused(tmp_path: Path) -> None:
    """Digits that are not ASCII, and ids beyond 64 bits, are not a table: a short refusal."""
    records: list[logging.LogRecord] = []
    with errors_logged(records):
        async with lobby_in_group(tmp_path) as (fake, _game):
            before = snapshot(tmp_path / "gaple.sqlite3")
            for payload in ("join_²", "join_" + "9" * 30, f"join_{2**63}"):
                await fake.start_private(BUDI, payload)
                await fake.wait_idle(quiet=0.1, timeout=WAIT)
                assert fake.last_bot_text(BUDI) is not None
                assert "You joined" not in (fake.last_bot_text(BUDI) or "")
            changed = differences(before, snapshot(tmp_path / "gaple.sqlite3"), set(), {BUDI})
            assert changed == []
    assert not records, "\n".join(map(logging.Formatter().format, records))


async def test_taking_back_a_seat_one_already_plays_leaves_the_hand_alone(
    tmp_path: Path,
) -> None:
    """A 'take my seat back' payload on the live hand message must not replace the hand."""
    async with lobby_in_group(tmp_path) as (fake, game):
        await press(fake, ANA, GROUP, lobby_message(fake, GROUP).message_id, "▶️ Start")
        await fake.wait_for(lambda: turn_message(fake, ANA) is not None, timeout=WAIT)
        hand = turn_message(fake, ANA)
        assert hand is not None
        shown = (hand.text, hand.buttons())
        query = await fake.press_any(
            ANA, encode(Action.TAKE_BACK_SEAT, game), chat_id=ANA, message_id=hand.message_id
        )
        answer = await fake.wait_callback_answer(query, timeout=WAIT)
        assert answer["text"] == "That button is out of date."
        await fake.wait_idle(quiet=0.1, timeout=WAIT)
        after = fake.message(ANA, hand.message_id)
        assert (after.text, after.buttons()) == shown
