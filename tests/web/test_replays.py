"""A finished game's replay over HTTP: signed in as for a live table (members only), with its
own token and sessions (neither opens the live table, nor the live table's a replay), rounds
that are over only, nothing hidden in them, and the review once it is ready."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from gaple_bot.games.gap.board import GapHand
from gaple_bot.games.gap.present.page import card_label
from gaple_bot.games.gap.rules import COLOUR, VALUE
from gaple_bot.games.gap.rules.cards import COLOURS
from gaple_bot.games.gaple.board import GapleHand
from gaple_bot.games.gaple.present.page import tile_label
from gaple_bot.games.gaple.rules import Side, play, tile_id
from gaple_bot.games.gaple.rules.tiles import HIGH, LOW
from gaple_bot.games.registry import default_registry
from gaple_bot.games.texts import former_player_name
from gaple_bot.i18n import Translators
from gaple_bot.service.views import Person
from gaple_bot.web.local import LOCAL_PLAYER
from gaple_bot.web.replay_texts import MARKS, replay_refusal, replay_texts
from gaple_bot.web.replays import START_PREFIX
from tests.clock import TestClock

from .conftest import sqlite_url
from .kit import GROUP, JSON, PageServer, chat_move, local_play_server, open_group_table
from .leaks import _shapes
from .replay_kit import (
    ANA,
    finished_game,
    first_to,
    member_init,
    play_out,
    post,
    review_of,
    store_review,
)

CID = Person(33, "Cid", "de")
REVIEW_WAIT = 300.0
"""Seconds the real analysis is given (generous: the machine may be loaded)."""


async def open_replay(server: PageServer, person: Person, start: str, **body: Any) -> JSON:
    init = member_init(person, start, server)
    status, answer = await post(server, "/app/api/replay", {"init_data": init, **body})
    assert status == 200, answer
    return dict(answer)


@pytest.mark.parametrize(("kind", "seats"), [("gaple", 3), ("gaple", 4), ("gap", 4)])
async def test_a_member_replays_every_round_and_nothing_hidden_shows(
    server: PageServer, kind: str, seats: int
) -> None:
    """Gaple at three seats sets tiles aside that nobody ever sees; Gap keeps a pile."""
    game_id, _, replay = await finished_game(server, kind, seats)
    assert len(replay) == 22
    opened = await open_replay(server, ANA, START_PREFIX + replay)
    history = await server.service.reviews.history(game_id)
    assert opened["kind"] == kind and opened["game_id"] == game_id
    assert opened["script"] == f"/app/games/{kind}.js"
    assert opened["texts"]["play"] == "Play" and opened["texts"]["mark_blunder"] == "Blunder"
    assert [r["round"] for r in opened["rounds"]] == list(range(1, len(history) + 1))
    assert opened["review"] is None, "no review was stored yet"
    (ana,) = [seat for seat in opened["seats"] if seat["you"]]
    assert ana["name"] == "Ana"
    assert opened["seats"][0]["score"] == opened["rounds"][-1]["totals"][0]

    session = opened["session"]
    for number, (deal, codes) in enumerate(history, start=1):
        status, frames = await post(
            server, "/app/api/replay/round", {"session": session, "round": number}
        )
        assert status == 200, frames
        positions = frames["positions"]
        assert [p["ply"] for p in positions] == list(range(len(codes) + 1))
        assert [p["move"]["code"] for p in positions[1:]] == codes
        assert all(p["move"]["label"] for p in positions[1:])
        assert frames["reveal"]["totals"] == frames["totals"]
        assert frames["last"] is (number == len(history))
        hidden = _hidden_items(kind, deal)
        assert hidden or (kind, seats) == ("gaple", 4), "something stays hidden"
        for position in positions:
            assert len(position["hands"]) == len(opened["seats"])
            shown = {shape for key in ("board", "hands") for shape in _shapes(position[key], kind)}
            drawn = _drawn_from_pile(kind, deal, position)
            # Nor is one named in words: as the bot writes it, or as a screen reader says it.
            words = "\n".join(_strings(position))
            named = [text for text in _unseen_texts(kind, deal, position) if text in words]
            assert not named, f"round {number}: a hidden item is named: {named}"
            assert not shown & (hidden - drawn), f"round {number}: a hidden item shows"
        assert not set(_shapes(frames["reveal"], kind)) & (hidden - _all_drawn(kind, deal, frames))
    # No round past the last one that is over.
    status, answer = await post(
        server, "/app/api/replay/round", {"session": session, "round": len(history) + 1}
    )
    assert (status, answer["reason"]) == (404, "no_round")


def _pairs(tiles: list[int]) -> set[tuple[object, ...]]:
    return {(HIGH[t], LOW[t]) for t in tiles} | {(LOW[t], HIGH[t]) for t in tiles}


def _cards(cards: list[int]) -> set[tuple[object, ...]]:
    return {(COLOURS[COLOUR[c]], VALUE[c]) for c in cards}


def _hidden_items(kind: str, deal: JSON) -> set[tuple[object, ...]]:
    """What a round never shows anyone: Gaple's tiles set aside, Gap's pile (until drawn)."""
    if kind == "gaple":
        return _pairs(list(deal["set_aside"]))
    return _cards(list(deal["pile"]))


def _drawn_from_pile(kind: str, deal: JSON, position: JSON) -> set[tuple[object, ...]]:
    """Gap's pile cards turned up by this position (the next card first)."""
    if kind == "gaple":
        return set()
    pile = list(deal["pile"])
    return _cards(pile[: len(pile) - position["board"]["pile"]])


