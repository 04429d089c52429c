"""The game seam: every registered kind plays, refuses bad moves, replays and renders through
GameKind/Match/Presentation alone (A, B); Gaple's seam agrees with its rules and old code (C)."""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import json
import pickle
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import pytest

from gaple_bot.games.gaple.kind import GapleKind, GapleMatch
from gaple_bot.games.gaple.rules import PASS, EndReason, Game
from gaple_bot.games.options import COMMON_OPTIONS, LEVEL
from gaple_bot.games.pictures.canvas import decode_data
from gaple_bot.games.pictures.render import render
from gaple_bot.games.registry import default_registry
from gaple_bot.games.seam import JSON, GameDataError, GameKind, Match, SeatOutcome
from gaple_bot.games.views import (
    GameMessage,
    HandView,
    RoundReveal,
    SeatInfo,
    TableView,
)
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translator, Translators

REGISTRY = default_registry()
KINDS: tuple[GameKind, ...] = tuple(REGISTRY)
COMMON_NAMES = frozenset(spec.name for spec in COMMON_OPTIONS)
GAMES_PER_CASE = 3
MAX_ROUNDS = 200
MAX_PLIES = 2_000
"""Safety nets far above any real game: a game that runs past them does not end."""
BUTTONS_PER_ROW = 8
ALERT_LIMIT = 200
"""Telegram's limit on a callback answer's alert text."""
NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


# Cases: every kind x every game-defining option combination x every allowed seat count ----


def game_options(kind: GameKind) -> Iterator[dict[str, str]]:
    """Every combination of the kind's own options' choices (common options at defaults)."""
    defaults = {spec.name: spec.default for spec in kind.options}
    specs = [spec for spec in kind.options if spec.name not in COMMON_NAMES]
    for values in itertools.product(*(spec.choices for spec in specs)):
        yield defaults | dict(zip((spec.name for spec in specs), values, strict=True))


@dataclass(frozen=True)
class Case:
    """One kind, one option combination and one seat count."""

    kind_name: str
    options: tuple[tuple[str, str], ...]
    seats: int

    @property
    def kind(self) -> GameKind:
        return REGISTRY.get(self.kind_name)

    @property
    def option_map(self) -> dict[str, str]:
        return dict(self.options)

    @property
    def label(self) -> str:
        kind = self.kind
        own = [f"{k}={v}" for k, v in self.options if k not in COMMON_NAMES]
        return "-".join([kind.name, *own, f"{self.seats}seats"])

    def config(self) -> JSON:
        return self.kind.make_config(self.option_map, self.seats)

    def rng(self, purpose: str, game: int = 0) -> random.Random:
        """A deterministic generator for this case (str seeds do not depend on PYTHONHASHSEED)."""
        return random.Random(f"{self.label}/{purpose}/{game}")


def all_cases() -> list[Case]:
    cases = []
    for kind in KINDS:
        for options in game_options(kind):
            limits = kind.seat_limits(options)
            for seats in range(limits.least, limits.most + 1):
                cases.append(Case(kind.name, tuple(sorted(options.items())), seats))
    return cases


CASES = all_cases()
CASE_IDS = [case.label for case in CASES]


# Playing whole games through the seam ----------------------------------------------------


def plain(value: Any) -> Any:
    """`value` after a trip through JSON text, which must not change it (plain JSON only)."""
    copy = json.loads(json.dumps(value))
    assert copy == value, f"{value!r} is not plain JSON"
    return copy


@dataclass
class PlayedGame:
    """A game played through the seam, with what the store would keep of it."""

    kind: GameKind
    config: JSON
    match: Match
    seats: int
    rounds: list[tuple[JSON, list[int]]] = field(default_factory=list)
    legal_at: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    """(round index, ply) -> the legal codes there."""

    def stored(self) -> list[tuple[JSON, Sequence[int]]]:
        """The deals and codes as they come back from JSON storage."""
        data = plain([[deal, codes] for deal, codes in self.rounds])
        return [(deal, codes) for deal, codes in data]


Hook = Callable[[PlayedGame], None]


