"""Load through the Bot API: the real bot against a fake Telegram, N groups playing at once.

What it measures, per run (N groups, Telegram's limits on or off, think time, computer level):

- tap -> callback answered, and tap -> the next player's hand (p50, p95, p99), as the simulated
  people see them: from the moment a tap is queued as an update to the moment the fake receives
  answerCallbackQuery, or the sendMessage that gives the next person to move their live buttons
  (whoever it is; the taps that end a game have no next hand); tap -> answer again over the
  taps made once the last group has started its game ("p99 after opening": the groups open
  over SPREAD_SECONDS, a rush no bot sees in life), and minute by minute in the JSON;
- Bot API calls per human move, by method and in all (getUpdates left out of "all": long polls
  are not per move), and "counted" calls (sends and edits: sendMessage, sendPhoto,
  editMessageText, editMessageCaption, editMessageReplyMarkup) per human move;
- group messages and edits per human move and per game;
- the highest rates of accepted writes seen: per group in any 60 s, per private chat in any
  1 s, in all chats in any 1 s (sliding windows over the fake's receive times), and the 429s;
- CPU seconds per human move of the bot's process and of its worker processes (the computer
  players' pool, which also draws the pictures), resident memory per live game (the bot's peak
  RSS over its RSS once started, divided by the most games running at once), and the longest
  event-loop stall (a task sleeping 10 ms in a loop, its largest overshoot);
- whether every game finished, with its stored results equal to the scores replayed from its
  stored moves (by its kind in the registry: Gaple's or Gap's replay of the stored config,
  deals and move codes).

How: each run is a process of its own (so peak RSS and CPU belong to that run alone) holding
the real application (`build_bot` + `start_application`, SQLite in a temporary
directory, COMPUTER_PROCESSES=1, GROUP_MESSAGES_PER_MINUTE=20, turns long enough that nobody
times out, REVIEWS=no: the games' reviews are measured by bench/review.py). The fake Bot
API (tests/fakes/telegram_server.py, which checks every request against the Bot API
description) and the simulated people run in a spawned child, so their CPU
is not the bot's. Each group has two people and two computers: both people /start their
private chat, one sets the smallest target in /settings (and the level), opens /gaple, the
other joins, the opener starts. A person given a hand with live buttons waits a think time
(realistic: uniform 1-8 s, and 0.5-2 s more for the end when a tile fits both; fast: none),
then taps a random legal button (seeded).

`--game gap` plays Gap instead (`both`: each configuration for each game, side by side, with
the game in the table's `game` column and in the JSON's config): the same people and
computers, the target set in `/settings gap` (its smallest, through the menu's buttons as for
Gaple), the table opened with /gap. A Gap hand's buttons are its cards (each names what it
takes; tests/bot/driver.GAP_CARDS); a card whose value offers several takes asks which (the
hand edited to one button per take and a Back button, never tapped here), after the same
0.5-2 s more as Gaple's end. In the page a Gap hand is items with moves as Gaple's: an item
with several moves is a take to choose. "second_steps" in the JSON counts the human moves made
through such a choice (an end, a take). With limits on, the fake answers 429 past 30
writes a second in all chats, one a second in a private chat and 20 a minute in a group
(sends and edits alike) and the bot paces itself to them; off, the fake never does and the
bot's own limits are raised, so only the machine binds.

`--database postgresql` runs the bot on a database of a throwaway PostgreSQL server started
from Debian's binaries (tests/postgres.py) instead of SQLite; the server's own processes are
not the bot's children; their CPU is read from /proc and shown apart, as "db" in the CPU
column (`both`: each run on each).

`--workers N` (a comma list) runs the bot as N webhook worker processes (`python -m gaple_bot
--worker I/N`, each on a port of its own, one database; more than one needs PostgreSQL)
instead of in the run's own process with long polling (`--workers 0`, the default): the fake
posts every update to the next worker in turn, up to 40 posts at once as Telegram does, and
the workers share one window of BOT_MESSAGES_PER_SECOND (as the supervisor's do). Their
CPU (and their pools') is read from /proc, their memory from each one's peak; the event-loop
stall is not measured there ("-").

`--frontend webapp` plays in the table page (docs/PAGE.md) instead of the private chats; `both`
runs each configuration in chat and then in the page, side by side. The bot then runs with
WEBAPP_URL (https://127.0.0.1), WEBAPP_SHORT_NAME and a free WEBAPP_PORT on 127.0.0.1, the page
mounted on its web server (each worker's own port with --workers). Each group is still opened
in chat (the opener's /settings and /gaple or /gap, as above), but nobody opens the bot's
private chat: everyone seated plays in the page (bench/load_pages.py, in the people's child,
aiohttp). The table's token is read from the group's lobby message: the startapp parameter of
its "Open table" button (https://t.me/<bot>/<short name>?startapp=<token>), or, where the bot
shows no such button, from its one-tap join link (?start=join_<token>, the same token), which
the bot adds once the second person taps Join in the group without a private chat (that tap,
its answer and the lobby's edit are then part of the run). Both people sign in (POST
/app/api/session with initData signed with the fake's token and the table's token) and open a
WebSocket; the opener is seated by /gaple (/gap), the other joins from the page ({"t":"join"}),
the opener starts from the page ({"t":"start"}); the fake says both are members of the group
(getChatMember). A person whose state shows their turn waits the same think, taps a random
legal move of the state's hand (and a random end or take when the item has several) as
{"t":"move","version":V,"code":C}, never faster than the server's flood allowance (20 at once,
5 a second: it binds only with fast think). Measured there: tap (the frame sent) -> the mover's
own next state at a newer revision ("mover's view"), and tap -> the state that shows the next
person to move their turn ("next person's view", whoever it is: the same figure as the chat's
"hand"). In chat, the mover's view is tap -> the edit that takes the live buttons off the
mover's hand (or the mover's next hand, when it comes before that edit). In both, the counted
writes per human move are split into group and private ones, and

    tables one token carries = 30 / (counted writes per second per busy table)
                             = 30 / (accepted counted writes of the run / seconds of busy tables)

where a busy table's seconds run from its game's start to its end (or the run's end): how many
tables like these, playing at the same time, Telegram's 30 messages a second allow. (Writes a
throttled bot still held at the run's end are not in it: read it beside "max all/s", which
shows whether the 30 a second bound.)

Run from the repository with the venv's python:

    .venv/bin/python bench/load.py                      # the default matrix, below
    .venv/bin/python bench/load.py --groups 10,50,200,500 --limits both --think realistic,fast
    .venv/bin/python bench/load.py --groups 2 --limits off --think fast --seconds 120  # smoke
    .venv/bin/python bench/load.py --groups 50 --limits off --database postgresql --workers 1,2
    .venv/bin/python bench/load.py --groups 2 --limits off --think fast --frontend both
    .venv/bin/python bench/load.py --groups 20 --limits on --think realistic --frontend both
    .venv/bin/python bench/load.py --groups 200 --limits on --think realistic --frontend webapp
    .venv/bin/python bench/load.py --groups 2 --limits off --think fast --game gap --seconds 120
    .venv/bin/python bench/load.py --groups 20 --limits on --think realistic --game both

Default matrix: N = 10 and 50, limits on and off, fast think, normal level (four runs, about
five minutes on this two-core machine). Realistic think is bounded by the think time itself (a
game to the smallest target takes 4 to 7 minutes whatever N is, a Gap game up to about 8), so
each such run takes about that long, or the cap when the limits hold the games back (N = 200
with limits on). The full N = 10, 50, 200, 500 matrix with both limits and both think modes is
sixteen runs; the N = 200 and 500 fast runs reach the --seconds cap (600 s by default), so
expect well over an hour for all of it. Each run stops at --seconds, or once every group has
finished its game or failed to start one, and reports what finished. The table goes to stdout,
the figures to --json (load.json in the current directory unless told).

Its targets. Every run: every game finished and verified against its stored moves, no table
error and no request the fake Bot API found against the spec. A chat run with limits on and
realistic think (issues 29 and 38), also: at most 3.3 counted writes per human move, 1.3 of
them in the group, no 429. A page run with limits on and realistic think (of either game),
also (issue 28): at most 0.5 counted writes per human move (group edits and pictures
included), the next person's view at p99 within 150 ms at the run's N, no 429, and a token
carrying 300 tables or more. The script exits 1, with a line naming each target missed and
the runs that missed it, when one did. The other figures are measured, not judged.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import logging
import multiprocessing
import os
import random
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# The fake Bot API and the test harness live in tests/, which is not an installed package.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load_pages import OPEN_TABLE, PagePeople, Seated, table_token  # noqa: E402
from bench.load_workers import Poster, WorkerBots, postmaster_pid, tree_cpu  # noqa: E402
from gaple_bot.app import build_bot  # noqa: E402
from gaple_bot.bot.callback_data import Action, decode, encode  # noqa: E402
from gaple_bot.bot.render.settings import choices, menu_options  # noqa: E402
from gaple_bot.bot.running import start_application, stop_application  # noqa: E402
from gaple_bot.bot.server import CannotListen  # noqa: E402
from gaple_bot.games.registry import default_registry  # noqa: E402
from gaple_bot.settings import settings_from  # noqa: E402
from gaple_bot.store import GameStatus, Store  # noqa: E402
from gaple_bot.web.app import PageFrontEnd  # noqa: E402
from gaple_bot.web.sessions import SessionSigner  # noqa: E402
from tests.bot.driver import GAP_CARDS, GAPLE_TILES, MoveButtons  # noqa: E402
from tests.bot.harness import deps_of  # noqa: E402
from tests.fakes.telegram_server import (  # noqa: E402
    DEFAULT_TOKEN,
    GROUP_WRITE_METHODS,
    FakeMessage,
    FakeRequest,
    FakeTelegram,
)
from tests.postgres import PostgresServer, free_port  # noqa: E402

JsonDict = dict[str, Any]
REALISTIC_THINK = (1.0, 8.0)
"""Seconds a person looks at their hand before tapping (uniform), in realistic mode."""
REALISTIC_END_THINK = (0.5, 2.0)
"""Seconds more to choose the end when the tile fits both."""
TURN_SECONDS = 1_000_000
"""Nobody times out: a timeout would make the computer move and hide the bot's own latency."""
GROUP_BUDGET = 20
"""The bot's GROUP_MESSAGES_PER_MINUTE, as in production."""
RAISED = 1_000_000
"""The bot's own limits in a run without Telegram's: as for a bot whose limits were raised."""
LIMITS_ON = {"group_per_minute": 20, "private_per_second": 1, "global_per_second": 30}
NO_LIMIT = 10**9
STALL_TICK = 0.01
SETUP_SECONDS = 120.0
"""How long one group's setup step (a menu, a lobby, an answer) may take before it is given up."""
SPREAD_SECONDS = 20.0
"""Groups open one after another over at most this long (0.1 s apart when fewer), as people
arrive, rather than all in the same millisecond."""
GRACE_SECONDS = 600.0
"""A process still alive this long past its --seconds cap ends itself (nothing outlives a run)."""
PORT_TRIES = 5
"""Free ports tried for the page's server: one found free may be taken before the bot binds it."""
WEBAPP_URL = "https://127.0.0.1"
"""The page's public address in the bot's settings (https, as they require; never fetched: the
people reach the bot's own server on 127.0.0.1, whose host the socket's origin check accepts)."""
WEBAPP_SHORT_NAME = "table"
GLOBAL_PER_SECOND = 30
"""Telegram's messages a second for one token, of which the capacity figure is a share."""
PAGE_TARGETS = {"writes_per_move": 0.5, "next_view_p99_ms": 150.0, "tables_per_token": 300}
"""Issue 28's targets of a page run with limits on and realistic think (and no 429)."""
CHAT_WRITES_PER_MOVE = 3.3
"""The target of a chat run with limits on and realistic think: counted writes per human move
(and no 429). Issue 29's was 2.5; issue 38 spends about one private edit a move more, so that
a tapped hand shows the move made at once instead of keeping its buttons for the next hand."""
CHAT_GROUP_WRITES_PER_MOVE = 1.3
"""Issue 29's savings in the group, kept: its counted group writes per human move (1.22)."""
GAMES = ("gaple", "gap")
"""The kinds a run may play (the registry's names, each opened by its own command)."""
MOVE_BUTTONS = {"gaple": GAPLE_TILES, "gap": GAP_CARDS}
"""How each kind's private hand offers its moves: the buttons that make (or lead to) one, and
the second step a pick asks for (Gaple's ends, Gap's takes, each with a Back button)."""


