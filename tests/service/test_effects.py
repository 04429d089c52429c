"""Every effect an outcome may hold, received by a subscriber from the command that makes it."""

from __future__ import annotations

from datetime import timedelta
from typing import get_args

import pytest

from gaple_bot.games.gap.rules import Played as GapEvent
from gaple_bot.games.gap.rules import Refilled, parse_card
from gaple_bot.games.gaple.rules import Move as GapleMove
from gaple_bot.games.gaple.rules import Passed
from gaple_bot.games.gaple.rules import Played as GapleEvent
from gaple_bot.service.outcome import (
    PAGE,
    Abandoned,
    BreakEnded,
    BreakReady,
    ClosedWithChat,
    Effect,
    GameEnded,
    HandChanged,
    LobbyChanged,
    LobbyExpired,
    NextGame,
    Outcome,
    Paused,
    Played,
    Reminded,
    RoundDealt,
    RoundEnded,
    SeatHandedOver,
    Stopped,
    TableChanged,
    TimedOut,
    TurnSeen,
    TurnStarted,
)
from gaple_bot.service.runtime import GameService
from gaple_bot.service.views import Person
from gaple_bot.store import GameStatus
from tests.clock import TestClock

from .deals import (
    ANA_GOES_OUT,
    BLOCKED_AT_ONCE,
    DRAINED,
    DRAINED_MOVES,
    FULL_ROUND,
    FULL_ROUND_MOVES,
    SECOND_ROUND,
)
from .kit import ANA, BUDI, CITRA, ScriptedDeals
from .test_commands import GAP, GAPLE, TURN, Game, only, types

SHOWN = (
    LobbyChanged,
    RoundDealt,
    Played,
    TimedOut,
    SeatHandedOver,
    RoundEnded,
    GameEnded,
    Abandoned,
    TableChanged,
    HandChanged,
    TurnStarted,
    NextGame,
    LobbyExpired,
    Stopped,
    Paused,
    ClosedWithChat,
    Reminded,
    TurnSeen,
    BreakReady,
    BreakEnded,
)
"""The effects this module shows, one test each."""
BREAK = timedelta(seconds=8)
"""The break after a round's end, in the tests of its effects."""


@pytest.fixture
def gaple(service: GameService, dealer: ScriptedDeals, clock: TestClock) -> Game:
    """A Gaple table not opened yet."""
    return Game(service, dealer, GAPLE, clock)


@pytest.fixture
def gap(service: GameService, dealer: ScriptedDeals, clock: TestClock) -> Game:
    """A Gap table not opened yet."""
    return Game(service, dealer, GAP, clock)


async def seated(game: Game, *people: Person, computers: int = 0) -> Game:
    """Ana's lobby (the chat's computers off) with `people` joined and `computers` added."""
    await game.opened()
    for person in people:
        await game.join(person)
    for _ in range(computers):
        await game.add_computer(ANA)
    return game


async def three_people(gaple: Game, target: str) -> Game:
    """Ana, Budi and Citra at a classic table of this target, dealt BLOCKED_AT_ONCE: Ana's
    [6|6] blocks the round at once, and Budi, with the fewest pips, wins it with 84."""
    await gaple.set_option("target", target)
    await seated(gaple, BUDI, CITRA)
    await gaple.start(ANA, deals=[BLOCKED_AT_ONCE])
    return gaple


async def moved(game: Game, person: Person, text: str) -> Outcome:
    """The person's move written `text`, sent through the facade on the table as it stands."""
    version = (await game.commands.table(game.game_id)).version
    code = game.code(text)
    return await game.sent(game.commands.move(game.game_id, person.user_id, version, code))


async def last_move(game: Game, moves: str) -> Outcome:
    """Every move of `moves` but the last played by Ana and Budi; the last one sent."""
    *before, last = moves.split()
    progress = await game.play_all([ANA, BUDI], " ".join(before))
    assert progress.turn is not None
    return await moved(game, [ANA, BUDI][progress.turn.seat], last)


def test_every_effect_type_is_shown_here() -> None:
    assert set(get_args(Effect)) == set(SHOWN)


async def test_every_subscriber_receives_the_outcome_and_one_that_left_none(gap: Game) -> None:
    await gap.opened()
    first, second, gone = (gap.service.feed.subscribe() for _ in range(3))
    gone.close()
    outcome = await gap.page.join(gap.game_id, BUDI, private_chat=False)
    assert first.waiting() == [outcome]
    assert await second.next() is outcome and second.waiting() == []
    assert gone.waiting() == []


