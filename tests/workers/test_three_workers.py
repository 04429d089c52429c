"""Three worker processes on one PostgreSQL database behind one webhook, as Telegram reaches
them: every update may go to any worker, some twice, and a worker may die mid-round."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
import pytest

from gaple_bot.bot.callback_data import Action, decode, encode
from gaple_bot.bot.metrics import MULTIPROCESS_DIRECTORY
from gaple_bot.bot.pacing.token_window import PACE_FILE_VARIABLE
from gaple_bot.store import GameStatus, Store
from tests.bot.driver import Players, legal_buttons, play_one_turn, turn_message, turn_version
from tests.bot.exposition import samples, value
from tests.bot.harness import carries_moves, load_engine_game, lobby_message
from tests.bot.leaks import (
    assert_group_saw_nothing_hidden,
    assert_player_saw_only_their_own,
    load_secrets,
)
from tests.fakes.telegram_server import FakeMessage, FakeTelegram, running_fake
from tests.postgres import free_port
from tests.workers.processes import start_worker

GROUP = -1001234567890
ANA, BUDI = 2101, 2102
SECRET = "three_workers-secret"
WORKERS = 3
TURN_SECONDS = 12
"""A person's turn: short, so a turn left to run out ends soon (the test's own taps take
well under a second, but a slow machine may let one run out; the game goes on either way)."""
GROUP_PER_MINUTE = 40
"""The group's budget, for the bot and the fake alike: the workers share it or get 429s."""
TABLE_EDIT_SECONDS = 5
"""The table's pace: least time between the group's last message and a table edit, whichever
worker handled the moves (unless a message queued behind the edit lets it go)."""
CLOCK_SLACK = 0.05
"""The workers time the pace on the wall clock, the fake its requests on the monotonic one."""
WAIT = 120.0
"""Seconds to wait for a worker to start or for a change to be shown (CI may be slow)."""
GAME_SECONDS = 420.0
"""Seconds a whole game may take, a dead worker's timers and messages taken over included."""
SECOND_POST_EVERY = 3
"""Every third update is posted again to the next worker, as Telegram retries a post whose
answer it missed."""


@dataclass
class Workers:
    """The worker processes, each on its own port, and where the fake posts each update."""

    directory: Path
    environ: dict[str, str]
    ports: list[int] = field(default_factory=list)
    processes: dict[int, asyncio.subprocess.Process] = field(default_factory=dict)
    pinned: int | None = None
    """While set, every update goes to this worker only."""
    posted: int = 0

    def log(self, index: int) -> Path:
        return self.directory / f"worker{index}.log"

    def output(self) -> str:
        return "\n".join(
            f"--- worker {index}\n{self.log(index).read_text(errors='replace')[-6000:]}"
            for index in range(len(self.ports))
        )

    def url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}/telegram"

    def alive(self) -> list[int]:
        return [index for index, p in sorted(self.processes.items()) if p.returncode is None]

    async def start(self) -> None:
        self.ports = [free_port() for _ in range(WORKERS)]
        for index, port in enumerate(self.ports):
            environ = {
                **self.environ,
                # Worker 0 registers this address; the fake posts to each worker's own.
                "WEBHOOK_URL": self.url(0),
                "WEBHOOK_PORT": str(port),
            }
            self.processes[index] = await start_worker(
                index, WORKERS, self.directory, environ, self.log(index)
            )

    async def kill(self, index: int) -> None:
        """SIGKILL: no chance to send, release or hand over anything."""
        process = self.processes[index]
        process.send_signal(signal.SIGKILL)
        await process.wait()

    async def stop(self) -> list[int | None]:
        """SIGTERM to the workers alive; their exit codes (None for one already killed)."""
        codes: list[int | None] = []
        for _, process in sorted(self.processes.items()):
            if process.returncode is not None:
                codes.append(None)
                continue
            process.send_signal(signal.SIGTERM)
            try:
                codes.append(await asyncio.wait_for(process.wait(), WAIT))
            except TimeoutError:
                process.kill()
                codes.append(await process.wait())
        return codes

    def targets(self) -> list[int]:
        """The workers the next update goes to: the pinned one, else the live ones in turn,
        and every SECOND_POST_EVERY-th update a second time to the next live one."""
        self.posted += 1
        if self.pinned is not None:
            return [self.pinned]
        alive = self.alive()
        first = alive[self.posted % len(alive)]
        if self.posted % SECOND_POST_EVERY or len(alive) < 2:
            return [first]
        return [first, alive[(self.posted + 1) % len(alive)]]