def _all_drawn(kind: str, deal: JSON, frames: JSON) -> set[tuple[object, ...]]:
    return _drawn_from_pile(kind, deal, frames["positions"][-1])


def _unseen_texts(kind: str, deal: JSON, position: JSON) -> set[str]:
    """Every text naming an item nobody may see at this position (the kind's hidden_items
    of them, as if a seat held them, and their screen readers' labels)."""
    t = Translators("en").get("en")
    presentation = default_registry().get(kind).presentation
    if kind == "gaple":
        tiles = list(deal["set_aside"])
        private: Any = GapleHand(sum(1 << tile for tile in tiles), 0)
        labels = {tile_label(t, tile) for tile in tiles}
    else:
        pile = list(deal["pile"])
        unseen = pile[len(pile) - position["board"]["pile"] :]
        private = GapHand(tuple(unseen))
        labels = {card_label(t, card) for card in unseen}
    return labels | {text for item in presentation.hidden_items(private) for text in item}


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for inner in value.values() for text in _strings(inner)]
    if isinstance(value, list):
        return [text for inner in value for text in _strings(inner)]
    return []


async def test_only_members_open_a_replay_and_tokens_and_sessions_stay_apart(
    server: PageServer,
) -> None:
    game_id, join_token, replay = await finished_game(server, "gaple")

    # Not a member of the group (now): refused, whoever signs.
    init = member_init(CID, START_PREFIX + replay, server)
    status, answer = await post(server, "/app/api/replay", {"init_data": init})
    assert (status, answer["reason"]) == (403, "not_member"), answer
    # Said in his language.
    t = Translators("en").get("de")
    assert answer["text"] == t.gettext("Only members of the group can watch its games again.")
    # With the words of the page's way out, its ✕ (nothing else opened to give them).
    assert answer["texts"] == {"close": t.gettext("Close")} == {"close": "Schließen"}
    # Nor with initData another bot signed, or none.
    status, answer = await post(server, "/app/api/replay", {"replay": replay})
    assert (status, answer["reason"]) == (403, "init_data"), answer

    # The live table's token opens no replay, as a start parameter or named by the page.
    for start, named in ((START_PREFIX + join_token, ""), (join_token, ""), ("", join_token)):
        init = member_init(ANA, start, server)
        status, answer = await post(server, "/app/api/replay", {"init_data": init, "replay": named})
        assert (status, answer["reason"]) == (404, "no_replay"), (start, named, answer)
    # A page may not name another replay than the one Telegram signed.
    init = member_init(ANA, START_PREFIX + replay, server)
    status, answer = await post(
        server, "/app/api/replay", {"init_data": init, "replay": replay[::-1]}
    )
    assert (status, answer["reason"]) == (403, "other_table"), answer

    # The replay's token opens no live table.
    status, answer = await server.sign_in(member_init(ANA, replay, server), replay)
    assert (status, answer["reason"]) == (404, "no_table"), answer
    status, answer = await server.sign_in(member_init(ANA, START_PREFIX + replay, server))
    assert status == 404, answer

    # A replay session opens no live socket; a live session no replay's round.
    opened = await open_replay(server, ANA, START_PREFIX + replay)
    socket = await server.socket()
    await socket.send_json({"t": "hello", "session": opened["session"]})
    refusal = json.loads((await socket.receive()).data)
    assert (refusal["t"], refusal["reason"]) == ("refused", "session")
    await socket.close()
    status, _ = await server.sign_in(member_init(ANA, join_token, server), join_token)
    assert status == 404, "the finished game's lobby token is spent"
    live_session = server.pages.signer.issue(
        ANA.user_id, "Ana", "en", game_id, server.service.clock()
    )
    for path in ("/app/api/replay/round", "/app/api/replay/review"):
        status, answer = await post(server, path, {"session": live_session, "round": 1})
        assert (status, answer["reason"]) == (403, "session"), answer
    # The replay session reopens the replay (a reload) and reads its rounds.
    status, again = await post(server, "/app/api/replay", {"session": opened["session"]})
    assert status == 200 and again["game_id"] == game_id
    # Once the person left the group, a new sign-in is refused, and so is a reload.
    server.members.of_group.discard(ANA.user_id)
    status, answer = await post(server, "/app/api/replay", {"init_data": init})
    assert (status, answer["reason"]) == (403, "not_member"), answer
    status, answer = await post(server, "/app/api/replay", {"session": opened["session"]})
    assert (status, answer["reason"]) == (403, "not_member"), answer


