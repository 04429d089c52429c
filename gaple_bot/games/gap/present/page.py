"""Gap for the page: the middle, the pile, every collection by colour with its score, the hand
with what each card would take (a second choice when it may take one of several), and every
collection at a round's end, as JSON for the page's drawing."""

from __future__ import annotations

import html
import re
from typing import Any

from ....i18n import Translator
from ...views import HandView, RoundReveal, TableView
from ..board import GapBoard, GapHand
from ..rules import COLOUR, VALUE, Move, colour_counts, score_collection
from ..rules.cards import COLOURS
from .cards import cards_text, taken_now
from .events import recent_lines
from .hand import take_label
from .results import render_round_end

JSON = dict[str, Any]
RECENT_MOVES = 4
TAG = re.compile(r"<[^>]+>")


def _card(card: int) -> JSON:
    return {"colour": COLOURS[COLOUR[card]], "value": VALUE[card]}


def _sorted(cards: tuple[int, ...] | list[int]) -> list[int]:
    return sorted(cards, key=lambda card: (COLOUR[card], VALUE[card]))


def card_label(t: Translator, card: int) -> str:
    """A card as a screen reader says it."""
    colour = (
        t.gettext("red"),
        t.gettext("green"),
        t.gettext("blue"),
        t.gettext("yellow"),
        t.gettext("purple"),
        t.gettext("orange"),
    )[COLOUR[card]]
    return t.gettext("{colour} {value}").format(colour=colour, value=VALUE[card])


def _collection(cards: tuple[int, ...]) -> JSON:
    """A collection by colour, each colour marked by what it does to the score (G5: plus for
    the largest counts, minus for the smallest when they are not also the largest), and the
    score."""
    counts = colour_counts(cards)
    present = [n for n in counts if n]
    largest, smallest = (max(present), min(present)) if present else (0, 0)
    columns = []
    for colour, count in enumerate(counts):
        if not count:
            continue
        mark = "plus" if count == largest else "minus" if count == smallest else None
        columns.append({"colour": COLOURS[colour], "count": count, "mark": mark})
    return {
        "colours": {COLOURS[c]: n for c, n in enumerate(counts) if n},
        "columns": columns,
        "score": score_collection(cards),
    }


def page_board(t: Translator, table: TableView[GapBoard]) -> JSON:
    """The public round: the middle, the pile's count, each seat's cards in hand and its
    collection by colour with what it scores now."""
    board = table.board
    return {
        "title": t.gettext("<b>Gap</b> · round {round} · first to {target}")
        .format(round=table.round_number, target=board.config.target)
        .replace("<b>", "")
        .replace("</b>", ""),
        "middle": [{**_card(card), "label": card_label(t, card)} for card in _sorted(board.middle)],
        "pile": board.pile_count,
        "counts": list(board.hand_counts),
        "collections": [_collection(cards) for cards in board.collections],
        "recent": recent_lines(t, table.seats, board.events, RECENT_MOVES),
    }


def page_hand(t: Translator, view: HandView[GapBoard, GapHand]) -> JSON:
    """The seat's cards, each with the moves it makes now: what it takes, in words and as
    cards (G4: several takes are a second choice)."""
    middle = view.table.board.middle
    moves: dict[int, list[JSON]] = {}
    for code in view.legal:
        move = Move.from_code(code)
        taken = taken_now(move.card, move.neighbours, middle)
        moves.setdefault(move.card, []).append(
            {
                "code": code,
                "choice": take_label(t, move, middle),
                "takes": [_card(card) for card in _sorted(list(taken))],
                "label": t.gettext("takes {cards}").format(cards=cards_text(taken))
                if taken
                else t.gettext("{card} → middle").format(card=card_label(t, move.card)),
            }
        )
    items = []
    for card in _sorted(view.private.cards):
        made = moves.get(card, [])
        if len(made) == 1:
            made[0]["choice"] = None  # one take only: a tap plays it
        items.append({"id": card, **_card(card), "label": card_label(t, card), "moves": made})
    return {"items": items}


def page_reveal(t: Translator, reveal: RoundReveal[GapBoard, GapHand]) -> JSON:
    """Every collection at the round's end, and the round's result in words."""
    result = reveal.table.board.result
    assert result is not None
    text = render_round_end(t, reveal).text
    return {
        "collections": [_collection(cards) for cards in result.collections],
        "points": list(result.points),
        "totals": list(reveal.table.scores),
        "summary": [html.unescape(TAG.sub("", line)) for line in text.split("\n") if line],
    }