def play_game(
    case: Case,
    rng: random.Random,
    *,
    at_move: Hook | None = None,
    after_move: Callable[[PlayedGame, int, int], None] | None = None,
    at_round_end: Hook | None = None,
) -> PlayedGame:
    """Play a whole game with random legal codes, calling the hooks along the way."""
    kind = case.kind
    config = plain(case.config())
    match, deal = kind.new_match(config, rng)
    game = PlayedGame(kind, config, match, kind.config_seats(config), [(plain(deal), [])])
    while True:
        while match.to_move is not None:
            seat = match.to_move
            codes = game.rounds[-1][1]
            assert len(codes) < MAX_PLIES, f"{case.label}: a round does not end"
            legal = match.legal_codes()
            game.legal_at[(len(game.rounds) - 1, len(codes))] = legal
            if at_move is not None:
                at_move(game)
            code = rng.choice(legal)
            match.apply(seat, code)
            codes.append(code)
            if after_move is not None:
                after_move(game, seat, code)
        if at_round_end is not None:
            at_round_end(game)
        if match.is_over:
            return game
        assert len(game.rounds) < MAX_ROUNDS, f"{case.label}: the game does not end"
        deal = plain(match.next_deal(rng))
        match.start_round(deal)
        game.rounds.append((deal, []))


def play_games(case: Case, purpose: str, **hooks: Any) -> list[PlayedGame]:
    return [play_game(case, case.rng(purpose, n), **hooks) for n in range(GAMES_PER_CASE)]


def state(match: Match, seats: int) -> dict[str, object]:
    """Everything the seam shows of a match, for before/after and live/replayed comparisons."""
    return {
        "board": match.board(),
        "private": tuple(match.private(seat) for seat in range(seats)),
        "scores": tuple(match.scores),
        "round_number": match.round_number,
        "ply": match.ply,
        "to_move": match.to_move,
        "round_over": match.round_over,
        "is_over": match.is_over,
        "winner": match.winner,
        "legal": tuple(match.legal_codes()),
        "round_result": match.round_result(),
    }


