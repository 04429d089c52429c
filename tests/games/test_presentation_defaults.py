"""What a new game's presentation gets without writing it: the texts every game may share,
said in every language (a game says them in its own words by overriding them)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import pytest

from gaple_bot.games.pictures import Picture, PictureError
from gaple_bot.games.seam import JSON, Presentation
from gaple_bot.games.views import GameMessage, HandView, PrivateNote, RoundReveal, TableView
from gaple_bot.i18n import SUPPORTED_LANGUAGES, Translator, Translators


class BarePresentation(Presentation[Any, Any]):
    """Only the members a new game must write (each a stand-in here)."""

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

    def hand_alert(self, t: Translator, private: Any) -> str:
        return "hand"

    def round_end(self, t: Translator, reveal: RoundReveal[Any, Any]) -> GameMessage:
        return GameMessage("round")

    def hidden_items(self, private: Any) -> tuple[frozenset[str], ...]:
        return ()

    def private_note(self, t: Translator, note: PrivateNote, chat: str) -> str:
        return "note"

    def lobby_invite(self, t: Translator, computers_fill: bool) -> str:
        return "invite"

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

    def page_script(self) -> str:
        return "export function drawBoard() {}"


def _shared_texts(t: Translator) -> list[str]:
    bare = BarePresentation()
    extras: Mapping[str, int] = {}
    return [
        bare.computer_moved_for_you(t, 0),
        bare.no_move_for_pick(t),
        bare.my_hand_label(t),
        *bare.record_lines(t, 3, 42, extras),
    ]


def test_a_presentation_needs_eighteen_members_of_its_own() -> None:
    # Fourteen for the chat, four for the page (its board, hand, reveal and drawing script).
    assert len(Presentation.__abstractmethods__) == 18
    assert BarePresentation.__abstractmethods__ == frozenset()


def test_the_shared_texts_are_said_in_english_with_the_numbers() -> None:
    texts = _shared_texts(Translators().get("en"))
    assert texts == [
        "⏰ Time ran out: the computer moved for you.",
        "That cannot be played now.",
        "👀 My hand",
        "Rounds won: 3",
        "Points: 42",
    ]


@pytest.mark.parametrize("language", sorted(set(SUPPORTED_LANGUAGES) - {"en"}))
def test_the_shared_texts_are_translated(language: str) -> None:
    english = _shared_texts(Translators().get("en"))
    translated = _shared_texts(Translators().get(language))
    assert all(text and text != same for text, same in zip(translated, english, strict=True))
    assert "3" in translated[3] and "42" in translated[4]


def test_a_presentation_draws_nothing_unless_it_says_so() -> None:
    t = Translators().get("en")
    bare = BarePresentation()
    with pytest.raises(PictureError):
        bare.draw(Picture("bare.round", {}))
    assert bare.option_label(t, "target", "100") == "100"