async def _post_updates(fake: FakeTelegram, workers: Workers) -> None:
    """Telegram's side of the webhook: post each waiting update, oldest first, until a worker
    answers 200 (a worker still starting answers 503, a dead one not at all: try another)."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as session:
        while True:
            for update in fake.waiting_updates():
                for index in workers.targets():
                    with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                        await fake.post_update(session, update, workers.url(index))
            await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def _three_workers(
    fake: FakeTelegram, postgres_url: str, directory: Path, turn_seconds: int = TURN_SECONDS
) -> AsyncIterator[Workers]:
    workers = Workers(
        directory,
        {
            "PATH": "/usr/bin:/bin",
            "TELEGRAM_BOT_TOKEN": fake.token,
            "TELEGRAM_API_BASE_URL": fake.base_url,
            "DATABASE_URL": postgres_url,
            "COMPUTER_PROCESSES": "0",
            "WEBHOOK_LISTEN": "127.0.0.1",
            "WEBHOOK_SECRET": SECRET,
            "DEFAULT_TURN_SECONDS": str(turn_seconds),
            "GROUP_MESSAGES_PER_MINUTE": str(GROUP_PER_MINUTE),
            "TABLE_EDIT_SECONDS": str(TABLE_EDIT_SECONDS),
            # The workers' shared window (as the supervisor gives them).
            "BOT_MESSAGES_PER_SECOND": "300",
            "PRIVATE_MESSAGES_PER_SECOND": "1000",
            # A played hand's buttons go at once (the hold has its own tests).
            "TAPPED_HAND_HOLD_SECONDS": "0",
            # The next round is played at once (the break after a round's end has its own).
            "ROUND_BREAK_SECONDS": "0",
            # As the supervisor gives its workers: their metrics add up in one scrape.
            MULTIPROCESS_DIRECTORY: str(directory / "metrics"),
            PACE_FILE_VARIABLE: str(directory / "pace"),
        },
    )
    (directory / "metrics").mkdir()
    await workers.start()
    posting = asyncio.create_task(_post_updates(fake, workers))
    try:
        await _wait_for(lambda: fake.webhook is not None, workers)
        async with aiohttp.ClientSession() as session:
            for index in range(WORKERS):
                await _wait_until_healthy(session, workers, index)
        yield workers
    finally:
        posting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await posting
        await workers.stop()


async def _wait_until_healthy(session: aiohttp.ClientSession, workers: Workers, index: int) -> None:
    url = f"http://127.0.0.1:{workers.ports[index]}/healthz"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        assert workers.processes[index].returncode is None, workers.output()
        with contextlib.suppress(aiohttp.ClientError):
            async with session.get(url) as answer:
                if answer.status == 200:
                    return
        assert loop.time() < deadline, workers.output()
        await asyncio.sleep(0.1)


async def _wait_for(
    condition: Callable[[], Awaitable[bool] | bool],
    workers: Workers,
    seconds: float = WAIT,
) -> None:
    """Wait for `condition`, failing with the workers' output if it does not come or every
    worker died."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        outcome = condition()
        if outcome if isinstance(outcome, bool) else await outcome:
            return
        assert workers.alive(), workers.output()
        assert loop.time() < deadline, f"not there in {seconds}s\n{workers.output()}"
        await asyncio.sleep(0.05)


async def _game_of(store: Store) -> int | None:
    async with store.read() as tx:
        record = await tx.games.active(GROUP, None)
    return None if record is None else record.id


async def _open_and_start(
    fake: FakeTelegram, workers: Workers, rules_choice: int, target_choice: int = 0
) -> None:
    """Ana sets the rules and the target (by default the smallest), opens a table, Budi
    joins, Ana starts."""
    await fake.start_private(ANA)
    await fake.start_private(BUDI)
    await fake.send_message(ANA, GROUP, "/settings")
    await _wait_for(lambda: fake.last_bot_message(GROUP) is not None, workers)
    menu = fake.last_bot_message(GROUP)
    assert menu is not None
    for choice in (encode(Action.SETTING, GROUP, 0, 0, rules_choice),):
        query = await fake.press(ANA, GROUP, menu.message_id, choice)
        await fake.wait_callback_answer(query, timeout=WAIT)
    target = encode(Action.SETTING, GROUP, 0, 1, target_choice)
    query = await fake.press(ANA, GROUP, menu.message_id, target)
    await fake.wait_callback_answer(query, timeout=WAIT)
    await fake.send_message(ANA, GROUP, "/gaple")
    await _wait_for(lambda: _has_lobby(fake), workers)
    lobby = lobby_message(fake).message_id
    query = await fake.press_button(BUDI, GROUP, lobby, "✋ Join")
    await fake.wait_callback_answer(query, timeout=WAIT)
    query = await fake.press_button(ANA, GROUP, lobby, "▶️ Start")
    await fake.wait_callback_answer(query, timeout=WAIT)