# A. Generic conformance ------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_config_round_trip(kind: GameKind) -> None:
    """make_config/config_seats round-trip every allowed seat count of every option set, as JSON."""
    for options in game_options(kind):
        limits = kind.seat_limits(options)
        assert 1 <= limits.least <= limits.most, (options, limits)
        assert limits.least <= limits.filled <= limits.most, (options, limits)
        for seats in range(limits.least, limits.most + 1):
            config = kind.make_config(options, seats)
            assert kind.config_seats(plain(config)) == seats, (options, seats)
            match, _ = kind.new_match(config, random.Random(seats))
            assert match.config == config


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_turns_and_legal_codes(case: Case) -> None:
    """to_move is None exactly between rounds and after the game; a mover has legal codes,
    automatic_code is one of them and step_codes are always a subset of them."""
    rng = case.rng("steps")
    checked = [0]

    def check(game: PlayedGame) -> None:
        match = game.match
        assert (match.to_move is None) == (match.round_over or match.is_over)
        assert match.winner is None or match.is_over
        legal = match.legal_codes()
        if match.to_move is None:
            assert legal == ()
            assert match.automatic_code() is None
            return
        assert 0 <= match.to_move < game.seats
        assert legal, "the seat to move has no legal code"
        assert len(set(legal)) == len(legal), f"duplicate codes {legal}"
        automatic = match.automatic_code()
        assert automatic is None or automatic in legal
        top = max(legal)
        steps = {-1, 0, top + 1, *legal, *rng.sample(range(top + 2), min(6, top + 2))}
        for step in steps:
            assert set(match.step_codes(step)) <= set(legal), (step, legal)
        checked[0] += 1

    play_games(case, "turns", at_move=check, at_round_end=check)
    assert checked[0] > 0


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_illegal_codes_raise_and_change_nothing(case: Case) -> None:
    """A code outside legal_codes, or a legal code by the wrong seat, raises ValueError and
    leaves board, hands, scores, ply and turn as they were (also between rounds and at the end)."""
    rng = case.rng("illegal")
    last_legal = [0]
    refused = [0]

    def refuse(match: Match, seats: int, seat: int, code: int) -> None:
        before = state(match, seats)
        with pytest.raises(ValueError):
            match.apply(seat, code)
        assert state(match, seats) == before, (seat, code)
        refused[0] += 1

    def at_move(game: PlayedGame) -> None:
        match, seats = game.match, game.seats
        mover = match.to_move
        assert mover is not None
        legal = match.legal_codes()
        last_legal[0] = legal[0]
        outside = [c for c in range(max(legal) + 8) if c not in legal]
        for code in {max(legal) + 1, -1, rng.choice(outside)}:
            refuse(match, seats, mover, code)
        for seat in range(seats):
            if seat != mover:
                refuse(match, seats, seat, rng.choice(legal))

    def at_round_end(game: PlayedGame) -> None:
        for seat in range(game.seats):
            refuse(game.match, game.seats, seat, last_legal[0])

    play_games(case, "illegal", at_move=at_move, at_round_end=at_round_end)
    assert refused[0] > 0


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_replay_rebuilds_the_live_match(case: Case) -> None:
    """kind.replay of the stored JSON deals and codes rebuilds the live match after every
    round, at the end and at some points inside rounds."""
    rng = case.rng("replay")
    replays = [0]

    def compare(game: PlayedGame) -> None:
        rebuilt = game.kind.replay(plain(game.config), game.stored())
        assert state(rebuilt, game.seats) == state(game.match, game.seats)
        replays[0] += 1

    def sometimes(game: PlayedGame) -> None:
        if rng.random() < 0.05:
            compare(game)

    for game in play_games(case, "replay", at_move=sometimes, at_round_end=compare):
        compare(game)
    assert replays[0] > GAMES_PER_CASE


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_tampered_replay_raises_game_data_error(case: Case) -> None:
    """Stored data that does not replay (an illegal code, an extra code, a round cut short, a
    deal missing a key, no rounds at all) raises GameDataError."""
    rng = case.rng("tamper")
    for game in play_games(case, "tamper"):

        def refused(rounds: list[tuple[JSON, Sequence[int]]], game: PlayedGame = game) -> None:
            with pytest.raises(GameDataError):
                game.kind.replay(plain(game.config), rounds)

        refused([])
        moves = [(r, i) for r, (_, codes) in enumerate(game.rounds) for i in range(len(codes))]
        for r, i in rng.sample(moves, min(4, len(moves))):
            legal = game.legal_at[(r, i)]
            for bad in (max(legal) + 1, -1):
                rounds = game.stored()
                codes = list(rounds[r][1])
                codes[i] = bad
                rounds[r] = (rounds[r][0], codes)
                refused(rounds)
        rounds = game.stored()
        rounds[-1] = (rounds[-1][0], [*rounds[-1][1], game.legal_at.get((0, 0), (0,))[0]])
        refused(rounds)
        for r in range(len(game.rounds) - 1):
            if game.rounds[r][1]:
                rounds = game.stored()
                rounds[r] = (rounds[r][0], list(rounds[r][1])[:-1])
                refused(rounds)
                break
        for r in {0, len(game.rounds) - 1}:
            for key in game.rounds[r][0]:
                rounds = game.stored()
                deal = dict(rounds[r][0])
                del deal[key]
                rounds[r] = (deal, rounds[r][1])
                refused(rounds)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_round_result_is_json_once_the_round_is_over(case: Case) -> None:
    """round_result() is None while a round runs and plain JSON once it is over."""
    results = [0]

    def running(game: PlayedGame) -> None:
        assert game.match.round_result() is None

    def over(game: PlayedGame) -> None:
        result = game.match.round_result()
        assert result is not None
        plain(result)
        results[0] += 1

    play_games(case, "result", at_move=running, at_round_end=over)
    assert results[0] >= GAMES_PER_CASE


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_finished_game_outcomes(case: Case) -> None:
    """A finished game has a winning seat and one SeatOutcome per seat in seat order: the
    winner first, a higher total never a worse place, extras named as the kind's ExtraSpecs."""
    for game in play_games(case, "outcomes"):
        match, kind = game.match, game.kind
        assert match.is_over and match.to_move is None and match.legal_codes() == ()
        winner = match.winner
        assert winner is not None and 0 <= winner < game.seats
        outcomes = match.outcomes()
        assert [o.seat for o in outcomes] == list(range(game.seats))
        assert all(isinstance(o, SeatOutcome) for o in outcomes)
        assert outcomes[winner].place == 1
        assert [o.points for o in outcomes] == list(match.scores)
        # A round may have several winners (Gap: a tie for the best score counts for each).
        assert all(o.rounds_won <= match.round_number for o in outcomes)
        names = {extra.name for extra in kind.extras}
        # Equal totals may still get different places where the rules break ties (G6).
        for a, b in itertools.product(outcomes, repeat=2):
            if a.points > b.points:
                assert a.place < b.place, (a, b)
        for outcome in outcomes:
            assert 1 <= outcome.place <= game.seats
            assert outcome.rounds_won >= 0
            assert set(outcome.extras) == names, outcome
            assert all(isinstance(v, int) for v in outcome.extras.values())


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_round_end_pictures_and_totals_by_round(case: Case) -> None:
    """At every round end totals_by_round() has one row per finished round, the last the
    running scores; round_end_picture builds JSON data in every language, and the kind's
    drawer turns it into a PNG that carries exactly that data."""
    presentation = case.kind.presentation
    drawn = [0]

    def at_round_end(game: PlayedGame) -> None:
        match = game.match
        totals = match.totals_by_round()
        assert len(totals) == match.round_number
        assert totals[-1] == tuple(match.scores)
        for language in SUPPORTED_LANGUAGES:
            table = table_view(game, language)
            reveal = RoundReveal(table, tuple(match.revealed()))
            picture = presentation.round_end_picture(translator(language), reveal)
            assert picture.drawer.startswith(f"{case.kind.name}.")
            assert json.loads(json.dumps(picture.data)) == picture.data
            if match.is_over and language == "en":
                png = render(picture)
                assert decode_data(png) == picture.data
                drawn[0] += 1

    play_games(case, "pictures", at_round_end=at_round_end)
    assert drawn[0] == GAMES_PER_CASE


