"""The Open table button of the real bot, against the fake Bot API: the group's lobby and table
carry a direct link to the Mini App with the game's token, the private hand the app itself, and
the page that link opens lets a member with no private chat join and play a whole game beside a
chat player, each seeing the other's moves."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import socket
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from gaple_bot.bot.deps import GapleApplication
from gaple_bot.bot.pacing.table_pace import PAGE_TABLE_EDIT_SECONDS
from gaple_bot.service.runtime import GameService
from gaple_bot.settings import settings_from
from gaple_bot.store import GameStatus
from gaple_bot.web.app import PageFrontEnd
from tests.bot.driver import Player
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, lobby_message, running_bot
from tests.fakes.telegram_server import (
    DEFAULT_BOT_USERNAME,
    FakeMessage,
    FakeTelegram,
    running_fake,
)

from .kit import Page, first_move, init_data
from .leaks import scan

ANA, BEA, CID = 701, 702, 703
PAGE_URL = "https://games.example.org"
SHORT_NAME = "table"
OPEN_TABLE = "🎲 Open table"
PACE = 0.25
"""Seconds between Bea's taps, within the page's frames a second."""
GAME_SECONDS = 540.0
"""Generous: a whole game with two computers takes about 25 s alone, but the chat's pacing
and the computers share two cores with the rest of the suite; the wait ends as soon as the
game does."""
pytestmark = pytest.mark.timeout(GAME_SECONDS + 60)
"""Each test may outlast the suite's 300 s default by as much as its whole game's wait."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def bot_with_page(
    fake: FakeTelegram, database: Path
) -> AsyncIterator[tuple[GapleApplication, str]]:
    """The bot with the table page set up as the README says (WEBAPP_URL, WEBAPP_SHORT_NAME),
    its page served under long polling on WEBAPP_PORT; yields the bot and the page's origin
    on 127.0.0.1."""
    port = free_port()
    values = {
        "WEBAPP_URL": PAGE_URL,
        "WEBAPP_SHORT_NAME": SHORT_NAME,
        "WEBAPP_PORT": str(port),
        "WEBHOOK_LISTEN": "127.0.0.1",
        "DEFAULT_TURN_SECONDS": "3600",
    }
    settings = settings_from({"TELEGRAM_BOT_TOKEN": fake.token, **values})
    async with running_bot(fake, database, pages=PageFrontEnd.for_bot(settings), **values) as app:
        yield app, f"http://127.0.0.1:{port}"


class Opened(NamedTuple):
    """A table Ana opened with /gaple in the group, the bot serving its page."""

    fake: FakeTelegram
    service: GameService
    origin: str
    """The page's server, on 127.0.0.1."""
    http: aiohttp.ClientSession
    lobby: FakeMessage
    token: str
    """The table's token, read from the lobby's Open table button."""


@asynccontextmanager
async def ana_opens_a_table(tmp_path: Path) -> AsyncIterator[Opened]:
    """Ana (an admin with a private chat), Bea (who never opened one) and Cid in the group;
    the bot set up for the page; Ana types /gaple."""
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BEA, "Bea", language_code="en", started=False)
        fake.add_user(CID, "Cid", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BEA, CID))
        async with (
            bot_with_page(fake, tmp_path / "gaple.sqlite3") as (app, origin),
            aiohttp.ClientSession() as http,
        ):
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake)
            token = token_of(open_table_url(lobby))
            yield Opened(fake, deps_of(app).service, origin, http, lobby, token)


def open_table_url(message: FakeMessage) -> str:
    """The URL of a group message's Open table button."""
    urls = [url for text, url in message.buttons() if text == OPEN_TABLE]
    assert len(urls) == 1 and urls[0] is not None, message.buttons()
    return urls[0]


def token_of(url: str) -> str:
    """The table's token in a direct link, after checking the link's shape."""
    parts = urlsplit(url)
    assert (parts.scheme, parts.netloc, parts.path) == (
        "https",
        "t.me",
        f"/{DEFAULT_BOT_USERNAME}/{SHORT_NAME}",
    ), url
    (token,) = parse_qs(parts.query)["startapp"]
    return token