async def test_the_review_appears_once_ready_with_the_moves_named(server: PageServer) -> None:
    service = server.service
    game_id, _, replay = await finished_game(server, "gaple")
    opened = await open_replay(server, ANA, START_PREFIX + replay)
    session = opened["session"]
    status, answer = await post(server, "/app/api/replay/review", {"session": session})
    assert status == 200 and answer["review"] is None and answer["reviews_off"] is False

    stored = await review_of(service, game_id)
    await store_review(service, game_id, stored)
    status, answer = await post(server, "/app/api/replay/review", {"session": session})
    assert status == 200, answer
    review = answer["review"]
    first = review["moves"][0]
    assert first["mark"] == "blunder" and first["loss"] == 14.26
    assert first["label"] and first["best_label"] and first["label"] != first["best_label"]
    (ana,) = review["seats"]
    assert ana["name"] == "Ana" and ana["accuracy"] == 87.5
    assert ana["worst"]["best_label"] == first["best_label"]
    # The sign-in carries it too, from now on.
    status, again = await post(server, "/app/api/replay", {"session": session})
    assert status == 200 and again["review"] == review


async def test_the_review_names_a_move_made_as_the_replay_s_move_list_does(
    server: PageServer,
) -> None:
    """G4: a Gap card may take cards its code does not name; the review's moves and worst
    name the move made as it was played, as the replay's move list does."""
    service = server.service
    game_id, _, replay = await finished_game(server, "gap")
    opened = await open_replay(server, ANA, START_PREFIX + replay)
    session = opened["session"]
    listed: dict[tuple[int, int], JSON] = {}
    for number in range(1, len(opened["rounds"]) + 1):
        status, frames = await post(
            server, "/app/api/replay/round", {"session": session, "round": number}
        )
        assert status == 200, frames
        listed |= {(number, p["ply"]): p["move"] for p in frames["positions"][1:]}
    # A play that took more than its code names, made the review's worst move.
    t = Translators("en").get("en")
    code_alone = service.registry.get("gap").presentation.move_label
    (number, ply), made = next(
        (where, move)
        for where, move in listed.items()
        if move["label"] != code_alone(t, move["code"])
    )
    stored = await review_of(service, game_id)
    worst = {**stored["seats"][0]["worst"], "round": number, "ply": ply, "code": made["code"]}
    stored["moves"][0] |= {"round": number, "ply": ply, "code": made["code"]}
    stored["seats"][0]["worst"] = worst
    await store_review(service, game_id, stored)
    status, answer = await post(server, "/app/api/replay/review", {"session": session})
    assert status == 200, answer
    review = answer["review"]
    for move in review["moves"]:
        assert move["label"] == listed[move["round"], move["ply"]]["label"]
    assert review["seats"][0]["worst"]["label"] == made["label"]
    assert " taking " in made["label"], made


