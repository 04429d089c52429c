"""Two services on one PostgreSQL database, as two workers: neither acts on a stale copy."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from gaple_bot.service.runtime import GameService
from gaple_bot.service.seen import turn_view
from gaple_bot.service.views import LobbyView, Person
from gaple_bot.store import GameStatus, Store
from gaple_bot.store.game_locks import GAME_LOCK_SPACE
from tests.postgres import advisory_lock_holder, end_session

pytestmark = pytest.mark.asyncio

GROUP = -1001
DEADLINE = 30.0
"""Seconds a change held up by a lock may take once the lock is free (CI may be slow)."""
WATCH = 0.3
"""Seconds a change is watched to be still waiting (it must never get through meanwhile)."""
NO_BREAK = timedelta(0)
ANA, BUDI, CITRA, DEWI = (
    Person(n, name, "id") for n, name in enumerate(("Ana", "Budi", "Citra", "Dewi"), start=1)
)


@pytest.fixture
async def workers(postgres_url: str) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two services with their own caches and lock connections, on one database; the next
    round is played at once (the break after a round's end has its own tests)."""
    first = GameService(Store.open(postgres_url), rng=random.Random(1), round_break=NO_BREAK)
    second = GameService(Store.open(postgres_url), rng=random.Random(2), round_break=NO_BREAK)
    try:
        for person in (ANA, BUDI, CITRA, DEWI):
            await first.players.private_chat_opened(person)
        yield first, second
    finally:
        await first.close()
        await second.close()


async def _open(service: GameService) -> int:
    lobby = await service.lobbies.open(service.registry.get("gaple"), GROUP, "Group", None, ANA)
    return lobby.game_id


async def _cached(service: GameService, game_id: int) -> None:
    """The worker reads the game into its cache (as any update about it would)."""
    async with service.cache.lock(game_id):
        await service.cache.get(game_id)
    assert game_id in service.cache.games


async def _join(service: GameService, game_id: int, person: Person) -> LobbyView:
    async with service.cache.lock(game_id):
        return await service.lobbies.join(game_id, person)


async def _started_and_cached(first: GameService, second: GameService) -> int:
    """Ana and Budi's game started on the first worker, cached by the second."""
    game_id = await _open(first)
    await _join(first, game_id, BUDI)
    async with first.cache.lock(game_id):
        await first.lobbies.start(game_id, ANA.user_id, is_admin=False)
    await _cached(second, game_id)
    return game_id


async def _person_moves(service: GameService, game_id: int) -> None:
    """The person to move makes their first legal move on this worker (the game itself
    changes; its chat and people do not)."""
    async with service.cache.lock(game_id):
        live = await service.cache.get(game_id)
        assert live.match is not None and live.match.to_move is not None
        person = ANA if live.seats[live.match.to_move].user_id == ANA.user_id else BUDI
        view = turn_view(live, person.user_id, live.version)
        await service.tables.play(game_id, person.user_id, live.version, view.legal[0])


def _seated(lobby: LobbyView) -> list[int | None]:
    return [seat.user_id for seat in lobby.seats]


async def test_a_join_on_a_worker_with_a_stale_lobby_keeps_every_seat(
    workers: tuple[GameService, GameService],
):
    first, second = workers
    game_id = await _open(first)
    await _cached(second, game_id)
    assert _seated(await _join(first, game_id, BUDI)) == [1, 2]
    # The second worker's copy still shows one seat; it must learn of Budi's before seating.
    assert _seated(await _join(second, game_id, CITRA)) == [1, 2, 3]
    assert _seated(await _join(first, game_id, DEWI)) == [1, 2, 3, 4]
    async with second.cache.lock(game_id):
        live = await second.cache.get(game_id)
    assert [seat.user_id for seat in live.seats] == [1, 2, 3, 4]


async def test_a_setting_changed_on_one_worker_is_seen_by_the_other(
    workers: tuple[GameService, GameService],
):
    first, second = workers
    game_id = await _open(first)
    await _cached(second, game_id)
    kind = first.registry.get("gaple")
    levels = next(spec for spec in kind.options if spec.name == "level").choices
    await first.players.change_setting(GROUP, kind, "level", levels.index("hard"))
    await first.players.set_chat_language(GROUP, "Group", "en")
    async with second.cache.lock(game_id):
        live = await second.cache.get(game_id)
        assert live.options["level"] == "hard"
        assert live.chat.language == "en"


async def test_a_language_chosen_on_one_worker_is_seen_by_the_other(
    workers: tuple[GameService, GameService],
):
    first, second = workers
    game_id = await _open(first)
    await _join(first, game_id, BUDI)
    await _cached(second, game_id)
    await first.players.set_user_language(BUDI, "en")
    async with second.cache.lock(game_id):
        live = await second.cache.get(game_id)
        assert live.languages[BUDI.user_id] == "en"


async def test_a_worker_keeps_its_copy_while_nobody_else_changes_the_game(
    workers: tuple[GameService, GameService],
):
    """Its own changes do not make it read the game again (a replay per update would cost)."""
    first, _ = workers
    game_id = await _open(first)
    await _join(first, game_id, BUDI)
    async with first.cache.lock(game_id):
        copy = await first.cache.get(game_id)
    async with first.cache.lock(game_id):
        assert await first.cache.get(game_id) is copy