async def test_lobby_changed_is_the_lobby_as_it_stands(gap: Game) -> None:
    await seated(gap, BUDI)
    outcome = await gap.sent(gap.commands.add_computer(gap.game_id, ANA.user_id, False))
    lobby = only(LobbyChanged, outcome).lobby
    assert lobby == await gap.commands.lobby(gap.game_id)
    assert (lobby.game_id, lobby.kind, lobby.status) == (gap.game_id, "gap", GameStatus.LOBBY)
    assert [s.is_computer for s in lobby.seats] == [False, False, True]


async def test_round_dealt_brings_the_next_round_and_every_persons_new_hand(gap: Game) -> None:
    await gap.set_option("target", "30")
    await seated(gap, BUDI)
    await gap.start(ANA, deals=[FULL_ROUND, SECOND_ROUND])
    outcome = await last_move(gap, FULL_ROUND_MOVES)
    dealt = only(RoundDealt, outcome).table
    # G6: the second round starts one seat on, with the totals so far.
    assert (dealt.round_number, dealt.to_move, dealt.scores) == (2, 1, (3, 0))
    effects = types(outcome)
    start = effects.index(RoundDealt)
    assert effects[start : start + 3] == [RoundDealt, HandChanged, HandChanged]
    hands = [e.hand for e in outcome.effects[start + 1 : start + 3] if isinstance(e, HandChanged)]
    assert [hand.seat for hand in hands] == [0, 1]
    assert all(hand.table == dealt and len(hand.private.cards) == 6 for hand in hands)
    assert only(TurnStarted, outcome).hand.seat == 1


async def test_played_carries_what_the_rules_say_happened(gap: Game) -> None:
    await seated(gap, BUDI)
    await gap.started()
    outcome = await moved(gap, ANA, "R3")
    played = only(Played, outcome)
    assert (played.round_number, played.seat, played.code) == (1, 0, gap.code("R3"))
    # G4: R3 takes the 3s from the middle, which G6 and B6 refill.
    took, refilled = played.events
    assert isinstance(took, GapEvent) and isinstance(refilled, Refilled)
    assert (took.seat, took.card) == (0, parse_card("R3"))
    assert set(took.taken) == {parse_card("G3"), parse_card("B3")}
    assert set(refilled.cards) == {parse_card("G6"), parse_card("B6")}


async def test_played_comes_for_the_computers_moves_and_forced_passes_too(gaple: Game) -> None:
    await seated(gaple, computers=1)
    await gaple.start(ANA, deals=[ANA_GOES_OUT])
    lead = await moved(gaple, ANA, "R66")
    ana, computer = [e for e in lead.effects if isinstance(e, Played)]
    assert (ana.seat, computer.seat) == (0, 1)
    [answer] = computer.events
    assert isinstance(answer, GapleEvent) and answer.seat == 1
    assert answer.tile == GapleMove.from_code(computer.code).tile == GapleMove.parse("R63").tile
    # Ana's [6|5] goes on the 6 left open, whichever end the computer's [6|3] took.
    six_five = GapleMove.parse("R65").tile
    legal = only(TurnStarted, lead).hand.legal
    [code] = [c for c in legal if GapleMove.from_code(c).tile == six_five]
    assert lead.version is not None
    second = await gaple.sent(gaple.commands.move(gaple.game_id, ANA.user_id, lead.version, code))
    # C9: nothing the computer holds fits: the rules pass for it.
    [_, passed] = [e for e in second.effects if isinstance(e, Played)]
    [event] = passed.events
    assert passed.seat == 1 and isinstance(event, Passed) and event.seat == 1


async def test_timed_out_names_the_seat_the_computer_moved_for(gap: Game) -> None:
    await seated(gap, BUDI)
    await gap.started()
    gap.clock.advance(TURN.total_seconds() + 1)
    outcome = await gap.sent(gap.commands.timeout(gap.game_id, gap.version))
    assert only(TimedOut, outcome) == TimedOut(0)
    assert types(outcome).index(Played) < types(outcome).index(TimedOut)
    assert (await gap.seats())[0].timeouts == 1


async def test_seat_handed_over_after_two_timeouts_in_a_row(gaple: Game) -> None:
    await seated(gaple, BUDI)
    await gaple.started()
    await gaple.timeout()
    await gaple.play(BUDI, "R65")
    outcome = await gaple.sent(gaple.commands.timeout(gaple.game_id, gaple.version))
    assert only(SeatHandedOver, outcome) == SeatHandedOver(0) and only(TimedOut, outcome).seat == 0
    assert only(Played, outcome).code == gaple.code("L60")  # the computer's, for Ana
    assert (await gaple.seats())[0].autoplay
    assert await gaple.commands.can_take_back(gaple.game_id, ANA.user_id)


