"""Fill an SQLite file with finished games, then time the boards, the stats and one move's
transaction (a benchmark, not a test). Run from the repository root: python bench/store.py

Targets: the median of each board and stats query at most 20 ms, of one move's transaction at
most 5 ms, on 100,000 games. The script exits 1, with a line naming the ones that miss, when
one does. Fewer than the default 100,000 games or 200 samples is a smoke run: the figures are
printed and the targets are not judged.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Table, insert
from sqlalchemy.ext.asyncio import AsyncConnection

from gaple_bot.games.gaple.kind import GapleKind, GapleMatch
from gaple_bot.games.gaple.rules import Game, GameConfig, Move, RuleSet, StuckRule
from gaple_bot.games.seam import SeatOutcome
from gaple_bot.store import (
    GLOBAL_SCOPE,
    Board,
    ComputerLevel,
    GameStatus,
    Period,
    Skill,
    Store,
    Transaction,
    computer_player_id,
    upgrade_to_head,
)
from gaple_bot.store import models as m
from gaple_bot.store.rating import initial_skill, new_model, rate
from gaple_bot.store.repos.results import Totals
from gaple_bot.store.types import utc_now

GAPLE = GapleKind()
TARGET_MS = {"top-10": 20.0, "stats": 20.0, "move": 5.0}
DEFAULT_GAMES, DEFAULT_SAMPLES = 100_000, 200
"""The sizes by default, and the least the targets are judged on."""
CONFIGS = (
    (GameConfig(RuleSet.CLASSIC, 4), 5),
    (GameConfig(RuleSet.CLASSIC, 3), 1),
    (GameConfig(RuleSet.CLASSIC, 2), 1),
    (GameConfig(RuleSet.DISCARDS, 4), 2),
    (GameConfig(RuleSet.DISCARDS, 5, stuck_rule=StuckRule.PASS), 1),
)
GAMES_PER_UNIT = 5_000
MOVES_INSERT = (
    "INSERT INTO moves (game_id, round_number, ply, seat, code, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
SPAN = timedelta(days=365)


@dataclass(frozen=True, slots=True)
class Template:
    """A game played once by the engine, reused with other players, chats and times."""

    config: GameConfig
    rounds: list[tuple[dict[str, Any], int, dict[str, Any]]]
    """Each round's deal, leader and result."""
    moves: list[tuple[int, int, int, int]]
    """(round number, ply, seat, code) of every move."""
    outcomes: list[SeatOutcome]


