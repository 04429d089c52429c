"""The service's commands each publish the one outcome they return; its questions only read."""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeVar

import pytest

from gaple_bot.games.gap.rules import Move as GapMove
from gaple_bot.games.gaple.rules import Move as GapleMove
from gaple_bot.service.errors import (
    AlreadySeated,
    GameNotRunning,
    GamePaused,
    NotAllowed,
    NotInLobby,
    NotSeated,
    NotYourTurn,
    PickHasNoMove,
    PrivateChatNeeded,
    ServiceError,
    StaleButton,
)
from gaple_bot.service.outcome import (
    CHAT,
    PAGE,
    ClosedWithChat,
    HandChanged,
    LobbyChanged,
    LobbyExpired,
    NextGame,
    Outcome,
    Paused,
    Played,
    Reminded,
    RoundDealt,
    SeatHandedOver,
    Stopped,
    TableChanged,
    TimedOut,
    TurnSeen,
    TurnStarted,
)
from gaple_bot.service.runtime import GameService
from gaple_bot.store import GameStatus
from tests.clock import TestClock

from .deals import FULL_ROUND, TWO_TURNS
from .kit import ANA, BUDI, EKO, HandDealt, ScriptedDeals, Table

E = TypeVar("E")
TURN = timedelta(seconds=60)
"""A person's turn in the test group (the bot's default)."""


@dataclass(frozen=True)
class Kind:
    """A kind's two-seat table as these tests deal it, and its first moves."""

    name: str
    deal: HandDealt
    opening: str
    """Ana's first move (she moves first)."""
    answer: str
    """A move of Budi's once Ana made hers (not a tile or card of Ana's)."""
    illegal: str
    """A move of Ana's own tile or card that she may not make first."""
    capacity: int

    def pick(self, text: str) -> int:
        """The first pick (the tile, the card) of the move written `text`."""
        return GapleMove.parse(text).tile if self.name == "gaple" else GapMove.parse(text).card


GAPLE = Kind("gaple", TWO_TURNS, "R66", "R65", "R60", 4)
GAP = Kind("gap", FULL_ROUND, "R3", "B7", "R8", 6)


# Outcomes, and a table whose commands go through the facade --------------------------------------


def types(outcome: Outcome) -> list[type]:
    """The outcome's effect types, in order."""
    return [type(effect) for effect in outcome.effects]


def only(kind: type[E], outcome: Outcome) -> E:
    """The outcome's one effect of this type."""
    found = [effect for effect in outcome.effects if isinstance(effect, kind)]
    assert len(found) == 1, f"{kind.__name__} in {types(outcome)}"
    return found[0]


class Game(Table):
    """A table of one kind (`rules`: its two-seat deal and first moves) whose commands go
    through the chat's facade (`commands`) or the page's (`page`), a subscriber listening."""

    def __init__(
        self, service: GameService, dealer: ScriptedDeals, rules: Kind, clock: TestClock
    ) -> None:
        super().__init__(service, dealer, rules.name)
        self.rules = rules
        self.clock = clock
        self.commands = service.commands
        self.page = service.page_commands

    async def opened(self) -> Game:
        """Ana's lobby, computers off."""
        await self.set_option("computers", "off")
        await self.open(ANA)
        return self

    async def sent(self, command: Awaitable[Outcome]) -> Outcome:
        """Send `command` with a subscriber listening: the outcome it returns is the one,
        and the only one, the subscriber receives."""
        feed = self.service.feed.subscribe()
        try:
            outcome = await command
            received = feed.waiting()
        finally:
            feed.close()
        assert received == [outcome]
        assert received[0] is outcome
        return outcome

    async def refused(self, command: Awaitable[object], error: type[ServiceError]) -> None:
        """`command` is refused with `error` and publishes nothing."""
        feed = self.service.feed.subscribe()
        try:
            with pytest.raises(error):
                await command
            assert feed.waiting() == []
        finally:
            feed.close()

    async def started(self) -> Game:
        """The lobby started by Ana, dealt the kind's deal (Ana is to move)."""
        await self.start(ANA, deals=[self.rules.deal])
        return self

    def opening(self) -> int:
        """The code of Ana's first move."""
        return self.code(self.rules.opening)


@pytest.fixture(params=[GAPLE, GAP], ids=["gaple", "gap"])
async def fresh(
    request: pytest.FixtureRequest, service: GameService, dealer: ScriptedDeals, clock: TestClock
) -> Game:
    """Ana's lobby of each kind in turn (a test that asks for it runs for both), computers off."""
    rules: Kind = request.param
    return await Game(service, dealer, rules, clock).opened()


