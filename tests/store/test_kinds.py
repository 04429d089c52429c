"""Two game kinds in one database: their results, totals, extras, ratings and boards stay
apart, each kind's extras keep their own aggregate, and finishing checks the outcomes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest

from gaple_bot.games.seam import ExtraSpec, SeatOutcome
from gaple_bot.store import (
    GLOBAL_SCOPE,
    Board,
    ComputerLevel,
    GameStateError,
    Period,
    Store,
    computer_player_id,
)

from .kit import GAPLE

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)
CHAT = -8008
ANA, BUDI, CICI = 81, 82, 83


@dataclass(frozen=True)
class OtherKind:
    """A stand-in kind with the seam's name and extras, and nothing else the store uses."""

    name: str = "other"
    extras: tuple[ExtraSpec, ...] = (ExtraSpec("tricks", "sum"), ExtraSpec("streak", "max"))


OTHER = OtherKind()


def _outcomes(rows: list[tuple[int, int, int, Mapping[str, int]]]) -> list[SeatOutcome]:
    """(place, points, rounds won, extras) per seat, in seat order."""
    return [
        SeatOutcome(seat, place, points, won, extras)
        for seat, (place, points, won, extras) in enumerate(rows)
    ]


async def _finish(
    store: Store,
    kind: object,
    name: str,
    players: list[int | ComputerLevel],
    outcomes: list[SeatOutcome],
) -> int:
    """A game of `name` with these seats, finished with these outcomes."""
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        for player in players:
            if isinstance(player, int):
                await tx.users.upsert(player, f"User {player}", now=NOW)
        record = await tx.games.create(CHAT, None, name, {"seats": len(players)}, ANA, now=NOW)
        for seat, player in enumerate(players):
            if isinstance(player, ComputerLevel):
                await tx.seats.add(record.id, seat, computer_level=player)
            else:
                await tx.seats.add(record.id, seat, user_id=player)
        await tx.games.start(record.id, now=NOW)
        await tx.finish_game(record.id, kind, outcomes, now=NOW)  # type: ignore[arg-type]
    return record.id


async def test_two_kinds_keep_their_totals_ratings_and_boards_apart(store: Store) -> None:
    gaple = {"gaples": 0, "best_round": 0}
    await _finish(
        store,
        GAPLE,
        "gaple",
        [ANA, BUDI],
        _outcomes([(1, 60, 3, {"gaples": 2, "best_round": 25}), (2, 10, 1, gaple)]),
    )
    for streak in (4, 2):  # the second game's smaller streak does not lower the best
        await _finish(
            store,
            OTHER,
            "other",
            [BUDI, CICI, ANA],
            _outcomes(
                [
                    (1, 9, 2, {"tricks": 5, "streak": streak}),
                    (2, 4, 1, {"tricks": 3, "streak": 1}),
                    (2, 4, 0, {"tricks": 1, "streak": 7 - streak}),
                ]
            ),
        )
    async with store.read() as tx:
        ana_gaple = await tx.boards.player_stats("gaple", CHAT, ANA)
        ana_other = await tx.boards.player_stats("other", GLOBAL_SCOPE, ANA)
        budi_other = await tx.boards.player_stats("other", CHAT, BUDI)
        cici_gaple = await tx.boards.player_stats("gaple", CHAT, CICI)
        wins = {kind: await tx.boards.top(kind, CHAT, Board.WINS) for kind in ("gaple", "other")}
        weekly = await tx.boards.top("other", GLOBAL_SCOPE, Board.POINTS, Period.WEEK, now=NOW)
        ratings = {
            kind: await tx.boards.top(kind, GLOBAL_SCOPE, Board.RATING)
            for kind in ("gaple", "other")
        }
        weekly_rating = await tx.boards.top("gaple", CHAT, Board.RATING, Period.WEEK, now=NOW)
        skills = {
            kind: await tx.ratings.get(kind, CHAT, BUDI) for kind in ("gaple", "other", "none")
        }
    assert ana_gaple is not None and ana_other is not None
    assert (ana_gaple.games, ana_gaple.wins, ana_gaple.points, ana_gaple.rounds_won) == (
        1,
        1,
        60,
        3,
    )
    assert ana_gaple.extras == {"gaples": 2, "best_round": 25}
    assert (ana_other.games, ana_other.wins, ana_other.points, ana_other.rounds_won) == (
        2,
        0,
        8,
        0,
    )
    assert ana_other.extras == {"tricks": 2, "streak": 5}  # sum 1 + 1; max of 3 and 5
    assert budi_other is not None and budi_other.extras == {"tricks": 10, "streak": 4}
    assert (budi_other.rank, budi_other.rated_players) == (1, 3)
    assert ana_gaple.rated_players == 2
    assert cici_gaple is not None and (cici_gaple.games, cici_gaple.extras) == (0, {})
    assert cici_gaple.rating is None
    assert [(e.player_id, e.value) for e in wins["gaple"]] == [(ANA, 1), (BUDI, 0)]
    assert (wins["other"][0].player_id, wins["other"][0].value) == (BUDI, 2)
    assert {e.player_id for e in wins["other"]} == {ANA, BUDI, CICI}
    assert {(e.rank, e.player_id, e.value) for e in weekly} == {
        (1, BUDI, 18),
        (2, CICI, 8),
        (2, ANA, 8),
    }
    assert {e.player_id for e in ratings["gaple"]} == {ANA, BUDI}
    assert {e.player_id for e in ratings["other"]} == {ANA, BUDI, CICI}
    assert {e.player_id for e in weekly_rating} == {ANA, BUDI}
    assert all(e.games == 1 for e in weekly_rating)
    assert skills["gaple"] is not None and skills["other"] is not None
    assert skills["gaple"] != skills["other"] and skills["none"] is None


