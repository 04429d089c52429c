"""Gaple's messages and buttons as plain data: the table, hands, results and moves in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ....i18n import Translator
from ...pictures import Picture
from ...seam import Presentation
from ...texts import standings
from ...views import GameMessage, HandView, PrivateNote, RoundReveal, TableView
from ..board import GapleBoard, GapleHand
from ..rules import GameConfig, Move, tile_text, tiles_in
from . import page
from . import picture as drawing
from .hand import (
    hand_alert,
    move_label,
    played_label,
    played_line,
    render_hand,
    render_played,
    timed_out_line,
)
from .info import lobby_title, option_line, record_lines, render_rules, rules_label
from .results import render_round_end
from .table import render_table
from .tiles import flipped

DOMAIN = "gaple"
"""Gaple's own message domain (gaple.pot); the common words come from the common one."""


class GaplePresentation(Presentation[GapleBoard, GapleHand]):
    """Gaple on the seam's Presentation."""

    def table(self, t: Translator, table: TableView[GapleBoard], now: datetime) -> GameMessage:
        """The line, the ends, the seats and the last moves."""
        t = t.domain(DOMAIN)
        return render_table(t, table, now)

    def hand(
        self, t: Translator, view: HandView[GapleBoard, GapleHand], now: datetime, step: int | None
    ) -> GameMessage:
        """The hand; on the seat's turn its tiles as buttons (`step`: a tile whose end is
        being chosen)."""
        t = t.domain(DOMAIN)
        return render_hand(t, view, now, step)

    def played(
        self, t: Translator, view: HandView[GapleBoard, GapleHand], code: int
    ) -> GameMessage:
        """The hand after the person's move, with no buttons."""
        t = t.domain(DOMAIN)
        return render_played(t, view, Move.from_code(code))

    def you_moved(self, t: Translator, code: int) -> str:
        """'You played [6|4].'"""
        t = t.domain(DOMAIN)
        return played_line(t, Move.from_code(code))

    def move_label(self, t: Translator, code: int) -> str:
        """'[6|4] on the left', 'pass', 'discard [6|4]'."""
        return move_label(t.domain(DOMAIN), Move.from_code(code))

    def played_label(self, t: Translator, code: int, events: Sequence[object]) -> str:
        """'open with [6|6]' for the first tile of a line (it has no side), else as
        move_label."""
        return played_label(t.domain(DOMAIN), Move.from_code(code), events)

    def better_label(self, t: Translator, code: int, played: Sequence[object]) -> str:
        """'open with [5|5]' where the move played opened the line, else as move_label:
        what the move played there says of the line holds for it too."""
        return played_label(t.domain(DOMAIN), Move.from_code(code), played)

    def computer_moved_for_you(self, t: Translator, code: int) -> str:
        """'Time ran out: the computer played [6|4] for you.'"""
        t = t.domain(DOMAIN)
        return timed_out_line(t, Move.from_code(code))

    def hand_alert(self, t: Translator, private: GapleHand) -> str:
        """'Your hand: …' in a few characters."""
        t = t.domain(DOMAIN)
        return hand_alert(t, private)

    def round_end(self, t: Translator, reveal: RoundReveal[GapleBoard, GapleHand]) -> GameMessage:
        """Every hand revealed, the points and the totals."""
        t = t.domain(DOMAIN)
        return render_round_end(t, reveal)

    def round_end_picture(
        self, t: Translator, reveal: RoundReveal[GapleBoard, GapleHand]
    ) -> Picture:
        """The line of play as dominoes, every hand revealed, the points and the totals."""
        return drawing.round_end_picture(t.domain(DOMAIN), reveal)

    def draw(self, picture: Picture) -> bytes:
        """The round-end picture ("gaple.round")."""
        return drawing.draw(picture)

    def game_end(self, t: Translator, table: TableView[GapleBoard]) -> GameMessage:
        """The winner and the final standings."""
        t = t.domain(DOMAIN)
        return standings(t, table)

    def hidden_items(self, private: GapleHand) -> tuple[frozenset[str], ...]:
        """The seat's own tiles and discards as the bot writes them: [6|4] in a hand, and
        [4|6] too, as a tile may stand on the line."""
        tiles = tiles_in(private.hand | private.discards)
        return tuple(frozenset((tile_text(tile), flipped(tile))) for tile in tiles)

    def private_note(self, t: Translator, note: PrivateNote, chat: str) -> str:
        """Where and when the tiles come."""
        t = t.domain(DOMAIN)
        if note is PrivateNote.JOINED:
            return t.gettext("You joined. Your tiles will come in our private chat.")
        if note is PrivateNote.JOINED_BY_LINK:
            text = t.gettext("You joined the table in {chat}. Your tiles will come here.")
            return text.format(chat=chat)
        if note is PrivateNote.PROBE:
            return t.gettext("👋 Your tiles for the game in {chat} will come here.").format(
                chat=chat
            )
        return t.gettext("🙋 Your seat is yours again. Your tiles come on your turn.")

    def lobby_invite(self, t: Translator, computers_fill: bool) -> str:
        """Join, and the tiles come in private; computers fill the seats or not."""
        t = t.domain(DOMAIN)
        if computers_fill:
            return t.gettext(
                "Tap Join to play. Your tiles come in a private chat with me. "
                "Empty seats get computer players at the start."
            )
        return t.gettext(
            "Tap Join to play. Your tiles come in a private chat with me. "
            "The game starts with whoever joined: computers do not fill seats in this chat."
        )

    def no_move_for_pick(self, t: Translator) -> str:
        """A tile that fits no open end."""
        return t.domain(DOMAIN).gettext("That tile fits neither open end.")

    def my_hand_label(self, t: Translator) -> str:
        """'My hand', with a domino."""
        return t.domain(DOMAIN).gettext("🁢 My hand")

    def command_help(self, t: Translator) -> str:
        """Opening a Gaple table, for the command menu."""
        return t.domain(DOMAIN).gettext("Open a Gaple table in this group")

    def help_line(self, t: Translator) -> str:
        """/gaple in /help."""
        return t.domain(DOMAIN).gettext("/gaple: open a table in this group (or this topic)")

    def rules(self, t: Translator, config: dict[str, Any]) -> list[str]:
        """The rule set, target and what happens when stuck."""
        t = t.domain(DOMAIN)
        return render_rules(t, GameConfig.from_dict(config))

    def lobby_title(self, t: Translator, config: dict[str, Any]) -> str:
        """ "Gaple · classic · first to 100"."""
        t = t.domain(DOMAIN)
        return lobby_title(t, GameConfig.from_dict(config))

    def option_line(self, t: Translator, option: str, config: dict[str, Any]) -> str:
        """ "Rules: classic", "Target: 100 points"."""
        t = t.domain(DOMAIN)
        return option_line(t, option, GameConfig.from_dict(config))

    def option_label(self, t: Translator, option: str, value: str) -> str:
        """The rules' names; a target is its number."""
        t = t.domain(DOMAIN)
        return rules_label(t, value) if option == "rules" else value

    def record_lines(
        self, t: Translator, rounds_won: int, points: int, extras: Mapping[str, int]
    ) -> list[str]:
        """Rounds won with Gaple finishes, points with the best round."""
        t = t.domain(DOMAIN)
        return record_lines(t, rounds_won, points, extras)

    def page_board(self, t: Translator, table: TableView[GapleBoard]) -> dict[str, Any]:
        """The board for the page's drawing."""
        return page.page_board(t.domain(DOMAIN), table)

    def page_hand(self, t: Translator, view: HandView[GapleBoard, GapleHand]) -> dict[str, Any]:
        """The seat's own items and their moves, for the page."""
        return page.page_hand(t.domain(DOMAIN), view)

    def page_reveal(
        self, t: Translator, reveal: RoundReveal[GapleBoard, GapleHand]
    ) -> dict[str, Any]:
        """Every hand at the round's end, for the page."""
        return page.page_reveal(t.domain(DOMAIN), reveal)