@pytest.fixture
async def lobby(fresh: Game) -> Game:
    """Ana's lobby with Budi seated."""
    await fresh.join(BUDI)
    return fresh


@pytest.fixture
async def game(lobby: Game) -> Game:
    """Ana and Budi at the two-seat table; Ana is to move."""
    return await lobby.started()


@pytest.fixture
async def alone(fresh: Game) -> Game:
    """Ana and a computer at the two-seat table; Ana is to move."""
    await fresh.add_computer(ANA)
    return await fresh.started()


# The lobby ---------------------------------------------------------------------------------------


async def test_join_publishes_the_lobby_with_the_new_seat(fresh: Game) -> None:
    await fresh.service.players.private_chat_opened(BUDI)
    outcome = await fresh.sent(fresh.commands.join(fresh.game_id, BUDI))
    [changed] = outcome.effects
    assert isinstance(changed, LobbyChanged) and outcome.by == CHAT
    assert [s.user_id for s in changed.lobby.seats] == [ANA.user_id, BUDI.user_id]
    assert changed.lobby.capacity == fresh.rules.capacity
    assert changed.lobby == await fresh.commands.lobby(fresh.game_id)


async def test_a_join_from_the_page_needs_no_private_chat(fresh: Game) -> None:
    await fresh.refused(fresh.commands.join(fresh.game_id, BUDI), PrivateChatNeeded)
    outcome = await fresh.sent(fresh.page.join(fresh.game_id, BUDI, private_chat=False))
    assert outcome.by == PAGE
    assert [s.user_id for s in only(LobbyChanged, outcome).lobby.seats][-1] == BUDI.user_id


async def test_leave_publishes_the_lobby_without_the_seat(lobby: Game) -> None:
    outcome = await lobby.sent(lobby.commands.leave(lobby.game_id, BUDI.user_id))
    assert [s.user_id for s in only(LobbyChanged, outcome).lobby.seats] == [ANA.user_id]


async def test_add_computer_seats_a_computer_next(lobby: Game) -> None:
    outcome = await lobby.sent(lobby.commands.add_computer(lobby.game_id, BUDI.user_id, False))
    seats = only(LobbyChanged, outcome).lobby.seats
    assert [s.user_id for s in seats] == [ANA.user_id, BUDI.user_id, None]
    assert seats[2].is_computer and seats[2].computer_level == "normal"


async def test_cancel_closes_the_lobby(lobby: Game) -> None:
    outcome = await lobby.sent(lobby.commands.cancel(lobby.game_id, ANA.user_id, False))
    assert only(LobbyChanged, outcome).lobby.status is GameStatus.ABORTED
    assert (await lobby.record()).status is GameStatus.ABORTED


async def test_expire_closes_a_lobby_nobody_started(lobby: Game) -> None:
    clock, service = lobby.clock, lobby.service
    clock.advance(1)
    assert (await service.overdue(clock(), clock()))[1] == [lobby.game_id]
    outcome = await lobby.sent(lobby.commands.expire(lobby.game_id))
    assert only(LobbyExpired, outcome).lobby.status is GameStatus.ABORTED
    assert (await service.overdue(clock(), clock()))[1] == []


async def test_expire_of_a_started_game_publishes_no_effect(game: Game) -> None:
    outcome = await game.sent(game.commands.expire(game.game_id))
    assert outcome == Outcome(game.game_id, ())
    assert (await game.record()).status is GameStatus.RUNNING


async def test_start_publishes_the_lobby_the_deal_and_the_first_turn(lobby: Game) -> None:
    lobby.deal_next(lobby.rules.deal)
    outcome = await lobby.sent(lobby.commands.start(lobby.game_id, ANA.user_id, False))
    # Both hands come with the deal; then Budi's as it stands, and Ana's as her turn.
    dealt = [RoundDealt, HandChanged, HandChanged]
    assert types(outcome) == [LobbyChanged, *dealt, TableChanged, HandChanged, TurnStarted]
    assert only(LobbyChanged, outcome).lobby.status is GameStatus.RUNNING
    table = only(RoundDealt, outcome).table
    assert (table.round_number, table.to_move, table.kind) == (1, 0, lobby.rules.name)
    turn = only(TurnStarted, outcome)
    assert turn.hand.seat == 0 and lobby.opening() in turn.hand.legal
    assert turn.deadline == lobby.clock() + TURN
    assert outcome.version == (await lobby.record()).version


