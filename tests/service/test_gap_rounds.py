"""Gap's round ends and game ends (G5, G6)."""

from __future__ import annotations

from collections.abc import Callable

from gaple_bot.service.progress import GameOver, RoundOver, RoundStarted
from gaple_bot.store import GameStatus

from .deals import DRAINED, DRAINED_MOVES, FULL_ROUND, FULL_ROUND_MOVES, SECOND_ROUND
from .kit import ANA, BUDI, HandDealt, Table

Tables = Callable[[str], Table]


async def two_people(table: Tables, target: str, *deals: HandDealt) -> Table:
    """Ana and Budi at a two-seat table of this target, dealt `deals`."""
    gap = table("gap")
    await gap.set_option("computers", "off")
    await gap.set_option("target", target)
    await gap.open(ANA)
    await gap.join(BUDI)
    await gap.start(ANA, deals=deals)
    return gap


async def test_g5_the_round_scores_each_collection_by_colour(table: Tables) -> None:
    gap = await two_people(table, "30", FULL_ROUND, SECOND_ROUND)
    progress = await gap.play_all([ANA, BUDI], FULL_ROUND_MOVES)
    over = [step for step in progress.steps if isinstance(step, RoundOver)]
    assert len(over) == 1 and over[0].table.scores == (3, 0)
    result = (await gap.rounds())[0].result
    assert result is not None and result["points"] == [3, 0]


async def test_g6_below_the_target_a_new_round_starts_one_seat_on(table: Tables) -> None:
    gap = await two_people(table, "30", FULL_ROUND, SECOND_ROUND)
    progress = await gap.play_all([ANA, BUDI], FULL_ROUND_MOVES)
    started = [step for step in progress.steps if isinstance(step, RoundStarted)]
    assert [step.table.round_number for step in started] == [2]
    assert progress.table is not None and progress.table.scores == (3, 0)
    assert progress.turn is not None and progress.turn.seat == 1
    assert [(r.number, r.leader) for r in await gap.rounds()] == [(1, 0), (2, 1)]


async def test_g6_equal_totals_with_the_same_best_round_share_the_win(table: Tables) -> None:
    gap = await two_people(table, "20", DRAINED)
    progress = await gap.play_all([ANA, BUDI], DRAINED_MOVES)
    assert [type(step) for step in progress.steps] == [RoundOver, GameOver]
    game_over = progress.steps[-1]
    assert isinstance(game_over, GameOver) and game_over.history == ((20, 20),)
    assert progress.table is None and progress.turn is None
    assert (await gap.record()).status is GameStatus.FINISHED
    results = await gap.results()
    assert [(r.player_id, r.place, r.points) for r in results] == [
        (ANA.user_id, 1, 20),
        (BUDI.user_id, 1, 20),
    ]