def _has_lobby(fake: FakeTelegram) -> bool:
    try:
        lobby_message(fake)
    except AssertionError:
        return False
    return True


async def _play_until(
    fake: FakeTelegram,
    workers: Workers,
    players: tuple[int, ...],
    done: Callable[[], Awaitable[bool] | bool],
    rng: random.Random,
    seconds: float = GAME_SECONDS,
) -> None:
    """The given people play their turns as they come, until `done`, while a worker lives."""
    await Players(fake, players).play_until(
        done,
        rng,
        seconds,
        watch=lambda: "" if workers.alive() else workers.output(),
        story=lambda: f"the game did not get there\n{workers.output()}",
        pause=0.05,
    )


async def _assert_game_right(
    fake: FakeTelegram, workers: Workers, store: Store, game_id: int
) -> None:
    """The final standings shown, every score right, nothing hidden shown, the group's budget
    kept across workers."""
    await _wait_for(
        lambda: any("wins the game" in text for text in fake.all_texts_sent_to(GROUP)), workers
    )
    game = await load_engine_game(store, game_id)
    async with store.read() as tx:
        results = await tx.results.of_game(game_id)
    assert [r.points for r in results] == game.scores
    assert max(game.scores) >= game.config.target
    assert sum(game.scores) == sum(
        sum(r.result.points) for r in game.rounds if r.result is not None
    )
    secrets = await load_secrets(store, game_id)
    assert_group_saw_nothing_hidden(fake, GROUP, secrets)
    assert_player_saw_only_their_own(fake, ANA, 0, secrets)
    assert_player_saw_only_their_own(fake, BUDI, 1, secrets)
    # One lobby, whichever worker took each tap.
    assert len([m for m in fake.bot_messages(GROUP) if _ever_offered(m, "✋ Join")]) == 1
    assert _group_story(fake) == _expected_story(len(game.rounds))
    _assert_tables_paced(fake)
    assert fake.limit_hits["group"] == 0
    fake.assert_no_violations()


async def _assert_every_scrape_counts_every_move(
    workers: Workers, store: Store, game_id: int
) -> None:
    """/metrics on any worker counts the moves all of them stored (each stored its share)."""
    stored = await store.load_play(game_id)
    moves = sum(len(codes) for _, codes in stored.rounds)
    async with aiohttp.ClientSession() as session:
        for port in workers.ports:
            async with session.get(f"http://127.0.0.1:{port}/metrics") as answer:
                assert answer.status == 200
                found = samples(await answer.read())
            assert value(found, "gaple_moves_total", kind="gaple") == moves, workers.output()
            assert value(found, "gaple_games_running") == 0


TABLE = re.compile(r"Gaple · round (\d+) ")
TABLE_HTML = re.compile(r"<b>Gaple</b> · round \d+ ")
ROUND_END = re.compile(r"🏁 Round (\d+):")


def _assert_tables_paced(fake: FakeTelegram) -> None:
    """Whichever worker handled each move, a table edit came the table's pace after the
    group's previous message, or a message queued behind it let it go early (a notice, a
    round's picture after its end's edit), or it is the game's last."""
    writes = fake.group_writes(GROUP)
    for before, edit, after in zip(writes[:-1], writes[1:], [*writes[2:], None], strict=True):
        if edit.method != "editMessageText" or not TABLE_HTML.match(str(edit.params["text"])):
            continue
        if edit.time - before.time >= TABLE_EDIT_SECONDS - CLOCK_SLACK:
            continue
        assert after is None or after.method != "editMessageText", [
            (round(w.time - writes[0].time, 2), w.method, str(w.params.get("text", ""))[:40])
            for w in writes
        ]


def _group_story(fake: FakeTelegram) -> list[tuple[str, int]]:
    """The group's tables, round ends and final standings in the order they were posted,
    each table with the one round every version of it showed (a worker editing another
    round's table would show two)."""
    story: list[tuple[str, int]] = []
    for message in fake.bot_messages(GROUP):
        table = TABLE.match(message.versions[0].text)
        if table is not None:
            shown = {match.group(1) for v in message.versions if (match := TABLE.match(v.text))}
            story.append(("table", int(table.group(1)) if len(shown) == 1 else -len(shown)))
        elif (end := ROUND_END.match(message.text)) is not None:
            story.append(("round end", int(end.group(1))))
        elif "wins the game" in message.text:
            story.append(("standings", 0))
    return story


