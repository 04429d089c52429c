"""What a new game gets without writing it: the texts every game may share, said in every
language (a game says them in its own words by overriding them), its page script read from
its `page.js`, its config with another seat count, and no two-step moves."""

from __future__ import annotations

import importlib
import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from gaple_bot.games.gap.rules import Game, GapConfig
from gaple_bot.games.match import RulesMatch
from gaple_bot.games.options import COMMON_OPTIONS, OptionSpec
from gaple_bot.games.pictures import Picture, PictureError
from gaple_bot.games.registry import default_registry
from gaple_bot.games.seam import (
    JSON,
    AnyGameKind,
    GameDataError,
    GameKind,
    Match,
    Presentation,
    SeatLimits,
    SeatOutcome,
)
from gaple_bot.games.views import GameMessage, HandView, PrivateNote, RoundReveal, TableView
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translator, Translators

GAMES = Path(__file__).parents[2] / "gaple_bot" / "games"
"""The games' packages, where each keeps its page drawing as `<kind>/present/page.js`."""


class BarePresentation(Presentation[Any, Any]):
    """Only the members a new game's presentation must write (each a stand-in here)."""

    def table(self, t: Translator, table: TableView[Any], now: datetime) -> GameMessage:
        return GameMessage("table")

    def hand(
        self, t: Translator, view: HandView[Any, Any], now: datetime, step: int | None
    ) -> GameMessage:
        return GameMessage("hand")

    def played(self, t: Translator, view: HandView[Any, Any], code: int) -> GameMessage:
        return GameMessage("played")

    def you_moved(self, t: Translator, code: int) -> str:
        return "moved"

    def move_label(self, t: Translator, code: int) -> str:
        return "move"

    def hand_alert(self, t: Translator, private: Any) -> str:
        return "hand"

    def round_end(self, t: Translator, reveal: RoundReveal[Any, Any]) -> GameMessage:
        return GameMessage("round")

    def hidden_items(self, private: Any) -> tuple[frozenset[str], ...]:
        return ()

    def command_help(self, t: Translator) -> str:
        return "help"

    def help_line(self, t: Translator) -> str:
        return "/bare"

    def rules(self, t: Translator, config: JSON) -> list[str]:
        return ["rules"]

    def lobby_title(self, t: Translator, config: JSON) -> str:
        return "title"

    def option_line(self, t: Translator, option: str, config: JSON) -> str:
        return option

    def page_board(self, t: Translator, table: TableView[Any]) -> JSON:
        return {}

    def page_hand(self, t: Translator, view: HandView[Any, Any]) -> JSON:
        return {"items": []}

    def page_reveal(self, t: Translator, reveal: RoundReveal[Any, Any]) -> JSON:
        return {"summary": []}


class BareMatch(RulesMatch[Any, Any, Any]):
    """Only the members a new game's match must write (each a stand-in here)."""

    @staticmethod
    def move_of(code: int) -> object:
        return code

    @staticmethod
    def deal_of(data: JSON) -> object:
        return data

    def round_result(self) -> JSON | None:
        return None

    def board(self) -> Any:
        return None

    def private(self, seat: int) -> Any:
        return None

    def outcomes(self) -> list[SeatOutcome]:
        return []


class BareKind(GameKind[Any, Any, Any]):
    """Only the members a new game's kind must write: two to six seats, a target beside them."""

    name = "bare"
    options: tuple[OptionSpec, ...] = COMMON_OPTIONS

    @property
    def presentation(self) -> Presentation[Any, Any]:
        return BarePresentation()

    def seat_limits(self, options: Mapping[str, str]) -> SeatLimits:
        return SeatLimits(least=2, most=6, filled=4)

    def make_config(self, options: Mapping[str, str], seats: int) -> JSON:
        return {"seats": min(max(seats, 2), 6), "target": 30}

    def new_match(self, config: JSON, rng: random.Random) -> tuple[Match[Any, Any, Any], JSON]:
        raise NotImplementedError

    def replay(self, config: JSON, rounds: Sequence[tuple[JSON, Sequence[int]]]) -> BareMatch:
        raise NotImplementedError

    def computer_move(self, level: str, view: Any, seed: int) -> int:
        raise NotImplementedError


class ThreeOnlyKind(BareKind):
    """A kind whose stored configs allow three seats only (its config_limits say so)."""

    def config_limits(self, config: JSON) -> SeatLimits:
        return SeatLimits(least=3, most=3, filled=3)


def _shared_texts(t: Translator) -> list[str]:
    """Every default text of a presentation, in the language of `t`."""
    bare = BarePresentation()
    extras: Mapping[str, int] = {}
    return [
        *bare.record_lines(t, 3, 42, extras),
        bare.computer_moved_for_you(t, 0),
        bare.no_move_for_pick(t),
        bare.my_hand_label(t),
        *(bare.private_note(t, note, "<b>Kopi</b>") for note in PrivateNote),
        bare.lobby_invite(t, computers_fill=True),
        bare.lobby_invite(t, computers_fill=False),
    ]


def test_a_presentation_needs_sixteen_members_of_its_own() -> None:
    # Twelve for the chat, three for the page (its board, hand and reveal as JSON), one for
    # reviews and replays (a move's name).
    assert len(Presentation.__abstractmethods__) == 16
    assert BarePresentation.__abstractmethods__ == frozenset()


