"""Child process of the crash test: plays and stores moves until it is killed.

Run as `python -m tests.store.crash_writer DATABASE_URL SEED` from the repository root. It
resumes the chat's running game if there is one (as the bot does after a restart), and prints
`game round ply` for each move only after its transaction has committed.
"""

from __future__ import annotations

import asyncio
import random
import sys

from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.store import ComputerLevel, Store

from .kit import Player, load_game, open_game, play_move

CHAT = -6006
CONFIGS = (GameConfig(RuleSet.CLASSIC, 4, 60), GameConfig(RuleSet.DISCARDS, 5, 30))
SEATS: list[Player] = [1, 2, 3, ComputerLevel.EASY, 5]


async def run(url: str, seed: int) -> None:
    """Play forever, one move per transaction."""
    rng = random.Random(seed)
    store = Store.open(url)
    print("ready", flush=True)
    while True:
        async with store.read() as tx:
            active = await tx.games.active(CHAT, None)
        if active is None:
            async with store.transaction() as tx:
                config = rng.choice(CONFIGS)
                players = SEATS[: config.seats]
                game_id, game = await open_game(tx, CHAT, config, players, rng)
                version = (await tx.games.get(game_id)).version
        else:
            game_id, version = active.id, active.version
            game = await load_game(store, game_id)
        while not game.is_over:
            async with store.transaction() as tx:
                version, round_number, ply = await play_move(tx, game_id, version, game, rng)
            print(game_id, round_number, ply, flush=True)


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], int(sys.argv[2])))