def _expected_story(rounds: int) -> list[tuple[str, int]]:
    """Each round's own table, then its end; the standings last."""
    story = [step for n in range(1, rounds + 1) for step in (("table", n), ("round end", n))]
    return [*story, ("standings", 0)]


def _ever_offered(message: FakeMessage, label: str) -> bool:
    """Whether any version of the message had a button with this label."""
    return any(
        button.get("text") == label
        for version in message.versions
        for row in (version.reply_markup or {}).get("inline_keyboard", [])
        for button in row
    )


@pytest.mark.parametrize("rules_choice", [0, 1], ids=["classic", "discards"])
async def test_three_workers_play_whole_games_with_updates_spread_and_repeated(
    tmp_path: Path, postgres_url: str, rules_choice: int
) -> None:
    async with running_fake(group_limit_per_minute=GROUP_PER_MINUTE) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, "Three workers", admins=(ANA,), members=(BUDI,))
        store = Store.open(postgres_url)
        try:
            async with _three_workers(fake, postgres_url, tmp_path) as workers:
                await _open_and_start(fake, workers, rules_choice)
                await _wait_for(lambda: _running_game(store), workers)
                game_id = await _game_of(store)
                assert game_id is not None

                async def finished() -> bool:
                    return await _status(store, game_id) is GameStatus.FINISHED

                await _play_until(fake, workers, (ANA, BUDI), finished, random.Random(3))
                await _assert_game_right(fake, workers, store, game_id)
                await _assert_every_scrape_counts_every_move(workers, store, game_id)
                codes = await workers.stop()
            assert codes == [0] * WORKERS, workers.output()
            assert "Traceback" not in workers.output(), workers.output()
        finally:
            await store.close()


async def test_a_worker_killed_mid_round_leaves_the_others_to_finish_the_game(
    tmp_path: Path, postgres_url: str
) -> None:
    """The worker holding Ana's turn timer dies with SIGKILL: another one ends her turn when
    it runs out (the computer plays for her, her turn's buttons go), takes over what it left
    unsent, and the game is finished on the other two with every score right."""
    async with running_fake(group_limit_per_minute=GROUP_PER_MINUTE) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, "Three workers", admins=(ANA,), members=(BUDI,))
        store = Store.open(postgres_url)
        rng = random.Random(5)
        try:
            async with _three_workers(fake, postgres_url, tmp_path) as workers:
                # A target of 100, not 50: the first round alone seldom ends the game, which
                # must still run when Ana is next given a turn.
                await _open_and_start(fake, workers, 0, target_choice=1)
                await _wait_for(lambda: _running_game(store), workers)
                game_id = await _game_of(store)
                assert game_id is not None

                async def some_moves_made() -> bool:
                    game = await load_engine_game(store, game_id)
                    return len(game.round.moves) >= 4

                await _play_until(fake, workers, (ANA, BUDI), some_moves_made, rng)
                # From here on worker 1 takes every update: Budi's taps and the computers'
                # moves they set off run there, so the next turn Ana is given is timed there.
                workers.pinned = 1
                ana_turn = await _next_turn_of_ana(fake, workers, rng)
                await workers.kill(1)
                workers.pinned = None
                # Ana does not tap: her turn runs out on a worker that is alive.
                await _wait_for(
                    lambda: any(
                        "Ana ran out of time" in text for text in fake.all_texts_sent_to(GROUP)
                    ),
                    workers,
                    seconds=WAIT + TURN_SECONDS,
                )
                # The message that gave her the turn no longer offers it.
                await _wait_for(lambda: not fake.message(ANA, ana_turn).buttons(), workers)

                async def finished() -> bool:
                    return await _status(store, game_id) is GameStatus.FINISHED

                await _play_until(fake, workers, (ANA, BUDI), finished, rng)
                await _wait_for(
                    lambda: any("wins the game" in text for text in fake.all_texts_sent_to(GROUP)),
                    workers,
                )
                await _assert_game_right(fake, workers, store, game_id)
                codes = await workers.stop()
            assert codes == [0, None, 0], workers.output()
        finally:
            await store.close()