async def test_a_round_s_first_tile_opens_the_line_in_the_replay_and_its_review(
    server: PageServer,
) -> None:
    """C7: the first tile of a line has no side (its code says right); the replay's move
    list names it as opening the line, and so does the review, for the move made there and
    for the better one."""
    service = server.service
    game_id, _, replay = await finished_game(server, "gaple")
    opened = await open_replay(server, ANA, START_PREFIX + replay)
    session = opened["session"]
    status, frames = await post(server, "/app/api/replay/round", {"session": session, "round": 1})
    assert status == 200, frames
    first, second = (p["move"] for p in frames["positions"][1:3])
    assert first["label"].startswith("open with ["), first
    assert "on the right" not in first["label"]
    assert "open with" not in second["label"], second
    # The review's worst made there, a better first tile beside it.
    stored = await review_of(service, game_id)
    played, better = first["code"], play(tile_id(5, 5), Side.RIGHT).code
    where = {"round": 1, "ply": 1, "code": played, "best": better}
    stored["moves"][0] |= where
    stored["seats"][0]["worst"] |= where
    await store_review(service, game_id, stored)
    status, answer = await post(server, "/app/api/replay/review", {"session": session})
    assert status == 200, answer
    review = answer["review"]
    for move in (review["moves"][0], review["seats"][0]["worst"]):
        assert (move["label"], move["best_label"]) == (first["label"], "open with [5|5]")


async def test_the_live_table_s_end_offers_its_replay(server: PageServer) -> None:
    game_id, _, replay = await finished_game(server, "gap")
    live = server.pages.signer.issue(ANA.user_id, "Ana", "en", game_id, server.service.clock())
    status, answer = await post(server, "/app/api/replay/of_table", {"session": live})
    assert status == 200, answer
    assert answer["replay"] == replay and answer["review"] is None
    status, opened = await post(server, "/app/api/replay", {"session": answer["session"]})
    assert status == 200 and opened["game_id"] == game_id
    # A watching member who left the group is refused; a replay session is not a live one.
    cid = server.pages.signer.issue(CID.user_id, "Cid", "de", game_id, server.service.clock())
    status, refused = await post(server, "/app/api/replay/of_table", {"session": cid})
    assert (status, refused["reason"]) == (403, "not_member"), refused
    status, refused = await post(server, "/app/api/replay/of_table", {"session": answer["session"]})
    assert (status, refused["reason"]) == (403, "session"), refused


async def test_a_local_game_s_end_offers_its_replay_but_no_token_alone_opens_one(
    server: PageServer,
) -> None:
    opened = await server.open_local("gaple")
    game_id = opened["game_id"]
    replay = await play_out(server.service, game_id, LOCAL_PLAYER)
    status, answer = await post(server, "/app/api/replay", {"replay": replay})
    # This server signs in through Telegram: a token alone is not enough here.
    assert (status, answer["reason"]) == (403, "init_data")
    status, answer = await post(server, "/app/api/replay/of_table", {"session": opened["session"]})
    assert status == 200 and answer["replay"] == replay


async def test_local_play_replays_its_own_games_by_token_and_no_group_s(
    page_template: Path, tmp_path: Path, clock: TestClock
) -> None:
    path = tmp_path / "local.sqlite3"
    shutil.copyfile(page_template, path)
    local = local_play_server(sqlite_url(path), clock)
    async with local as (service, test_server), aiohttp.ClientSession() as http:

        async def ask(path: str, body: JSON) -> tuple[int, JSON]:
            async with http.post(test_server.make_url(path), json=body) as answer:
                return answer.status, await answer.json()

        status, opened = await ask("/app/api/local", {"kind": "gap"})
        assert status == 200
        replay = await play_out(service, opened["game_id"], LOCAL_PLAYER)
        status, answer = await ask("/app/api/replay", {"replay": replay})
        assert status == 200, answer
        assert answer["game_id"] == opened["game_id"] and answer["rounds"]
        (you,) = [seat for seat in answer["seats"] if seat["you"]]
        assert you["name"] == "Ana"
        # A group's game in the same database is not local play's to replay.
        game_id, _ = await open_group_table(service, "gap", ANA)
        await service.commands.start(game_id, ANA.user_id, False)
        group_replay = await play_out(service, game_id, ANA.user_id)
        status, answer = await ask("/app/api/replay", {"replay": group_replay})
        assert (status, answer["reason"]) == (404, "no_replay"), answer