def random_move(game: Game, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    return rng.choice(game.legal_moves())


def play_template(config: GameConfig, rng: random.Random) -> Template:
    """Play a whole game with random moves and keep what the store would keep."""
    game = Game.new(config, rng)
    moves: list[tuple[int, int, int, int]] = []
    while not game.is_over:
        seat = game.to_move
        if seat is None:
            game.next_round(rng)
            continue
        move = random_move(game, rng)
        game.apply(seat, move)
        moves.append((game.round_number, len(game.round.moves) - 1, seat, move.code))
    rounds = []
    for played in game.rounds:
        result = played.result
        assert result is not None
        stored = {
            "reason": result.reason.value,
            "winner": result.winner,
            "counts": list(result.counts),
            "points": list(result.points),
        }
        rounds.append((dict(played.deal.to_dict()), played.deal.leader, stored))
    return Template(config, rounds, moves, GapleMatch(game).outcomes())


class Filler:
    """Builds the rows of many finished games and inserts them in big transactions."""

    def __init__(self, args: argparse.Namespace, now: datetime) -> None:
        self.rng = random.Random(args.seed)
        self.now = now
        self.model = new_model()
        self.templates = [
            play_template(config, self.rng)
            for config, weight in CONFIGS
            for _ in range(weight * 12)
        ]
        self.chats = [-(1_000_000 + n) for n in range(args.chats)]
        players = list(range(1, args.players + 1))
        self.pools = {chat: self.rng.sample(players, 24) for chat in self.chats}
        self.players = players
        self.ratings: dict[tuple[int, int], tuple[Skill, int]] = {}
        self.totals: dict[tuple[int, int], Totals] = {}
        self.extras: dict[tuple[int, int], dict[str, int]] = {}
        self.counts = {"rounds": 0, "moves": 0}

    async def fill(self, conn: AsyncConnection, games: int) -> None:
        """Insert users, chats and `games` finished games, then ratings and totals."""
        epoch = self.now - SPAN
        await conn.execute(
            insert(m.User),
            [
                {
                    "id": p,
                    "display_name": f"Player {p}",
                    "can_message": p % 3 == 0,
                    "is_computer": False,
                    "created_at": epoch,
                    "updated_at": epoch,
                }
                for p in self.players
            ],
        )
        await conn.execute(
            insert(m.Chat),
            [
                {"id": c, "title": f"Chat {c}", "created_at": epoch, "updated_at": epoch}
                for c in self.chats
            ],
        )
        finish_times = sorted(self.now - SPAN * self.rng.random() for _ in range(games))
        for start in range(0, games, GAMES_PER_UNIT):
            batch = finish_times[start : start + GAMES_PER_UNIT]
            await self.insert_games(conn, start + 1, batch)
            await conn.commit()
        await self.insert_standings(conn)
        await conn.commit()
        # Start the timings from a checkpointed database, as a long-running service has.
        await conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    async def insert_games(
        self, conn: AsyncConnection, first_id: int, finish_times: list[datetime]
    ) -> None:
        """One transaction's worth of games, table by table with executemany."""
        rows: dict[str, list[dict[str, Any]]] = {
            name: [] for name in ("games", "seats", "rounds", "results", "changes")
        }
        moves: list[tuple[int, int, int, int, int, Any]] = []
        stamp = m.Move.created_at.type.bind_processor(conn.dialect)
        assert stamp is not None
        for game_id, finished in enumerate(finish_times, start=first_id):
            self.add_game(rows, moves, game_id, finished, stamp)
        for model, key in (
            (m.Game, "games"),
            (m.Seat, "seats"),
            (m.Round, "rounds"),
            (m.Result, "results"),
            (m.RatingChange, "changes"),
        ):
            table = model.__table__
            assert isinstance(table, Table)
            await conn.execute(insert(table), rows[key])
        # Moves are most of the rows: hand them to the driver as ready-made tuples.
        await conn.exec_driver_sql(MOVES_INSERT, moves)

    def add_game(
        self,
        rows: dict[str, list[dict[str, Any]]],
        moves: list[tuple[int, int, int, int, int, Any]],
        game_id: int,
        end: datetime,
        stamp: Callable[[Any], Any],
    ) -> None:
        """The rows of one finished game; its players' ratings and totals move on."""
        template = self.rng.choice(self.templates)
        chat = self.rng.choice(self.chats)
        players: list[int] = self.rng.sample(self.pools[chat], template.config.seats)
        levels: list[ComputerLevel | None] = [None] * len(players)
        if self.rng.random() < 0.2:
            computer = self.rng.choice(list(ComputerLevel))
            levels[-1], players[-1] = computer, computer_player_id(computer)
        started = end - timedelta(minutes=10 + len(template.moves) // 6)
        rows["games"].append(
            {
                "id": game_id,
                "chat_id": chat,
                "thread_id": None,
                "kind": GAPLE.name,
                "config": template.config.to_dict(),
                "status": GameStatus.FINISHED,
                "version": len(template.moves),
                "opener_id": next(p for p in players if p > 0),
                "created_at": started - timedelta(minutes=2),
                "started_at": started,
                "finished_at": end,
            }
        )
        for seat, (player, level) in enumerate(zip(players, levels, strict=True)):
            rows["seats"].append(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "user_id": None if level else player,
                    "computer_level": level,
                    "autoplay": False,
                    "timeouts": 0,
                }
            )
        for number, (deal, leader, result) in enumerate(template.rounds, start=1):
            rows["rounds"].append(
                {
                    "game_id": game_id,
                    "number": number,
                    "deal": deal,
                    "leader": leader,
                    "result": result,
                    "started_at": started,
                    "ended_at": end,
                }
            )
        created = stamp(started)
        moves.extend(
            (game_id, r, ply, seat, code, created) for r, ply, seat, code in template.moves
        )
        self.counts["rounds"] += len(template.rounds)
        self.counts["moves"] += len(template.moves)
        self.add_results(rows, game_id, chat, end, players, template.outcomes)

    def add_results(
        self,
        rows: dict[str, list[dict[str, Any]]],
        game_id: int,
        chat: int,
        end: datetime,
        players: list[int],
        outcomes: list[SeatOutcome],
    ) -> None:
        """Results, totals and ratings of one game, as Transaction.finish_game computes them."""
        for player, o in zip(players, outcomes, strict=True):
            rows["results"].append(
                {
                    "game_id": game_id,
                    "seat": o.seat,
                    "player_id": player,
                    "kind": GAPLE.name,
                    "chat_id": chat,
                    "place": o.place,
                    "points": o.points,
                    "rounds_won": o.rounds_won,
                    "extras": dict(o.extras),
                    "finished_at": end,
                }
            )
        # A player in several seats plays one game, won if any of its seats won.
        for player in dict.fromkeys(players):
            mine = [o for p, o in zip(players, outcomes, strict=True) if p == player]
            for scope in (chat, GLOBAL_SCOPE):
                t = self.totals.setdefault((scope, player), Totals())
                t.games += 1
                t.wins += any(o.place == 1 for o in mine)
                t.points += sum(o.points for o in mine)
                t.rounds_won += sum(o.rounds_won for o in mine)
                e = self.extras.setdefault((scope, player), {"gaples": 0, "best_round": 0})
                e["gaples"] += sum(o.extras["gaples"] for o in mine)
                e["best_round"] = max(e["best_round"], *(o.extras["best_round"] for o in mine))
        default = (initial_skill(self.model), 0)
        for scope in (chat, GLOBAL_SCOPE):
            before = {p: self.ratings.get((scope, p), default)[0] for p in players}
            after = rate(self.model, players, [o.place for o in outcomes], before)
            for player, skill in after.items():
                games = self.ratings.get((scope, player), default)[1]
                self.ratings[(scope, player)] = (skill, games + 1)
                rows["changes"].append(
                    {
                        "game_id": game_id,
                        "kind": GAPLE.name,
                        "scope": scope,
                        "player_id": player,
                        "mu_before": before[player].mu,
                        "sigma_before": before[player].sigma,
                        "mu_after": skill.mu,
                        "sigma_after": skill.sigma,
                        "delta": skill.ordinal - before[player].ordinal,
                        "at": end,
                    }
                )

    async def insert_standings(self, conn: AsyncConnection) -> None:
        """The final ratings and totals of every player in every scope."""
        await conn.execute(
            insert(m.Rating),
            [
                {
                    "kind": GAPLE.name,
                    "scope": scope,
                    "player_id": player,
                    "mu": skill.mu,
                    "sigma": skill.sigma,
                    "ordinal": skill.ordinal,
                    "games": games,
                    "updated_at": self.now,
                }
                for (scope, player), (skill, games) in self.ratings.items()
            ],
        )
        await conn.execute(
            insert(m.PlayerTotal),
            [
                {
                    "kind": GAPLE.name,
                    "scope": scope,
                    "player_id": player,
                    "games": t.games,
                    "wins": t.wins,
                    "points": t.points,
                    "rounds_won": t.rounds_won,
                    "updated_at": self.now,
                }
                for (scope, player), t in self.totals.items()
            ],
        )
        aggregates = {spec.name: spec.aggregate for spec in GAPLE.extras}
        await conn.execute(
            insert(m.PlayerExtra),
            [
                {
                    "kind": GAPLE.name,
                    "scope": scope,
                    "player_id": player,
                    "name": name,
                    "aggregate": aggregates[name],
                    "value": value,
                }
                for (scope, player), extras in self.extras.items()
                for name, value in extras.items()
            ],
        )


async def timed(samples: int, run: Callable[[int], Awaitable[object]]) -> float:
    """Median milliseconds of `run(i)` over `samples` calls (after two warm-up calls)."""
    for i in range(2):
        await run(i)
    times = []
    for i in range(samples):
        started = time.perf_counter()
        await run(i)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def time_queries(
    store: Store, filler: Filler, samples: int, now: datetime
) -> list[tuple[str, str, float]]:
    """(label, target key, median ms) for every board, period and scope, and the stats."""
    rng = random.Random(7)
    figures = []
    for board in Board:
        for period in Period:
            for scope_name in ("chat", "global"):
                scopes = [
                    rng.choice(filler.chats) if scope_name == "chat" else GLOBAL_SCOPE
                    for _ in range(samples + 2)
                ]

                async def top(
                    i: int,
                    board: Board = board,
                    period: Period = period,
                    scopes: list[int] = scopes,
                ) -> object:
                    async with store.read() as tx:
                        return await tx.boards.top(GAPLE.name, scopes[i], board, period, now=now)

                label = f"top-10 {board.value:7} {period.value:4} {scope_name}"
                figures.append((label, "top-10", await timed(samples, top)))
    asks = []
    for _ in range(samples + 2):
        chat = rng.choice(filler.chats)
        asks.append((chat, rng.choice(filler.pools[chat])))
    asks_global = [(GLOBAL_SCOPE, p) for _, p in asks]
    for label, chosen in (("stats chat", asks), ("stats global", asks_global)):

        async def stats(i: int, chosen: list[tuple[int, int]] = chosen) -> object:
            async with store.read() as tx:
                return await tx.boards.player_stats(GAPLE.name, *chosen[i])

        figures.append((label, "stats", await timed(samples, stats)))

        async def history(i: int, chosen: list[tuple[int, int]] = chosen) -> object:
            async with store.read() as tx:
                return await tx.boards.rating_history(GAPLE.name, *chosen[i])

        figures.append(
            (label.replace("stats", "rating line"), "stats", await timed(samples, history))
        )
    return figures


async def time_moves(store: Store, filler: Filler, samples: int) -> float:
    """Median ms of one move's unit of work in running games: compare-and-set, append, the
    next turn's deadline, and (when the move ends a round) the result, the next deal or the
    finish with results and ratings."""
    rng = random.Random(8)
    times: list[float] = []
    chat = filler.chats[0]
    while len(times) < samples:
        async with store.transaction() as tx:
            game_id, game, version = await start_game(tx, chat, filler.pools[chat], rng)
        while not game.is_over and len(times) < samples:
            seat = game.to_move
            assert seat is not None
            move = random_move(game, rng)
            game.apply(seat, move)
            ply = len(game.round.moves) - 1
            started = time.perf_counter()
            async with store.transaction() as tx:
                version = await tx.record_move(
                    game_id,
                    version,
                    game.round_number,
                    ply,
                    seat,
                    move.code,
                    turn_deadline=utc_now() + timedelta(seconds=60),
                )
                await settle(tx, game_id, game, rng)
            times.append((time.perf_counter() - started) * 1000)
        if not game.is_over:
            async with store.transaction() as tx:
                await tx.games.abort(game_id)
    return statistics.median(times)


async def start_game(
    tx: Transaction, chat: int, pool: list[int], rng: random.Random
) -> tuple[int, Game, int]:
    """Open, seat and start a four-seat classic game; returns its id, state and version."""
    config = GameConfig(RuleSet.CLASSIC, 4)
    players = rng.sample(pool, 4)
    record = await tx.games.create(chat, None, GAPLE.name, dict(config.to_dict()), players[0])
    for seat, player in enumerate(players):
        await tx.seats.add(record.id, seat, user_id=player)
    await tx.games.start(record.id)
    game = Game.new(config, rng)
    await tx.rounds.add(record.id, 1, dict(game.round.deal.to_dict()), game.round.deal.leader)
    await settle(tx, record.id, game, rng)
    return record.id, game, record.version


async def settle(tx: Transaction, game_id: int, game: Game, rng: random.Random) -> None:
    """Store finished rounds, deal the next one or finish the game (the service's job)."""
    while (result := GapleMatch(game).round_result()) is not None:
        await tx.rounds.set_result(game_id, game.round_number, result)
        if game.is_over:
            await tx.finish_game(game_id, GAPLE, GapleMatch(game).outcomes())
            return
        game.next_round(rng)
        deal = game.round.deal
        await tx.rounds.add(game_id, game.round_number, dict(deal.to_dict()), deal.leader)


async def run(args: argparse.Namespace, path: Path) -> int:
    """Fill the database at `path`, then time the queries and moves; 1 if one misses its
    target."""
    url = f"sqlite+aiosqlite:///{path}"
    await upgrade_to_head(url)
    now = utc_now()
    started = time.perf_counter()
    filler = Filler(args, now)
    store = Store.open(url)
    try:
        async with store.engine.connect() as conn:
            await filler.fill(conn, args.games)
        seconds = time.perf_counter() - started
        size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 2**20
        print(
            f"filled {args.games:,} finished games ({filler.counts['rounds']:,} rounds, "
            f"{filler.counts['moves']:,} moves) in {seconds:.1f} s; database {size:,.0f} MiB",
            flush=True,
        )
        rows = await time_queries(store, filler, args.samples, now)
        rows.append(("one move's transaction", "move", await time_moves(store, filler, 400)))
    finally:
        await store.close()
    judged = args.games >= DEFAULT_GAMES and args.samples >= DEFAULT_SAMPLES
    print(f"{'median of ' + str(args.samples) + ' runs':34} {'ms':>7}  target")
    missed: list[str] = []
    for label, key, median in rows:
        if not judged:
            verdict = "(not judged: a smoke run)"
        elif median <= TARGET_MS[key]:
            verdict = "ok"
        else:
            verdict = "MISSES"
            missed.append(f"{' '.join(label.split())} {median:.2f} ms")
        print(f"{label:34} {median:7.2f}  <= {TARGET_MS[key]:g} ms {verdict}", flush=True)
    if missed:
        print("targets missed: " + ", ".join(missed), flush=True)
        return 1
    return 0


def main() -> int:
    """Parse the options and run in a temporary directory (or at --path); 1 if a target is
    missed."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="finished games to store")
    parser.add_argument("--chats", type=int, default=500, help="group chats")
    parser.add_argument("--players", type=int, default=5_000, help="human players")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="timed runs per query")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--path", type=Path, help="keep the database at this path")
    args = parser.parse_args()
    if args.path:
        return asyncio.run(run(args, args.path))
    with tempfile.TemporaryDirectory(prefix="gaple-bench-") as folder:
        return asyncio.run(run(args, Path(folder) / "bench.sqlite3"))


if __name__ == "__main__":
    sys.exit(main())
