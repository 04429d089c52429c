"""Finished games store results and update totals and openskill ratings; aborted ones do not."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from gaple_bot.games.gaple.kind import GapleMatch, seat_outcomes
from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.store import (
    GLOBAL_SCOPE,
    ComputerLevel,
    GameStateError,
    Skill,
    Store,
    computer_player_id,
)
from gaple_bot.store.rating import initial_skill, new_model, rate

from .kit import GAPLE, open_game, play_game

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
CHAT = -3003


async def _count(store: Store, table: str) -> int:
    async with store.read() as tx:
        count = await tx.session.scalar(text(f"SELECT count(*) FROM {table}"))
        assert isinstance(count, int)
        return count


async def test_a_finished_game_stores_results_totals_and_ratings(store: Store) -> None:
    config = GameConfig(RuleSet.CLASSIC, 4, 60)
    game_id, game = await play_game(store, CHAT, config, [1, 2, 3, 4], seed=1, now=NOW)
    outcomes = GapleMatch(game).outcomes()
    async with store.read() as tx:
        record = await tx.games.get(game_id)
        results = await tx.results.of_game(game_id)
        chat_ratings = {p: await tx.ratings.get("gaple", CHAT, p) for p in (1, 2, 3, 4)}
        global_ratings = {p: await tx.ratings.get("gaple", GLOBAL_SCOPE, p) for p in (1, 2, 3, 4)}
        stats = {p: await tx.boards.player_stats("gaple", CHAT, p) for p in (1, 2, 3, 4)}
    assert record.finished_at == NOW and record.turn_deadline is None
    assert [(r.player_id, r.place, r.points) for r in results] == [
        (seat + 1, o.place, game.scores[seat]) for seat, o in enumerate(outcomes)
    ]
    assert sum(r.rounds_won for r in results) == len(game.rounds)
    assert chat_ratings == global_ratings
    winner = 1 + game.scores.index(max(game.scores))
    loser = 1 + game.scores.index(min(game.scores))
    start = initial_skill(new_model())
    rated = {p: skill for p, skill in chat_ratings.items() if skill is not None}
    assert len(rated) == 4
    assert rated[winner].mu > start.mu > rated[loser].mu
    for seat, outcome in enumerate(outcomes):
        player_stats = stats[seat + 1]
        assert player_stats is not None
        assert (player_stats.games, player_stats.wins, player_stats.points) == (
            1,
            int(outcome.place == 1),
            outcome.points,
        )
        assert (player_stats.rounds_won, player_stats.extras) == (
            outcome.rounds_won,
            {"gaples": outcome.extras["gaples"], "best_round": outcome.extras["best_round"]},
        )
    assert [r.extras for r in results] == [dict(o.extras) for o in outcomes]
    assert await _count(store, "rating_changes") == 8  # four players, chat and global


async def test_an_aborted_game_changes_no_rating(store: Store) -> None:
    rng = random.Random(4)
    async with store.transaction() as tx:
        game_id, _ = await open_game(tx, CHAT, GameConfig(RuleSet.CLASSIC, 2), [1, 2], rng)
        await tx.games.abort(game_id, now=NOW)
        with pytest.raises(GameStateError):
            await tx.games.finish(game_id, now=NOW)
    for table in ("results", "ratings", "rating_changes", "player_totals"):
        assert await _count(store, table) == 0


async def test_finishing_twice_is_refused_and_changes_nothing(store: Store) -> None:
    config = GameConfig(RuleSet.CLASSIC, 2, 30)
    game_id, game = await play_game(store, CHAT, config, [1, 2], seed=3, now=NOW)
    with pytest.raises(GameStateError):
        async with store.transaction() as tx:
            await tx.finish_game(game_id, GAPLE, GapleMatch(game).outcomes(), now=NOW)
    assert await _count(store, "results") == 2
    assert await _count(store, "rating_changes") == 4


async def test_computer_players_are_rated_even_when_one_level_takes_two_seats(
    store: Store,
) -> None:
    hard = ComputerLevel.HARD
    config = GameConfig(RuleSet.DISCARDS, 4, 30)
    game_id, game = await play_game(store, CHAT, config, [1, hard, 2, hard], seed=5, now=NOW)
    computer = computer_player_id(hard)
    async with store.read() as tx:
        results = await tx.results.of_game(game_id)
        stats = await tx.boards.player_stats("gaple", GLOBAL_SCOPE, computer)
    assert [r.player_id for r in results] == [1, computer, 2, computer]
    assert stats is not None and stats.is_computer
    assert stats.games == 1  # one game, however many seats the level held
    assert stats.rating is not None and stats.rank is not None
    assert stats.points == game.scores[1] + game.scores[3]


@settings(deadline=None)  # a busy machine is slow, not wrong
@given(st.lists(st.integers(min_value=-50, max_value=300), min_size=2, max_size=5))
def test_places_rank_higher_totals_first_and_share_ties(totals: list[int]) -> None:
    # Places come from the kind's outcomes now: a game whose only facts are its totals.
    final = SimpleNamespace(config=SimpleNamespace(seats=len(totals)), rounds=[], scores=totals)
    outcomes = seat_outcomes(final)  # type: ignore[arg-type]
    assert [o.points for o in outcomes] == totals
    result = [o.place for o in outcomes]
    for i, mine in enumerate(totals):
        assert result[i] == 1 + sum(other > mine for other in totals)
        for j, other in enumerate(totals):
            assert (result[i] < result[j]) == (mine > other)
    assert min(result) == 1


def test_tied_players_with_equal_ratings_stay_equal() -> None:
    model = new_model()
    priors = dict.fromkeys((1, 2, 3), initial_skill(model))
    after = rate(model, [1, 2, 3], [1, 1, 3], priors)
    assert after[1] == after[2]
    assert after[1].mu > priors[1].mu > after[3].mu
    assert all(skill.sigma < priors[1].sigma for skill in after.values())


def test_one_player_in_two_seats_gets_the_mean_of_both_posteriors() -> None:
    model = new_model()
    priors = {1: Skill(30.0, 5.0), 2: Skill(25.0, 8.0)}
    after = rate(model, [1, 2, 1], [1, 2, 3], priors)
    separate = rate(model, [10, 2, 11], [1, 2, 3], {10: priors[1], 11: priors[1], 2: priors[2]})
    assert after[1].mu == pytest.approx((separate[10].mu + separate[11].mu) / 2)
    assert after[2] == separate[2]
