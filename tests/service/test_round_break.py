"""The break after a round's end: the next round is dealt at once, but nobody moves until the
break is over (its time runs out, or every person seated says Next); the first turn's time runs
from its end; the game's end has none."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest

from gaple_bot.service.errors import BetweenRounds, GameNotRunning, NoRoundBreak, NotSeated
from gaple_bot.service.outcome import BreakEnded, BreakReady, Played, TurnStarted
from gaple_bot.service.progress import RoundOver, RoundStarted
from gaple_bot.service.runtime import GameService
from tests.clock import TestClock

from .deals import BLOCKED_AT_ONCE
from .kit import ANA, BUDI, CITRA, EKO, Table

Tables = Callable[[str], Table]
BREAK = timedelta(seconds=8)
TURN = timedelta(seconds=60)
"""The chat's turn (the bot's default)."""


@pytest.fixture
def round_break() -> timedelta:
    """Every service of these tests pauses after a round's end."""
    return BREAK


async def blocked(table: Tables, *, computer_second: bool) -> Table:
    """Ana, then a computer (or Budi), then Citra at a classic table to 100, dealt
    BLOCKED_AT_ONCE: Ana's [6|6] blocks the first round at once, and the second seat, with the
    fewest pips, wins it (84 points) and leads the next round (C5)."""
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.set_option("target", "100")
    await gaple.open(ANA)
    if computer_second:
        await gaple.add_computer(ANA)
    else:
        await gaple.join(BUDI)
    await gaple.join(CITRA)
    await gaple.start(ANA, deals=[BLOCKED_AT_ONCE])
    return gaple


async def test_computers_wait_for_the_break_to_end(
    table: Tables, service: GameService, clock: TestClock
) -> None:
    gaple = await blocked(table, computer_second=True)
    progress = await gaple.play(ANA, "R66")
    assert [type(step) for step in progress.steps] == [RoundOver, RoundStarted]
    # The second round is dealt and stored, the computer is to lead it, and nobody moved.
    assert [play.round_number for play in progress.plays] == [1]
    assert progress.table is not None and progress.table.round_number == 2
    assert progress.table.to_move == 1 and progress.turn is None
    assert progress.break_until == clock() + BREAK
    record = await gaple.record()
    assert record.round_break_until == clock() + BREAK and record.turn_deadline is None
    # Nothing that plays a game on moves it during the break: a restart's resume, the sweep's
    # look for games that wait for nobody, an end of a break begun at another version.
    assert not (await gaple.progress()).plays
    assert gaple.game_id not in await service.stalled()
    assert (await service.commands.end_break(gaple.game_id, gaple.version - 1)).effects == ()
    assert await service.round_breaks_over(clock()) == []
    clock.advance(BREAK.total_seconds() + 1)
    assert await service.round_breaks_over(clock()) == [(gaple.game_id, gaple.version)]
    outcome = await service.commands.end_break(gaple.game_id, gaple.version)
    assert outcome.effects[0] == BreakEnded(2)
    played = [effect for effect in outcome.effects if isinstance(effect, Played)]
    assert played and (played[0].round_number, played[0].seat) == (2, 1)
    assert (await gaple.record()).round_break_until is None
    # A second timer of the same break finds it over.
    assert (await service.commands.end_break(gaple.game_id, gaple.version)).effects == ()


async def test_the_first_turn_runs_from_the_break_end(
    table: Tables, service: GameService, clock: TestClock
) -> None:
    gaple = await blocked(table, computer_second=False)
    progress = await gaple.play(ANA, "R66")
    until = clock() + BREAK
    assert progress.turn is not None and progress.turn.seat == 1
    # Budi's turn (a chat player's as much as a page's) and its reminder run from the break's end.
    assert progress.table is not None and progress.table.deadline == until + TURN
    record = await gaple.record()
    assert record.turn_deadline == until + TURN and record.round_break_until == until
    assert await service.reminders_due(until + TURN / 2 - timedelta(seconds=1)) == []
    due = await service.reminders_due(until + TURN / 2 + timedelta(seconds=1))
    assert due == [(gaple.game_id, gaple.version)]
    turns, _ = await service.overdue(until + TURN - timedelta(seconds=1), clock())
    assert turns == []
    # His move button is live, but nobody moves during the break.
    code = progress.turn.legal[0]
    with pytest.raises(BetweenRounds):
        await gaple.play_code(BUDI, code)
    version = gaple.version
    clock.advance(BREAK.total_seconds())
    outcome = await service.commands.end_break(gaple.game_id, version)
    # Nothing moved: only the break's end, for the pages (the chat shows the turn already).
    assert outcome.effects == (BreakEnded(2),) and outcome.progress is None
    assert (await gaple.record()).turn_deadline == until + TURN
    # The same button plays now: the break changed no version.
    moved = await gaple.play_code(BUDI, code)
    assert (moved.plays[0].round_number, moved.plays[0].seat) == (2, 1)


