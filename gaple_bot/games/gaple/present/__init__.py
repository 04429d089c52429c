"""Gaple's messages and buttons as plain data: the table, hands, results and moves in words."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ....i18n import Translator
from ...views import GameMessage, HandView, RoundReveal, TableView
from ..board import GapleHand
from ..rules import Move, tile_text
from .hand import hand_alert, played_line, render_hand, render_played, timed_out_line
from .results import render_game_end, render_round_end
from .table import render_table
from .tiles import by_weight


class GaplePresentation:
    """Gaple behind the seam's Presentation protocol."""

    def table(self, t: Translator, table: TableView[Any], now: datetime) -> GameMessage:
        """The line, the ends, the seats and the last moves."""
        return render_table(t, table, now)

    def hand(
        self, t: Translator, view: HandView[Any, Any], now: datetime, step: int | None
    ) -> GameMessage:
        """The hand; on the seat's turn its tiles as buttons (`step`: a tile whose end is
        being chosen)."""
        return render_hand(t, view, now, step)

    def played(self, t: Translator, view: HandView[Any, Any], code: int) -> GameMessage:
        """The hand after the person's move, with no buttons."""
        return render_played(t, view, Move.from_code(code))

    def you_moved(self, t: Translator, code: int) -> str:
        """'You played [6|4].'"""
        return played_line(t, Move.from_code(code))

    def computer_moved_for_you(self, t: Translator, code: int) -> str:
        """'Time ran out: the computer played [6|4] for you.'"""
        return timed_out_line(t, Move.from_code(code))

    def hand_alert(self, t: Translator, private: object) -> str:
        """'Your hand: …' in a few characters."""
        assert isinstance(private, GapleHand)
        return hand_alert(t, private)

    def round_end(self, t: Translator, reveal: RoundReveal[Any, Any]) -> GameMessage:
        """Every hand revealed, the points and the totals."""
        return render_round_end(t, reveal)

    def game_end(self, t: Translator, table: TableView[Any]) -> GameMessage:
        """The winner and the final standings."""
        return render_game_end(t, table)

    def hidden_texts(self, private: object) -> frozenset[str]:
        """The seat's own tiles and discards as the bot writes them ([6|4])."""
        assert isinstance(private, GapleHand)
        return frozenset(tile_text(tile) for tile in by_weight(private.hand | private.discards))
