"""Finished games for replays and their reviews, analysed in the background once a game ends."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import text

from gaple_bot.games.review import GameReview
from gaple_bot.service import lobby
from gaple_bot.service.api import GameService
from gaple_bot.service.computer import ComputerPlayers
from gaple_bot.service.errors import NoSuchGame
from gaple_bot.service.outcome import GameEnded, Outcome
from gaple_bot.service.progress import GameOver
from gaple_bot.service.tokens import REPLAY_START_PREFIX
from gaple_bot.store import GameStatus
from tests.games.gaple.rules.hand_dealt import classic_deal

from .deals import ANA_GOES_OUT, ANA_GOES_OUT_MOVES
from .kit import ANA, Table

Tables = Callable[[str], Table]
WAIT = 300.0
"""Seconds a test waits for a review before failing (generous: the machine may be loaded)."""


ROUNDS = 5
"""Rounds of ANA_GOES_OUT's hands (12 points each) that take Ana past a target of 50."""
ANA_GOES_OUT_AGAIN = classic_deal(
    "66 65 55 54 44 43 33", "00 01 02 11 12 22 63", leader=0, lead=None
)
"""ANA_GOES_OUT's hands for a later round: its winner leads, with any tile (C5)."""


async def finished_game(table: Tables) -> tuple[Table, GameOver]:
    """Ana against a computer at a classic table of target 50, dealt ANA_GOES_OUT until Ana
    has won it."""
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.set_option("target", "50")
    await gaple.open(ANA)
    await gaple.add_computer(ANA)
    await gaple.start(ANA, deals=[ANA_GOES_OUT])
    gaple.deal_next(*[ANA_GOES_OUT_AGAIN] * (ROUNDS - 1))
    for _ in range(ROUNDS):
        progress = await gaple.play_all([ANA], ANA_GOES_OUT_MOVES)
    over = progress.steps[-1]
    assert isinstance(over, GameOver)
    return gaple, over


async def test_a_finished_game_is_listed_and_opened_by_its_own_replay_token(
    table: Tables, service: GameService
) -> None:
    gaple, _ = await finished_game(table)
    record = await gaple.record()
    listed = await service.reviews.finished(record.chat_id)
    assert [game.game_id for game in listed] == [gaple.game_id]
    game = listed[0]
    assert game.kind == "gaple" and game.replay_token == record.replay_token
    assert [(s.seat, s.name, s.is_person, s.place, s.points) for s in game.seats] == [
        (0, ANA.name, True, 1, 12 * ROUNDS),
        (1, "", False, 2, 0),
    ]
    assert game.people == (0,)
    assert await service.reviews.by_replay_token(game.replay_token) == game
    assert await service.reviews.game(gaple.game_id) == game
    assert record.join_token is not None
    with pytest.raises(NoSuchGame):
        await service.reviews.by_replay_token(record.join_token)
    with pytest.raises(NoSuchGame):
        await service.reviews.by_replay_token("")
    history = await service.reviews.history(gaple.game_id)
    assert len(history) == ROUNDS
    assert all(len(codes) > len(ANA_GOES_OUT_MOVES.split()) for _, codes in history)


async def test_a_running_game_is_not_a_finished_one(table: Tables, service: GameService) -> None:
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.open(ANA)
    await gaple.add_computer(ANA)
    await gaple.start(ANA, deals=[ANA_GOES_OUT])
    with pytest.raises(NoSuchGame):
        await service.reviews.game(gaple.game_id)
    with pytest.raises(NoSuchGame):
        await service.reviews.history(gaple.game_id)
    assert await service.reviews.finished((await gaple.record()).chat_id) == []


async def test_a_game_s_end_is_reviewed_in_the_background_once(
    table: Tables, service: GameService
) -> None:
    await service.start_reviews()
    ready: list[int] = []
    service.reviews.when_ready(ready.append)
    gaple, over = await finished_game(table)
    # The game's end, as every command publishes it, starts the analysis.
    service.feed.publish(Outcome(gaple.game_id, (GameEnded(over.table, over.history),)))
    review = await asyncio.wait_for(service.reviews.reviewed(gaple.game_id), WAIT)
    assert isinstance(review, GameReview)
    assert ready == [gaple.game_id]
    assert [summary.seat for summary in review.seats] == [0]
    assert review.moves and {move.seat for move in review.moves} == {0}
    assert {move.round for move in review.moves} == set(range(1, ROUNDS + 1))
    # Ana's second move of each round chooses among [6|5], [4|3] and [3|3].
    assert (1, 3) in {(move.round, move.ply) for move in review.moves}
    assert await service.reviews.review(gaple.game_id) == review
    assert await service.reviews.review_json(gaple.game_id) == review.to_json()
    # Asked again, it is told again from the store: nothing is analysed twice.
    pieces: list[object] = []
    analyse = service.computer.in_background

    async def counted(work: Callable[[], object]) -> object:
        pieces.append(work)
        return await analyse(work)

    service.computer.in_background = counted  # type: ignore[assignment]
    told = asyncio.Event()
    service.reviews.when_ready(lambda _: told.set())
    service.reviews.queue(gaple.game_id)
    await asyncio.wait_for(told.wait(), WAIT)
    assert ready == [gaple.game_id, gaple.game_id] and pieces == []


