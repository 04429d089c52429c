"""bench/load.py's people in the table page: initData sign-in, a WebSocket each, moves as frames."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp

from gaple_bot.bot.render.game_messages import JOIN_PREFIX
from gaple_bot.web.initdata import sign
from gaple_bot.web.limits import BURST, PER_SECOND, FrameBucket

JsonDict = dict[str, Any]
WAIT_SECONDS = 120.0
"""How long a sign-in, a lobby step or the answer to a move may take before it is given up."""
OPEN_TABLE = "open table button"
JOIN_LINK = "join link"


class Seated(Protocol):
    """The run's table a page person sits at (bench/load.py's Table)."""

    index: int
    game_id: int | None
    started_at: float | None
    finished_at: float | None
    moves: int
    error: str | None
    hand_due_since: float | None


def table_token(buttons: Iterable[tuple[str, str | None]]) -> tuple[str, str] | None:
    """(token, where it came from) of a group message's buttons: the Open table button's
    startapp parameter, else the lobby's one-tap join link (the same token); None if neither."""
    fallback = None
    for _, target in buttons:
        if not target or not target.startswith("https://t.me/"):
            continue
        query = parse_qs(urlsplit(target).query)
        if query.get("startapp"):
            return query["startapp"][0], OPEN_TABLE
        start = query.get("start", [""])[0]
        if start.startswith(JOIN_PREFIX) and fallback is None:
            fallback = (start[len(JOIN_PREFIX) :], JOIN_LINK)
    return fallback


def init_data(user_id: int, name: str, bot_token: str, start: str) -> str:
    """initData as Telegram hands the Mini App of the bot with `bot_token`."""
    fields = {
        "auth_date": str(int(time.time())),
        "query_id": f"AAload{user_id}",
        "user": json.dumps(
            {"id": user_id, "first_name": name, "language_code": "en"}, separators=(",", ":")
        ),
        "start_param": start,
    }
    fields["hash"] = sign(fields, bot_token)
    return urlencode(fields)


def my_turn(state: JsonDict) -> bool:
    """The viewer is to move now, with moves in their hand."""
    you = state.get("you") or {}
    hand = state.get("hand") or {}
    return (
        state.get("phase") == "playing"
        and you.get("seat") is not None
        and state.get("to_move") == you["seat"]
        and any(item.get("moves") for item in hand.get("items", []))
    )


@dataclass(eq=False)
class PagePerson:
    """One person's open page: their socket, the latest state it showed, their pending tap."""

    user_id: int
    name: str
    rng: random.Random
    table: Seated
    session: str = ""
    ws: aiohttp.ClientWebSocketResponse | None = None
    state: JsonDict | None = None
    refusals: int = 0
    tapped_at: float | None = None
    tapped_revision: int | None = None
    """The revision the pending move was made at, until the page shows a newer one."""
    tapped_among_several: bool = False
    """Whether the pending move was chosen among several of one item (a second step)."""
    counted_view: float | None = None
    """The tap-to-view time of the move counted last, until the person taps again: a refusal
    arriving after it (a newer state came first) takes the move and its time back."""
    played_revision: int = -1
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    bucket: FrameBucket = field(
        default_factory=lambda: FrameBucket(time.monotonic, BURST - 2, PER_SECOND * 0.9)
    )
    """The server's flood allowance, mirrored with room to spare: a person never taps faster
    than it lets them, even when the frames reach it closer together than they left (a loaded
    machine delays some and then delivers them at once)."""