async def test_play_again_names_the_next_game_and_shows_its_lobby(game: Game) -> None:
    await game.stop(ANA)
    outcome = await game.sent(game.commands.play_again(game.game_id, BUDI))
    assert types(outcome) == [NextGame, LobbyChanged] and outcome.game_id == game.game_id
    following, lobby = only(NextGame, outcome), only(LobbyChanged, outcome).lobby
    assert following.game_id == lobby.game_id != game.game_id
    assert following.token == lobby.join_token is not None
    assert [s.user_id for s in lobby.seats] == [ANA.user_id, BUDI.user_id]
    assert (await game.commands.facts(lobby.game_id)).status is GameStatus.LOBBY


async def test_refused_lobby_commands_publish_nothing_and_change_nothing(lobby: Game) -> None:
    gid, commands = lobby.game_id, lobby.commands
    before = await commands.lobby(gid)
    await lobby.refused(commands.join(gid, BUDI), AlreadySeated)
    await lobby.refused(commands.leave(gid, EKO.user_id), NotSeated)
    await lobby.refused(commands.add_computer(gid, EKO.user_id, False), NotSeated)
    await lobby.refused(commands.start(gid, BUDI.user_id, False), NotAllowed)
    await lobby.refused(commands.cancel(gid, BUDI.user_id, False), NotAllowed)
    await lobby.refused(commands.play_again(gid, ANA), NotInLobby)
    assert await commands.lobby(gid) == before
    lobby.deal_next(lobby.rules.deal)
    started = await lobby.sent(commands.start(gid, ANA.user_id, False))
    assert only(TurnStarted, started).hand.seat == 0
    await lobby.refused(commands.join(gid, EKO), NotInLobby)


# The table ---------------------------------------------------------------------------------------


async def test_move_publishes_the_play_the_table_and_the_next_turn(game: Game) -> None:
    code = game.opening()
    outcome = await game.sent(game.commands.move(game.game_id, ANA.user_id, game.version, code))
    assert types(outcome) == [Played, TableChanged, HandChanged, TurnStarted]
    played = only(Played, outcome)
    assert (played.round_number, played.seat, played.code) == (1, 0, code)
    assert outcome.version == game.version + 1 == (await game.record()).version
    assert only(HandChanged, outcome).hand.seat == 0
    turn = only(TurnStarted, outcome)
    assert turn.hand.seat == 1 and game.code(game.rules.answer) in turn.hand.legal


async def test_a_move_from_the_page_is_published_as_the_pages(game: Game) -> None:
    command = game.page.move(game.game_id, ANA.user_id, game.version, game.opening())
    outcome = await game.sent(command)
    assert outcome.by == PAGE and only(Played, outcome).seat == 0


async def test_a_refused_move_publishes_nothing_and_leaves_the_game_as_it_was(game: Game) -> None:
    gid, version, commands = game.game_id, game.version, game.commands
    before = await commands.snapshot(gid)
    opening, answer = game.opening(), game.code(game.rules.answer)
    await game.refused(commands.move(gid, ANA.user_id, version - 1, opening), StaleButton)
    await game.refused(commands.move(gid, BUDI.user_id, version, answer), NotYourTurn)
    await game.refused(commands.move(gid, EKO.user_id, version, opening), NotSeated)
    illegal = game.code(game.rules.illegal)
    await game.refused(commands.move(gid, ANA.user_id, version, illegal), StaleButton)
    assert await commands.snapshot(gid) == before
    moved = await game.sent(commands.move(gid, ANA.user_id, version, opening))
    assert only(Played, moved).code == opening
    # The button of the turn just played is stale now.
    await game.refused(commands.move(gid, ANA.user_id, version, opening), StaleButton)


async def test_timeout_of_the_running_turn_makes_the_persons_move(game: Game) -> None:
    clock, service = game.clock, game.service
    legal = (await game.commands.hand(game.game_id, ANA.user_id)).legal
    clock.advance(TURN.total_seconds() + 1)
    [(gid, version)] = (await service.overdue(clock(), clock()))[0]
    assert (gid, version) == (game.game_id, game.version)
    outcome = await game.sent(game.commands.timeout(gid, version))
    assert types(outcome) == [Played, TimedOut, TableChanged, HandChanged, TurnStarted]
    assert only(TimedOut, outcome).seat == 0
    assert only(Played, outcome).seat == 0 and only(Played, outcome).code in legal
    assert only(TurnStarted, outcome).deadline == clock() + TURN
    assert (await service.overdue(clock(), clock()))[0] == []