def test_a_match_needs_six_members_of_its_own() -> None:
    assert RulesMatch.__abstractmethods__ == frozenset(
        {"move_of", "deal_of", "round_result", "board", "private", "outcomes"}
    )
    assert BareMatch.__abstractmethods__ == frozenset()


def test_a_match_has_no_two_step_moves_unless_it_says_so() -> None:
    match = BareMatch(Game.new(GapConfig(2, 30), random.Random(7)))
    assert match.legal_codes()
    assert all(match.step_codes(step) == () for step in range(-1, 200))


def test_the_shared_texts_are_said_in_english_with_the_numbers() -> None:
    texts = _shared_texts(Translators().get("en"))
    assert texts == [
        "Rounds won: 3",
        "Points: 42",
        "⏰ Time ran out: the computer moved for you.",
        "That cannot be played now.",
        "👀 My hand",
        "You joined. Your hand will come in our private chat.",
        "You joined the table in <b>Kopi</b>. Your hand will come here.",
        "👋 Your hand for the game in <b>Kopi</b> will come here.",
        "🙋 Your seat is yours again. Your hand comes on your turn.",
        "Tap Join to play. Your hand comes in a private chat with me. "
        "Empty seats get computer players at the start.",
        "Tap Join to play. Your hand comes in a private chat with me. "
        "The game starts with whoever joined: computers do not fill seats in this chat.",
    ]


@pytest.mark.parametrize("language", sorted(set(SUPPORTED_LANGUAGES) - {"en"}))
def test_the_shared_texts_are_translated(language: str) -> None:
    english = _shared_texts(Translators().get("en"))
    translated = _shared_texts(Translators().get(language))
    assert all(text and text != same for text, same in zip(translated, english, strict=True))
    assert "3" in translated[0] and "42" in translated[1]
    # The notes that name the group keep its title: joined by the link, and the probe.
    assert [i for i, text in enumerate(translated) if "<b>Kopi</b>" in text] == [6, 7]


def test_a_presentation_draws_nothing_unless_it_says_so() -> None:
    t = Translators().get("en")
    bare = BarePresentation()
    with pytest.raises(PictureError):
        bare.draw(Picture("bare.round", {}))
    assert bare.option_label(t, "target", "100") == "100"


def test_a_move_as_played_is_named_from_its_code_unless_the_kind_says_more() -> None:
    t = Translators().get("en")
    assert BarePresentation().played_label(t, 3, ("an event",)) == "move"


def test_a_page_script_is_the_page_js_beside_the_presentation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "bare_kind_present"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "page.js").write_text("export function drawBoard() {}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("bare_kind_present")
    try:
        drawn = type("Drawn", (BarePresentation,), {"__module__": "bare_kind_present"})
        assert drawn().page_script() == "export function drawBoard() {}\n"
    finally:
        del sys.modules["bare_kind_present"]


def test_a_presentation_without_a_page_js_has_no_page_script() -> None:
    # This test's package, tests.games, has no page.js.
    with pytest.raises(FileNotFoundError):
        BarePresentation().page_script()


@pytest.mark.parametrize("kind", tuple(default_registry()), ids=lambda kind: kind.name)
def test_each_game_s_page_script_is_its_present_page_js(kind: AnyGameKind) -> None:
    script = (GAMES / kind.name / "present" / "page.js").read_text(encoding="utf-8")
    assert kind.presentation.page_script() == script


def test_with_seats_replaces_the_seats_within_the_limits() -> None:
    kind = BareKind()
    config = kind.make_config({}, 4)
    assert kind.with_seats(config, 2) == {"seats": 2, "target": 30}
    assert kind.with_seats(config, 6) == {"seats": 6, "target": 30}
    assert kind.config_seats(kind.with_seats(config, 5)) == 5
    assert config == {"seats": 4, "target": 30}


@pytest.mark.parametrize(
    ("kind", "config", "seats"),
    [
        (BareKind(), {"seats": 4, "target": 30}, 1),
        (BareKind(), {"seats": 4, "target": 30}, 7),
        (BareKind(), {"target": 30}, 4),
        (BareKind(), {"seats": "4", "target": 30}, 4),
        (ThreeOnlyKind(), {"seats": 3, "target": 30}, 4),
    ],
    ids=["too few", "too many", "no seats", "seats not a number", "outside config_limits"],
)
def test_with_seats_refuses_seats_outside_the_limits(
    kind: BareKind, config: JSON, seats: int
) -> None:
    with pytest.raises(GameDataError):
        kind.with_seats(config, seats)


def _kinds_and_configs() -> Iterator[tuple[AnyGameKind, JSON]]:
    """Each registered kind with a four-seat config of each of its own options' choices."""
    for kind in default_registry():
        for spec in (spec for spec in kind.options if spec not in COMMON_OPTIONS):
            for choice in spec.choices:
                yield kind, kind.make_config({spec.name: choice}, 4)


@pytest.mark.parametrize(("kind", "config"), list(_kinds_and_configs()))
def test_each_game_s_with_seats_does_what_the_default_does(kind: AnyGameKind, config: JSON) -> None:
    # Gaple and Gap write their own (their rules' configs check the seats), to the same effect.
    for seats in range(9):
        try:
            expected: JSON | None = GameKind.with_seats(kind, config, seats)
        except GameDataError:
            expected = None
        if expected is None:
            with pytest.raises(GameDataError):
                kind.with_seats(config, seats)
        else:
            assert kind.with_seats(config, seats) == expected