async def test_moves_made_on_one_worker_are_played_on_from_the_other(
    workers: tuple[GameService, GameService],
):
    """Ana plays against three computers, her taps reaching the workers in turn: each worker
    sees the other's moves (a stale copy would refuse her move as an old button)."""
    first, second = workers
    game_id = await _open(first)
    async with first.cache.lock(game_id):
        await first.lobbies.start(game_id, ANA.user_id, is_admin=False)
    played = 0
    for turn in range(8):
        service = (second, first)[turn % 2]
        async with service.cache.lock(game_id):
            live = await service.cache.get(game_id)
            if live.status is not GameStatus.RUNNING:
                break
            view = turn_view(live, ANA.user_id, live.version)
            await service.tables.play(game_id, ANA.user_id, live.version, view.legal[0])
            played += 1
    assert played >= 2
    versions = []
    for service in workers:
        async with service.cache.lock(game_id):
            versions.append((await service.cache.get(game_id)).version)
    async with first.store.read() as tx:
        stored = (await tx.games.get(game_id)).version
    assert versions == [stored, stored]


async def test_a_name_changed_while_another_worker_holds_the_game_is_seen(
    workers: tuple[GameService, GameService],
):
    """A name or language comes with any update and is stored with no game's lock held; the
    worker holding the game meanwhile must not take its copy for fresh afterwards."""
    first, second = workers
    game_id = await _open(first)
    await _join(first, game_id, BUDI)
    async with first.cache.lock(game_id):
        await first.cache.get(game_id)
        await second.players.private_chat_opened(Person(BUDI.user_id, "Budi B.", "en"))
    async with first.cache.lock(game_id):
        live = await first.cache.get(game_id)
        assert live.names[BUDI.user_id] == "Budi B."


async def test_a_chat_title_changed_while_another_worker_holds_the_game_is_seen(
    workers: tuple[GameService, GameService],
):
    first, second = workers
    game_id = await _open(first)
    async with first.cache.lock(game_id):
        await first.cache.get(game_id)
        await second.players.chat(GROUP, "Renamed group")
    async with first.cache.lock(game_id):
        live = await first.cache.get(game_id)
        assert live.chat.title == "Renamed group"


async def test_a_setting_waits_for_the_game_being_played_on_the_same_worker(
    workers: tuple[GameService, GameService],
):
    """A move in progress sees one set of options from its start to its end."""
    first, _ = workers
    game_id = await _open(first)
    kind = first.registry.get("gaple")
    levels = next(spec for spec in kind.options if spec.name == "level").choices
    async with first.cache.lock(game_id):
        before = (await first.cache.get(game_id)).options["level"]
        changing = asyncio.create_task(
            first.players.change_setting(GROUP, kind, "level", levels.index("hard"))
        )
        done, _ = await asyncio.wait({changing}, timeout=WATCH)
        assert not done
        assert (await first.cache.get(game_id)).options["level"] == before != "hard"
    await asyncio.wait_for(changing, DEADLINE)
    async with first.cache.lock(game_id):
        assert (await first.cache.get(game_id)).options["level"] == "hard"


async def test_a_worker_whose_lock_connection_breaks_drops_the_copy_it_held(
    workers: tuple[GameService, GameService], postgres_url: str
):
    """Its lock went with the connection, so another worker may have changed the game: the
    block ends without an error, and the game is read again next time."""
    first, second = workers
    game_id = await _open(first)
    async with first.cache.lock(game_id):
        await first.cache.get(game_id)
        await _break_lock_connection(postgres_url, game_id)
        # Another game's update on this worker finds the connection gone, and takes a new one.
        await asyncio.wait_for(first.store.game_locks.acquire(game_id + 1), DEADLINE)
        # Nothing stops the other worker now; it seats Budi.
        await _join(second, game_id, BUDI)
    assert game_id not in first.cache.games
    async with first.cache.lock(game_id):
        live = await first.cache.get(game_id)
        assert [seat.user_id for seat in live.seats] == [ANA.user_id, BUDI.user_id]


async def _break_lock_connection(url: str, game_id: int) -> None:
    """End the session holding the game's lock, as a network fault would."""
    holder = await advisory_lock_holder(url, GAME_LOCK_SPACE, game_id)
    assert holder is not None
    await end_session(url, holder)


async def test_a_move_on_another_worker_reads_the_game_again_but_not_its_chat_or_people(
    workers: tuple[GameService, GameService],
):
    """Only what the move changed is read again: the copy's chat settings, names and
    languages still hold (their revisions are unchanged), so the new copy takes them."""
    first, second = workers
    game_id = await _started_and_cached(first, second)
    old = second.cache.games[game_id]
    await _person_moves(first, game_id)
    async with second.cache.lock(game_id):
        assert game_id in second.cache.outdated
        new = await second.cache.get(game_id)
        assert game_id not in second.cache.outdated
    assert new is not old
    assert new.version > old.version
    assert new.chat is old.chat
    assert new.names == {ANA.user_id: "Ana", BUDI.user_id: "Budi"}
    assert new.languages == old.languages
    assert new.match is not None and old.match is not None
    assert new.match.ply > old.match.ply
    # As a copy read afresh: the same version and the same moves.
    async with second.store.read() as tx:
        fresh = await second.cache.load(tx, game_id)
    assert fresh.match is not None
    assert (new.version, new.match.ply) == (fresh.version, fresh.match.ply)


async def test_a_copy_out_of_date_serves_only_the_block_that_found_it(
    workers: tuple[GameService, GameService],
):
    """The second worker finds its copy out of date in a block that does not read the game
    (a setting changed there): the copy goes with the block, and the next read shows the new
    setting rather than the copy's."""
    first, second = workers
    game_id = await _started_and_cached(first, second)
    await _person_moves(first, game_id)
    kind = second.registry.get("gaple")
    levels = next(spec for spec in kind.options if spec.name == "level").choices
    await second.players.change_setting(GROUP, kind, "level", levels.index("hard"))
    assert game_id not in second.cache.outdated
    async with second.cache.lock(game_id):
        live = await second.cache.get(game_id)
    assert live.options["level"] == "hard"
