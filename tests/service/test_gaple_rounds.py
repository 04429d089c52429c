"""Gaple's round ends and game ends, classic (C10-C13) and with discards (D5-D8)."""

from __future__ import annotations

from collections.abc import Callable

from gaple_bot.service.progress import GameOver, RoundOver, RoundStarted
from gaple_bot.store import GameStatus

from .deals import (
    ANA_GOES_OUT,
    ANA_GOES_OUT_MOVES,
    ANA_LEADS_AGAIN,
    BLOCKED_AT_ONCE,
    COUNTS_0_10_15_30,
    COUNTS_0_10_15_30_MOVES,
)
from .kit import ANA, BUDI, CITRA, DEWI, Table

Tables = Callable[[str], Table]


async def ana_and_a_computer(table: Tables) -> Table:
    """Ana and one computer at a classic table dealt ANA_GOES_OUT."""
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.open(ANA)
    await gaple.add_computer(ANA)
    await gaple.start(ANA, deals=[ANA_GOES_OUT])
    return gaple


async def three_people(table: Tables, target: str) -> Table:
    """Ana, Budi and Citra at a classic table of this target, dealt BLOCKED_AT_ONCE."""
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.set_option("target", target)
    await gaple.open(ANA)
    await gaple.join(BUDI)
    await gaple.join(CITRA)
    await gaple.start(ANA, deals=[BLOCKED_AT_ONCE])
    return gaple


async def test_c10_c12_going_out_wins_the_pips_left_in_the_other_hand(table: Tables) -> None:
    gaple = await ana_and_a_computer(table)
    progress = await gaple.play_all([ANA], ANA_GOES_OUT_MOVES)
    over = [step for step in progress.steps if isinstance(step, RoundOver)]
    assert len(over) == 1
    # The computer keeps 00 01 02 11 12 22: 12 pips, all Ana's (C12).
    assert over[0].table.scores == (12, 0)
    result = (await gaple.rounds())[0].result
    assert result == {"reason": "gaple", "winner": 0, "counts": [0, 12], "points": [12, 0]}


async def test_c5_the_round_winner_leads_the_next_round_with_any_tile(table: Tables) -> None:
    gaple = await ana_and_a_computer(table)
    gaple.deal_next(ANA_LEADS_AGAIN)
    progress = await gaple.play_all([ANA], ANA_GOES_OUT_MOVES)
    started = [step for step in progress.steps if isinstance(step, RoundStarted)]
    assert [step.table.round_number for step in started] == [2]
    assert progress.table is not None and progress.table.scores == (12, 0)  # C13: totals add
    assert progress.turn is not None and progress.turn.seat == 0
    leads = {gaple.code(f"R{tile}") for tile in ["10", "20", "30", "40", "50", "60", "11"]}
    assert set(progress.turn.legal) == leads
    rounds = await gaple.rounds()
    assert [(r.number, r.leader) for r in rounds] == [(1, 0), (2, 0)]


async def test_c11_c12_a_blocked_round_goes_to_the_lowest_hand(table: Tables) -> None:
    gaple = await three_people(table, "100")
    progress = await gaple.play(ANA, "R66")
    over = next(step for step in progress.steps if isinstance(step, RoundOver))
    # Budi never moved, yet his 15 pips are the fewest: he scores 49 + 35 (C12).
    assert over.table.scores == (0, 84, 0)
    assert (await gaple.rounds())[0].result == {
        "reason": "blocked",
        "winner": 1,
        "counts": [49, 15, 35],
        "points": [0, 84, 0],
    }
    # C5: Budi leads the next round.
    assert progress.turn is not None and progress.turn.seat == 1


async def test_c13_reaching_the_target_ends_the_game(table: Tables) -> None:
    gaple = await three_people(table, "50")
    progress = await gaple.play(ANA, "R66")
    assert [type(step) for step in progress.steps] == [RoundOver, GameOver]
    game_over = progress.steps[-1]
    assert isinstance(game_over, GameOver)
    assert game_over.table.winner == 1
    assert game_over.history == ((0, 84, 0),)
    assert progress.table is None and progress.turn is None
    assert (await gaple.record()).status is GameStatus.FINISHED
    results = await gaple.results()
    assert [(r.player_id, r.place, r.points, r.rounds_won) for r in results] == [
        (ANA.user_id, 2, 0, 0),
        (BUDI.user_id, 1, 84, 1),
        (CITRA.user_id, 2, 0, 0),
    ]


async def test_d5_d6_d7_going_out_under_discards_scores_the_count_differences(
    table: Tables,
) -> None:
    gaple = table("gaple")
    await gaple.set_option("rules", "discards")
    await gaple.open(ANA)
    for person in (BUDI, CITRA, DEWI):
        await gaple.join(person)
    people = [ANA, BUDI, CITRA, DEWI]
    await gaple.start(ANA, deals=[COUNTS_0_10_15_30])
    progress = await gaple.play_all(people, COUNTS_0_10_15_30_MOVES)
    # D6: counts are the pips in hand plus those discarded: 15, 30, 10, 0; D7: each scores
    # its distance to every higher count.
    assert (await gaple.rounds())[0].result == {
        "reason": "gaple",
        "winner": 3,
        "counts": [15, 30, 10, 0],
        "points": [15, 0, 25, 55],
    }
    assert progress.table is not None and progress.table.scores == (15, 0, 25, 55)
    # D8: nobody reached 100; D2: Dewi, the round's winner, leads the next one.
    assert progress.table.round_number == 2
    assert progress.turn is not None and progress.turn.seat == 3