async def test_local_play_without_a_language_speaks_the_browser_s(
    page_template: Path, tmp_path: Path, clock: TestClock
) -> None:
    """Without --language, local play's table and replays speak the first language the
    browser asks for that the bot speaks (Accept-Language, by its weights), else English;
    without --name the person is "Player" in that language."""
    path = tmp_path / "local.sqlite3"
    shutil.copyfile(page_template, path)
    local = local_play_server(sqlite_url(path), clock, language=None, name=None)
    async with local as (service, test_server), aiohttp.ClientSession() as http:

        async def ask(path: str, body: JSON, accept: str) -> tuple[int, JSON]:
            headers = {"Accept-Language": accept}
            async with http.post(test_server.make_url(path), json=body, headers=headers) as answer:
                return answer.status, await answer.json()

        status, other = await ask("/app/api/local", {"kind": "gap"}, "ja, de;q=0.5, fr;q=0.7")
        assert (status, other["language"]) == (200, "fr")
        status, plain = await ask("/app/api/local", {"kind": "gap"}, "ja")
        assert (status, plain["language"]) == (200, None)
        # The person's name is the latest table's: theirs in Indonesian here.
        status, opened = await ask("/app/api/local", {"kind": "gaple"}, "id-ID,id;q=0.9,en;q=0.8")
        assert (status, opened["language"]) == (200, "id")
        replay = await play_out(service, opened["game_id"], LOCAL_PLAYER)
        status, answer = await ask("/app/api/replay", {"replay": replay}, "de-DE")
        assert status == 200, answer
        german = replay_texts(Translators("en").get("de"))
        assert german != replay_texts(Translators("en").get("en"))
        assert german.items() <= answer["texts"].items()
        (you,) = [seat for seat in answer["seats"] if seat["you"]]
        assert you["name"] == Translators("en").get("id").gettext("Player") != "Player"
        status, answer = await ask("/app/api/replay", {"replay": "gone"}, "id")
        assert (status, answer["reason"]) == (404, "no_replay")
        assert answer["text"] == replay_refusal(Translators("en").get("id"), "no_replay")


async def test_the_real_review_marks_the_replay_s_moves(server: PageServer) -> None:
    """Ana against one computer, to 10: the analysis (games/review.py, in the computer
    players' pool) reviews her decisions, and the page's review names each of them where the
    replay shows it."""
    service = server.service
    await service.start_reviews(owed=False)
    await service.players.chat(GROUP, None)
    kind = service.registry.get("gaple")
    await service.players.change_setting(GROUP, kind, "computers", 1)  # off
    await first_to(service, "gaple", 10)
    game_id, _ = await open_group_table(service, "gaple", ANA)
    server.members.of_group.add(ANA.user_id)
    async with service.cache.lock(game_id):
        await service.lobbies.add_computer(game_id, ANA.user_id, False)
    async with service.cache.lock(game_id):
        await service.lobbies.start(game_id, ANA.user_id, False)
    for _ in range(500):
        table = await service.commands.table(game_id)
        if table.winner is not None:
            break
        hand = await service.commands.hand(game_id, ANA.user_id)
        await chat_move(service, game_id, ANA.user_id, hand.version, hand.legal[-1])
    replay = (await service.reviews.game(game_id)).replay_token
    opened = await open_replay(server, ANA, START_PREFIX + replay)
    session = opened["session"]
    # Asking queues the analysis (the game's end did too): the page's answer once it is done.
    await asyncio.wait_for(service.reviews.reviewed(game_id), REVIEW_WAIT)
    status, answer = await post(server, "/app/api/replay/review", {"session": session})
    assert status == 200, answer
    review = answer["review"]
    (ana,) = review["seats"]
    assert ana["name"] == "Ana" and 0 <= ana["accuracy"] <= 100
    assert ana["decisions"] == len(review["moves"])
    for move in review["moves"]:
        assert move["seat"] == ana["seat"] and move["mark"] in MARKS
        status, frames = await post(
            server, "/app/api/replay/round", {"session": session, "round": move["round"]}
        )
        shown = frames["positions"][move["ply"]]["move"]
        assert (shown["seat"], shown["code"], shown["label"]) == (
            move["seat"],
            move["code"],
            move["label"],
        )
        assert move["best_label"]


