"""Finished games for the replay's tests: a group game played to its end (Ana in the chat,
computers in the other seats), a review stored for it as the analysis would, and the replay's
requests over HTTP."""

from __future__ import annotations

from typing import Any

from gaple_bot.service.runtime import GameService
from gaple_bot.service.views import Person

from .kit import GROUP, JSON, PageServer, chat_move, init_data, open_group_table

ANA = Person(31, "Ana", "en")
MAX_TURNS = 2000
REVIEW_VERSION = 1
"""The review format's version (games/review.py's REVIEW_VERSION)."""
COMPUTERS_OFF = 1
"""The chat's "computers" option's second choice: no computer fills an empty seat."""
TARGETS = {"gaple": 30, "gap": 8}
"""Short games of a few rounds each."""


async def first_to(service: GameService, kind: str, points: int) -> None:
    """The group's games of `kind` end at `points`."""
    await service.players.chat(GROUP, None)
    async with service.store.transaction() as tx:
        await tx.chats.set_option(GROUP, kind, "target", str(points))


async def finished_game(
    server: PageServer, kind: str, seats: int | None = None
) -> tuple[int, str, str]:
    """A group game of `kind` played to its end (Ana and computers, `seats` in all, else as
    many as computers fill): its id, its live table's join token and its replay token."""
    service = server.service
    await first_to(service, kind, TARGETS[kind])
    if seats is not None:
        await service.players.change_setting(
            GROUP, service.registry.get(kind), "computers", COMPUTERS_OFF
        )
    game_id, join_token = await open_group_table(service, kind, ANA)
    server.members.of_group.add(ANA.user_id)
    for _ in range((seats or 1) - 1):
        async with service.cache.lock(game_id):
            await service.lobbies.add_computer(game_id, ANA.user_id, False)
    await service.commands.start(game_id, ANA.user_id, False)
    finished = await play_out(service, game_id, ANA.user_id)
    return game_id, join_token, finished


async def play_out(service: GameService, game_id: int, user_id: int) -> str:
    """The person plays their first legal move each turn, the computers theirs, until the
    game is over: its replay token."""
    for _ in range(MAX_TURNS):
        table = await service.commands.table(game_id)
        if table.winner is not None:
            break
        hand = await service.commands.hand(game_id, user_id)
        await chat_move(service, game_id, user_id, hand.version, hand.legal[0])
    else:
        raise AssertionError(f"no end after {MAX_TURNS} turns")
    return (await service.reviews.game(game_id)).replay_token


async def review_of(service: GameService, game_id: int, user_id: int = ANA.user_id) -> JSON:
    """A review of the person's decisions as the analysis stores it: their first decision
    with two or more moves a blunder (the better move another of them), every other best."""
    history = await service.reviews.history(game_id)
    finished = await service.reviews.game(game_id)
    kind = service.registry.get(finished.kind)
    ana = next(seat.seat for seat in finished.seats if seat.user_id == user_id)
    moves: list[JSON] = []
    for number in range(1, len(history) + 1):
        dealt: list[tuple[JSON, list[int]]] = [*history[: number - 1], (history[number - 1][0], [])]
        match = kind.replay(finished.config, dealt)
        for ply, code in enumerate(history[number - 1][1], start=1):
            seat = match.to_move
            assert seat is not None
            legal = match.legal_codes()
            if seat == ana and len(legal) >= 2:
                other = next(c for c in legal if c != code)
                blunder = not moves
                best = other if blunder else code
                loss = 14.26 if blunder else 0.0
                moves.append(
                    {
                        "round": number,
                        "ply": ply,
                        "seat": seat,
                        "code": code,
                        "best": best,
                        "loss": loss,
                        "mark": "blunder" if blunder else "best",
                        "values": [[best, 10.0], [code, 10.0 - loss]]
                        if blunder
                        else [[code, 10.0]],
                    }
                )
            match.apply(seat, code)
    assert moves, "Ana had a choice"
    worst = {k: moves[0][k] for k in ("round", "ply", "code", "best", "loss", "mark")}
    return {
        "version": REVIEW_VERSION,
        "moves": moves,
        "seats": [
            {
                "seat": ana,
                "decisions": len(moves),
                "accuracy": 87.5,
                "average_loss": round(14.26 / len(moves), 1),
                "worst": worst,
            }
        ],
    }


async def store_review(service: GameService, game_id: int, review: JSON) -> None:
    """The review stored, as the analysis would once done."""
    async with service.store.transaction() as tx:
        await tx.reviews.put(game_id, REVIEW_VERSION, review, now=service.clock())


async def post(server: PageServer, path: str, body: JSON) -> tuple[int, Any]:
    assert server.http is not None
    async with server.http.post(server.url(path), json=body) as answer:
        return answer.status, await answer.json()


def member_init(person: Person, start: str, server: PageServer) -> str:
    """initData Telegram signs for `person` opening the Mini App with `start`."""
    return init_data(
        person.user_id,
        person.name,
        start=start,
        signed_at=server.service.clock(),
        language=person.telegram_language or "en",
    )