async def test_timeout_of_an_earlier_version_publishes_no_effect(game: Game) -> None:
    stale = game.version
    await game.play(ANA, game.rules.opening)
    outcome = await game.sent(game.commands.timeout(game.game_id, stale))
    assert outcome.effects == ()
    assert (await game.seats())[1].timeouts == 0
    assert (await game.record()).version == game.version


async def test_remind_takes_the_half_time_reminder_once(game: Game) -> None:
    clock, service = game.clock, game.service
    clock.advance(TURN.total_seconds() / 2 + 1)
    [(gid, version)] = await service.reminders_due(clock())
    assert (gid, version) == (game.game_id, game.version)
    reminded = only(Reminded, await game.sent(game.commands.remind(gid, version)))
    assert (reminded.seat.number, reminded.seat.user_id) == (0, ANA.user_id)
    assert reminded.deadline == (await game.commands.facts(gid)).deadline
    assert reminded.table.version == version
    assert await service.reminders_due(clock()) == []
    assert (await game.sent(game.commands.remind(gid, version))).effects == ()


async def test_owed_hand_shows_the_turn_whose_hand_never_went_out(lobby: Game) -> None:
    lobby.hands_reach = False
    game = await lobby.started()
    gid, version = game.game_id, game.version
    game.clock.advance(1)
    assert await game.service.hands_owed(game.clock()) == [(gid, version)]
    outcome = await game.sent(game.commands.owed_hand(gid, version))
    assert types(outcome) == [TableChanged, HandChanged, TurnStarted]
    assert only(TurnStarted, outcome).hand.seat == 0
    assert outcome.version == version
    assert (await game.sent(game.commands.owed_hand(gid, version - 1))).effects == ()


async def test_turn_seen_in_the_page_settles_the_hand_owed(lobby: Game) -> None:
    lobby.hands_reach = False
    game = await lobby.started()
    gid, version = game.game_id, game.version
    outcome = await game.sent(game.page.turn_seen(gid, version))
    assert outcome.effects == (TurnSeen(version),) and outcome.by == PAGE
    game.clock.advance(1)
    assert await game.service.hands_owed(game.clock()) == []
    assert (await game.sent(game.commands.owed_hand(gid, version))).effects == ()


async def test_hand_over_lets_the_computer_play_the_seat(game: Game) -> None:
    outcome = await game.sent(game.commands.hand_over(game.game_id, ANA.user_id))
    assert types(outcome) == [Played, SeatHandedOver, TableChanged, HandChanged, TurnStarted]
    assert only(Played, outcome).seat == only(SeatHandedOver, outcome).seat == 0
    assert only(HandChanged, outcome).hand.legal == ()
    assert only(TurnStarted, outcome).hand.seat == 1
    assert (await game.seats())[0].autoplay


async def test_take_back_is_offered_and_done_only_for_a_seat_the_computer_plays(
    game: Game,
) -> None:
    gid, commands = game.game_id, game.commands
    assert not await commands.can_take_back(gid, ANA.user_id)
    assert not await commands.can_take_back(gid, EKO.user_id)
    await game.refused(commands.take_back(gid, ANA.user_id), StaleButton)
    await game.refused(commands.take_back(gid, EKO.user_id), NotSeated)
    handed = await game.sent(commands.hand_over(gid, ANA.user_id))
    assert await commands.can_take_back(gid, ANA.user_id)
    assert not await commands.can_take_back(gid, BUDI.user_id)
    outcome = await game.sent(commands.take_back(gid, ANA.user_id))
    assert types(outcome) == [TableChanged, HandChanged, TurnStarted]
    assert only(HandChanged, outcome).hand.seat == 0
    assert only(TurnStarted, outcome).hand.seat == 1
    assert outcome.version == handed.version
    assert not await commands.can_take_back(gid, ANA.user_id)
    await game.refused(commands.take_back(gid, ANA.user_id), StaleButton)


async def test_play_on_moves_the_computers_of_a_game_that_waits_for_nobody(alone: Game) -> None:
    gid, service = alone.game_id, alone.service
    # Ana's move is stored, then its worker dies before the computer answers.
    async with service.cache.lock(gid):
        await service.tables.move(gid, ANA.user_id, alone.version, alone.opening())
    service.forget(gid)
    assert await service.stalled() == [gid]
    outcome = await alone.sent(alone.commands.play_on(gid))
    assert types(outcome) == [Played, TableChanged, TurnStarted]
    assert only(Played, outcome).seat == 1
    assert only(TurnStarted, outcome).hand.seat == 0
    assert await service.stalled() == []
    assert (await alone.sent(alone.commands.play_on(gid))).effects == ()