async def test_a_computer_in_two_seats_adds_its_sums_and_keeps_its_best(store: Store) -> None:
    easy = ComputerLevel.EASY
    await _finish(
        store,
        OTHER,
        "other",
        [ANA, easy, easy],
        _outcomes(
            [
                (1, 9, 2, {"tricks": 5, "streak": 3}),
                (2, 4, 1, {"tricks": 3, "streak": 6}),
                (3, 1, 0, {"tricks": 2, "streak": 2}),
            ]
        ),
    )
    async with store.read() as tx:
        stats = await tx.boards.player_stats("other", CHAT, computer_player_id(easy))
    assert stats is not None
    # One game, lost by both seats; their points and sums added, the best of a 'max' kept.
    assert (stats.games, stats.wins, stats.points, stats.extras) == (
        1,
        0,
        5,
        {"tricks": 5, "streak": 6},
    )


async def test_outcomes_must_match_the_seats_and_the_kind(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.chats.ensure(CHAT, "Warung", now=NOW)
        await tx.users.upsert(ANA, "Ana", now=NOW)
        await tx.users.upsert(BUDI, "Budi", now=NOW)
        record = await tx.games.create(CHAT, None, "other", {}, ANA, now=NOW)
        await tx.seats.add(record.id, 0, user_id=ANA)
        await tx.seats.add(record.id, 1, user_id=BUDI)
        await tx.games.start(record.id, now=NOW)
    extras = {"tricks": 0, "streak": 0}
    wrong = {
        "too few seats": (OTHER, _outcomes([(1, 1, 1, extras)])),
        "seats out of order": (
            OTHER,
            list(reversed(_outcomes([(1, 1, 1, extras), (2, 0, 0, extras)]))),
        ),
        "another kind": (GAPLE, _outcomes([(1, 1, 1, extras), (2, 0, 0, extras)])),
        "missing extras": (OTHER, _outcomes([(1, 1, 1, {"tricks": 1}), (2, 0, 0, extras)])),
    }
    for why, (kind, outcomes) in wrong.items():
        with pytest.raises(GameStateError):
            async with store.transaction() as tx:
                await tx.finish_game(record.id, kind, outcomes, now=NOW)  # type: ignore[arg-type]
        async with store.read() as tx:
            assert (await tx.games.get(record.id)).finished_at is None, why
            assert await tx.results.of_game(record.id) == [], why
    async with store.transaction() as tx:
        results = await tx.finish_game(
            record.id,
            OTHER,  # type: ignore[arg-type]
            _outcomes([(1, 1, 1, extras), (2, 0, 0, extras)]),
            now=NOW,
        )
    assert [(r.player_id, r.place, r.extras) for r in results] == [
        (ANA, 1, extras),
        (BUDI, 2, extras),
    ]
