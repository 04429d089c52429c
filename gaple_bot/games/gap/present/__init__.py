"""Gap's messages and buttons as plain data: the table, hands, results and moves in words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ....i18n import Translator
from ...pictures import Picture
from ...seam import Presentation
from ...texts import standings
from ...views import GameMessage, HandView, PrivateNote, RoundReveal, TableView
from ..board import GapBoard, GapHand
from ..rules import GapConfig, Move
from . import page
from . import picture as drawing
from .cards import card_text
from .hand import (
    hand_alert,
    move_label,
    played_label,
    played_line,
    render_hand,
    render_played,
    timed_out_line,
)
from .info import lobby_title, option_line, render_rules
from .results import render_round_end
from .table import render_table

DOMAIN = "gap"
"""Gap's own message domain (gap.pot); the common words come from the common one."""


class GapPresentation(Presentation[GapBoard, GapHand]):
    """Gap on the seam's Presentation."""

    def table(self, t: Translator, table: TableView[GapBoard], now: datetime) -> GameMessage:
        """The middle, the pile, every collection and the last moves."""
        return render_table(t.domain(DOMAIN), table, now)

    def hand(
        self, t: Translator, view: HandView[GapBoard, GapHand], now: datetime, step: int | None
    ) -> GameMessage:
        """The hand; on the seat's turn its cards as buttons (`step`: a card whose take is
        being chosen)."""
        return render_hand(t.domain(DOMAIN), view, now, step)

    def played(self, t: Translator, view: HandView[GapBoard, GapHand], code: int) -> GameMessage:
        """The hand after the person's move, with no buttons."""
        return render_played(t.domain(DOMAIN), view, Move.from_code(code))

    def you_moved(self, t: Translator, code: int) -> str:
        """'You played 🟥7.'"""
        return played_line(t.domain(DOMAIN), Move.from_code(code))

    def move_label(self, t: Translator, code: int) -> str:
        """'🟥7', or '🟥7 taking 🟩6 🟦8' when it names the neighbours it takes."""
        return move_label(t.domain(DOMAIN), Move.from_code(code))

    def played_label(self, t: Translator, code: int, events: Sequence[object]) -> str:
        """'🟥8 taking 🟦8': the card and every card the play took (same-value captures
        included, which the code alone does not name)."""
        return played_label(t.domain(DOMAIN), Move.from_code(code), events)

    def computer_moved_for_you(self, t: Translator, code: int) -> str:
        """'Time ran out: the computer played 🟥7 for you.'"""
        return timed_out_line(t.domain(DOMAIN), Move.from_code(code))

    def hand_alert(self, t: Translator, private: GapHand) -> str:
        """'Your cards: …' in a few characters."""
        return hand_alert(t.domain(DOMAIN), private)

    def round_end(self, t: Translator, reveal: RoundReveal[GapBoard, GapHand]) -> GameMessage:
        """Every collection with its score, and the totals."""
        return render_round_end(t.domain(DOMAIN), reveal)

    def round_end_picture(self, t: Translator, reveal: RoundReveal[GapBoard, GapHand]) -> Picture:
        """Every collection as coloured columns, the scoring spread marked."""
        return drawing.round_end_picture(t.domain(DOMAIN), reveal)

    def draw(self, picture: Picture) -> bytes:
        """The round-end picture ("gap.round")."""
        return drawing.draw(picture)

    def game_end(self, t: Translator, table: TableView[GapBoard]) -> GameMessage:
        """The winner and the final standings."""
        return standings(t.domain(DOMAIN), table)

    def hidden_items(self, private: GapHand) -> tuple[frozenset[str], ...]:
        """The seat's cards in hand as the bot writes them (🟥7)."""
        return tuple(frozenset((card_text(card),)) for card in private.cards)

    def private_note(self, t: Translator, note: PrivateNote, chat: str) -> str:
        """Where and when the cards come."""
        t = t.domain(DOMAIN)
        if note is PrivateNote.JOINED:
            return t.gettext("You joined. Your cards will come in our private chat.")
        if note is PrivateNote.JOINED_BY_LINK:
            text = t.gettext("You joined the table in {chat}. Your cards will come here.")
            return text.format(chat=chat)
        if note is PrivateNote.PROBE:
            return t.gettext("👋 Your cards for the game in {chat} will come here.").format(
                chat=chat
            )
        return t.gettext("🙋 Your seat is yours again. Your cards come on your turn.")

    def lobby_invite(self, t: Translator, computers_fill: bool) -> str:
        """Join, and the cards come in private; computers fill the seats or not."""
        t = t.domain(DOMAIN)
        if computers_fill:
            return t.gettext(
                "Tap Join to play. Your cards come in a private chat with me. "
                "Empty seats get computer players at the start."
            )
        return t.gettext(
            "Tap Join to play. Your cards come in a private chat with me. "
            "The game starts with whoever joined: computers do not fill seats in this chat."
        )

    def no_move_for_pick(self, t: Translator) -> str:
        """A card that cannot be played now (only a forged button offers one)."""
        return t.domain(DOMAIN).gettext("That card cannot be played now.")

    def my_hand_label(self, t: Translator) -> str:
        """'My cards', with a card."""
        return t.domain(DOMAIN).gettext("🃏 My cards")

    def command_help(self, t: Translator) -> str:
        """Opening a Gap table, for the command menu."""
        return t.domain(DOMAIN).gettext("Open a Gap table in this group")

    def help_line(self, t: Translator) -> str:
        """/gap in /help."""
        return t.domain(DOMAIN).gettext("/gap: a colour-card game; open a table here")

    def rules(self, t: Translator, config: dict[str, Any]) -> list[str]:
        """G1-G6, short."""
        return render_rules(t.domain(DOMAIN), GapConfig.from_dict(config))

    def lobby_title(self, t: Translator, config: dict[str, Any]) -> str:
        """ "Gap · first to 30"."""
        return lobby_title(t.domain(DOMAIN), GapConfig.from_dict(config))

    def option_line(self, t: Translator, option: str, config: dict[str, Any]) -> str:
        """ "Target: 30 points"."""
        return option_line(t.domain(DOMAIN), GapConfig.from_dict(config))

    def record_lines(
        self, t: Translator, rounds_won: int, points: int, extras: Mapping[str, int]
    ) -> list[str]:
        """Rounds won, points and the best round, for /stats."""
        t = t.domain(DOMAIN)
        return [
            t.gettext("Rounds won: {rounds}").format(rounds=rounds_won),
            t.gettext("Points: {points} · best round: {best}").format(
                points=points, best=extras.get("best_round", 0)
            ),
        ]

    def page_board(self, t: Translator, table: TableView[GapBoard]) -> dict[str, Any]:
        """The board for the page's drawing."""
        return page.page_board(t.domain(DOMAIN), table)

    def page_hand(self, t: Translator, view: HandView[GapBoard, GapHand]) -> dict[str, Any]:
        """The seat's own items and their moves, for the page."""
        return page.page_hand(t.domain(DOMAIN), view)

    def page_reveal(self, t: Translator, reveal: RoundReveal[GapBoard, GapHand]) -> dict[str, Any]:
        """Every hand at the round's end, for the page."""
        return page.page_reveal(t.domain(DOMAIN), reveal)