async def test_a_former_player_is_named_so_in_the_replay_and_its_review(
    server: PageServer,
) -> None:
    service = server.service
    game_id, _, replay = await finished_game(server, "gaple")
    await store_review(service, game_id, await review_of(service, game_id))
    await service.forgetting.forget(ANA.user_id)
    server.members.of_group.add(CID.user_id)
    opened = await open_replay(server, CID, START_PREFIX + replay)
    former = opened["review"]["seats"][0]["seat"]
    seat = opened["seats"][former]
    t = Translators("en").get("de")
    assert former_player_name(t) in seat["name"]
    assert not seat["you"] and seat["computer"]
    assert opened["review"]["seats"][0]["name"] == seat["name"]
    status, frames = await post(
        server, "/app/api/replay/round", {"session": opened["session"], "round": 1}
    )
    assert status == 200
    # Cid reads German: the texts are his, and Ana's name is nowhere.
    assert opened["texts"]["play"] == "Abspielen"
    everything = json.dumps([opened, frames], ensure_ascii=False)
    assert not re.search(r"\bAna\b", everything)


async def test_a_bot_that_reviews_no_game_says_so_rather_than_being_prepared(
    server: PageServer,
) -> None:
    server.pages.replays.reviews = False  # as REVIEWS=no has it
    game_id, _, replay = await finished_game(server, "gaple")
    opened = await open_replay(server, ANA, START_PREFIX + replay)
    assert opened["review"] is None and opened["reviews_off"] is True
    assert opened["texts"]["reviews_off"]
    status, answer = await post(server, "/app/api/replay/review", {"session": opened["session"]})
    assert status == 200 and answer["reviews_off"] is True
    # A review stored earlier (or by a worker that reviews) still shows.
    await store_review(server.service, game_id, await review_of(server.service, game_id))
    status, answer = await post(server, "/app/api/replay/review", {"session": opened["session"]})
    assert answer["review"] is not None and answer["reviews_off"] is False


async def test_a_replay_left_open_for_hours_goes_on_as_long_as_it_asks(
    server: PageServer, clock: TestClock
) -> None:
    _, _, replay = await finished_game(server, "gaple")
    opened = await open_replay(server, ANA, START_PREFIX + replay)
    session = opened["session"]
    for _ in range(3):
        clock.advance(timedelta(hours=5).total_seconds())
        status, frames = await post(
            server, "/app/api/replay/round", {"session": session, "round": 1}
        )
        assert status == 200, frames
        status, answer = await post(server, "/app/api/replay/review", {"session": session})
        assert status == 200, answer
        # Each answer renews the session: the one before it runs out in its time.
        assert frames["session"] != session and answer["session"]
        session = answer["session"]
    clock.advance(timedelta(hours=7).total_seconds())
    status, refused = await post(server, "/app/api/replay/round", {"session": session, "round": 1})
    assert status == 403 and refused["reason"] == "session"


async def test_a_round_seen_before_a_player_deleted_their_data_no_longer_names_them(
    server: PageServer,
) -> None:
    service = server.service
    _, _, replay = await finished_game(server, "gaple")
    server.members.of_group.add(CID.user_id)
    opened = await open_replay(server, CID, START_PREFIX + replay)
    rounds = range(1, len(opened["rounds"]) + 1)
    before = [
        await post(server, "/app/api/replay/round", {"session": opened["session"], "round": n})
        for n in rounds
    ]
    assert re.search(r"\bAna\b", json.dumps(before, ensure_ascii=False))
    await service.forgetting.forget(ANA.user_id)
    again = await open_replay(server, CID, START_PREFIX + replay)
    after = [
        await post(server, "/app/api/replay/round", {"session": again["session"], "round": n})
        for n in rounds
    ]
    assert all(status == 200 for status, _ in after)
    assert not re.search(r"\bAna\b", json.dumps([again, after], ensure_ascii=False))