async def test_round_ended_reveals_every_hand(gaple: Game) -> None:
    await three_people(gaple, "100")
    held = [await gaple.commands.private(gaple.game_id, p.user_id) for p in (BUDI, CITRA)]
    outcome = await moved(gaple, ANA, "R66")
    assert types(outcome)[:3] == [Played, RoundEnded, RoundDealt]
    reveal = only(RoundEnded, outcome).reveal
    assert reveal.table.round_over and reveal.table.round_number == 1
    assert reveal.table.scores == (0, 84, 0)
    # Budi and Citra never moved: their whole hands are shown as they held them.
    assert list(reveal.seats[1:]) == held
    assert only(TurnStarted, outcome).hand.seat == 1  # C5: the winner leads the next round


async def test_game_ended_gives_the_final_table_and_every_rounds_totals(gap: Game) -> None:
    await gap.set_option("target", "20")
    await seated(gap, BUDI)
    await gap.start(ANA, deals=[DRAINED])
    outcome = await last_move(gap, DRAINED_MOVES)
    assert types(outcome) == [Played, RoundEnded, GameEnded]
    ended = only(GameEnded, outcome)
    assert ended.history == ((20, 20),) and ended.table.scores == (20, 20)
    assert outcome.version is None  # no table is played any more
    assert (await gap.record()).status is GameStatus.FINISHED


async def test_abandoned_when_nobody_is_left_to_play(gaple: Game) -> None:
    await seated(gaple, computers=1)
    await gaple.started()
    await gaple.timeout()  # the computer leads [6|6] for Ana, then answers [6|5]
    outcome = await gaple.sent(gaple.commands.timeout(gaple.game_id, gaple.version))
    [abandoned] = outcome.effects
    assert isinstance(abandoned, Abandoned) and abandoned.table.aborted
    assert (await gaple.record()).status is GameStatus.ABORTED
    assert await gaple.results() == []


async def test_table_changed_is_the_public_table_now(gaple: Game) -> None:
    await seated(gaple, BUDI)
    await gaple.started()
    outcome = await moved(gaple, ANA, "R66")
    table = only(TableChanged, outcome).table
    assert table == await gaple.commands.table(gaple.game_id)
    assert (table.version, table.to_move) == (gaple.version + 1, 1)
    assert table.deadline == gaple.clock() + TURN
    assert TableChanged in types(outcome.public())


async def test_hand_changed_is_private_to_its_seat(gap: Game) -> None:
    await seated(gap, BUDI)
    await gap.started()
    outcome = await moved(gap, ANA, "R3")
    hand = only(HandChanged, outcome).hand
    assert (hand.seat, hand.legal) == (0, ())
    assert hand.private == await gap.commands.private(gap.game_id, ANA.user_id)
    assert len(hand.private.cards) == 5
    assert HandChanged not in types(outcome.public())
    assert HandChanged not in types(outcome.for_seat(1))
    assert only(HandChanged, outcome.for_seat(0)) == only(HandChanged, outcome)


async def test_turn_started_gives_the_person_their_moves_until_the_deadline(gaple: Game) -> None:
    await seated(gaple, BUDI)
    await gaple.started()
    outcome = await moved(gaple, ANA, "R66")
    turn = only(TurnStarted, outcome)
    assert (turn.hand.seat, turn.hand.legal) == (1, (gaple.code("R65"),))
    assert turn.deadline == gaple.clock() + TURN
    version = outcome.version
    assert version is not None
    assert turn.hand == await gaple.commands.turn_view(gaple.game_id, BUDI.user_id, version)
    assert TurnStarted not in types(outcome.for_seat(0))


async def test_next_game_tells_those_watching_where_the_players_play_again(gaple: Game) -> None:
    await three_people(gaple, "50")
    await gaple.play(ANA, "R66")  # the game ends: Budi reached 84
    outcome = await gaple.sent(gaple.commands.play_again(gaple.game_id, CITRA))
    following = only(NextGame, outcome)
    lobby = only(LobbyChanged, outcome).lobby
    assert (following.game_id, following.token) == (lobby.game_id, lobby.join_token)
    assert outcome.game_id == gaple.game_id != following.game_id
    assert [s.user_id for s in lobby.seats] == [ANA.user_id, BUDI.user_id, CITRA.user_id]
    assert following.token is not None
    assert (await gaple.service.lobbies.opened_by(following.token)).id == following.game_id