@dataclass(frozen=True)
class RunConfig:
    """One run of the matrix."""

    groups: int
    limits: bool
    think: str  # "realistic" or "fast"
    level: str  # "normal" or "hard"
    seconds: float
    seed: int
    profile: str = ""
    """A file for cProfile's figures of the bot's process (its event-loop thread), if any."""
    database: str = "sqlite"
    """"sqlite" (a file in a temporary folder) or "postgresql" (a throwaway server)."""
    workers: int = 0
    """0: the bot in the run's own process, long polling; N: N webhook worker processes
    (`gaple_bot --worker I/N`), the fake posting each update to the next one in turn."""
    frontend: str = "chat"
    """"chat" (hands in the private chats, buttons) or "webapp" (everyone seated in the page)."""
    game: str = "gaple"
    """The kind every table plays: "gaple" (opened with /gaple) or "gap" (/gap)."""

    @property
    def label(self) -> str:
        limits = "on" if self.limits else "off"
        return (
            f"N={self.groups} limits={limits} think={self.think} level={self.level} "
            f"db={self.database} workers={self.workers} front={self.frontend} game={self.game}"
        )


# ============================================================================ figures


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank q-th percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def spread(values: Sequence[float]) -> JsonDict:
    """p50, p95, p99 and max in milliseconds, and how many samples."""
    figures: JsonDict = {"count": len(values)}
    for name, q in (("p50", 50.0), ("p95", 95.0), ("p99", 99.0), ("max", 100.0)):
        value = percentile(values, q)
        figures[name] = None if value is None else round(value * 1000, 1)
    return figures


def busiest_window(times: Iterable[float], window: float) -> int:
    """The most events in any window of `window` seconds (a sliding window over the times)."""
    ordered = sorted(times)
    best = 0
    start = 0
    for end, now in enumerate(ordered):
        while ordered[start] <= now - window:
            start += 1
        best = max(best, end - start + 1)
    return best


def most_at_once(intervals: Iterable[tuple[float, float]]) -> int:
    """The most intervals open at the same moment."""
    edges = sorted(
        [(start, 1) for start, _ in intervals] + [(end, -1) for _, end in intervals],
        key=lambda edge: (edge[0], edge[1]),
    )
    live = best = 0
    for _, step in edges:
        live += step
        best = max(best, live)
    return best


# ============================================================================ the people


def has_live_moves(message: FakeMessage) -> bool:
    """A hand message whose buttons make moves now (as tests/bot/harness.turn_message)."""
    prefixes = (Action.MOVE.value + ":", Action.PICK.value + ":")
    return any(data and data.startswith(prefixes) for _, data in message.buttons())


def live_version(message: FakeMessage) -> int | None:
    """The game version of a hand message's live move buttons, None if it has none."""
    prefixes = (Action.MOVE.value + ":", Action.PICK.value + ":")
    for _, data in message.buttons():
        if data and data.startswith(prefixes):
            return decode(data).field("version")
    return None


