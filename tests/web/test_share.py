"""Share over HTTP: a finished game's player, or a member who watched it, gets the standings
prepared as an inline message (the bot's part stood in for) and Telegram can fetch its
picture; everyone else, an unfinished game and a page with no bot are refused."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from PIL import Image

from gaple_bot.service.runtime import GameService
from gaple_bot.service.views import Person
from tests.clock import TestClock

from .kit import GROUP, JSON, PageServer, chat_move, init_data, open_group_table

ANA = Person(31, "Ana", "en")
CID = Person(33, "Cid", "de")
MAX_TURNS = 400


@dataclass
class StandInBot:
    """The bot's part of Share as the composition root gives it, recording each call."""

    clock: TestClock
    calls: list[dict[str, Any]] = field(default_factory=list)
    refuse: bool = False

    async def __call__(self, user_id: int, **result: Any) -> tuple[str, datetime] | None:
        self.calls.append({"user_id": user_id, **result})
        if self.refuse:
            return None
        return f"prepared-{len(self.calls)}", self.clock() + timedelta(minutes=10)


async def first_to(service: GameService, kind: str, points: int) -> None:
    """The group's games of `kind` end at `points` (one round when it is 1)."""
    await service.players.chat(GROUP, None)
    async with service.store.transaction() as tx:
        await tx.chats.set_option(GROUP, kind, "target", str(points))


async def sign_in(server: PageServer, person: Person, token: str, clock: TestClock) -> str:
    init = init_data(
        person.user_id, person.name, signed_at=clock(), language=person.telegram_language or "en"
    )
    status, answer = await server.sign_in(init, token)
    assert status == 200, answer
    return str(answer["session"])


async def play_to_the_end(server: PageServer, game_id: int) -> None:
    """Ana plays her turns in the chat, the computers theirs, until the game is over."""
    service = server.service
    for _ in range(MAX_TURNS):
        table = await service.commands.table(game_id)
        if table.winner is not None:
            return
        hand = await service.commands.hand(game_id, ANA.user_id)
        await chat_move(service, game_id, ANA.user_id, hand.version, hand.legal[0])
    raise AssertionError(f"no end after {MAX_TURNS} turns")


async def share(server: PageServer, body: JSON) -> tuple[int, JSON]:
    assert server.http is not None
    async with server.http.post(server.url("/app/api/share"), json=body) as answer:
        return answer.status, await answer.json()


async def fetch(server: PageServer, url: str) -> tuple[int, str, bytes]:
    """An address the bot gave Telegram, fetched from this test's server."""
    assert server.http is not None
    async with server.http.get(server.url(urlsplit(url).path)) as answer:
        return answer.status, answer.content_type, await answer.read()


async def test_a_player_and_a_watching_member_share_the_finished_games_standings(
    server: PageServer, clock: TestClock
) -> None:
    bot = StandInBot(clock)
    server.pages.share_through(bot)
    await first_to(server.service, "gaple", 1)
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group |= {ANA.user_id, CID.user_id}
    ana = await sign_in(server, ANA, token, clock)
    cid = await sign_in(server, CID, token, clock)
    await server.service.commands.start(game_id, ANA.user_id, False)

    # Not before the game is over.
    status, answer = await share(server, {"session": ana})
    assert (status, answer["reason"]) == (409, "not_over"), answer
    assert answer["text"] and not bot.calls

    await play_to_the_end(server, game_id)
    status, answer = await share(server, {"session": ana})
    assert status == 200, answer
    assert answer["id"] == "prepared-1" and answer["expires"] > clock().timestamp() * 1000
    (call,) = bot.calls
    assert call["user_id"] == ANA.user_id
    assert call["result_id"] == f"standings-{game_id}"
    assert "Ana" in call["caption"]

    # Telegram fetches the photo and its thumbnail: JPEG, the size the result says.
    status, content_type, photo = await fetch(server, call["photo_url"])
    assert (status, content_type) == (200, "image/jpeg")
    image = Image.open(io.BytesIO(photo))
    assert image.format == "JPEG" and image.size == (call["width"], call["height"])
    status, content_type, thumb = await fetch(server, call["thumbnail_url"])
    assert (status, content_type) == (200, "image/jpeg")
    assert Image.open(io.BytesIO(thumb)).width < image.width
    # An address the server did not make shows nothing.
    forged = call["photo_url"].replace(f"/{game_id}/", f"/{game_id + 1}/")
    assert (await fetch(server, forged))[0] == 404

    # Asked again, the message prepared before still has time: the same id, no new call.
    status, again = await share(server, {"session": ana})
    assert (status, again["id"]) == (200, "prepared-1") and len(bot.calls) == 1
    # Once it nears its expiry, a new one.
    clock.advance(timedelta(minutes=6).total_seconds())
    status, later = await share(server, {"session": ana})
    assert (status, later["id"]) == (200, "prepared-2") and len(bot.calls) == 2

    # Cid watched as a member: his own message, his picture in his language.
    status, answer = await share(server, {"session": cid})
    assert status == 200, answer
    assert bot.calls[-1]["user_id"] == CID.user_id and "/de/" in bot.calls[-1]["photo_url"]
    # Once he left the group, he is refused.
    server.members.of_group.discard(CID.user_id)
    status, answer = await share(server, {"session": cid})
    assert (status, answer["reason"]) == (403, "not_member"), answer


async def test_share_is_refused_without_a_good_session_or_a_bot_and_when_telegram_refuses(
    server: PageServer, clock: TestClock
) -> None:
    await first_to(server.service, "gaple", 1)
    game_id, token = await open_group_table(server.service, "gaple", ANA)
    server.members.of_group.add(ANA.user_id)
    ana = await sign_in(server, ANA, token, clock)
    await server.service.commands.start(game_id, ANA.user_id, False)
    await play_to_the_end(server, game_id)

    # No bot (local play): not available.
    status, answer = await share(server, {"session": ana})
    assert (status, answer["reason"]) == (501, "no_share"), answer

    bot = StandInBot(clock, refuse=True)
    server.pages.share_through(bot)
    for body in ({}, {"session": 7}, {"session": ana[:-2] + "00"}, {"session": "x.y"}):
        status, answer = await share(server, body)
        assert (status, answer["reason"]) == (403, "session"), (body, answer)
    assert not bot.calls
    # Telegram refused: said so, and tried again next time.
    status, answer = await share(server, {"session": ana})
    assert (status, answer["reason"]) == (502, "share_failed"), answer
    bot.refuse = False
    status, answer = await share(server, {"session": ana})
    assert status == 200 and len(bot.calls) == 2


async def test_a_local_table_offers_no_share(server: PageServer) -> None:
    opened = await server.open_local("gap")
    status, answer = await share(server, {"session": opened["session"]})
    assert (status, answer["reason"]) == (501, "no_share"), answer