def web_app_urls(message: FakeMessage) -> list[str]:
    """The web_app buttons' addresses of a message as last shown."""
    markup: Any = message.reply_markup or {}
    return [
        button["web_app"]["url"]
        for row in markup.get("inline_keyboard", [])
        for button in row
        if "web_app" in button
    ]


async def sign_in(
    http: aiohttp.ClientSession, origin: str, fake: FakeTelegram, user: int, table: str
) -> tuple[int, Any]:
    """What the page does inside Telegram: initData signed for the fake's bot, with the
    direct link's start parameter."""
    init = init_data(user, fake.users[user].first_name, token=fake.token, start=table)
    async with http.post(f"{origin}/app/api/session", json={"init_data": init}) as answer:
        return answer.status, await answer.json()


async def open_page(http: aiohttp.ClientSession, origin: str, session: str) -> Page:
    """A socket from the page at its public address (as Telegram's webview sends it)."""
    ws = await http.ws_connect(f"{origin}/app/ws", origin=PAGE_URL)
    page = Page(ws)
    await page.send({"t": "hello", "session": session})
    await page.next("welcome")
    return page


def newest_state(page: Page) -> dict[str, Any] | None:
    states = [f for f in page.frames if f.get("t") == "state"]
    return states[-1] if states else None


async def game_over(service: GameService, game_id: int) -> bool:
    async with service.store.read() as tx:
        return (await tx.games.get(game_id)).status is GameStatus.FINISHED


async def play_page_turn(service: GameService, game_id: int, seat: int, page: Page) -> bool:
    """The page's player makes the first move their newest state offers, if it is their
    turn there; whether they did."""
    state = newest_state(page)
    move = None if state is None else first_move(state)
    if state is None or move is None or state["to_move"] != seat:
        return False
    await scan(service, game_id, state)
    # A person's pace: the page refuses a flood of frames.
    await asyncio.sleep(PACE)
    await page.send({"t": "move", "version": move[0], "code": move[1]})
    await page.next("state", lambda f, v=move[0]: f["revision"] > v or f["phase"] != "playing")
    return True


async def play_to_the_end(
    service: GameService,
    game_id: int,
    pages: dict[int, Page],
    chat: list[Player],
    hand_buttons: set[str],
) -> tuple[int, int]:
    """The people play the game out, each where they are (a seat's page, or their private
    chat: the web_app buttons of their hands are gathered in `hand_buttons`); returns the
    moves made in the page and in chat."""
    rng = random.Random(5)
    page_moves = chat_moves = 0
    deadline = time.monotonic() + GAME_SECONDS
    while not await game_over(service, game_id):
        assert time.monotonic() < deadline, "the game did not end in time"
        moved = False
        for player in chat:
            turn = player.turn()
            if turn is not None:
                hand_buttons.update(web_app_urls(turn))
                await player.play_turn(rng)
                chat_moves += 1
                moved = True
        for seat, page in pages.items():
            if await play_page_turn(service, game_id, seat, page):
                page_moves += 1
                moved = True
        if not moved:
            await asyncio.sleep(0.02)
    return page_moves, chat_moves