def levels_of(kind: GameKind) -> tuple[str, ...]:
    """The computer levels the kind offers."""
    spec = next(spec for spec in kind.options if spec.name == LEVEL.name)
    return spec.choices


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_computer_moves_are_legal_from_pickled_views(kind: GameKind) -> None:
    """computer_view pickles and computer_move of every level picks a legal code from the
    unpickled view; the same seed gives the same code (checked on the untimed lowest level)."""
    cases = [case for case in CASES if case.kind_name == kind.name]
    positions: list[tuple[object, tuple[int, ...], list[object]]] = []
    for case in cases[:: max(1, len(cases) // 4)][:4]:
        rng = case.rng("computer")
        match, _ = kind.new_match(case.config(), rng)
        seats = kind.config_seats(case.config())
        taken = 0
        while match.to_move is not None and taken < 3:
            legal = match.legal_codes()
            if len(legal) >= 2:
                others = [match.computer_view(s) for s in range(seats)]
                positions.append((match.computer_view(match.to_move), legal, others))
                taken += 1
            match.apply(match.to_move, rng.choice(legal))
    assert len(positions) >= 4
    levels = levels_of(kind)
    assert levels
    hard_calls = 0
    for n, (view, legal, others) in enumerate(positions):
        for other in others:
            assert pickle.loads(pickle.dumps(other)) == other
        copy = pickle.loads(pickle.dumps(view))
        assert copy == view
        for level in levels:
            if level == "hard":
                if hard_calls >= 2:
                    continue
                hard_calls += 1
            code = kind.computer_move(level, copy, 1000 + n)
            assert code in legal, (level, code, legal)
        first = kind.computer_move(levels[0], copy, 7)
        assert kind.computer_move(levels[0], pickle.loads(pickle.dumps(view)), 7) == first
    assert hard_calls == min(2, len(positions))


@pytest.mark.parametrize("kind", KINDS, ids=[kind.name for kind in KINDS])
def test_kind_pickles(kind: GameKind) -> None:
    """The kind object pickles and the copy still answers as the original does."""
    copy: GameKind = pickle.loads(pickle.dumps(kind))
    assert copy.name == kind.name
    assert copy.options == kind.options and copy.extras == kind.extras
    options = next(game_options(kind))
    assert copy.seat_limits(options) == kind.seat_limits(options)
    seats = kind.seat_limits(options).least
    assert copy.make_config(options, seats) == kind.make_config(options, seats)


# B. Presentation smoke checks ------------------------------------------------------------


@cache
def translators() -> Translators:
    return Translators()


def translator(language: str) -> Translator:
    t = translators().get(language)
    assert t.language == language
    return t


def seat_infos(seats: int) -> tuple[SeatInfo, ...]:
    """People and computer players of every sort round the table."""
    infos = [
        SeatInfo(0, 100, "Ann <&>"),
        SeatInfo(1, None, "", computer_level="easy"),
        SeatInfo(2, 102, "Budi", autoplay=True, language="id"),
        SeatInfo(3, None, "", computer_level="hard"),
        SeatInfo(4, 104, "", autoplay=True, former=True),
    ]
    infos += [SeatInfo(n, 100 + n, f"Player {n}") for n in range(len(infos), seats)]
    return tuple(infos[:seats])


def table_view(game: PlayedGame, language: str) -> TableView[Any]:
    """The table as service/play.py Tables.table() builds it."""
    match = game.match
    return TableView(
        game_id=7,
        version=match.round_number * 10_000 + match.ply,
        chat_id=-100_123,
        thread_id=None,
        kind=game.kind.name,
        config=match.config,
        round_number=match.round_number,
        seats=seat_infos(game.seats),
        scores=tuple(match.scores),
        to_move=match.to_move,
        deadline=NOW + timedelta(seconds=60) if match.to_move is not None else None,
        winner=match.winner,
        board=match.board(),
        language=language,
        chat_title="Domino night",
        round_over=match.round_over,
    )


def hand_view(game: PlayedGame, seat: int, legal: tuple[int, ...], table: TableView[Any]) -> Any:
    """A seat's hand as service/play.py Tables.hand() builds it."""
    return HandView(
        game_id=7,
        version=table.version,
        seat=seat,
        legal=legal,
        private=game.match.private(seat),
        table=table,
    )


def check_message(message: GameMessage, match: Match, legal: tuple[int, ...]) -> None:
    """Non-empty text; buttons that only make legal moves, at most eight to a row."""
    assert isinstance(message, GameMessage)
    assert message.text.strip()
    for row in message.rows:
        assert 1 <= len(row) <= BUTTONS_PER_ROW, row
        for button in row:
            assert button.label.strip()
            if button.press == "move":
                assert button.value in legal, (button, legal)
            elif button.press == "pick":
                assert set(match.step_codes(button.value)) <= set(legal), (button, legal)


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_presentation_messages(case: Case) -> None:
    """table, hand (with and without legal codes, and after a pick), played, round_end and
    game_end give messages with text and only legal buttons, in every language; the table
    never shows a hidden item and each hand shows all of its own."""
    presentation = case.kind.presentation
    languages = SUPPORTED_LANGUAGES
    counts = {"table": 0, "hidden": 0, "step": 0, "round_end": 0, "game_end": 0}
    positions = [0]

    def at_move(game: PlayedGame) -> None:
        match = game.match
        language = languages[positions[0] % len(languages)]
        positions[0] += 1
        t = translator(language)
        table = table_view(game, language)
        message = presentation.table(t, table, NOW)
        check_message(message, match, ())
        counts["table"] += 1
        items = [presentation.hidden_items(match.private(s)) for s in range(game.seats)]
        hidden = [frozenset().union(*seat_items) for seat_items in items]
        counts["hidden"] += sum(map(len, hidden))
        for seat in range(game.seats):
            for text in hidden[seat]:
                assert text not in message.text, f"table shows seat {seat}'s {text}"
        for seat in range(game.seats):
            choices: list[tuple[int, ...]] = [()]
            if seat == match.to_move:
                choices.append(match.legal_codes())
            for legal in choices:
                view = hand_view(game, seat, legal, table)
                hand = presentation.hand(t, view, NOW, None)
                check_message(hand, match, legal)
                for item in items[seat]:
                    assert any(text in hand.text for text in item), f"seat {seat} lacks {item}"
                for other in range(game.seats):
                    if other != seat:
                        for text in hidden[other]:
                            assert text not in hand.text, f"seat {seat} sees {other}'s {text}"
                for step in {b.value for row in hand.rows for b in row if b.press == "pick"}:
                    if match.step_codes(step):
                        picked = presentation.hand(t, view, NOW, step)
                        check_message(picked, match, legal)
                        counts["step"] += 1
            alert = presentation.hand_alert(t, match.private(seat))
            assert alert.strip() and len(alert) <= ALERT_LIMIT

    def after_move(game: PlayedGame, seat: int, code: int) -> None:
        t = translator(languages[positions[0] % len(languages)])
        table = table_view(game, t.language)
        played = presentation.played(t, hand_view(game, seat, (), table), code)
        check_message(played, game.match, ())
        assert presentation.you_moved(t, code).strip()
        assert presentation.computer_moved_for_you(t, code).strip()

    def at_round_end(game: PlayedGame) -> None:
        match = game.match
        for language in SUPPORTED_LANGUAGES:
            t = translator(language)
            table = table_view(game, language)
            check_message(presentation.table(t, table, NOW), match, ())
            reveal = RoundReveal(table, tuple(match.revealed()))
            assert len(reveal.seats) == game.seats
            check_message(presentation.round_end(t, reveal), match, ())
            counts["round_end"] += 1
            if match.is_over:
                check_message(presentation.game_end(t, table), match, ())
                counts["game_end"] += 1

    play_games(case, "present", at_move=at_move, after_move=after_move, at_round_end=at_round_end)
    assert counts["table"] > 0 and counts["hidden"] > 0 and counts["round_end"] > 0
    assert counts["game_end"] == GAMES_PER_CASE * len(SUPPORTED_LANGUAGES)


# C. Gaple on the seam --------------------------------------------------------------------

GAPLE_CASES = [case for case in CASES if case.kind_name == GapleKind.name]


def gaple_case(rules: str, seats: int, target: str = "50") -> Case:
    options = {spec.name: spec.default for spec in GapleKind.options}
    options |= {"rules": rules, "target": target}
    return Case(GapleKind.name, tuple(sorted(options.items())), seats)


RULE_SEATS = [
    ("classic", 2),
    ("classic", 3),
    ("classic", 4),
    ("discards", 4),
    ("discards", 5),
    ("discards-pass", 4),
    ("discards-pass", 5),
]


def counted_outcomes(game: Game) -> list[tuple[int, int, int, int, dict[str, int]]]:
    """Each seat's (place, points, rounds won, extras) counted afresh from the game's rounds."""
    finished = [r for r in game.rounds if r.result is not None]
    rows = []
    for seat in range(game.config.seats):
        points = sum(r.result.points[seat] for r in finished if r.result is not None)
        assert points == game.scores[seat]
        rows.append(
            (
                seat,
                1 + sum(total > game.scores[seat] for total in game.scores),
                points,
                sum(1 for r in finished if r.result is not None and r.result.winner == seat),
                {
                    # C10/D5: a Gaple finish is the seat whose last play emptied its hand.
                    "gaples": sum(
                        1
                        for r in finished
                        if r.result is not None
                        and r.result.reason is EndReason.GAPLE
                        and r.hands[seat] == 0
                    ),
                    "best_round": max(
                        (r.result.points[seat] for r in finished if r.result is not None),
                        default=0,
                    ),
                },
            )
        )
    return rows


def old_outcomes(game: Game) -> list[tuple[int, int, int, int, dict[str, int]]] | None:
    """The same rows from gaple_bot.store.outcome.seat_outcomes, while that module exists."""
    if importlib.util.find_spec("gaple_bot.store.outcome") is None:
        return None
    module = importlib.import_module("gaple_bot.store.outcome")
    return [
        (o.seat, o.place, o.points, o.rounds_won, {"gaples": o.gaples, "best_round": o.best_round})
        for o in module.seat_outcomes(game)
    ]


class TestGapleSeam:
    """Gaple's answers through the seam, against its rules (C1-C13, D1-D8)."""

    @pytest.mark.parametrize(("rules", "seats"), RULE_SEATS)
    def test_c13_d8_outcomes_agree_with_old_code_and_rounds(self, rules: str, seats: int) -> None:
        """GapleMatch.outcomes() matches store.outcome.seat_outcomes and a fresh count from the
        rounds (place, points, rounds won, gaples, best round) over many seeded games."""
        gaples = 0
        for target in ("20", "100"):
            case = gaple_case(rules, seats, target)
            for n in range(12):
                game = play_game(case, case.rng("gaple-outcomes", n))
                assert isinstance(game.match, GapleMatch)
                engine = game.match.game
                got = [
                    (o.seat, o.place, o.points, o.rounds_won, dict(o.extras))
                    for o in game.match.outcomes()
                ]
                assert got == counted_outcomes(engine)
                old = old_outcomes(engine)
                if old is not None:
                    assert got == old
                gaples += sum(row[4]["gaples"] for row in got)
        assert gaples > 0, "no Gaple finish was played: the gaples extra went unchecked"

    def test_c2_d1_seat_limits(self) -> None:
        """C2: classic seats 2-4; D1: discards (either stuck rule) seats 4-5; computers fill
        up to four."""
        kind = GapleKind()
        limits = {
            rules: kind.seat_limits({"rules": rules})
            for rules in ("classic", "discards", "discards-pass")
        }
        assert (limits["classic"].least, limits["classic"].most) == (2, 4)
        assert (limits["discards"].least, limits["discards"].most) == (4, 5)
        assert (limits["discards-pass"].least, limits["discards-pass"].most) == (4, 5)
        assert {limit.filled for limit in limits.values()} == {4}
        assert kind.seat_limits({}) == limits["classic"]

    def test_c2_d1_make_config_keeps_seats_in_range(self) -> None:
        """A provisional seat count outside C2/D1's range is stored as the nearest allowed."""
        kind = GapleKind()
        assert kind.config_seats(kind.make_config({"rules": "classic"}, 1)) == 2
        assert kind.config_seats(kind.make_config({"rules": "classic"}, 5)) == 4
        assert kind.config_seats(kind.make_config({"rules": "discards"}, 2)) == 4
        assert kind.config_seats(kind.make_config({"rules": "discards-pass"}, 6)) == 5

    @pytest.mark.parametrize(("rules", "seats"), RULE_SEATS)
    def test_c9_automatic_code_is_the_forced_pass(self, rules: str, seats: int) -> None:
        """C9: automatic_code() is the pass exactly when the pass is the only legal move (never
        under D4's discards)."""
        forced = [0]

        def check(game: PlayedGame) -> None:
            legal = game.match.legal_codes()
            automatic = game.match.automatic_code()
            if legal == (PASS.code,):
                assert automatic == PASS.code
                forced[0] += 1
            else:
                assert automatic is None, legal

        case = gaple_case(rules, seats)
        for n in range(4):
            play_game(case, case.rng("c9", n), at_move=check)
        if rules == "discards":
            assert forced[0] == 0
        else:
            assert forced[0] > 0, "no forced pass was played"

    @pytest.mark.parametrize(("rules", "seats"), RULE_SEATS)
    def test_c7_step_codes_are_the_tiles_moves(self, rules: str, seats: int) -> None:
        """C7: step_codes(tile) are the legal codes of that tile (both ends when it fits two
        different ends), and nothing for a pass or a tile not in hand."""
        both_ends = [0]

        def check(game: PlayedGame) -> None:
            match = game.match
            assert isinstance(match, GapleMatch)
            legal = match.legal_codes()
            for tile in range(28):
                expected = tuple(
                    m.code for m in match.game.legal_moves() if m.tile == tile and m != PASS
                )
                assert match.step_codes(tile) == expected
                if len(expected) == 2:
                    both_ends[0] += 1
            assert match.step_codes(-1) == ()
            assert set(itertools.chain.from_iterable(map(match.step_codes, range(28)))) == (
                set(legal) - {PASS.code}
            )

        case = gaple_case(rules, seats)
        for n in range(2):
            play_game(case, case.rng("c7", n), at_move=check)
        assert both_ends[0] > 0, "no tile fitting two different ends was seen"
