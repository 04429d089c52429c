"""Forgetting a person: nothing of theirs stays, and everyone else's standings stay as they were."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.store import (
    FIRST_FORMER_PLAYER_ID,
    GLOBAL_SCOPE,
    Board,
    BoardEntry,
    ComputerLevel,
    Period,
    PlayerStats,
    Store,
    is_former_player,
)
from gaple_bot.store.models import User

from .forgotten import rows_mentioning
from .kit import Player, play_game

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CHAT = -7007
LEAVER = 7_300_000_001
NAME = f"User {LEAVER}"
OTHERS = (7_300_000_002, 7_300_000_003)
SCOPES = (CHAT, GLOBAL_SCOPE)
Boards = dict[tuple[int, Board, Period], list[BoardEntry]]


async def _history(store: Store) -> None:
    config = GameConfig(RuleSet.CLASSIC, 4, 30)
    lineups: list[list[Player]] = [
        [LEAVER, OTHERS[0], OTHERS[1], ComputerLevel.NORMAL],
        [OTHERS[0], LEAVER, ComputerLevel.EASY, OTHERS[1]],
        [OTHERS[1], OTHERS[0], LEAVER, ComputerLevel.HARD],
        [OTHERS[0], OTHERS[1], ComputerLevel.EASY, ComputerLevel.NORMAL],
    ]
    for seed, players in enumerate(lineups):
        await play_game(store, CHAT, config, players, seed, now=NOW, moves_per_unit=50)
    async with store.transaction() as tx:
        await tx.users.set_language(LEAVER, "fr")


async def _boards(store: Store) -> Boards:
    async with store.read() as tx:
        return {
            (scope, board, period): await tx.boards.top(
                "gaple", scope, board, period, now=NOW, limit=50
            )
            for scope in SCOPES
            for board in Board
            for period in Period
        }


async def _stats(store: Store, player_id: int) -> dict[int, PlayerStats | None]:
    async with store.read() as tx:
        return {scope: await tx.boards.player_stats("gaple", scope, player_id) for scope in SCOPES}


async def test_forgetting_leaves_no_trace_and_others_standings(store: Store) -> None:
    await _history(store)
    assert await rows_mentioning(store, LEAVER, NAME)  # the scan sees them before
    boards_before = await _boards(store)
    stats_before = {p: await _stats(store, p) for p in OTHERS}
    leaver_stats = await _stats(store, LEAVER)

    async with store.transaction() as tx:
        former = await tx.forget_user(LEAVER)

    assert former is not None and former <= FIRST_FORMER_PLAYER_ID and is_former_player(former)
    assert await rows_mentioning(store, LEAVER, NAME) == []
    async with store.read() as tx:
        assert await tx.users.get(LEAVER) is None
        placeholder = await tx.users.get(former)
        assert await tx.ratings.get("gaple", CHAT, former) is None
    assert placeholder is not None and placeholder.display_name == ""
    assert placeholder.language is None and placeholder.telegram_language is None
    assert not placeholder.can_message and not placeholder.is_computer

    boards_after = await _boards(store)
    for key, before in boards_before.items():
        after = boards_after[key]
        leaver = next((e for e in before if e.player_id == LEAVER), None)
        rest_before = {e.player_id: e for e in before if e.player_id != LEAVER}
        rest_after = {e.player_id: e for e in after if e.player_id != former}
        if key[1] is Board.RATING:
            # Their rating is gone; everyone else keeps theirs, and climbs one place where
            # they stood below the person who left.
            assert all(e.player_id != former for e in after)
            assert set(rest_after) == set(rest_before)
            for player_id, entry in rest_after.items():
                old = rest_before[player_id]
                above = leaver is not None and leaver.value > old.value
                assert (entry.value, entry.games) == (old.value, old.games)
                assert entry.rank == old.rank - above
        else:
            # Games and points stay, under the former player: nobody else's line moves.
            assert rest_after == rest_before
            assert leaver is not None
            kept = next(e for e in after if e.player_id == former)
            assert (kept.rank, kept.value, kept.games) == (leaver.rank, leaver.value, leaver.games)

    for player_id in OTHERS:
        after_stats = await _stats(store, player_id)
        for scope, before_stats in stats_before[player_id].items():
            got = after_stats[scope]
            assert before_stats is not None and got is not None
            assert got.rating == before_stats.rating
            assert got.rated_players == before_stats.rated_players - 1
            leaver = leaver_stats[scope]
            assert leaver is not None and leaver.rating is not None
            assert before_stats.rank is not None and before_stats.rating is not None
            above = leaver.rating.ordinal > before_stats.rating.ordinal
            assert got.rank == before_stats.rank - above
            unranked = dataclasses.replace(got, rank=before_stats.rank, rated_players=0)
            assert unranked == dataclasses.replace(before_stats, rated_players=0)


async def test_each_person_who_leaves_gets_their_own_former_player(store: Store) -> None:
    await _history(store)
    async with store.transaction() as tx:
        first = await tx.forget_user(LEAVER)
        second = await tx.forget_user(OTHERS[0])
        nobody = await tx.forget_user(OTHERS[0])
    assert first is not None and second is not None and second < first
    assert nobody is None
    async with store.read() as tx:
        top = await tx.boards.top("gaple", CHAT, Board.POINTS, now=NOW, limit=50)
    assert {first, second} <= {e.player_id for e in top}


async def test_a_person_without_games_leaves_no_former_player(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.users.upsert(LEAVER, NAME)
        assert await tx.forget_user(LEAVER) is None
    assert await rows_mentioning(store, LEAVER, NAME) == []


async def test_a_person_with_games_cannot_be_deleted_around_the_hand_over(store: Store) -> None:
    """ON DELETE RESTRICT: deleting the row directly would lose others' records, so it fails."""
    await _history(store)
    with pytest.raises(IntegrityError):
        async with store.transaction() as tx:
            await tx.session.execute(delete(User).where(User.id == LEAVER))
    async with store.read() as tx:
        assert await tx.session.scalar(select(User.id).where(User.id == LEAVER)) == LEAVER
