"""Helpers for the store tests: play games with the engine and store them like the service."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from gaple_bot.games.gaple.ai.greedy import greedy_move
from gaple_bot.games.gaple.kind import GapleKind, GapleMatch
from gaple_bot.games.gaple.rules import Game, GameConfig, Move
from gaple_bot.games.seam import GameDataError
from gaple_bot.store import ComputerLevel, CorruptGame, Store, StoredPlay, Transaction

GAPLE = GapleKind()

Player = int | ComputerLevel
"""A Telegram user id, or a computer level taking the seat."""


def choose_move(game: Game, rng: random.Random) -> Move:
    """Greedy for even seats, a random legal move for odd ones."""
    seat = game.to_move
    assert seat is not None
    if seat % 2 == 0:
        return greedy_move(game.seat_view(seat), rng)
    return rng.choice(game.legal_moves())


async def open_game(
    tx: Transaction,
    chat_id: int,
    config: GameConfig,
    players: Sequence[Player],
    rng: random.Random,
    *,
    thread_id: int | None = None,
    now: datetime | None = None,
) -> tuple[int, Game]:
    """Create the chat, users, lobby and seats, start the game and store its first deal."""
    await tx.chats.ensure(chat_id, f"Chat {chat_id}", now=now)
    humans = [p for p in players if isinstance(p, int)]
    for user_id in humans:
        await tx.users.upsert(user_id, f"User {user_id}", now=now)
    opener = humans[0] if humans else await _any_user(tx, chat_id)
    record = await tx.games.create(
        chat_id, thread_id, GAPLE.name, dict(config.to_dict()), opener, now=now
    )
    for seat, player in enumerate(players):
        if isinstance(player, ComputerLevel):
            await tx.seats.add(record.id, seat, computer_level=player)
        else:
            await tx.seats.add(record.id, seat, user_id=player)
    await tx.games.start(record.id, now=now)
    game = Game.new(config, rng)
    await add_round(tx, record.id, game, now=now)
    await settle(tx, record.id, game, rng, now=now)
    return record.id, game


async def add_round(
    tx: Transaction, game_id: int, game: Game, *, now: datetime | None = None
) -> None:
    """Store the game's current round's deal, as the service does."""
    deal = game.round.deal
    await tx.rounds.add(game_id, game.round_number, dict(deal.to_dict()), deal.leader, now=now)


def round_result(game: Game) -> dict[str, Any] | None:
    """The current round's result as the kind stores it."""
    return GapleMatch(game).round_result()


def replayed(play: StoredPlay) -> Game:
    """The engine state of a stored play, as the service replays it (through the kind)."""
    assert play.kind == GAPLE.name
    try:
        return GAPLE.replay(play.config, play.rounds).game
    except GameDataError as exc:
        raise CorruptGame(str(exc)) from exc


async def load_game(store: Store, game_id: int) -> Game:
    """The stored game's engine state."""
    return replayed(await store.load_play(game_id))


async def load_game_in(tx: Transaction, game_id: int) -> Game:
    """The stored game's engine state, read in a unit of work."""
    return replayed(await tx.load_play(game_id))


async def finish(tx: Transaction, game_id: int, game: Game, *, now: datetime | None = None) -> None:
    """Finish the stored game with the outcomes Gaple computes."""
    await tx.finish_game(game_id, GAPLE, GapleMatch(game).outcomes(), now=now)


async def _any_user(tx: Transaction, chat_id: int) -> int:
    user_id = 10_000 + abs(chat_id)
    await tx.users.upsert(user_id, "Opener")
    return user_id


async def settle(
    tx: Transaction, game_id: int, game: Game, rng: random.Random, *, now: datetime | None = None
) -> None:
    """After a move: store each finished round's result, deal the next round (which may end
    as soon as it is dealt) or finish the game, as the service does in the move's unit."""
    while (result := round_result(game)) is not None:
        await tx.rounds.set_result(game_id, game.round_number, result, now=now)
        if game.is_over:
            await finish(tx, game_id, game, now=now)
            return
        game.next_round(rng)
        await add_round(tx, game_id, game, now=now)


async def play_move(
    tx: Transaction,
    game_id: int,
    version: int,
    game: Game,
    rng: random.Random,
    *,
    now: datetime | None = None,
) -> tuple[int, int, int]:
    """Choose and apply one move, store it (compare-and-set on `version`) and settle.

    Returns the new version and the stored move's round number and ply."""
    seat = game.to_move
    assert seat is not None
    move = choose_move(game, rng)
    game.apply(seat, move)
    round_number, ply = game.round_number, len(game.round.moves) - 1
    version = await tx.record_move(game_id, version, round_number, ply, seat, move.code, now=now)
    await settle(tx, game_id, game, rng, now=now)
    return version, round_number, ply


async def play_game(
    store: Store,
    chat_id: int,
    config: GameConfig,
    players: Sequence[Player],
    seed: int,
    *,
    now: datetime | None = None,
    moves_per_unit: int = 1,
) -> tuple[int, Game]:
    """Play a whole game, storing every move; `moves_per_unit` moves per transaction."""
    rng = random.Random(seed)
    async with store.transaction() as tx:
        game_id, game = await open_game(tx, chat_id, config, players, rng, now=now)
        version = (await tx.games.get(game_id)).version
    while not game.is_over:
        async with store.transaction() as tx:
            for _ in range(moves_per_unit):
                if game.is_over:
                    break
                version, _, _ = await play_move(tx, game_id, version, game, rng, now=now)
    return game_id, game


def results_of(game: Game) -> list[dict[str, Any] | None]:
    """Every round's result as the kind stores it (None for a round still in play)."""
    return [
        None
        if r.result is None
        else {
            "reason": r.result.reason.value,
            "winner": r.result.winner,
            "counts": list(r.result.counts),
            "points": list(r.result.points),
        }
        for r in game.rounds
    ]