class PagePeople:
    """Every page person of a run: they sign in, join and start from the page, then play."""

    def __init__(
        self,
        urls: Sequence[str],
        bot_token: str,
        think: Callable[[random.Random, bool], float],
        on_finished: Callable[[Seated], None],
    ) -> None:
        self.urls = list(urls)
        """The bot's web servers (one per worker); table i uses urls[i % len]."""
        self.bot_token = bot_token
        self.think = think
        """Seconds to look at the hand (False) or to choose among a tile's ends (True)."""
        self.on_finished = on_finished
        self.mover_view: list[float] = []
        """Tap (the move's frame sent) -> the mover's own state at a newer revision, seconds."""
        self.next_view: list[float] = []
        """Tap -> the state that shows the next person to move (whoever) their turn."""
        self.refused: list[str] = []
        self.second_steps = 0
        """Moves chosen among several of one item (Gaple's ends of a tile, Gap's takes)."""
        self.frames_received = 0
        self.stopping = False
        self._due: dict[int, int] = {}
        """The revision of each table's last tap, until the next person sees their turn."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._people: list[PagePerson] = []
        self._http: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        # Every socket holds a connection: no cap on them (aiohttp's default is 100).
        self._http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0))

    async def stop(self) -> None:
        self.stopping = True
        for task in list(self._tasks):
            task.cancel()
        for person in self._people:
            if person.ws is not None:
                with contextlib.suppress(Exception):
                    await person.ws.close()
        if self._http is not None:
            await self._http.close()

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ seating

    async def seat(
        self, table: Seated, people: Sequence[tuple[int, str, random.Random]], token: str
    ) -> None:
        """The opener (first, seated by /gaple or /gap) and the others open the page with the
        table's token; the others join there, the opener starts there; then everyone plays."""
        base = self.urls[table.index % len(self.urls)]
        persons = [PagePerson(uid, name, rng, table) for uid, name, rng in people]
        self._people.extend(persons)
        for person in persons:
            await self._sign_in(base, person, token)
            await self._connect(base, person)
        opener, *others = persons
        for person in others:
            await self._send(person, {"t": "join"})
            await self._until_seated(person)
        everyone = len(persons)
        await self._until(
            opener,
            lambda: (
                _lobby(opener.state).get("can_start", False)
                and len((opener.state or {}).get("seats", [])) == everyone
            ),
        )
        await self._send(opener, {"t": "start"})
        await self._until(opener, lambda: (opener.state or {}).get("phase") != "lobby")
        table.started_at = time.monotonic()
        for person in persons:
            self._spawn(self._play(person))

    async def _sign_in(self, base: str, person: PagePerson, token: str) -> None:
        assert self._http is not None
        body = {"init_data": init_data(person.user_id, person.name, self.bot_token, token)}
        body["table"] = token
        async with self._http.post(base + "/app/api/session", json=body) as answer:
            signed = await answer.json()
            if answer.status != 200:
                raise RuntimeError(f"sign-in refused: {answer.status} {signed}")
        person.session = str(signed["session"])

    async def _connect(self, base: str, person: PagePerson) -> None:
        assert self._http is not None
        person.ws = await self._http.ws_connect(base + "/app/ws", origin=base)
        # The hello counts against the server's allowance too.
        await self._send(person, {"t": "hello", "session": person.session})
        self._spawn(self._read(person))
        await self._until(person, lambda: person.state is not None)

    async def _send(self, person: PagePerson, frame: JsonDict) -> None:
        assert person.ws is not None
        while not person.bucket.take():  # noqa: ASYNC110 (a bucket refills with time)
            await asyncio.sleep(1 / PER_SECOND)
        if frame.get("t") == "move":
            # The tap: both views are timed from here.
            now = time.monotonic()
            person.tapped_at, person.tapped_revision = now, int(frame["version"])
            person.counted_view = None
            person.table.hand_due_since = now
            self._due[person.table.index] = int(frame["version"])
        await person.ws.send_str(json.dumps(frame))

    async def _until_seated(self, person: PagePerson) -> None:
        await self._until(person, lambda: _seated(person.state))

    async def _until(self, person: PagePerson, ready: Callable[[], bool]) -> None:
        async with asyncio.timeout(WAIT_SECONDS):
            while not ready():
                if person.ws is None or person.ws.closed:
                    raise RuntimeError("the page's socket closed")
                person.changed.clear()
                await person.changed.wait()

    # ------------------------------------------------------------------ what the page shows

    async def _read(self, person: PagePerson) -> None:
        assert person.ws is not None
        async for message in person.ws:
            if message.type is aiohttp.WSMsgType.TEXT:
                now = time.monotonic()
                self.frames_received += 1
                self._on_frame(person, json.loads(message.data), now)
        person.changed.set()

    def _on_frame(self, person: PagePerson, frame: JsonDict, now: float) -> None:
        table = person.table
        kind = frame.get("t")
        if kind == "welcome":
            person.session = str(frame["session"])
            table.game_id = int(frame["game_id"])
        elif kind == "refused":
            person.refusals += 1
            if len(self.refused) < 1000:
                self.refused.append(f"{frame.get('reason')}: {frame.get('text', '')}"[:120])
            if person.tapped_at is None and person.counted_view is not None:
                # The refused move had been counted on a newer state that came before it.
                self.mover_view.remove(person.counted_view)
                table.moves -= 1
                self.second_steps -= person.tapped_among_several
                person.counted_view = None
                person.played_revision = -1
            if person.tapped_at is not None:
                person.tapped_at = person.tapped_revision = None
                table.hand_due_since = None
                # A refused tap leaves the turn where it was: the person taps again, as one
                # would (a flood refusal comes when the frames reach the server closer together
                # than they were sent, on a loaded machine).
                person.played_revision = -1
        elif kind == "state":
            person.state = frame
            revision = int(frame.get("revision") or 0)
            if person.tapped_at is not None and revision > (person.tapped_revision or 0):
                # The move is counted with its view, in one step: the frame that ends the last
                # game also ends the run, which may report before the person's task resumes.
                person.counted_view = now - person.tapped_at
                self.mover_view.append(person.counted_view)
                person.tapped_at = person.tapped_revision = None
                table.moves += 1
                self.second_steps += person.tapped_among_several
            due = self._due.get(table.index)
            if (
                table.hand_due_since is not None
                and due is not None
                and revision > due
                and my_turn(frame)
            ):
                self.next_view.append(now - table.hand_due_since)
                table.hand_due_since = None
            if frame.get("phase") in ("over", "aborted") and table.finished_at is None:
                table.hand_due_since = None
                if frame["phase"] == "over" and table.started_at is not None:
                    self.on_finished(table)
                elif table.error is None:
                    table.error = "the page says the game was stopped"
        person.changed.set()

    # ------------------------------------------------------------------ playing

    async def _play(self, person: PagePerson) -> None:
        """Look at the hand a while, tap a random legal move (a random end when the tile fits
        both, after a while more), wait until the page shows it; until the game ends."""
        table = person.table
        try:
            while not self.stopping:
                await self._until(person, lambda: _over(person.state) or _fresh_turn(person))
                if _over(person.state):
                    return
                await asyncio.sleep(self.think(person.rng, False))
                state = person.state or {}
                if self.stopping or not _fresh_turn(person):
                    continue
                items = [item for item in state["hand"]["items"] if item.get("moves")]
                moves = person.rng.choice(items)["moves"]
                if len(moves) > 1:
                    await asyncio.sleep(self.think(person.rng, True))
                move = person.rng.choice(moves)
                revision = int(state["revision"])
                person.played_revision = revision
                person.tapped_among_several = len(moves) > 1
                await self._send(person, {"t": "move", "version": revision, "code": move["code"]})
                await self._until(person, lambda: person.tapped_at is None)
        except Exception as error:  # reported with the run: a person left stuck is a finding
            if not self.stopping and table.error is None:
                table.error = f"page play: {error!r}"
        finally:
            if person.ws is not None and not self.stopping:
                await person.ws.close()


def _lobby(state: JsonDict | None) -> JsonDict:
    return (state or {}).get("lobby") or {}


def _seated(state: JsonDict | None) -> bool:
    return bool(_lobby(state).get("can_leave"))


def _over(state: JsonDict | None) -> bool:
    return (state or {}).get("phase") in ("over", "aborted")


def _fresh_turn(person: PagePerson) -> bool:
    state = person.state
    return state is not None and my_turn(state) and int(state["revision"]) > person.played_revision
