"""Real rounds for the picture tests: played out by a fixed policy, shown as the service shows
them at a round's end."""

from __future__ import annotations

import functools
from typing import Any

from gaple_bot.games.seam import Match
from gaple_bot.games.views import RoundReveal, SeatInfo, TableView
from gaple_bot.i18n import Translator, Translators


@functools.cache
def _translators() -> Translators:
    return Translators()


def common_translator(language: str) -> Translator:
    """The bot's translator in `language`, as the presentation receives it."""
    return _translators().get(language)


def game_translator(language: str, kind: str) -> Translator:
    """A game's translator in `language`, as the presentation hands it to its pictures."""
    return common_translator(language).domain(kind)


def finish_round(match: Match) -> None:
    """Play the current round to its end, every seat making its first legal move."""
    while not match.round_over:
        seat = match.to_move
        assert seat is not None
        match.apply(seat, match.legal_codes()[0])


def round_end_reveal(
    match: Match, kind: str, seats: tuple[SeatInfo, ...], language: str, chat_title: str
) -> RoundReveal[Any, Any]:
    """The finished round's reveal, its table built as service/play.py `table()` builds it."""
    table: TableView[Any] = TableView(
        game_id=7,
        version=match.round_number * 10_000 + match.ply,
        chat_id=-100_123,
        thread_id=None,
        kind=kind,
        config=match.config,
        round_number=match.round_number,
        seats=seats,
        scores=match.scores,
        to_move=match.to_move,
        deadline=None,
        winner=match.winner,
        board=match.board(),
        language=language,
        chat_title=chat_title,
        round_over=match.round_over,
    )
    return RoundReveal(table, match.revealed())