async def test_resume_gives_a_turn_that_ran_out_meanwhile_a_whole_turn(game: Game) -> None:
    game.clock.advance(TURN.total_seconds() * 3)
    game.service.forget(game.game_id)  # the bot restarts
    outcome = await game.sent(game.commands.resume(game.game_id))
    assert types(outcome) == [TableChanged, HandChanged, TurnStarted]
    assert outcome.version == game.version + 1
    assert only(TurnStarted, outcome).deadline == game.clock() + TURN


async def test_stop_by_the_opener_publishes_the_last_table_and_by_another_nothing(
    game: Game,
) -> None:
    gid, commands = game.game_id, game.commands
    await game.refused(commands.stop(gid, BUDI.user_id, False), NotAllowed)
    assert (await commands.facts(gid)).status is GameStatus.RUNNING
    move = commands.move(gid, ANA.user_id, game.version, game.opening())
    assert only(Played, await game.sent(move)).seat == 0
    outcome = await game.sent(commands.stop(gid, ANA.user_id, False))
    [stopped] = outcome.effects
    assert isinstance(stopped, Stopped) and stopped.table is not None
    assert stopped.table.aborted and stopped.table.version == game.version + 1
    assert (await game.record()).status is GameStatus.ABORTED
    await game.refused(commands.stop(gid, ANA.user_id, False), GameNotRunning)


async def test_stop_of_a_lobby_publishes_it_closed(lobby: Game) -> None:
    outcome = await lobby.sent(lobby.commands.stop(lobby.game_id, BUDI.user_id, True))
    assert types(outcome) == [Stopped, LobbyChanged]
    assert only(Stopped, outcome).table is None
    assert only(LobbyChanged, outcome).lobby.status is GameStatus.ABORTED


async def test_redraw_shows_the_game_as_it_stands_and_changes_nothing(lobby: Game) -> None:
    gid, commands = lobby.game_id, lobby.commands
    before = await commands.snapshot(gid)
    outcome = await lobby.sent(commands.redraw(gid))
    assert only(LobbyChanged, outcome).lobby == before.lobby
    assert await commands.snapshot(gid) == before
    game = await lobby.started()
    playing = await commands.snapshot(gid)
    assert only(TableChanged, await game.sent(commands.redraw(gid))).table == playing.table
    await game.sent(commands.stop(gid, ANA.user_id, False))
    assert (await game.sent(commands.redraw(gid))).effects == ()


# The chat's changes ------------------------------------------------------------------------------


async def test_leave_for_good_frees_a_lobby_seat_and_closes_the_openers_lobby(lobby: Game) -> None:
    gid, commands = lobby.game_id, lobby.commands
    assert (await lobby.sent(commands.leave_for_good(gid, EKO.user_id))).effects == ()
    budi = await lobby.sent(commands.leave_for_good(gid, BUDI.user_id))
    assert [s.user_id for s in only(LobbyChanged, budi).lobby.seats] == [ANA.user_id]
    ana = await lobby.sent(commands.leave_for_good(gid, ANA.user_id))
    assert only(LobbyChanged, ana).lobby.status is GameStatus.ABORTED


async def test_leave_for_good_gives_a_running_seat_to_the_computer_for_good(game: Game) -> None:
    outcome = await game.sent(game.commands.leave_for_good(game.game_id, ANA.user_id))
    # The seat is not offered back: it is about to belong to a former player.
    assert SeatHandedOver not in types(outcome)
    assert only(Played, outcome).seat == 0
    assert only(TurnStarted, outcome).hand.seat == 1
    assert (await game.seats())[0].autoplay
    again = await game.sent(game.commands.leave_for_good(game.game_id, ANA.user_id))
    assert again.effects == ()


async def test_end_with_chat_aborts_the_game_once(game: Game) -> None:
    gid = game.game_id
    facts = only(ClosedWithChat, await game.sent(game.commands.end_with_chat(gid))).facts
    assert (facts.game_id, facts.status, facts.playing) == (gid, GameStatus.ABORTED, True)
    assert (await game.sent(game.commands.end_with_chat(gid))).effects == ()
    move = game.commands.move(gid, ANA.user_id, game.version, game.opening())
    await game.refused(move, GameNotRunning)