async def test_a_review_owed_after_a_stop_is_made_at_the_next_start(
    table: Tables, service: GameService
) -> None:
    gaple, _ = await finished_game(table)
    # Not running: asking queues nothing and says it is being prepared.
    assert await service.reviews.review_json(gaple.game_id) is None
    await service.start_reviews(owed=True)
    review = await asyncio.wait_for(service.reviews.reviewed(gaple.game_id), WAIT)
    assert review.seats[0].seat == 0


class BlockingKind:
    """A kind whose computer thinks until told to stop (a live decision in progress)."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.release = threading.Event()
        self.name = "blocking"

    def computer_move(self, level: str, view: object, seed: int) -> int:
        self.thinking.set()
        assert self.release.wait(WAIT)
        return 7


async def test_background_work_waits_for_live_decisions() -> None:
    kind = BlockingKind()
    with ThreadPoolExecutor(2) as executor:
        try:
            players = ComputerPlayers(executor)
            live = asyncio.create_task(
                players.choose(kind, "hard", None, random.Random(1))  # type: ignore[arg-type]
            )
            await asyncio.to_thread(kind.thinking.wait, WAIT)
            started = threading.Event()
            background = asyncio.create_task(players.in_background(lambda: started.set() or 3))
            # A free worker is there, but the live decision runs: the background work waits.
            for _ in range(20):
                await asyncio.sleep(0)
            assert not started.is_set() and not background.done()
            kind.release.set()
            assert await asyncio.wait_for(live, WAIT) == 7
            assert await asyncio.wait_for(background, WAIT) == 3
            assert started.is_set()
        finally:
            kind.release.set()


async def test_background_work_takes_the_spare_process_beside_live_decisions() -> None:
    kind = BlockingKind()
    with ThreadPoolExecutor(2) as executor:
        try:
            players = ComputerPlayers(executor, spare=True)
            live = asyncio.create_task(
                players.choose(kind, "hard", None, random.Random(1))  # type: ignore[arg-type]
            )
            await asyncio.to_thread(kind.thinking.wait, WAIT)
            # The live decision still thinks: the background work runs on the spare worker.
            assert await asyncio.wait_for(players.in_background(lambda: 3), WAIT) == 3
            assert not live.done()
            kind.release.set()
            assert await asyncio.wait_for(live, WAIT) == 7
        finally:
            kind.release.set()


async def test_a_move_the_computer_made_for_a_person_is_not_reviewed_as_theirs(
    table: Tables, service: GameService
) -> None:
    gaple = table("gaple")
    await gaple.set_option("computers", "off")
    await gaple.set_option("target", "50")
    await gaple.open(ANA)
    await gaple.add_computer(ANA)
    await gaple.start(ANA, deals=[ANA_GOES_OUT])
    await gaple.play(ANA, "R66")
    # Ana's turn to choose among three runs out: the computer moves for her.
    assert await gaple.timeout() is not None
    while (await gaple.record()).status is not GameStatus.FINISHED:
        turn = (await gaple.progress()).turn
        assert turn is not None and turn.seat == 0
        await gaple.play_code(ANA, turn.legal[0])
    async with service.store.read() as tx:
        chosen_by_computer = await tx.moves.by_computer(gaple.game_id)
    assert (1, 2) in chosen_by_computer  # the timed-out turn (its ply counts from 0)
    await service.start_reviews(owed=False)
    review = await asyncio.wait_for(service.reviews.reviewed(gaple.game_id), WAIT)
    reviewed = {(move.round, move.ply) for move in review.moves}
    assert (1, 3) not in reviewed and reviewed
    assert not {(r, p + 1) for r, p in chosen_by_computer} & reviewed


async def test_a_finished_game_without_a_replay_token_is_left_out_not_fatal(
    table: Tables, service: GameService
) -> None:
    gaple, _ = await finished_game(table)
    record = await gaple.record()
    async with service.store.transaction() as tx:
        # As a worker of the version before replays finishes a game during an upgrade.
        await tx.session.execute(
            text("UPDATE games SET replay_token = NULL WHERE id = :id"), {"id": gaple.game_id}
        )
    assert await service.reviews.finished(record.chat_id) == []
    with pytest.raises(NoSuchGame):
        await service.reviews.game(gaple.game_id)
    await service.start_reviews(owed=True)
    review = await asyncio.wait_for(service.reviews.reviewed(gaple.game_id), WAIT)
    assert review.seats[0].seat == 0


async def test_a_review_another_worker_stored_is_told_to_whoever_waits_here(
    table: Tables, service: GameService
) -> None:
    gaple, _ = await finished_game(table)
    stored = GameReview(moves=(), seats=()).to_json()
    async with service.store.transaction() as tx:
        await tx.reviews.put(gaple.game_id, stored["version"], stored)
    await service.start_reviews(owed=False)
    told = asyncio.Event()
    service.reviews.when_ready(lambda game_id: told.set() if game_id == gaple.game_id else None)
    service.reviews.queue(gaple.game_id)
    await asyncio.wait_for(told.wait(), WAIT)
    assert await service.reviews.review_json(gaple.game_id) == stored


def test_a_join_token_never_reads_as_a_replay_s_start(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = iter(["rp_" + "a" * 19, "rp_" + "b" * 19, "c" * 22])
    monkeypatch.setattr(lobby.secrets, "token_urlsafe", lambda _: next(drawn))
    assert lobby.new_join_token() == "c" * 22
    assert REPLAY_START_PREFIX == "rp_"
