"""A restart in the middle of a round: a new application on the same database finishes the game."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from gaple_bot.store import GameStatus
from tests.bot.driver import play_until, seat_and_start, turn_message
from tests.bot.harness import GROUP, GROUP_TITLE, deps_of, load_engine_game, running_bot
from tests.fakes.telegram_server import running_fake

ANA, BUDI = 301, 302


async def test_restart_mid_round_then_finish_with_every_score_right(
    database: Path | str,
) -> None:
    await _restart_mid_round(database, worker_before=False, worker_after=False)


@pytest.mark.parametrize(
    ("worker_before", "worker_after"),
    [(False, True), (True, False)],
    ids=["alone-then-worker", "worker-then-alone"],
)
async def test_a_game_goes_on_when_postgresql_changes_hands_between_alone_and_workers(
    postgres_url: str, worker_before: bool, worker_after: bool
) -> None:
    await _restart_mid_round(postgres_url, worker_before=worker_before, worker_after=worker_after)


async def _restart_mid_round(
    database: Path | str, *, worker_before: bool, worker_after: bool
) -> None:
    """Stop the bot mid-round, start a new one (each as a worker or alone on PostgreSQL, as
    told), and finish the game with every score right."""
    rng = random.Random(11)
    async with running_fake(group_limit_per_minute=1000) as fake:
        fake.add_user(ANA, "Ana")
        fake.add_user(BUDI, "Budi")
        fake.add_group(GROUP, GROUP_TITLE, admins=(ANA,), members=(BUDI,))
        async with running_bot(fake, database, seed=5, worker=worker_before) as app:
            deps = deps_of(app)
            await seat_and_start(fake, ANA, BUDI)
            game_id = await deps.service.active_game(GROUP, None)
            assert game_id is not None

            async def some_moves_made() -> bool:
                game = await load_engine_game(deps.service.store, game_id)
                current = game.round
                return len(current.moves) >= 6 and current.to_move is not None

            await play_until(fake, (ANA, BUDI), some_moves_made, rng)
            await fake.wait_idle()
            before = await load_engine_game(deps.service.store, game_id)
            waiting = before.round.to_move
            assert waiting is not None

        # A new application on the same database: nothing is lost, the game goes on.
        async with running_bot(fake, database, seed=6, worker=worker_after) as app:
            deps = deps_of(app)
            after = await load_engine_game(deps.service.store, game_id)
            # Every move made before the restart is still there, in order.
            for old, new in zip(before.rounds, after.rounds, strict=False):
                assert new.deal == old.deal
                assert new.moves[: len(old.moves)] == old.moves
            assert after.round_number >= before.round_number
            await fake.wait_idle()
            # Whoever was to move has live buttons again (the person, or the computer moved).
            person_to_move = {0: ANA, 1: BUDI}.get(after.round.to_move or -1)
            if person_to_move is not None:
                assert turn_message(fake, person_to_move) is not None

            async def finished() -> bool:
                async with deps.service.store.read() as tx:
                    return (await tx.games.get(game_id)).status is GameStatus.FINISHED

            await play_until(fake, (ANA, BUDI), finished, rng, seconds=200)
            await fake.wait_idle()
            final = await load_engine_game(deps.service.store, game_id)
            async with deps.service.store.read() as tx:
                results = await tx.results.of_game(game_id)
            # Every score right: the replayed game, the stored results and the group's standings.
            assert [r.points for r in results] == final.scores
            assert sum(final.scores) == sum(
                sum(r.result.points) for r in final.rounds if r.result is not None
            )
            standings = fake.bot_messages(GROUP)[-1].text
            assert "wins the game" in standings
            shown = [int(n) for n in re.findall(r"— (\d+)$", standings, flags=re.MULTILINE)]
            assert sorted(shown, reverse=True) == sorted(final.scores, reverse=True)