async def test_open_table_opens_the_page_where_a_member_joins_and_plays_beside_chat(
    tmp_path: Path,
) -> None:
    async with ana_opens_a_table(tmp_path) as (fake, service, origin, http, lobby, token):
        # The link's page: the bot's own server serves it, with Telegram's script.
        async with http.get(f"{origin}/app") as answer:
            assert answer.status == 200
            assert "Content-Security-Policy" in answer.headers
            assert "https://telegram.org/js/telegram-web-app.js" in await answer.text()

        # Bea never opened a private chat: she joins from the page.
        status, answer = await sign_in(http, origin, fake, BEA, token)
        assert status == 200, answer
        bea = await open_page(http, origin, answer["session"])
        assert (await bea.next("state"))["phase"] == "lobby"
        await bea.send({"t": "join"})
        await bea.next("state", lambda f: f["lobby"] is not None and f["lobby"]["can_leave"])
        await fake.wait_idle()
        assert "Bea" in fake.message(GROUP, lobby.message_id).text, "the lobby shows Bea"
        # Cid watches.
        status, answer = await sign_in(http, origin, fake, CID, token)
        assert status == 200, answer
        cid = await open_page(http, origin, answer["session"])

        query = await fake.press_button(ANA, GROUP, lobby.message_id, "▶️ Start")
        await fake.wait_callback_answer(query)
        await fake.wait_idle()
        game_id = await service.active_game(GROUP, None)
        assert game_id is not None
        bea_seat = (await bea.next("state", lambda f: f["phase"] == "playing"))["you"]["seat"]
        assert bea_seat == 1

        ana = Player(fake, ANA)
        hand_buttons: set[str] = set()
        page_moves, chat_moves = await play_to_the_end(
            service, game_id, {bea_seat: bea}, [ana], hand_buttons
        )
        await fake.wait_idle()
        assert page_moves > 0 and chat_moves > 0

        # The private hand carried the app itself, at this table.
        assert hand_buttons == {f"{PAGE_URL}/app?table={token}"}
        # The group saw the page's moves: its table message was edited to the end. The page's
        # last move is presented after it is stored, outside any update the fake waits for.
        await fake.wait_for(
            lambda: any("wins the game" in text for text in fake.all_texts_sent_to(GROUP)),
            message="the group's table never showed the game's end",
        )
        # Telegram refuses web_app buttons in groups: the group only ever got links.
        for message in fake.bot_messages(GROUP):
            assert web_app_urls(message) == [], message.text
        # Bea, playing in the page, was never written to in private.
        assert fake.bot_messages(BEA) == []
        # Every frame each page received held its viewer's own hand at most.
        # The game's end may have come while the page was playing (its own last move).
        last = await bea.first("state", lambda f: f["phase"] == "over")
        assert last["winner"] is not None
        watched = await cid.first("state", lambda f: f["phase"] == "over")
        assert watched["hand"] is None
        assert all(f.get("hand") is None for f in cid.frames if f.get("t") == "state")
        # Over: the link opens nothing any more.
        status, answer = await sign_in(http, origin, fake, CID, token)
        assert status == 410 or status == 404, (status, answer)
        await bea.close()
        await cid.close()


def table_edits(fake: FakeTelegram, game_message_ids: set[int]) -> list[tuple[float, str]]:
    """(time, text) of every accepted edit of the game's table messages in the group."""
    return [
        (r.time, str(r.params.get("text", "")))
        for r in fake.requests
        if r.method == "editMessageText"
        and r.chat_id == GROUP
        and r.status == 200
        and int(r.params["message_id"]) in game_message_ids
    ]


async def test_everyone_in_the_page_spares_chat_the_hands_and_most_table_edits(
    tmp_path: Path,
) -> None:
    """Ana opens the table in chat and plays in the page, as Bea does: neither gets a private
    hand while the page is open; the group sees each round's end at once (its picture) and
    one message for the game (the lobby, then the table), edited at most every
    PAGE_TABLE_EDIT_SECONDS."""
    async with ana_opens_a_table(tmp_path) as (fake, service, origin, http, _lobby, token):
        pages: dict[int, Page] = {}
        for user in (ANA, BEA):
            status, answer = await sign_in(http, origin, fake, user, token)
            assert status == 200, answer
            pages[user] = await open_page(http, origin, answer["session"])
            await pages[user].next("state")
        await pages[BEA].send({"t": "join"})
        await pages[BEA].next("state", lambda f: len(f["seats"]) == 2)
        await pages[ANA].send({"t": "start"})
        seats = {}
        for page in pages.values():
            state = await page.next("state", lambda f: f["phase"] == "playing")
            seats[state["you"]["seat"]] = page
        game_id = await service.active_game(GROUP, None)
        assert game_id is not None
        private_before = len(fake.bot_messages(ANA))

        page_moves, _ = await play_to_the_end(service, game_id, seats, [], set())
        await fake.wait_idle()
        assert page_moves > 0

        assert len(fake.bot_messages(ANA)) == private_before, "a hand went to Ana's chat"
        assert fake.bot_messages(BEA) == []
        tables = [
            m.message_id for m in fake.bot_messages(GROUP) if m.text.startswith("Gaple · round")
        ]
        # One message for the whole game: the lobby became the table, and nobody needs each
        # round's table at the bottom of the chat.
        assert len(tables) == 1, tables
        sent = [r for r in fake.requests_for("sendMessage") if r.chat_id == GROUP]
        assert len(sent) == 1 and sent[0].params["text"].startswith("<b>Gaple</b> · classic")
        # Every round's end reached the group at once, as its picture (and the game's end).
        rounds = (await pages[ANA].first("state", lambda f: f["phase"] == "over"))["round"]

        def pictures() -> int:
            return sum(r.chat_id == GROUP for r in fake.requests_for("sendPhoto"))

        # Drawn in turn, the pictures may still be on their way on a busy machine.
        await fake.wait_for(
            lambda: pictures() >= rounds + 1, timeout=120, message="pictures missing"
        )
        await fake.wait_idle()
        assert pictures() == rounds + 1, (pictures(), rounds)
        assert any("wins the game" in text for text in fake.all_texts_sent_to(GROUP))
        # The table's edits come at most every PAGE_TABLE_EDIT_SECONDS, but for the last
        # one, sent at the game's end with the last round's end on it.
        edits = [
            (at, text)
            for at, text in table_edits(fake, set(tables))
            if text.startswith("<b>Gaple</b> · round")
        ]
        assert edits and "This round is over." in edits[-1][1]
        paced = [at for at, _text in edits[:-1]]
        gaps = [later - earlier for earlier, later in itertools.pairwise(paced)]
        assert all(gap >= PAGE_TABLE_EDIT_SECONDS * 0.9 for gap in gaps), gaps
        assert len(edits) < page_moves / 2, (len(edits), page_moves)


