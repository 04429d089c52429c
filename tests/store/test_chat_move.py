"""A group upgraded to a supergroup: its settings, games, boards and ratings follow to the new
id in one transaction, and a repeat changes nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.store import Board, BoardEntry, GameStatus, Period, Store

from .kit import open_game, play_game

OLD, NEW = -4_005, -1_000_000_004_005
CONFIG = GameConfig(RuleSet.CLASSIC, 4, 30)
PEOPLE = (11, 12, 13, 14)


async def _boards(store: Store, scope: int) -> dict[Any, list[BoardEntry]]:
    async with store.read() as tx:
        return {
            (board, period): await tx.boards.top("gaple", scope, board, period)
            for board in Board
            for period in Period
        }


async def _old_chat_with_history(store: Store) -> tuple[int, int]:
    """A finished game and a running one in OLD, whose settings an admin changed."""
    finished, _ = await play_game(store, OLD, CONFIG, PEOPLE, seed=1)
    async with store.transaction() as tx:
        await tx.chats.ensure(OLD, "Warung")
        await tx.chats.set_option(OLD, "gaple", "target", "55")
        await tx.chats.set_language(OLD, "id")
        running, _ = await open_game(tx, OLD, CONFIG, PEOPLE, random.Random(2))
    return finished, running


async def test_everything_follows_and_a_repeat_changes_nothing(store: Store) -> None:
    finished, running = await _old_chat_with_history(store)
    boards = await _boards(store, OLD)
    assert boards[(Board.WINS, Period.ALL_TIME)]

    for _attempt in range(2):
        async with store.transaction() as tx:
            moved = await tx.move_chat(OLD, NEW)
        assert moved == ([running] if _attempt == 0 else [])
        assert await _boards(store, NEW) == boards
        async with store.read() as tx:
            assert await tx.chats.get(OLD) is None
            settings = await tx.chats.get(NEW)
            assert settings is not None
            assert (settings.options, settings.language) == ({"gaple": {"target": "55"}}, "id")
            assert (await tx.games.get(finished)).chat_id == NEW
            game = await tx.games.get(running)
            assert (game.chat_id, game.status) == (NEW, GameStatus.RUNNING)
            assert await tx.ratings.get("gaple", OLD, PEOPLE[0]) is None
            assert await tx.ratings.get("gaple", NEW, PEOPLE[0]) is not None
            stats = await tx.boards.player_stats("gaple", NEW, PEOPLE[0])
            assert stats is not None and stats.games == 1
    assert all(not entries for entries in (await _boards(store, OLD)).values())


async def test_a_failed_move_leaves_everything_where_it_was(store: Store) -> None:
    _finished, running = await _old_chat_with_history(store)
    boards = await _boards(store, OLD)
    with pytest.raises(RuntimeError):
        async with store.transaction() as tx:
            await tx.move_chat(OLD, NEW)
            raise RuntimeError("the database went away")
    assert await _boards(store, OLD) == boards
    async with store.read() as tx:
        assert await tx.chats.get(NEW) is None
        assert (await tx.games.get(running)).chat_id == OLD


async def test_totals_add_up_with_a_game_already_finished_under_the_new_id(store: Store) -> None:
    await play_game(store, OLD, CONFIG, PEOPLE, seed=3)
    await play_game(store, NEW, CONFIG, PEOPLE, seed=4)
    async with store.transaction() as tx:
        assert await tx.move_chat(OLD, NEW) == []
    async with store.read() as tx:
        for person in PEOPLE:
            stats = await tx.boards.player_stats("gaple", NEW, person)
            assert stats is not None and stats.games == 2
