"""Replaying the stored deals and moves rebuilds exactly the state that was saved."""

from __future__ import annotations

import random

from sqlalchemy import text

from gaple_bot.games.gaple.rules import GameConfig, RuleSet, StuckRule
from gaple_bot.store import ComputerLevel, GameStatus, Store

from .kit import Player, load_game, open_game, play_game, play_move, results_of

SETUPS = (
    GameConfig(RuleSet.CLASSIC, 2, 60),
    GameConfig(RuleSet.CLASSIC, 3, 80),
    GameConfig(RuleSet.CLASSIC, 4, 100),
    GameConfig(RuleSet.DISCARDS, 4, 40, StuckRule.DISCARD),
    GameConfig(RuleSet.DISCARDS, 5, 40, StuckRule.DISCARD),
    GameConfig(RuleSet.DISCARDS, 4, 40, StuckRule.PASS),
    GameConfig(RuleSet.DISCARDS, 5, 30, StuckRule.PASS),
)
GAMES_PER_SETUP = 4


def _players(config: GameConfig, rng: random.Random) -> list[Player]:
    pool: list[Player] = [*range(1, 9), *ComputerLevel]
    return rng.sample(pool, config.seats)


async def test_random_games_of_both_rule_sets_replay_exactly(store: Store) -> None:
    rng = random.Random(2026)
    played = 0
    for index, config in enumerate(SETUPS):
        for game_number in range(GAMES_PER_SETUP):
            seed = rng.randrange(2**32)
            chat = -(index * 100 + game_number + 1)
            # Every move in its own unit for some games, several per unit for the rest.
            per_unit = 1 if game_number % 3 == 0 else 25
            game_id, game = await play_game(
                store, chat, config, _players(config, rng), seed, moves_per_unit=per_unit
            )
            loaded = await load_game(store, game_id)
            assert loaded.replay_key() == game.replay_key(), (config, seed)
            assert loaded.is_over
            async with store.read() as tx:
                record = await tx.games.get(game_id)
                summaries = await tx.rounds.summaries(game_id)
                moves = await tx.session.execute(
                    text("SELECT count(*) FROM moves WHERE game_id = :g"), {"g": game_id}
                )
            assert record.status is GameStatus.FINISHED
            assert record.version == moves.scalar_one() == sum(len(r.moves) for r in game.rounds)
            assert [s.result for s in summaries] == results_of(game)
            played += 1
    assert played == len(SETUPS) * GAMES_PER_SETUP


async def test_a_game_in_progress_replays_at_every_step(store: Store) -> None:
    """Load after each stored move, continue from the loaded game, and compare."""
    rng = random.Random(7)
    config = GameConfig(RuleSet.DISCARDS, 4, 30)
    async with store.transaction() as tx:
        game_id, game = await open_game(tx, -9, config, [1, 2, 3, ComputerLevel.EASY], rng)
    version = 0
    while not game.is_over:
        game = await load_game(store, game_id)
        async with store.transaction() as tx:
            version, _, _ = await play_move(tx, game_id, version, game, rng)
        assert (await load_game(store, game_id)).replay_key() == game.replay_key()