async def test_a_page_player_who_closed_the_page_keeps_their_seat_and_plays_on_when_back(
    tmp_path: Path,
) -> None:
    """Bea has no private chat: with her page closed, the hand the bot tries to send her
    cannot arrive, which is no reason to give her seat to the computer (her turn's timer
    decides, as for everyone); she opens the page again and plays."""
    async with ana_opens_a_table(tmp_path) as (fake, service, origin, http, lobby, token):
        status, answer = await sign_in(http, origin, fake, BEA, token)
        assert status == 200, answer
        bea = await open_page(http, origin, answer["session"])
        await bea.send({"t": "join"})
        await bea.next("state", lambda f: len(f["seats"]) == 2)
        await bea.close()
        query = await fake.press_button(ANA, GROUP, lobby.message_id, "▶️ Start")
        await fake.wait_callback_answer(query)
        game_id = await service.active_game(GROUP, None)
        assert game_id is not None
        ana = Player(fake, ANA)

        def tried_bea() -> bool:
            return any(
                r.method == "sendMessage" and r.chat_id == BEA
                for r in fake.requests_for("sendMessage")
            )

        rng = random.Random(3)
        deadline = time.monotonic() + GAME_SECONDS
        while not tried_bea():
            assert time.monotonic() < deadline, "Bea's turn never came"
            if ana.turn() is not None:
                await ana.play_turn(rng)
            await asyncio.sleep(0.02)
        await fake.wait_idle()
        seat = (await service.commands.facts(game_id)).seat_of(BEA)
        assert seat is not None and not seat.autoplay, "Bea's seat went to the computer"
        assert not any("computer" in text for text in fake.all_texts_sent_to(GROUP)[-3:])
        # Back in the page: her turn is there, with her moves.
        status, answer = await sign_in(http, origin, fake, BEA, token)
        assert status == 200, answer
        bea = await open_page(http, origin, answer["session"])
        state = await bea.next("state")
        assert state["to_move"] == seat.number and first_move(state) is not None
        assert await play_page_turn(service, game_id, seat.number, bea)
        await bea.close()


async def test_without_the_page_s_settings_no_button_appears(tmp_path: Path) -> None:
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,))
        async with running_bot(fake, tmp_path / "gaple.sqlite3"):
            await fake.start_private(ANA)
            await fake.send_message(ANA, GROUP, "/gaple")
            await fake.wait_idle()
            lobby = lobby_message(fake)
            assert OPEN_TABLE not in lobby.button_texts()
            assert json.dumps(lobby.reply_markup).count("web_app") == 0
