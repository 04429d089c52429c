"""A player's private hand: each card a button showing what it takes now, on their turn."""

from __future__ import annotations

import html
from collections.abc import Sequence
from datetime import datetime

from ....i18n import Translator
from ...texts import time_left, waiting_line
from ...views import Button, GameMessage, HandView
from ..board import GapBoard, GapHand
from ..rules import COLOUR, VALUE, Move, Played
from .cards import card_text, cards_text, collection_text, taken_now

CARDS_PER_ROW = 2
"""Two to a row: a card's button also names what it takes."""

GapHandView = HandView[GapBoard, GapHand]


def _header(t: Translator, view: GapHandView) -> list[str]:
    table, board = view.table, view.table.board
    return [
        t.gettext("<b>Gap</b> in {chat} · round {round}").format(
            chat=html.escape(table.chat_title), round=table.round_number
        ),
        t.gettext("Middle: {cards}").format(cards=cards_text(board.middle)),
        t.gettext("Your cards: {cards}").format(cards=cards_text(view.private.cards)),
        t.gettext("Your collection: {cards}").format(
            cards=collection_text(board.collections[view.seat])
        ),
    ]


def take_label(t: Translator, move: Move, middle: tuple[int, ...]) -> str:
    """What a move does, in a button: '🟥7 → 🟩6 🟦8', or '🟥7 → middle'."""
    taken = taken_now(move.card, move.neighbours, middle)
    if taken:
        return f"{card_text(move.card)} → {cards_text(taken)}"
    return t.gettext("{card} → middle").format(card=card_text(move.card))


def render_hand(
    t: Translator, view: GapHandView, now: datetime, picked: int | None = None
) -> GameMessage:
    """The hand with live buttons when the seat is to move, else as plain text.

    `picked` is a card whose neighbour value offers a choice: the buttons then offer the
    takes it may make (G4), and Back."""
    lines = _header(t, view)
    table = view.table
    legal = [Move.from_code(code) for code in view.legal]
    if not legal:
        waiting = waiting_line(t, table)
        return GameMessage("\n".join([*lines, waiting] if waiting else lines))
    if picked is not None:
        lines.append(t.gettext("Which cards should {card} take?").format(card=card_text(picked)))
    else:
        lines.append(t.gettext("▶️ Your turn: tap a card. Each button shows what it takes."))
    if table.deadline is not None:
        left = time_left(t, (table.deadline - now).total_seconds())
        lines.append(t.gettext("⏳ {time} left").format(time=left))
    middle = table.board.middle
    if picked is not None:
        choices = [m for m in legal if m.card == picked]
        rows = tuple(
            (Button(take_label(t, m, middle), "move", m.code, "success"),) for m in choices
        )
        return GameMessage("\n".join(lines), (*rows, (Button(t.gettext("↩️ Back"), "back"),)))
    return GameMessage("\n".join(lines), _card_rows(t, view, legal, middle))


def _card_rows(
    t: Translator, view: GapHandView, legal: list[Move], middle: tuple[int, ...]
) -> tuple[tuple[Button, ...], ...]:
    by_card: dict[int, list[Move]] = {}
    for move in legal:
        by_card.setdefault(move.card, []).append(move)
    buttons = []
    for card in sorted(view.private.cards, key=lambda c: (COLOUR[c], VALUE[c])):
        moves = by_card.get(card, [])
        if len(moves) == 1:
            buttons.append(Button(take_label(t, moves[0], middle), "move", moves[0].code))
        else:
            # G4: several cards of a neighbour value: a second step asks which.
            label = t.gettext("{card} → choose").format(card=card_text(card))
            buttons.append(Button(label, "pick", card))
    return tuple(
        tuple(buttons[i : i + CARDS_PER_ROW]) for i in range(0, len(buttons), CARDS_PER_ROW)
    )


def played_line(t: Translator, move: Move) -> str:
    """What the player did, in one sentence."""
    return t.gettext("You played {card}.").format(card=card_text(move.card))


def move_label(t: Translator, move: Move) -> str:
    """A move named in a few words, for a review's "the better move was …": its card, and
    the neighbour cards it takes when it names them (G4: a card of a value in the middle
    takes those, which the code alone does not name)."""
    if not move.neighbours:
        return card_text(move.card)
    return t.pgettext("move", "{card} taking {cards}").format(
        card=card_text(move.card), cards=" ".join(card_text(c) for c in move.neighbours)
    )


def played_label(t: Translator, move: Move, events: Sequence[object]) -> str:
    """A move as it was played, in a few words: its card and every card it took (G4: a
    card of a value in the middle takes those too, which its code does not name), from the
    rules' own record of the play."""
    played = next((e for e in events if isinstance(e, Played)), None)
    if played is None:
        return move_label(t, move)
    if not played.taken:
        return card_text(played.card)
    return t.pgettext("move", "{card} taking {cards}").format(
        card=card_text(played.card), cards=" ".join(card_text(c) for c in played.taken)
    )


def timed_out_line(t: Translator, move: Move) -> str:
    """What the computer did when the person's time ran out."""
    return t.gettext("⏰ Time ran out: the computer played {card} for you.").format(
        card=card_text(move.card)
    )


def render_played(t: Translator, view: GapHandView, move: Move) -> GameMessage:
    """The hand message after the player's move: what they did, and no live buttons."""
    return GameMessage("\n".join([*_header(t, view), played_line(t, move)]))


def hand_alert(t: Translator, hand: GapHand) -> str:
    """The short private alert a seated player sees on 'My hand'."""
    return t.gettext("Your cards: {cards}").format(cards=cards_text(hand.cards))