def private_write_kinds(writes: list[FakeRequest]) -> dict[str, int]:
    """Private writes by kind: sends (a new message, which rings: a reply, a hand after a
    pause, a reminder) and edits (a hand in place, a played hand's buttons taken off, a pick's
    second step)."""
    sends = sum(1 for write in writes if write.method.startswith("send"))
    return {"sends": sends, "edits": len(writes) - sends}


def button_data(message: FakeMessage, action: Action) -> str | None:
    """The first button of `message` with `action`, if any."""
    for _, data in message.buttons():
        if data and data.startswith(action.value + ":"):
            return data
    return None


@dataclass(eq=False)
class Table:
    """One group: its two people, the bot's messages they act on, what happened."""

    index: int
    chat_id: int
    people: tuple[int, int]
    menu_id: int | None = None
    lobby_id: int | None = None
    game_id: int | None = None
    started_at: float | None = None
    finished_at: float | None = None
    moves: int = 0
    error: str | None = None
    hand_due_since: float | None = None
    """When the last move's tap was made, until the next live hand arrives."""
    token: tuple[str, str] | None = None
    """The table's page token and where it was read (page runs)."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class Person:
    """A simulated person: taps one hand at a time, in order."""

    user_id: int
    table: Table
    rng: random.Random
    busy: bool = False
    waiting: int | None = None
    """A live hand that arrived while the previous one was still being played."""
    hand_version: int | None = None
    """The game version of the last live hand handed to the person (a hand edited in place
    with a newer version is their next turn; the same version, a pick's second step)."""
    edited: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when the bot edits a message in the person's chat (the ends of a pick)."""
    moved_at: float | None = None
    """When the person's last move was tapped, until the edit takes its hand's buttons off."""
    moved_message: int | None = None


class Crowd:
    """Every table and person of a run, driven by the fake's listeners."""

    def __init__(self, fake: FakeTelegram, config: RunConfig) -> None:
        self.fake = fake
        self.config = config
        self.tables: dict[int, Table] = {}
        self.people: dict[int, Person] = {}
        self.answers: dict[str, asyncio.Future[JsonDict]] = {}
        self.tapped_at: dict[str, float] = {}
        self.tap_to_answer: list[float] = []
        self.answer_times: list[tuple[float, float]] = []
        """(when the tap was made, how long its answer took), for the minute-by-minute view."""
        self.tap_to_hand: list[float] = []
        self.tap_to_mover: list[float] = []
        """Tap of a move -> the edit that takes the live buttons off the mover's hand (or their
        next hand, when it comes first)."""
        self.refused_taps: list[str] = []
        self.second_steps = 0
        """Human moves made through a pick's second step (an end, a take)."""
        self.pages: PagePeople | None = None
        """The people in the page, in a page run (set once the bot's address is known)."""
        self.all_finished = asyncio.Event()
        self.finished = 0
        self.stopping = False
        self.tasks: set[asyncio.Task[None]] = set()
        registry = default_registry()
        kind = registry.get(config.game)
        options = menu_options(kind)
        self.kind_index = registry.names.index(config.game)
        self.moves: MoveButtons = MOVE_BUTTONS[config.game]
        # Gaple's menu is the chat's default one; another kind's is asked for by name.
        self.settings_command = (
            "/settings" if kind is registry.default else f"/settings {kind.name}"
        )
        self.open_command = "/" + kind.name
        targets = choices(kind, "target")
        self.target_button = (
            options.index("target"),
            targets.index(min(targets, key=int)),
        )
        self.level_button = (options.index("level"), choices(kind, "level").index(config.level))
        fake.message_listeners.append(self.on_message)
        fake.answer_listeners.append(self.on_answer)

    def add_table(self, index: int) -> Table:
        chat_id = -1_000_000_000_000 - (index + 1)
        opener, joiner = 10_000 + 2 * index, 10_001 + 2 * index
        # In a page run nobody opens the bot's private chat: Telegram refuses the bot there.
        chat = self.config.frontend == "chat"
        self.fake.add_user(opener, f"Opener{index}", started=chat)
        self.fake.add_user(joiner, f"Joiner{index}", started=chat)
        self.fake.add_group(chat_id, f"Load room {index}", admins=(opener,), members=(joiner,))
        table = Table(index, chat_id, (opener, joiner))
        self.tables[chat_id] = table
        for user_id in table.people:
            seed = self.config.seed * 1_000_003 + user_id
            self.people[user_id] = Person(user_id, table, random.Random(seed))
        return table

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ---------------------------------------------------------------- what the fake tells

    def on_message(self, message: FakeMessage, edited: bool) -> None:
        now = time.monotonic()
        if message.chat_id > 0:
            # In a page run the people never act on a private message (none should come).
            person = self.people.get(message.chat_id) if self.config.frontend == "chat" else None
            if person is not None and edited:
                person.edited.set()
                if (
                    person.moved_at is not None
                    and message.message_id == person.moved_message
                    and not has_live_moves(message)
                ):
                    self.tap_to_mover.append(now - person.moved_at)
                    person.moved_at = None
            # A new hand with live buttons, sent or shown in place of the last one (the person
            # plays along); an edit with the same turn's buttons shows the ends of a pick,
            # which the person's own tap is waiting for.
            version = live_version(message)
            if person is None or version is None:
                return
            if edited and version == person.hand_version:
                return
            person.hand_version = version
            seated = person.table
            if person.moved_at is not None:
                # Their next hand came before the edit of the last one: it shows the move too.
                self.tap_to_mover.append(now - person.moved_at)
                person.moved_at = None
            if seated.hand_due_since is not None:
                self.tap_to_hand.append(now - seated.hand_due_since)
                seated.hand_due_since = None
            self.hand_arrived(person, message.message_id)
            return
        table = self.tables.get(message.chat_id)
        if table is None:
            return
        if table.menu_id is None and button_data(message, Action.SETTING):
            table.menu_id = message.message_id
        join = button_data(message, Action.JOIN)
        if table.lobby_id is None and join is not None:
            table.lobby_id = message.message_id
            table.game_id = decode(join).field("game")
        if self.config.frontend == "webapp" and table.lobby_id == message.message_id:
            found = table_token(message.buttons())
            # The Open table button's token, once shown, over the join link's (the same).
            if found is not None and (table.token is None or found[1] == OPEN_TABLE):
                table.token = found
        again = button_data(message, Action.PLAY_AGAIN)
        if again is not None and self.config.frontend == "chat" and table.started_at is not None:
            self.game_over(table)
        table.changed.set()

    def game_over(self, table: Seated) -> None:
        """A table's game ended (the group's Play again, or the page's final state)."""
        if table.finished_at is not None:
            return
        table.finished_at = time.monotonic()
        table.hand_due_since = None
        self.finished += 1
        self.settle()

    def settle(self) -> None:
        """The run is over once every table has finished its game or failed to start one."""
        failed = sum(1 for t in self.tables.values() if t.error and t.finished_at is None)
        if self.finished + failed >= len(self.tables):
            self.all_finished.set()

    def on_answer(self, query_id: str, answer: JsonDict) -> None:
        tapped = self.tapped_at.pop(query_id, None)
        if tapped is not None:
            self.tap_to_answer.append(time.monotonic() - tapped)
            self.answer_times.append((tapped, time.monotonic() - tapped))
        future = self.answers.pop(query_id, None)
        if future is not None and not future.done():
            future.set_result(answer)

    # ---------------------------------------------------------------- acting

    async def tap(self, user_id: int, chat_id: int, message_id: int, data: str) -> JsonDict:
        """Press a button and wait for the bot's answer to it."""
        future: asyncio.Future[JsonDict] = asyncio.get_running_loop().create_future()
        query_id = await self.fake.press(user_id, chat_id, message_id, data)
        self.answers[query_id] = future
        if chat_id > 0:
            self.tapped_at[query_id] = time.monotonic()
        return await asyncio.wait_for(future, SETUP_SECONDS)

    async def wait_until(self, table: Table, ready: Callable[[], bool]) -> None:
        async with asyncio.timeout(SETUP_SECONDS):
            while not ready():
                table.changed.clear()
                await table.changed.wait()

    async def open_table(self, table: Table, delay: float) -> None:
        """/start, /settings (target, level), /gaple (or /gap), Join, Start, as people would (in
        a page run: no /start, and Join and Start in the page)."""
        try:
            await asyncio.sleep(delay)
            opener, joiner = table.people
            in_page = self.config.frontend == "webapp"
            for user_id in table.people if not in_page else ():
                await self.fake.start_private(user_id)
            await self.fake.send_message(opener, table.chat_id, self.settings_command)
            await self.wait_until(table, lambda: table.menu_id is not None)
            assert table.menu_id is not None
            for option, value in (self.target_button, self.level_button):
                data = encode(Action.SETTING, table.chat_id, self.kind_index, option, value)
                answer = await self.tap(opener, table.chat_id, table.menu_id, data)
                assert not answer.get("show_alert"), answer
            await self.fake.send_message(opener, table.chat_id, self.open_command)
            await self.wait_until(table, lambda: table.lobby_id is not None)
            assert table.lobby_id is not None
            if in_page:
                await self.seat_in_page(table)
                return
            lobby = self.fake.message(table.chat_id, table.lobby_id)
            for user_id, label in ((joiner, "✋ Join"), (opener, "▶️ Start")):
                data = next(d for text, d in lobby.buttons() if text == label and d)
                answer = await self.tap(user_id, table.chat_id, table.lobby_id, data)
                assert not answer.get("show_alert"), answer
            table.started_at = time.monotonic()
        except Exception as error:  # a group that cannot start is a finding, not a crash
            table.error = f"setup: {error!r}"
            self.settle()

    async def seat_in_page(self, table: Table) -> None:
        """Both people open the page with the table's token, the other joins there and the
        opener starts there (bench/load_pages.py); they play there from then on."""
        assert self.pages is not None and table.lobby_id is not None
        opener, joiner = table.people
        if table.token is None:
            # No Open table button: the other person taps Join in the group with no private
            # chat, and the bot answers with the lobby's join link (and adds it to the lobby).
            lobby = self.fake.message(table.chat_id, table.lobby_id)
            data = next(d for text, d in lobby.buttons() if text == "✋ Join" and d)
            answer = await self.tap(joiner, table.chat_id, table.lobby_id, data)
            table.token = table.token or table_token([("", answer.get("url"))])
            await self.wait_until(table, lambda: table.token is not None)
        assert table.token is not None
        people = [
            (opener, f"Opener{table.index}", self.people[opener].rng),
            (joiner, f"Joiner{table.index}", self.people[joiner].rng),
        ]
        await self.pages.seat(table, people, table.token[0])

    def page_think(self, rng: random.Random, end: bool) -> float:
        """A page person's think: as long as in chat (the ends' extra when `end`)."""
        if self.config.think == "fast":
            return 0.0
        return rng.uniform(*(REALISTIC_END_THINK if end else REALISTIC_THINK))

    def hand_arrived(self, person: Person, message_id: int) -> None:
        if self.stopping:
            return
        if person.busy:
            person.waiting = message_id
            return
        person.busy = True
        self.spawn(self.play_hand(person, message_id))

    async def second_step_drawn(self, person: Person, message_id: int) -> None:
        """Until the hand message shows a pick's second step: Gaple's ends to choose from,
        Gap's takes (a Back button among them)."""
        while not self.moves.second_shown(self.fake.message(person.user_id, message_id)):
            person.edited.clear()
            await person.edited.wait()

    def think(self, person: Person, span: tuple[float, float]) -> float:
        return 0.0 if self.config.think == "fast" else person.rng.uniform(*span)

    async def play_hand(self, person: Person, message_id: int) -> None:
        """Look at the hand a while, tap a legal tile (a card), and an end (a take) if it asks
        for one, after a while more."""
        table, user_id = person.table, person.user_id
        try:
            await asyncio.sleep(self.think(person, REALISTIC_THINK))
            message = self.fake.message(user_id, message_id)
            buttons = self.moves.first(message)
            if buttons and not self.stopping:
                _, data = person.rng.choice(buttons)
                if data.startswith(Action.MOVE.value + ":"):
                    table.hand_due_since = person.moved_at = time.monotonic()
                    person.moved_message = message_id
                person.edited.clear()
                answer = await self.tap(user_id, user_id, message_id, data)
                picked = data.startswith(Action.PICK.value + ":") and not answer.get("show_alert")
                if picked:
                    # The bot answers, then draws the second step on the same message.
                    await asyncio.wait_for(
                        self.second_step_drawn(person, message_id), SETUP_SECONDS
                    )
                    await asyncio.sleep(self.think(person, REALISTIC_END_THINK))
                    seconds = self.moves.second(self.fake.message(user_id, message_id))
                    _, data = person.rng.choice(seconds)
                    table.hand_due_since = person.moved_at = time.monotonic()
                    person.moved_message = message_id
                    answer = await self.tap(user_id, user_id, message_id, data)
                if answer.get("show_alert"):
                    table.hand_due_since = person.moved_at = None
                    self.refused_taps.append(str(answer.get("text", ""))[:120])
                else:
                    table.moves += 1
                    self.second_steps += picked
        except Exception as error:  # reported with the run: a person left stuck is a finding
            table.error = f"play: {error!r}"
        finally:
            person.busy = False
            waiting, person.waiting = person.waiting, None
            if waiting is not None:
                # A newer turn, in this message (in place) or another.
                self.hand_arrived(person, waiting)

    # ---------------------------------------------------------------- the report

    def report(self, started: float, ended: float) -> JsonDict:
        fake = self.fake
        requests = fake.requests
        by_method = Counter(r.method for r in requests)
        moves = sum(t.moves for t in self.tables.values())
        per_move = max(moves, 1)
        finished = [t for t in self.tables.values() if t.finished_at is not None]
        per_game = max(len(finished), 1)
        accepted = [r for r in requests if r.status == 200 and r.method in GROUP_WRITE_METHODS]
        group_writes = [r for r in accepted if r.chat_id is not None and r.chat_id < 0]
        group_sends = sum(1 for r in group_writes if r.method in ("sendMessage", "sendPhoto"))
        # Per game: the writes of the groups whose game finished, over those games.
        done_chats = {t.chat_id for t in finished}
        done_writes = [r for r in group_writes if r.chat_id in done_chats]
        done_sends = sum(1 for r in done_writes if r.method in ("sendMessage", "sendPhoto"))
        calls = sum(n for method, n in by_method.items() if method != "getUpdates")
        intervals = [
            (t.started_at, t.finished_at if t.finished_at is not None else ended)
            for t in self.tables.values()
            if t.started_at is not None
        ]
        durations = [end - start for start, end in intervals if end < ended]
        busy = sum(end - start for start, end in intervals)
        private = [r for r in accepted if r.chat_id is not None and r.chat_id > 0]
        private_writes = len(private)
        private_kinds = private_write_kinds(private)
        # Counted writes a second per busy table, and how many such tables 30 a second carry.
        per_busy_second = len(accepted) / busy if busy > 0 else None
        pages = self.pages
        tap_to_hand = pages.next_view if pages is not None else self.tap_to_hand
        tap_to_mover = pages.mover_view if pages is not None else self.tap_to_mover
        refused = pages.refused if pages is not None else self.refused_taps
        # Once the last group has started its game: the opening rush of lobbies is over.
        opened = max((start for start, _ in intervals), default=started)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        # A game left unfinished with no live hand anywhere waits on a person who was never
        # shown their turn (or on the bot itself); one with a live hand, on the cap.
        unfinished = [t for t in self.tables.values() if t.started_at and not t.finished_at]
        no_live_hand = [
            t.chat_id
            for t in unfinished
            if pages is None
            and not any(has_live_moves(m) for uid in t.people for m in fake.bot_messages(uid))
        ]
        return {
            "frontend": self.config.frontend,
            "game": self.config.game,
            "seconds": round(ended - started, 1),
            "games": len(self.tables),
            "games_started": len(intervals),
            "games_finished": len(finished),
            "most_games_at_once": most_at_once(intervals),
            "game_duration_ms": spread(durations),
            "human_moves": moves,
            "tap_to_answer_ms": spread(self.tap_to_answer),
            "tap_to_answer_ms_after_opening": spread(
                [took for at, took in self.answer_times if at >= opened]
            ),
            "tap_to_answer_ms_by_minute": [
                spread(
                    [
                        took
                        for at, took in self.answer_times
                        if minute <= (at - started) / 60 < minute + 1
                    ]
                )
                for minute in range(int((ended - started) // 60) + 1)
            ],
            "tap_to_hand_ms": spread(tap_to_hand),
            "tap_to_mover_view_ms": spread(tap_to_mover),
            "calls_by_method": dict(sorted(by_method.items())),
            "calls_per_human_move": {
                method: round(n / per_move, 3) for method, n in sorted(by_method.items())
            },
            "calls_per_human_move_all": round(calls / per_move, 3),
            "counted_per_human_move": round(len(accepted) / per_move, 3),
            "group_writes_per_human_move": round(len(group_writes) / per_move, 3),
            "private_writes_per_human_move": round(private_writes / per_move, 3),
            "private_writes_by_kind_per_human_move": {
                kind: round(n / per_move, 3) for kind, n in private_kinds.items()
            },
            "busy_table_seconds": round(busy, 1),
            "writes_per_busy_table_second": (
                None if per_busy_second is None else round(per_busy_second, 4)
            ),
            "tables_per_token": (
                None if not per_busy_second else round(GLOBAL_PER_SECOND / per_busy_second, 1)
            ),
            "group_messages_per_human_move": round(group_sends / per_move, 3),
            "group_edits_per_human_move": round((len(group_writes) - group_sends) / per_move, 3),
            "group_messages_per_game": round(done_sends / per_game, 2),
            "group_edits_per_game": round((len(done_writes) - done_sends) / per_game, 2),
            "max_rates": max_rates(accepted),
            "status_429": sum(1 for r in requests if r.status == 429),
            "limit_hits": dict(fake.limit_hits),
            "other_errors": dict(
                Counter(
                    f"{r.method} {r.status} {r.description}"
                    for r in requests
                    if r.status not in (200, 429)
                ).most_common(10)
            ),
            "error_samples": [
                {
                    "method": r.method,
                    "chat": "group" if (r.chat_id or 0) < 0 else "private",
                    "text": str(r.params.get("text", r.params))[:160],
                }
                for r in requests
                if r.status not in (200, 429)
            ][:5],
            "refused_taps": len(refused),
            "refused_samples": list(dict.fromkeys(refused))[:5],
            "second_steps": pages.second_steps if pages is not None else self.second_steps,
            "token_sources": dict(
                Counter(t.token[1] for t in self.tables.values() if t.token is not None)
            ),
            "page_frames_received": pages.frames_received if pages is not None else 0,
            "table_errors": [
                f"{t.chat_id}: {t.error}" for t in self.tables.values() if t.error is not None
            ][:10],
            "violations": len(fake.violations),
            "violation_samples": fake.violations[:5],
            "unfinished_without_live_hand": len(no_live_hand),
            "game_ids": [t.game_id for t in finished if t.game_id is not None],
            "fake_cpu_seconds": round(time.process_time(), 2),
            "fake_peak_rss_mb": round(usage.ru_maxrss / 1024, 1),
        }


def max_rates(accepted: Sequence[FakeRequest]) -> JsonDict:
    """The busiest windows of accepted writes: one group in 60 s, one private chat in 1 s,
    all chats in 1 s."""
    by_chat: dict[int, list[float]] = defaultdict(list)
    for request in accepted:
        if request.chat_id is not None:
            by_chat[request.chat_id].append(request.time)
    groups = [busiest_window(ts, 60.0) for chat, ts in by_chat.items() if chat < 0]
    privates = [busiest_window(ts, 1.0) for chat, ts in by_chat.items() if chat > 0]
    return {
        "group_per_minute": max(groups, default=0),
        "private_per_second": max(privates, default=0),
        "all_per_second": busiest_window((r.time for r in accepted), 1.0),
    }


async def people_side(connection: Connection, config: RunConfig) -> None:
    """The child: the fake Bot API and the people, until the bot says stop."""
    loop = asyncio.get_running_loop()
    limits = LIMITS_ON if config.limits else None
    fake = FakeTelegram(
        group_limit_per_minute=limits["group_per_minute"] if limits else NO_LIMIT,
        private_limit_per_second=limits["private_per_second"] if limits else None,
        global_limit_per_second=limits["global_per_second"] if limits else None,
        keep_history=False,
    )
    await fake.start()
    crowd = Crowd(fake, config)
    tables = [crowd.add_table(index) for index in range(config.groups)]
    connection.send(fake.base_url)
    if not await loop.run_in_executor(None, connection.poll, SETUP_SECONDS):
        raise RuntimeError("the bot never said go")
    addresses: dict[str, list[str]] = connection.recv()
    worker_urls = addresses["webhooks"]
    poster = Poster(fake, worker_urls)
    posting = loop.create_task(poster.run()) if worker_urls else None
    if config.frontend == "webapp":
        crowd.pages = PagePeople(addresses["pages"], fake.token, crowd.page_think, crowd.game_over)
        await crowd.pages.start()
    started = time.monotonic()
    gap = min(0.1, SPREAD_SECONDS / max(config.groups, 1))
    for table in tables:
        crowd.spawn(crowd.open_table(table, table.index * gap))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(crowd.all_finished.wait(), config.seconds)
    crowd.stopping = True
    ended = time.monotonic()
    report = crowd.report(started, ended)
    report["webhook_posts"] = poster.posted
    report["webhook_posts_again"] = poster.retried
    for task in list(crowd.tasks):
        task.cancel()
    if crowd.pages is not None:
        await crowd.pages.stop()
    connection.send(report)
    # Serve the bot while it stops (its last long poll, the outbox's drain), then go.
    await loop.run_in_executor(None, connection.poll, SETUP_SECONDS)
    if posting is not None:
        posting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await posting
    await fake.stop()


def child_main(connection: Connection, config: RunConfig) -> None:
    """Entry point of the spawned child."""
    end_by_itself(config.seconds + 2 * GRACE_SECONDS)
    asyncio.run(people_side(connection, config))


def end_by_itself(seconds: float) -> None:
    """End this process after `seconds`, whatever it is doing (bounded runs)."""
    timer = threading.Timer(seconds, os._exit, args=(3,))
    timer.daemon = True
    timer.start()


# ============================================================================ the bot


class LogCounter(logging.Handler):
    """Counts the bot's log records by level, and keeps the first distinct warnings."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.counts: Counter[str] = Counter()
        self.samples: list[str] = []
        self.rate_limit_retries = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.counts[record.levelname] += 1
        text = record.getMessage()
        if text.startswith("Rate limit hit"):
            # python-telegram-bot's AIORateLimiter, waiting out a 429 (all requests wait).
            self.rate_limit_retries += 1
        if record.levelno >= logging.WARNING:
            line = f"{record.levelname} {record.name}: {text}"[:300]
            if len(self.samples) < 10 and line not in self.samples:
                self.samples.append(line)


async def watch_stalls(longest: list[float]) -> None:
    """Sleep 10 ms over and over; the largest overshoot is the longest event-loop stall."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(STALL_TICK)
        longest[0] = max(longest[0], loop.time() - before - STALL_TICK)


def pools_cpu(people_pid: int | None) -> float:
    """CPU seconds so far of this process's children other than the people's (the computer
    players' pool, which also draws the pictures), read as for workers (bench/load_workers)."""
    return sum(
        sum(tree_cpu(child.pid))
        for child in multiprocessing.active_children()
        if child.pid is not None and child.pid != people_pid
    )


async def verify(store: Store, game_ids: Sequence[int], game: str) -> JsonDict:
    """Every finished game: of the run's kind, FINISHED in the store, its results' points equal
    to the scores its kind (the registry's, Gaple's or Gap's) replays from its stored config,
    deals and moves."""
    registry = default_registry()
    matched = 0
    problems: list[str] = []
    rounds = stored_moves = 0
    for game_id in game_ids:
        async with store.read() as tx:
            record = await tx.games.get(game_id)
            results = await tx.results.of_game(game_id)
        play = await store.load_play(game_id)
        scores = registry.get(play.kind).replay(play.config, play.rounds).scores
        rounds += len(play.rounds)
        stored_moves += sum(len(codes) for _, codes in play.rounds)
        points = [r.points for r in sorted(results, key=lambda r: r.seat)]
        if play.kind == game and record.status is GameStatus.FINISHED and points == list(scores):
            matched += 1
        elif len(problems) < 5:
            problems.append(
                f"game {game_id}: {play.kind} {record.status} results {points} replay {scores}"
            )
    return {
        "games_verified": matched,
        "verify_problems": problems,
        "rounds": rounds,
        "stored_moves": stored_moves,
    }


@contextlib.asynccontextmanager
async def database_for(database: str, folder: Path) -> AsyncIterator[tuple[str, int | None]]:
    """The URL of the run's empty database: an SQLite file in `folder`, or a database on a
    throwaway PostgreSQL server (tests/postgres.py) stopped when the run ends; and the
    server's main process id (None for SQLite). The bot migrates it as it starts."""
    if database == "sqlite":
        yield f"sqlite+aiosqlite:///{folder}/gaple.sqlite3", None
        return
    server = PostgresServer.start()
    try:
        name = await server.new_database(migrated=False)
        yield server.url(name), postmaster_pid(server.data)
    finally:
        server.stop()


def bot_environ(config: RunConfig, base_url: str, database_url: str) -> dict[str, str]:
    """The bot's settings for a run (the same in its own process and in each worker)."""
    return {
        "TELEGRAM_BOT_TOKEN": DEFAULT_TOKEN,
        "TELEGRAM_API_BASE_URL": base_url,
        "DATABASE_URL": database_url,
        "COMPUTER_PROCESSES": "1",
        # The figures are live play's: no finished game is analysed for its review meanwhile
        # (that analysis has its own benchmark, bench/review.py).
        "REVIEWS": "no",
        "GROUP_MESSAGES_PER_MINUTE": str(GROUP_BUDGET if config.limits else RAISED),
        # Off: a bot whose limits were raised, so only the CPU binds. Several workers
        # share one window of BOT_MESSAGES_PER_SECOND, as the supervisor's do.
        "BOT_MESSAGES_PER_SECOND": "30" if config.limits else str(RAISED),
        "PRIVATE_MESSAGES_PER_SECOND": "1" if config.limits else str(RAISED),
        "DEFAULT_TURN_SECONDS": str(TURN_SECONDS),
        # The next round is played at once: the break after a round's end is a pause, not
        # work, and the figures count work.
        "ROUND_BREAK_SECONDS": "0",
        "LOBBY_TIMEOUT_SECONDS": str(TURN_SECONDS),
        "LOG_LEVEL": "WARNING",
        # The bot's own web server (the page's, under polling) on this machine only.
        "WEBHOOK_LISTEN": "127.0.0.1",
        **(
            {
                "WEBAPP_URL": WEBAPP_URL,
                "WEBAPP_SHORT_NAME": WEBAPP_SHORT_NAME,
                "WEBAPP_PORT": str(free_port()),
            }
            if config.frontend == "webapp"
            else {}
        ),
    }


def database_cpu(server_pid: int | None) -> float:
    """CPU seconds of the PostgreSQL server's processes so far (0 for SQLite, whose work is
    the bot's own)."""
    if server_pid is None:
        return 0.0
    own, below = tree_cpu(server_pid)
    return own + below


@dataclass
class Measured:
    """What one run's bot side saw between "go" and the people's report."""

    people: JsonDict
    checked: JsonDict
    bot_cpu: float
    workers_cpu: float
    database_cpu: float
    rss_started_kb: int
    rss_peak_kb: int
    longest_stall: float | None
    load_after: float
    bot_log: dict[str, int]
    bot_log_samples: list[str]
    rate_limit_retries: int | None


async def wait_for_people(connection: Connection, config: RunConfig) -> JsonDict:
    """The people's report, once they are done (or the run's cap is past)."""
    loop = asyncio.get_running_loop()
    if not await loop.run_in_executor(None, connection.poll, config.seconds + GRACE_SECONDS):
        raise RuntimeError("the people never reported")
    people: JsonDict = connection.recv()
    return people


async def in_process(
    config: RunConfig,
    environ: dict[str, str],
    connection: Connection,
    server_pid: int | None,
    counter: LogCounter,
    people_pid: int | None,
) -> Measured:
    """The bot in this process, long polling: its CPU, memory and event-loop stalls."""
    loop = asyncio.get_running_loop()
    for attempt in range(1, PORT_TRIES + 1):
        settings = settings_from(environ)
        pages = None
        if settings.webapp:
            # As gaple_bot/__main__.py builds it from the settings.
            token = settings.telegram_bot_token
            pages = PageFrontEnd(
                SessionSigner.for_bot(token),
                bot_token=token,
                login_age=timedelta(seconds=settings.webapp_login_seconds),
                public_url=settings.webapp_url,
            )
        app = build_bot(settings, rng=random.Random(config.seed), pages=pages)
        try:
            await start_application(app)
            break
        except CannotListen:
            # The free port found a moment ago was taken meanwhile (by another process on
            # the machine, a test running beside this one): another one.
            with contextlib.suppress(Exception):
                await stop_application(app)
            if not settings.webapp or attempt == PORT_TRIES:
                raise
            environ = {**environ, "WEBAPP_PORT": str(free_port())}
    try:
        rss_started = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        longest = [0.0]
        watcher = loop.create_task(watch_stalls(longest))
        cpu_before = time.process_time()
        pools_before = pools_cpu(people_pid)
        database_before = database_cpu(server_pid)
        page_urls = [f"http://127.0.0.1:{settings.webapp_port}"] if pages is not None else []
        connection.send({"webhooks": [], "pages": page_urls})
        people = await wait_for_people(connection, config)
        bot_cpu = time.process_time() - cpu_before
        pools_used = pools_cpu(people_pid) - pools_before
        database_used = database_cpu(server_pid) - database_before
        load_after = os.getloadavg()[0]
        watcher.cancel()
        rss_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        checked = await verify(deps_of(app).service.store, people["game_ids"], config.game)
    finally:
        await stop_application(app)
    return Measured(
        people,
        checked,
        bot_cpu,
        pools_used,
        database_used,
        rss_started,
        rss_peak,
        longest[0],
        load_after,
        dict(counter.counts),
        counter.samples,
        counter.rate_limit_retries,
    )


async def as_workers(
    config: RunConfig,
    environ: dict[str, str],
    connection: Connection,
    server_pid: int | None,
    folder: Path,
) -> Measured:
    """The bot as `config.workers` webhook worker processes on one database: their CPU (and
    their computer players' pools'), their memory, their logs' warnings."""
    environ = {**environ, "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    if "PYTHONPATH" in os.environ:
        # The workers run the code this run measures (a worktree's, for a before-and-after).
        environ["PYTHONPATH"] = os.environ["PYTHONPATH"]
    workers = WorkerBots(config.workers, folder, environ)
    try:
        await workers.start(SETUP_SECONDS)
        rss_started = workers.rss_kb("VmRSS")
        own_before, pools_before = workers.cpu()
        database_before = database_cpu(server_pid)
        connection.send(
            {"webhooks": workers.urls(), "pages": [f"http://127.0.0.1:{p}" for p in workers.ports]}
        )
        people = await wait_for_people(connection, config)
        own_after, pools_after = workers.cpu()
        database_used = database_cpu(server_pid) - database_before
        load_after = os.getloadavg()[0]
        rss_peak = workers.rss_kb("VmHWM")
        stopped = workers.stopped_early()
        if stopped:
            people["table_errors"].append(f"workers {stopped} stopped during the run")
        store = Store.open(environ["DATABASE_URL"])
        try:
            checked = await verify(store, people["game_ids"], config.game)
        finally:
            await store.close()
    finally:
        codes = await workers.stop(SETUP_SECONDS)
    log_levels = workers.log_levels()
    if any(code != 0 for code in codes):
        log_levels["bad exit codes"] = sum(1 for code in codes if code != 0)
    return Measured(
        people,
        checked,
        own_after - own_before,
        pools_after - pools_before,
        database_used,
        rss_started,
        rss_peak,
        None,
        load_after,
        log_levels,
        workers.log_samples(),
        None,
    )


async def bot_side(config: RunConfig) -> JsonDict:
    """The run's main process: the bot, measured, against the child's fake."""
    loop = asyncio.get_running_loop()
    counter = LogCounter()
    root = logging.getLogger()
    root.addHandler(counter)
    root.setLevel(logging.WARNING)
    # Its 429 retries are logged at INFO: counted, like the rest, never printed.
    logging.getLogger("telegram.ext").setLevel(logging.INFO)
    context = multiprocessing.get_context("spawn")
    ours, theirs = context.Pipe()
    child = context.Process(target=child_main, args=(theirs, config), daemon=True)
    # Another job on the machine shows in every figure: the load average says how busy it was.
    load_before = os.getloadavg()[0]
    child.start()
    try:
        if not await loop.run_in_executor(None, ours.poll, SETUP_SECONDS):
            raise RuntimeError("the fake Bot API did not start")
        base_url = ours.recv()
        with tempfile.TemporaryDirectory(prefix="gaple-load-") as folder:
            async with database_for(config.database, Path(folder)) as (database_url, server):
                environ = bot_environ(config, base_url, database_url)
                if config.workers:
                    run = await as_workers(config, environ, ours, server, Path(folder))
                else:
                    run = await in_process(config, environ, ours, server, counter, child.pid)
        ours.send("stop")
    finally:
        child.join(30)
        if child.is_alive():
            child.terminate()
    people = run.people
    moves = max(int(people["human_moves"]), 1)
    live = max(int(people["most_games_at_once"]), 1)
    return {
        "config": asdict(config),
        **{k: v for k, v in people.items() if k != "game_ids"},
        **run.checked,
        "bot_cpu_seconds": round(run.bot_cpu, 2),
        "workers_cpu_seconds": round(run.workers_cpu, 2),
        "database_cpu_seconds": round(run.database_cpu, 2),
        "bot_cpu_ms_per_move": round(run.bot_cpu / moves * 1000, 2),
        "workers_cpu_ms_per_move": round(run.workers_cpu / moves * 1000, 2),
        "database_cpu_ms_per_move": round(run.database_cpu / moves * 1000, 2),
        "bot_rss_started_mb": round(run.rss_started_kb / 1024, 1),
        "bot_rss_peak_mb": round(run.rss_peak_kb / 1024, 1),
        "mb_per_live_game": round((run.rss_peak_kb - run.rss_started_kb) / 1024 / live, 3),
        "longest_stall_ms": (
            None if run.longest_stall is None else round(run.longest_stall * 1000, 1)
        ),
        "machine_load_average": [round(load_before, 2), round(run.load_after, 2)],
        "bot_log": run.bot_log,
        "bot_log_samples": run.bot_log_samples,
        "bot_rate_limit_retries": run.rate_limit_retries,
        "all_finished_and_verified": (
            people["games_finished"] == config.groups
            and run.checked["games_verified"] == config.groups
            and not people["table_errors"]
            and people["violations"] == 0
        ),
    }


def run_one(config: RunConfig) -> None:
    """`--one`: a single run in this process; its figures as one JSON line on stdout."""
    end_by_itself(config.seconds + 2 * GRACE_SECONDS)
    if not config.profile:
        result = asyncio.run(bot_side(config))
    else:
        profiler = cProfile.Profile()
        result = profiler.runcall(asyncio.run, bot_side(config))
        profiler.dump_stats(config.profile)
    print(json.dumps(result), flush=True)


# ============================================================================ the matrix


def run_in_subprocess(config: RunConfig) -> JsonDict:
    """One run as a process of its own, so its peak memory and CPU are its own."""
    command = [sys.executable, str(Path(__file__).resolve()), "--one", json.dumps(asdict(config))]
    try:
        done = subprocess.run(
            command,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=config.seconds + 3 * GRACE_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"config": asdict(config), "error": "the run did not end in time"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = done.stderr.strip().splitlines()[-5:]
        return {"config": asdict(config), "error": f"exit {done.returncode}: {tail}"}
    result: JsonDict = json.loads(lines[-1])
    return result


COLUMNS = (
    ("db", 10),
    ("workers", 7),
    ("N", 4),
    ("limits", 6),
    ("think", 9),
    ("level", 6),
    ("front", 6),
    ("game", 5),
    ("done", 7),
    ("answer ms p50/95/99", 20),
    ("p99 after opening", 17),
    ("mover ms p50/95/99", 19),
    ("next ms p50/95/99", 20),
    ("cnt/mv grp/prv", 15),
    ("429s", 5),
    ("tables/token", 12),
    ("max grp/min prv/s all/s", 23),
    ("cpu ms/mv bot/wrk/db", 20),
    ("MB/game", 7),
    ("stall ms", 8),
)


def row(result: JsonDict) -> str:
    """One line of the table for a run."""
    config = result["config"]
    workers = config.get("workers", 0)
    head = [
        config.get("database", "sqlite"),
        str(workers) if workers else "-",
        str(config["groups"]),
        "on" if config["limits"] else "off",
        config["think"],
        config["level"],
        config.get("frontend", "chat"),
        config.get("game", "gaple"),
    ]
    if "error" in result:
        cells = [*head, "ERROR " + str(result["error"])[:150]]
        return "  ".join(cells)

    def triple(figures: JsonDict) -> str:
        return "/".join(
            "-" if figures[k] is None else f"{figures[k]:.0f}" for k in ("p50", "p95", "p99")
        )

    rates = result["max_rates"]
    verified = "" if result["all_finished_and_verified"] else "!"
    cells = [
        *head,
        f"{result['games_verified']}/{config['groups']}{verified}",
        triple(result["tap_to_answer_ms"]),
        "-"
        if result["tap_to_answer_ms_after_opening"]["p99"] is None
        else f"{result['tap_to_answer_ms_after_opening']['p99']:.0f}",
        triple(result["tap_to_mover_view_ms"]),
        triple(result["tap_to_hand_ms"]),
        f"{result['counted_per_human_move']:.2f} {result['group_writes_per_human_move']:.2f}"
        f"/{result['private_writes_per_human_move']:.2f}",
        str(result["status_429"]),
        "-" if result["tables_per_token"] is None else f"{result['tables_per_token']:.0f}",
        f"{rates['group_per_minute']} {rates['private_per_second']} {rates['all_per_second']}",
        f"{result['bot_cpu_ms_per_move']:.1f}/{result['workers_cpu_ms_per_move']:.1f}"
        f"/{result['database_cpu_ms_per_move']:.1f}",
        f"{result['mb_per_live_game']:.2f}",
        "-" if result["longest_stall_ms"] is None else f"{result['longest_stall_ms']:.0f}",
    ]
    return "  ".join(cell.ljust(width) for cell, (_, width) in zip(cells, COLUMNS, strict=True))


def missed_chat_targets(result: JsonDict) -> list[str]:
    """The chat's targets a run with limits on and realistic think missed."""
    missed = []
    writes = result["counted_per_human_move"]
    if writes > CHAT_WRITES_PER_MOVE:
        missed.append(
            f"at most {CHAT_WRITES_PER_MOVE} counted writes per human move in chat "
            f"(measured {writes:.2f})"
        )
    group = result["group_writes_per_human_move"]
    if group > CHAT_GROUP_WRITES_PER_MOVE:
        missed.append(
            f"at most {CHAT_GROUP_WRITES_PER_MOVE} counted group writes per human move in chat "
            f"(measured {group:.2f})"
        )
    if result["status_429"]:
        missed.append(f"no 429 (measured {result['status_429']})")
    return missed


def missed_targets(result: JsonDict) -> list[str]:
    """The targets a run missed, each named (empty: it met every one it is judged on)."""
    if "error" in result or not result["all_finished_and_verified"]:
        return ["every game finished and verified, within the Bot API"]
    config = result["config"]
    if not (config["limits"] and config["think"] == "realistic"):
        return []
    if config.get("frontend", "chat") == "chat":
        return missed_chat_targets(result)
    missed = []
    writes = result["counted_per_human_move"]
    if writes > PAGE_TARGETS["writes_per_move"]:
        missed.append(
            f"at most {PAGE_TARGETS['writes_per_move']} counted writes per human move "
            f"in the page (measured {writes:.2f})"
        )
    p99 = result["tap_to_hand_ms"]["p99"]
    if p99 is None or p99 > PAGE_TARGETS["next_view_p99_ms"]:
        missed.append(
            f"the next person's view at p99 within {PAGE_TARGETS['next_view_p99_ms']:.0f} ms "
            f"at N={config['groups']} (measured {p99} ms)"
        )
    if result["status_429"]:
        missed.append(f"no 429 (measured {result['status_429']})")
    tables = result["tables_per_token"]
    if tables is None or tables < PAGE_TARGETS["tables_per_token"]:
        missed.append(
            f"one token carries {PAGE_TARGETS['tables_per_token']} busy tables or more at "
            f"{GLOBAL_PER_SECOND} messages a second (measured {tables})"
        )
    return missed


def header() -> str:
    return "  ".join(name.ljust(width) for name, width in COLUMNS)


def choices_of(raw: str, allowed: Sequence[str], both: Sequence[str] = ()) -> list[str]:
    """A comma list of allowed words ("both" meaning every one of `both`)."""
    words: list[str] = []
    for word in raw.split(","):
        word = word.strip()
        if word == "both" and both:
            words.extend(both)
        elif word in allowed:
            words.append(word)
        else:
            words_allowed = [*allowed, "both"] if both else list(allowed)
            raise argparse.ArgumentTypeError(f"{word!r} is not one of {', '.join(words_allowed)}")
    return list(dict.fromkeys(words))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Load benchmark of the bot through the Bot API (see the module docstring)."
    )
    parser.add_argument("--groups", default="10,50", help="comma list of N (default 10,50)")
    parser.add_argument("--limits", default="both", help="on, off or both (default both)")
    parser.add_argument("--think", default="fast", help="realistic, fast or both (default fast)")
    parser.add_argument("--level", default="normal", help="normal, hard or both (default normal)")
    parser.add_argument("--seconds", type=float, default=600.0, help="cap per run (default 600)")
    parser.add_argument("--seed", type=int, default=1, help="of the people's taps (default 1)")
    parser.add_argument(
        "--json", type=Path, default=Path("load.json"), help="where the figures go (load.json)"
    )
    parser.add_argument(
        "--profile", type=Path, help="a folder for cProfile files of each run's bot (it slows it)"
    )
    parser.add_argument(
        "--database", default="sqlite", help="sqlite, postgresql or both (default sqlite)"
    )
    parser.add_argument(
        "--workers",
        default="0",
        help="comma list: 0 runs the bot in the run's process (long polling), N as N webhook "
        "worker processes (more than one needs postgresql; default 0)",
    )
    parser.add_argument(
        "--frontend",
        default="chat",
        help="chat, webapp or both: where the people play (the private chats' buttons, or the "
        "table page over WebSockets; both: each run in each, side by side; default chat)",
    )
    parser.add_argument(
        "--game",
        default="gaple",
        help="gaple, gap or both: what every table plays (both: each run for each game, side "
        "by side; default gaple)",
    )
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: one run, JSON on stdout
    args = parser.parse_args(argv)
    if args.one:
        run_one(RunConfig(**json.loads(args.one)))
        return 0
    try:
        groups = [int(n) for n in args.groups.split(",")]
        limits = choices_of(args.limits, ("on", "off"), ("on", "off"))
        thinks = choices_of(args.think, ("realistic", "fast"), ("realistic", "fast"))
        levels = choices_of(args.level, ("normal", "hard"), ("normal", "hard"))
        databases = choices_of(args.database, ("sqlite", "postgresql"), ("sqlite", "postgresql"))
        frontends = choices_of(args.frontend, ("chat", "webapp"), ("chat", "webapp"))
        games = choices_of(args.game, GAMES, GAMES)
        worker_counts = list(dict.fromkeys(int(n) for n in args.workers.split(",")))
        if any(n < 0 for n in worker_counts):
            raise ValueError("--workers takes counts from 0 up")
    except (ValueError, argparse.ArgumentTypeError) as error:
        parser.error(str(error))
    if databases == ["sqlite"] and max(worker_counts) > 1:
        parser.error("several workers need --database postgresql (an SQLite file serves one)")

    def profile_file(n: int, limit: str, think: str, level: str, frontend: str, game: str) -> str:
        if args.profile is None:
            return ""
        args.profile.mkdir(parents=True, exist_ok=True)
        name = f"bot-{n}-{limit}-{think}-{level}-{frontend}-{game}.prof"
        return str(args.profile.resolve() / name)

    configs = [
        RunConfig(
            n,
            limit == "on",
            think,
            level,
            args.seconds,
            args.seed,
            profile_file(n, limit, think, level, frontend, game) if not workers else "",
            database,
            workers,
            frontend,
            game,
        )
        for database in databases
        for workers in worker_counts
        # An SQLite file serves one process: several workers are a PostgreSQL run only.
        if database == "postgresql" or workers <= 1
        for level in levels
        for think in thinks
        for limit in limits
        for n in groups
        # Chat and page runs of one configuration side by side, and innermost each game's.
        for frontend in frontends
        for game in games
    ]
    print(header(), flush=True)
    results: list[JsonDict] = []
    for config in configs:
        result = run_in_subprocess(config)
        results.append(result)
        print(row(result), flush=True)
        # Written after every run: a matrix stopped half way keeps what it measured.
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    missed: dict[str, list[str]] = defaultdict(list)
    for result in results:
        for target in missed_targets(result):
            missed[target].append(" ".join(row(result).split()[:8]))
    for target, names in missed.items():
        print(f"target missed ({target}): {', '.join(names)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