async def test_a_break_everyone_ends_sooner_starts_the_first_turn_clock_then(
    table: Tables, service: GameService, clock: TestClock
) -> None:
    gaple = await blocked(table, computer_second=False)
    progress = await gaple.play(ANA, "R66")
    assert progress.turn is not None and progress.turn.seat == 1
    version = gaple.version
    clock.advance(3)
    commands = service.page_commands
    for person in (ANA, CITRA):
        await commands.next_round(gaple.game_id, person.user_id)
    outcome = await commands.next_round(gaple.game_id, BUDI.user_id)
    # Budi's whole turn from now, not from when the break would have run out; the chat gets
    # the turn again to arm its timers for that end (the same version: his buttons stay live).
    assert outcome.effects[0] == BreakEnded(2)
    started = [effect for effect in outcome.effects if isinstance(effect, TurnStarted)]
    assert [(turn.hand.seat, turn.deadline) for turn in started] == [(1, clock() + TURN)]
    record = await gaple.record()
    assert record.turn_deadline == clock() + TURN and record.round_break_until is None
    assert gaple.version == version
    half = clock() + TURN / 2
    assert await service.reminders_due(half - timedelta(seconds=1)) == []
    assert await service.reminders_due(half + timedelta(seconds=1)) == [(gaple.game_id, version)]
    moved = await gaple.play_code(BUDI, progress.turn.legal[0])
    assert (moved.plays[0].round_number, moved.plays[0].seat) == (2, 1)


async def test_a_move_after_the_break_time_begins_the_round_before_its_timer(
    table: Tables, clock: TestClock
) -> None:
    gaple = await blocked(table, computer_second=False)
    progress = await gaple.play(ANA, "R66")
    assert progress.turn is not None
    clock.advance(BREAK.total_seconds())
    moved = await gaple.play_code(BUDI, progress.turn.legal[0])
    assert moved.break_ended == 2 and moved.plays[0].seat == 1
    assert (await gaple.record()).round_break_until is None


async def test_everyone_seated_saying_next_ends_the_break_at_once(
    table: Tables, service: GameService
) -> None:
    gaple = await blocked(table, computer_second=True)
    await gaple.play(ANA, "R66")
    commands = service.page_commands
    outcome = await commands.next_round(gaple.game_id, ANA.user_id)
    assert outcome.effects == (BreakReady((0,)),)
    assert (await gaple.record()).round_break_ready == 0b1
    # Saying it twice changes nothing.
    assert (await commands.next_round(gaple.game_id, ANA.user_id)).effects == (BreakReady((0,)),)
    snapshot = await commands.snapshot(gaple.game_id)
    assert snapshot.round_break is not None and snapshot.round_break.ready == {0}
    # Citra is the last person seated: the computer leads at once, the clock never moved.
    outcome = await commands.next_round(gaple.game_id, CITRA.user_id)
    assert outcome.effects[0] == BreakEnded(2)
    played = [effect for effect in outcome.effects if isinstance(effect, Played)]
    assert played and (played[0].round_number, played[0].seat) == (2, 1)
    record = await gaple.record()
    assert record.round_break_until is None and record.round_break_ready == 0
    assert (await commands.snapshot(gaple.game_id)).round_break is None


async def test_a_seat_the_computer_plays_for_someone_absent_is_not_waited_for(
    table: Tables, service: GameService
) -> None:
    gaple = await blocked(table, computer_second=True)
    await gaple.play(ANA, "R66")
    await service.commands.hand_over(gaple.game_id, CITRA.user_id)
    outcome = await service.page_commands.next_round(gaple.game_id, ANA.user_id)
    assert outcome.effects[0] == BreakEnded(2)


async def test_next_is_refused_to_someone_not_seated_and_outside_a_break(
    table: Tables, service: GameService
) -> None:
    gaple = await blocked(table, computer_second=True)
    commands = service.page_commands
    with pytest.raises(NoRoundBreak):
        await commands.next_round(gaple.game_id, ANA.user_id)
    await gaple.play(ANA, "R66")
    with pytest.raises(NotSeated):
        await commands.next_round(gaple.game_id, EKO.user_id)
    await commands.next_round(gaple.game_id, ANA.user_id)
    await commands.next_round(gaple.game_id, CITRA.user_id)
    # A late Next, once the round is played.
    with pytest.raises(NoRoundBreak):
        await commands.next_round(gaple.game_id, CITRA.user_id)


async def test_the_game_end_has_no_break(table: Tables, service: GameService) -> None:
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.set_option("target", "50")
    await gaple.open(ANA)
    await gaple.join(BUDI)
    await gaple.join(CITRA)
    await gaple.start(ANA, deals=[BLOCKED_AT_ONCE])
    progress = await gaple.play(ANA, "R66")
    assert progress.break_until is None and progress.table is None
    assert (await gaple.record()).round_break_until is None
    with pytest.raises(GameNotRunning):
        await service.page_commands.next_round(gaple.game_id, ANA.user_id)


async def test_a_break_read_again_from_the_database_is_the_same_break(
    table: Tables, service: GameService, clock: TestClock
) -> None:
    gaple = await blocked(table, computer_second=True)
    await gaple.play(ANA, "R66")
    await service.page_commands.next_round(gaple.game_id, ANA.user_id)
    before = (await service.page_commands.snapshot(gaple.game_id)).round_break
    # As after a restart: the game is read from the database, the break with it.
    service.forget(gaple.game_id)
    after = (await service.page_commands.snapshot(gaple.game_id)).round_break
    assert before is not None and after is not None
    assert (after.until, after.ready) == (clock() + BREAK, {0})
    assert after.ended.points == before.ended.points == (0, 84, 0)
    assert after.ended.reveal.seats == before.ended.reveal.seats
    assert after.ended.table.board == before.ended.table.board
    assert after.ended.table.round_number == 1 and after.ended.table.round_over
    # Its end comes when it is due, as before.
    assert not (await gaple.progress()).plays
    clock.advance(BREAK.total_seconds())
    moved = await gaple.progress()
    assert moved.break_ended == 2 and moved.plays and moved.plays[0].seat == 1