async def test_pause_stops_the_turn_once_and_go_on_gives_a_whole_turn(game: Game) -> None:
    gid, version, commands = game.game_id, game.version, game.commands
    facts = only(Paused, await game.sent(commands.pause(gid))).facts
    assert facts.paused and facts.deadline is None
    assert (await game.sent(commands.pause(gid))).effects == ()
    assert (await game.sent(commands.timeout(gid, version))).effects == ()
    opening = game.opening()
    await game.refused(commands.move(gid, ANA.user_id, version, opening), GamePaused)
    game.clock.advance(600)
    going = await game.sent(commands.go_on(gid))
    assert types(going) == [TableChanged, HandChanged, TurnStarted]
    assert going.version == version + 1
    assert only(TurnStarted, going).deadline == game.clock() + TURN
    assert (await game.sent(commands.go_on(gid))).effects == ()
    moved = await game.sent(commands.move(gid, ANA.user_id, version + 1, opening))
    assert only(Played, moved).code == opening


# Questions ---------------------------------------------------------------------------------------


async def test_questions_read_the_game_and_publish_nothing(lobby: Game) -> None:
    gid, commands = lobby.game_id, lobby.commands
    feed = lobby.service.feed.subscribe()
    snapshot = await commands.snapshot(gid)
    assert snapshot.table is None and dict(snapshot.hands) == {}
    assert snapshot.hand_of(ANA.user_id) is None
    assert snapshot.lobby == await commands.lobby(gid)
    assert snapshot.facts == await commands.facts(gid)
    with pytest.raises(GameNotRunning):
        await commands.table(gid)
    with pytest.raises(NotSeated):
        await commands.hand(gid, ANA.user_id)
    assert feed.waiting() == []
    feed.close()
    game = await lobby.started()
    feed = game.service.feed.subscribe()
    facts = await commands.facts(gid)
    assert (facts.kind, facts.status, facts.playing) == (game.kind, GameStatus.RUNNING, True)
    assert (await commands.table(gid)).version == game.version
    hand = await commands.hand(gid, ANA.user_id)
    assert hand.private == await commands.private(gid, ANA.user_id)
    assert hand.seat == 0 and game.opening() in hand.legal
    assert (await commands.hand(gid, BUDI.user_id)).legal == ()
    with pytest.raises(NotSeated):
        await commands.private(gid, EKO.user_id)
    assert feed.waiting() == []
    feed.close()


async def test_a_snapshot_gives_each_person_their_own_hand_under_their_seat(game: Game) -> None:
    gid, commands = game.game_id, game.commands
    snapshot = await commands.snapshot(gid)
    assert snapshot.table == await commands.table(gid)
    assert snapshot.lobby.status is GameStatus.RUNNING
    assert set(snapshot.hands) == {0, 1}
    for seat, person in enumerate([ANA, BUDI]):
        hand = snapshot.hand_of(person.user_id)
        assert hand is not None and hand.seat == seat
        assert hand.private == await commands.private(gid, person.user_id)
    ana, budi = snapshot.hands[0], snapshot.hands[1]
    assert ana.private != budi.private
    assert ana.legal and budi.legal == ()
    assert snapshot.hand_of(EKO.user_id) is None


async def test_turn_view_and_step_view_answer_the_current_turn_only(game: Game) -> None:
    gid, version, commands, rules = game.game_id, game.version, game.commands, game.rules
    opening = game.opening()
    view = await commands.turn_view(gid, ANA.user_id, version)
    assert view.seat == 0 and opening in view.legal
    shown, codes = await commands.step_view(gid, ANA.user_id, version, rules.pick(rules.opening))
    assert shown == view and opening in codes and set(codes) <= set(view.legal)
    with pytest.raises(PickHasNoMove):
        await commands.step_view(gid, ANA.user_id, version, rules.pick(rules.answer))
    with pytest.raises(NotYourTurn):
        await commands.turn_view(gid, BUDI.user_id, version)
    with pytest.raises(NotSeated):
        await commands.turn_view(gid, EKO.user_id, version)
    await game.play(ANA, rules.opening)
    with pytest.raises(StaleButton):
        await commands.turn_view(gid, BUDI.user_id, version)
    with pytest.raises(StaleButton):
        await commands.step_view(gid, BUDI.user_id, version, rules.pick(rules.answer))
    budi = await commands.turn_view(gid, BUDI.user_id, game.version)
    assert budi.seat == 1 and game.code(rules.answer) in budi.legal
