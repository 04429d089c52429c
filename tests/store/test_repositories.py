"""Repositories: users, chats, games, seats and rounds, as the service layer uses them."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from gaple_bot.games.gaple.rules import GameConfig, RuleSet
from gaple_bot.games.options import checked_options
from gaple_bot.store import (
    ChatNotFound,
    ChatSettings,
    ComputerLevel,
    CorruptGame,
    GameAlreadyActive,
    GameNotFound,
    GameNotStarted,
    GameRecord,
    GameStateError,
    GameStatus,
    RoundSummary,
    SeatNotFound,
    SeatRecord,
    SeatTaken,
    Store,
    UserNotFound,
    computer_player_id,
)

from .kit import GAPLE, load_game, load_game_in, open_game

DEFAULT = dict(GameConfig().to_dict())

NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
CHAT = -1001


async def _lobby(store: Store, thread_id: int | None = None) -> GameRecord:
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        await tx.users.upsert(1, "Ana", now=NOW)
        return await tx.games.create(CHAT, thread_id, GAPLE.name, DEFAULT, 1, now=NOW)


async def test_a_game_is_found_by_its_join_token(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        await tx.users.upsert(1, "Ana", now=NOW)
        created = await tx.games.create(
            CHAT, None, GAPLE.name, DEFAULT, 1, join_token="s3cret", now=NOW
        )
    async with store.read() as tx:
        found = await tx.games.by_join_token("s3cret")
        assert await tx.games.by_join_token("S3CRET") is None
        assert await tx.games.by_join_token(str(created.id)) is None
    assert found == created
    assert found.join_token == "s3cret"


async def test_users(store: Store) -> None:
    async with store.transaction() as tx:
        created = await tx.users.upsert(1, "Ana", now=NOW)
        assert created.display_name == "Ana"
        assert not created.can_message and not created.is_computer
        await tx.users.upsert(1, "Ana B.", now=NOW)
        await tx.users.set_can_message(1, True)
        await tx.users.set_language(1, "id")
        with pytest.raises(UserNotFound):
            await tx.users.set_language(2, "en")
    async with store.read() as tx:
        ana = await tx.users.get(1)
        computer = await tx.users.get(computer_player_id(ComputerLevel.HARD))
        assert await tx.users.get(2) is None
    assert ana is not None and (ana.display_name, ana.language, ana.can_message) == (
        "Ana B.",
        "id",
        True,
    )
    assert computer is not None and computer.is_computer


async def test_chat_settings_default_and_change(store: Store) -> None:
    async with store.transaction() as tx:
        settings = await tx.chats.ensure(CHAT, "Warung", now=NOW)
        assert settings == ChatSettings(CHAT, "Warung")
        # Nothing chosen yet: the kind's defaults apply (60 seconds, normal computers).
        defaults = checked_options(GAPLE.options, settings.options.get("gaple", {}), {})
        assert (defaults["turn"], defaults["level"]) == ("60", "normal")
        chosen = {"rules": "discards-pass", "target": "150", "turn": "30", "level": "hard"}
        for name, value in chosen.items():
            await tx.chats.set_option(CHAT, "gaple", name, value, now=NOW)
        await tx.chats.set_language(CHAT, "id")
        changed = ChatSettings(CHAT, "Warung", "id", {"gaple": chosen})
        assert await tx.chats.get(CHAT) == changed
        # Seeing the chat again refreshes its title and keeps its settings.
        again = await tx.chats.ensure(CHAT, "Warung Kopi", now=NOW)
        untitled = await tx.chats.ensure(CHAT, None, now=NOW)
        with pytest.raises(ChatNotFound):
            await tx.chats.set_option(-999, "gaple", "target", "50")
        with pytest.raises(ChatNotFound):
            await tx.chats.set_language(-999, "id")
    assert again == untitled == dataclasses.replace(changed, title="Warung Kopi")
    assert checked_options(GAPLE.options, again.options["gaple"], {}) == {
        **chosen,
        "computers": "on",
        "pictures": "on",
    }


async def test_options_are_kept_per_kind_and_changed_one_at_a_time(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        await tx.chats.ensure(CHAT - 1, "Elsewhere", now=NOW)
        await tx.chats.set_option(CHAT, "gaple", "target", "50")
        await tx.chats.set_option(CHAT, "other", "target", "7")
        await tx.chats.set_option(CHAT, "other", "turn", "90")
        await tx.chats.set_option(CHAT, "gaple", "target", "200")  # a new value replaces it
        await tx.chats.set_option(CHAT - 1, "gaple", "level", "easy")
    async with store.read() as tx:
        settings = await tx.chats.get(CHAT)
        elsewhere = await tx.chats.get(CHAT - 1)
    assert settings is not None and settings.options == {
        "gaple": {"target": "200"},
        "other": {"target": "7", "turn": "90"},
    }
    assert elsewhere is not None and elsewhere.options == {"gaple": {"level": "easy"}}
    # A stored value the kind no longer accepts falls back to its default.
    async with store.transaction() as tx:
        await tx.chats.set_option(CHAT, "gaple", "target", "a lot")
        stored = await tx.chats.get(CHAT)
    assert stored is not None and stored.options["gaple"] == {"target": "a lot"}
    assert checked_options(GAPLE.options, stored.options["gaple"], {})["target"] == "100"


async def test_last_kind_is_the_kind_of_the_chat_s_latest_started_game(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        await tx.users.upsert(1, "Ana", now=NOW)
        assert await tx.chats.last_kind(CHAT) is None
        first = await tx.games.create(CHAT, None, "gaple", DEFAULT, 1, now=NOW)
        # A lobby nobody started is not a game played.
        assert await tx.chats.last_kind(CHAT) is None
        await tx.games.start(first.id, now=NOW)
        assert await tx.chats.last_kind(CHAT) == "gaple"
        await tx.games.abort(first.id, now=NOW)
        later = NOW + timedelta(minutes=1)
        other = await tx.games.create(CHAT, 5, "other", {"seats": 3}, 1, now=later)
        await tx.games.start(other.id, now=later)
        assert await tx.chats.last_kind(CHAT) == "other"
        # The latest is the one started last, not the one stored last.
        earlier = await tx.games.create(CHAT, 7, "gaple", DEFAULT, 1, now=NOW)
        await tx.games.start(earlier.id, now=NOW)
        assert await tx.chats.last_kind(CHAT) == "other"
        await tx.games.create(CHAT, None, "gaple", DEFAULT, 1, now=later + timedelta(minutes=1))
        assert await tx.chats.last_kind(CHAT) == "other"
        assert await tx.chats.last_kind(CHAT - 1) is None
    assert (other.kind, other.config) == ("other", {"seats": 3})


async def test_one_active_game_per_chat_and_per_topic(store: Store) -> None:
    lobby = await _lobby(store)
    assert (lobby.status, lobby.version, lobby.kind, lobby.config) == (
        GameStatus.LOBBY,
        0,
        "gaple",
        DEFAULT,
    )
    with pytest.raises(GameAlreadyActive):
        async with store.transaction() as tx:
            await tx.games.create(CHAT, None, GAPLE.name, DEFAULT, 1, now=NOW)
    with pytest.raises(GameAlreadyActive):  # one active game, whatever its kind
        async with store.transaction() as tx:
            await tx.games.create(CHAT, None, "other", {}, 1, now=NOW)
    topic = await _lobby(store, thread_id=7)
    with pytest.raises(GameAlreadyActive):
        await _lobby(store, thread_id=7)
    async with store.transaction() as tx:
        # The failed insert is rolled back to its savepoint; the unit goes on.
        with pytest.raises(GameAlreadyActive):
            await tx.games.create(CHAT, 7, GAPLE.name, DEFAULT, 1, now=NOW)
        await tx.games.abort(topic.id, now=NOW)
        replacement = await tx.games.create(CHAT, 7, GAPLE.name, DEFAULT, 1, now=NOW)
    async with store.read() as tx:
        assert (await tx.games.active(CHAT, None)) == lobby
        assert (await tx.games.active(CHAT, 7)) == replacement
        assert await tx.games.active(CHAT, 8) is None
        assert [g.id for g in await tx.games.all_active()] == [lobby.id, replacement.id]
        assert (await tx.games.get(topic.id)).status is GameStatus.ABORTED


async def test_game_life_and_status_guards(store: Store) -> None:
    lobby = await _lobby(store)
    deadline = NOW + timedelta(seconds=60)
    async with store.transaction() as tx:
        await tx.games.set_config(lobby.id, dict(GameConfig(RuleSet.DISCARDS, 5, 50).to_dict()))
        await tx.games.set_message(lobby.id, 555)
        await tx.games.start(lobby.id, now=NOW)
        with pytest.raises(GameStateError):
            await tx.games.start(lobby.id, now=NOW)
        with pytest.raises(GameStateError):
            await tx.games.set_config(lobby.id, DEFAULT)
        await tx.games.set_deadline(lobby.id, deadline)
        with pytest.raises(GameNotFound):
            await tx.games.get(999)
    async with store.read() as tx:
        game = await tx.games.get(lobby.id)
    assert game.status is GameStatus.RUNNING and game.started_at == NOW
    assert GameConfig.from_dict(game.config) == GameConfig(RuleSet.DISCARDS, 5, 50)
    assert (game.message_id, game.turn_deadline) == (555, deadline)
    assert game.turn_deadline is not None and game.turn_deadline.tzinfo is UTC
    async with store.transaction() as tx:
        await tx.games.abort(lobby.id, now=NOW)
        with pytest.raises(GameStateError):
            await tx.games.finish(lobby.id, now=NOW)
    async with store.read() as tx:
        aborted = await tx.games.get(lobby.id)
    assert (aborted.status, aborted.turn_deadline, aborted.finished_at) == (
        GameStatus.ABORTED,
        None,
        NOW,
    )


async def test_a_turn_s_reminder_is_taken_once_and_only_while_its_turn_runs(
    store: Store,
) -> None:
    lobby = await _lobby(store)
    deadline, half_time = NOW + timedelta(seconds=60), NOW + timedelta(seconds=30)
    async with store.transaction() as tx:
        await tx.games.start(lobby.id, now=NOW)
        version = await tx.games.bump_version(
            lobby.id, lobby.version, turn_deadline=deadline, remind_at=half_time
        )
    async with store.read() as tx:
        # Due once half time is past, while the turn still runs.
        assert await tx.games.reminders_due(half_time, NOW) == []
        due = await tx.games.reminders_due(half_time + timedelta(seconds=1), NOW)
        assert due == [(lobby.id, version)]
        assert await tx.games.reminders_due(deadline + timedelta(seconds=1), deadline) == []
    async with store.transaction() as tx:
        assert not await tx.games.claim_reminder(lobby.id, version - 1)
        assert await tx.games.claim_reminder(lobby.id, version)
        assert not await tx.games.claim_reminder(lobby.id, version)
    async with store.read() as tx:
        assert await tx.games.reminders_due(deadline, NOW) == []

    # The next turn has a reminder of its own; a turn set without one has none to take.
    async with store.transaction() as tx:
        version = await tx.games.bump_version(
            lobby.id, version, turn_deadline=deadline, remind_at=half_time
        )
        assert await tx.games.claim_reminder(lobby.id, version)
        version = await tx.games.bump_version(lobby.id, version, turn_deadline=deadline)
        assert not await tx.games.claim_reminder(lobby.id, version)
        version = await tx.games.bump_version(
            lobby.id, version, turn_deadline=deadline, remind_at=half_time
        )
        # A paused game (its deadline cleared) and a finished one remind nobody.
        await tx.games.set_deadline(lobby.id, None)
        assert not await tx.games.claim_reminder(lobby.id, version)
    async with store.read() as tx:
        assert await tx.games.reminders_due(deadline, NOW) == []


async def test_seats(store: Store) -> None:
    lobby = await _lobby(store)
    async with store.transaction() as tx:
        await tx.users.upsert(2, "Budi", now=NOW)
        await tx.seats.add(lobby.id, 0, user_id=1)
        with pytest.raises(SeatTaken):
            await tx.seats.add(lobby.id, 1, user_id=1)
        with pytest.raises(SeatTaken):
            await tx.seats.add(lobby.id, 0, user_id=2)
        await tx.seats.add(lobby.id, 1, user_id=2)
        await tx.seats.add(lobby.id, 2, computer_level=ComputerLevel.EASY)
        await tx.seats.add(lobby.id, 3, computer_level=ComputerLevel.EASY)
        await tx.seats.remove(lobby.id, 3)
        with pytest.raises(ValueError):
            await tx.seats.add(lobby.id, 3)
        await tx.games.start(lobby.id, now=NOW)
        await tx.seats.set_autoplay(lobby.id, 1, True)
        await tx.seats.set_timeouts(lobby.id, 1, 2)
        await tx.seats.set_hand_message(lobby.id, 0, 9001)
        with pytest.raises(SeatNotFound):
            await tx.seats.set_timeouts(lobby.id, 3, 1)
    async with store.read() as tx:
        seats = await tx.seats.of_game(lobby.id)
        budi = await tx.seats.running_for_user(2)
    assert seats == [
        SeatRecord(lobby.id, 0, 1, None, False, 0, 9001),
        SeatRecord(lobby.id, 1, 2, None, True, 2, None),
        SeatRecord(lobby.id, 2, None, ComputerLevel.EASY, False, 0, None),
    ]
    assert [s.player_id for s in seats] == [1, 2, computer_player_id(ComputerLevel.EASY)]
    assert budi == [seats[1]]


async def test_round_summaries_are_public_and_the_loader_replays(store: Store) -> None:
    rng = random.Random(3)
    async with store.transaction() as tx:
        game_id, game = await open_game(
            tx, CHAT, GameConfig(RuleSet.CLASSIC, 2), [1, ComputerLevel.HARD], rng, now=NOW
        )
        seat = game.to_move
        assert seat is not None
        move = game.legal_moves()[0]
        game.apply(seat, move)
        deadline = NOW + timedelta(seconds=60)
        version = await tx.record_move(
            game_id, 0, 1, 0, seat, move.code, turn_deadline=deadline, now=NOW
        )
    async with store.read() as tx:
        record = await tx.games.get(game_id)
        summaries = await tx.rounds.summaries(game_id)
        loaded = await load_game_in(tx, game_id)
    assert (version, record.version, record.turn_deadline) == (1, 1, deadline)
    assert summaries == [RoundSummary(game_id, 1, game.round.deal.leader, None, NOW, None)]
    assert loaded.replay_key() == game.replay_key()
    assert (await load_game(store, game_id)).replay_key() == game.replay_key()


def test_public_records_carry_no_hidden_information() -> None:
    """Deals and moves (hands, set-aside tiles, discarded faces) never reach a record that
    feeds a group message."""
    hidden = {"deal", "deals", "hands", "hand", "moves", "code", "set_aside", "rounds"}
    for record in (GameRecord, SeatRecord, RoundSummary, ChatSettings):
        assert not hidden & {f.name for f in dataclasses.fields(record)}


async def test_the_loader_refuses_what_does_not_replay(store: Store) -> None:
    lobby = await _lobby(store)
    with pytest.raises(GameNotStarted):
        await store.load_play(lobby.id)
    with pytest.raises(GameNotFound):
        await store.load_play(999)
    rng = random.Random(5)
    async with store.transaction() as tx:
        await tx.games.abort(lobby.id, now=NOW)
        game_id, game = await open_game(tx, CHAT, GameConfig(RuleSet.CLASSIC, 2), [1, 2], rng)
        seat = game.to_move
        assert seat is not None
        # A gap in the move log: ply 1 without ply 0.
        await tx.record_move(game_id, 0, 1, 1, seat, game.legal_moves()[0].code)
    with pytest.raises(CorruptGame, match="out of sequence"):
        await store.load_play(game_id)
    async with store.transaction() as tx:
        await tx.session.execute(text("DELETE FROM moves"))
        # A move the rules do not allow at ply 0: a pass while holding the lead tile.
        await tx.record_move(game_id, 1, 1, 0, seat, 56)
    with pytest.raises(CorruptGame, match="does not replay"):
        await load_game(store, game_id)
    async with store.transaction() as tx:
        # Rounds must be numbered 1..n: a round 3 without a round 2.
        await tx.session.execute(text("DELETE FROM moves"))
        await tx.rounds.add(game_id, 3, dict(game.round.deal.to_dict()), 0)
    with pytest.raises(CorruptGame, match="numbered"):
        await store.load_play(game_id)