async def test_a_hand_owed_by_a_worker_killed_before_it_went_out_is_sent_by_another(
    tmp_path: Path, postgres_url: str
) -> None:
    """The worker that makes it Ana's turn dies while her hand is on its way (held up in the
    network): another worker sends her that turn's hand, once, well before the turn runs
    out, and she plays it."""
    turn_seconds = 40
    async with running_fake(group_limit_per_minute=GROUP_PER_MINUTE) as fake:
        fake.add_user(ANA, "Ana", language_code="en")
        fake.add_user(BUDI, "Budi", language_code="en")
        fake.add_group(GROUP, "Three workers", admins=(ANA,), members=(BUDI,))
        store = Store.open(postgres_url)
        rng = random.Random(11)
        try:
            async with _three_workers(fake, postgres_url, tmp_path, turn_seconds) as workers:
                await _open_and_start(fake, workers, 0)
                await _wait_for(lambda: _running_game(store), workers)
                # From here on worker 1 takes every update, and Ana's next turn's hand is held
                # up on its way (it would arrive long after the test).
                workers.pinned = 1
                fake.delay_next("sendMessage", 3600, chat_id=ANA, matching=carries_moves)
                await _tap_until(fake, workers, rng, lambda: fake.delays_planned == 0)
                # Her hand has reached the network: the worker dies before it arrives.
                await workers.kill(1)
                workers.pinned = None
                hands_before = len(fake.bot_messages(ANA))

                def ran_out() -> bool:
                    return any("Ana ran out of time" in t for t in fake.all_texts_sent_to(GROUP))

                def sent_again() -> bool:
                    # A new message: her last hand may still show live buttons, if the dead
                    # worker's edit taking them off was still on its way too.
                    return any(
                        _ever_offered_moves(m) for m in fake.bot_messages(ANA)[hands_before:]
                    )

                await _wait_for(
                    lambda: sent_again() or ran_out(), workers, seconds=WAIT + turn_seconds
                )
                assert not ran_out(), "Ana's turn ran out without her hand"
                # Her hand came once: one new message with move buttons, and she plays it.
                await fake.wait_idle()
                sent = fake.bot_messages(ANA)[hands_before:]
                assert len([m for m in sent if _ever_offered_moves(m)]) == 1
                await play_one_turn(fake, ANA, rng)
                assert not ran_out()
                codes = await workers.stop()
            assert codes == [0, None, 0], workers.output()
        finally:
            await store.close()


async def _tap_until(
    fake: FakeTelegram, workers: Workers, rng: random.Random, done: Callable[[], bool]
) -> None:
    """Ana and Budi tap a legal move (and an end when asked) whenever it is their turn, until
    `done`, which is looked at while each tap is handled."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not done():
        assert loop.time() < deadline, workers.output()
        for user in (ANA, BUDI):
            message = turn_message(fake, user)
            if message is not None and not done():
                await _tap_turn(fake, workers, rng, user, message.message_id, done)
        await asyncio.sleep(0.05)


async def _tap_turn(
    fake: FakeTelegram,
    workers: Workers,
    rng: random.Random,
    user: int,
    message_id: int,
    done: Callable[[], bool],
) -> None:
    """One turn's taps, given up on as soon as `done` (the bot may never finish this one)."""

    def shown() -> FakeMessage:
        return fake.message(user, message_id)

    _label, data = rng.choice(legal_buttons(shown()))
    query = await fake.press(user, user, message_id, data)
    await _wait_for(lambda: done() or fake.callback_answer(query) is not None, workers)
    if decode(data).action is Action.PICK and not done():
        await _wait_for(lambda: done() or bool(legal_buttons(shown())), workers)
        if done():
            return
        _label, end = rng.choice(legal_buttons(shown()))
        await fake.press(user, user, message_id, end)
    await _wait_for(lambda: done() or not shown().buttons(), workers)


def _ever_offered_moves(message: FakeMessage) -> bool:
    """Whether the message showed move buttons in any of its versions."""
    markups = [message.reply_markup, *(version.reply_markup for version in message.versions)]
    return any(carries_moves({"reply_markup": markup}) for markup in markups)


async def _next_turn_of_ana(fake: FakeTelegram, workers: Workers, rng: random.Random) -> int:
    """Both play on until Ana is given a turn she was not given before (in a new message, or
    in place of her last hand while she plays along); the id of its message."""
    earlier = turn_message(fake, ANA)
    earlier_version = None if earlier is None else turn_version(earlier)

    def new_turn() -> bool:
        message = turn_message(fake, ANA)
        if message is None:
            return False
        version = turn_version(message)
        return earlier is None or (version is not None and version != earlier_version)

    await _play_until(fake, workers, (ANA, BUDI), new_turn, rng, seconds=WAIT)
    message = turn_message(fake, ANA)
    assert message is not None
    return message.message_id


async def _running_game(store: Store) -> bool:
    game_id = await _game_of(store)
    return game_id is not None and await _status(store, game_id) is GameStatus.RUNNING


async def _status(store: Store, game_id: int) -> GameStatus:
    async with store.read() as tx:
        return (await tx.games.get(game_id)).status