async def test_lobby_expired_is_the_lobby_nobody_started_as_it_closed(gap: Game) -> None:
    await seated(gap, BUDI)
    outcome = await gap.sent(gap.commands.expire(gap.game_id))
    [expired] = outcome.effects
    assert isinstance(expired, LobbyExpired)
    assert expired.lobby.status is GameStatus.ABORTED
    assert [s.user_id for s in expired.lobby.seats] == [ANA.user_id, BUDI.user_id]
    assert expired.lobby == await gap.commands.lobby(gap.game_id)


async def test_stopped_gives_the_last_table_of_a_game_an_admin_stopped(gap: Game) -> None:
    await seated(gap, BUDI)
    await gap.started()
    await gap.play(ANA, "R3")
    before = await gap.commands.table(gap.game_id)
    outcome = await gap.sent(gap.commands.stop(gap.game_id, BUDI.user_id, True))
    [stopped] = outcome.effects
    assert isinstance(stopped, Stopped) and stopped.table is not None
    assert stopped.table.aborted and not before.aborted
    assert (stopped.table.version, stopped.table.board) == (before.version, before.board)
    assert await gap.results() == []


async def test_paused_games_keep_no_timer_running(gaple: Game) -> None:
    await seated(gaple, BUDI)
    await gaple.started()
    outcome = await gaple.sent(gaple.commands.pause(gaple.game_id))
    facts = only(Paused, outcome).facts
    assert (facts.game_id, facts.paused, facts.deadline) == (gaple.game_id, True, None)
    gaple.clock.advance(TURN.total_seconds() * 2)
    now = gaple.clock()
    assert await gaple.service.overdue(now, now) == ([], [])
    assert await gaple.service.reminders_due(now) == []


async def test_closed_with_chat_ends_a_lobby_too(gap: Game) -> None:
    await seated(gap, BUDI)
    outcome = await gap.sent(gap.commands.end_with_chat(gap.game_id))
    facts = only(ClosedWithChat, outcome).facts
    assert (facts.status, facts.playing) == (GameStatus.ABORTED, False)
    assert [s.user_id for s in facts.seats] == [ANA.user_id, BUDI.user_id]
    assert (await gap.record()).status is GameStatus.ABORTED


async def test_reminded_names_the_person_and_the_deadline(gaple: Game) -> None:
    await seated(gaple, BUDI)
    await gaple.started()
    await gaple.play(ANA, "R66")
    deadline = gaple.clock() + TURN
    gaple.clock.advance(TURN.total_seconds() / 2 + 1)
    outcome = await gaple.sent(gaple.commands.remind(gaple.game_id, gaple.version))
    reminded = only(Reminded, outcome)
    assert (reminded.seat.number, reminded.seat.name) == (1, BUDI.name)
    assert reminded.table == await gaple.commands.table(gaple.game_id)
    assert reminded.deadline == reminded.table.deadline == deadline


async def test_turn_seen_names_the_version_seen_in_the_page(gap: Game) -> None:
    await seated(gap, BUDI)
    gap.hands_reach = False
    await gap.started()
    outcome = await gap.sent(gap.page.turn_seen(gap.game_id, gap.version))
    assert outcome == Outcome(gap.game_id, (TurnSeen(gap.version),), PAGE)
    gap.clock.advance(1)
    assert await gap.service.hands_owed(gap.clock()) == []


@pytest.mark.parametrize("round_break", [BREAK])
async def test_break_ready_names_the_seats_whose_person_said_next(gaple: Game) -> None:
    await three_people(gaple, "100")
    await gaple.play(ANA, "R66")
    outcome = await gaple.sent(gaple.page.next_round(gaple.game_id, CITRA.user_id))
    assert outcome == Outcome(gaple.game_id, (BreakReady((2,)),), PAGE)
    outcome = await gaple.sent(gaple.page.next_round(gaple.game_id, ANA.user_id))
    assert outcome == Outcome(gaple.game_id, (BreakReady((0, 2)),), PAGE)


@pytest.mark.parametrize("round_break", [BREAK])
async def test_break_ended_names_the_round_played_from_now(gaple: Game) -> None:
    await three_people(gaple, "100")
    await gaple.play(ANA, "R66")
    gaple.clock.advance(BREAK.total_seconds())
    outcome = await gaple.sent(gaple.commands.end_break(gaple.game_id, gaple.version))
    # Budi leads the second round: nobody moved, his turn was shown as it was dealt.
    assert outcome == Outcome(gaple.game_id, (BreakEnded(2),))
